// Drives a running jobsd with Apollo Client the way a frontend does:
// InMemoryCache with relayStylePagination() (unmodified) for Query.jobs,
// three pages of one filtered search merged by fetchMore({variables:
// {after}}), the merged edges and the facets read back from the cache, and
// a job refetched through node(id:). Prints what it read as JSON for the Go
// test (cmd/jobsd/apollo_test.go) to compare with REST.
//
// Environment: JOBSD_URL (the service's base URL), JOBSD_KEY (an API key),
// JOBSD_FILTER (a JobFilter as JSON), JOBSD_FIRST (page size).
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client/core/index.js";
import { relayStylePagination } from "@apollo/client/utilities/index.js";

const { JOBSD_URL, JOBSD_KEY, JOBSD_FILTER, JOBSD_FIRST } = process.env;
if (!JOBSD_URL || !JOBSD_KEY || !JOBSD_FILTER || !JOBSD_FIRST) {
  console.error("apollo.mjs: set JOBSD_URL, JOBSD_KEY, JOBSD_FILTER and JOBSD_FIRST");
  process.exit(2);
}

const JOBS = gql`
  query Jobs($filter: JobFilter, $first: Int, $after: String) {
    jobs(filter: $filter, first: $first, after: $after) {
      totalCount
      edges {
        cursor
        node {
          id
          title
          company
          location { city state country full }
          workArrangement
          employmentType
          salary { min max currency period }
          category { field role specialization }
        }
      }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      facets(fields: [WORK_ARRANGEMENT, SKILLS], limit: 5) { field values { value count } }
    }
  }
`;

const NODE = gql`
  query Refetch($id: ID!) {
    node(id: $id) {
      id
      ... on Job { title company location { full } }
    }
  }
`;

const client = new ApolloClient({
  link: new HttpLink({ uri: new URL("/graphql", JOBSD_URL).href, headers: { "x-api-key": JOBSD_KEY } }),
  cache: new InMemoryCache({
    // Node is an interface: the cache needs its implementations to match
    // the fragment on Job.
    possibleTypes: { Node: ["Job", "Company"] },
    typePolicies: { Query: { fields: { jobs: relayStylePagination(["filter", "sort"]) } } },
  }),
});

const variables = { filter: JSON.parse(JOBSD_FILTER), first: Number(JOBSD_FIRST) };
const watch = client.watchQuery({ query: JOBS, variables });
// A component's subscription, kept while the pages load.
let subscription;
const first = await new Promise((resolve, reject) => {
  subscription = watch.subscribe({
    next: (r) => {
      if (!r.loading) resolve(r);
    },
    error: reject,
  });
});
const pages = [first.data.jobs.edges.length];
for (let i = 0; i < 2; i++) {
  const after = client.readQuery({ query: JOBS, variables }).jobs.pageInfo.endCursor;
  const more = await watch.fetchMore({ variables: { after } });
  pages.push(more.data.jobs.edges.length);
}
// What the cache holds for the search, the three pages merged.
const merged = client.readQuery({ query: JOBS, variables }).jobs;
const id = merged.edges[merged.edges.length - 1].node.id;
subscription.unsubscribe();
const refetched = await client.query({ query: NODE, variables: { id }, fetchPolicy: "network-only" });

console.log(JSON.stringify({
  pages,
  totalCount: merged.totalCount,
  pageInfo: merged.pageInfo,
  cursors: merged.edges.map((e) => e.cursor),
  cards: merged.edges.map((e) => e.node),
  facets: merged.facets,
  node: refetched.data.node,
}));
