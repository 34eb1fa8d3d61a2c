// Subscribes to a running jobsd the way a frontend does, with the
// graphql-ws client (protocol graphql-transport-ws) alone or as Apollo
// Client's GraphQLWsLink, and prints each event of Subscription.jobChanges
// as a JSON line for the Go test (cmd/jobsd/subscribe_test.go) to compare
// with what it imported. A line {"ready": true} says the socket is
// acknowledged; the last line is {"error": …} when the subscription ended
// with one, {"closed": {code, reason}} when the socket was closed.
//
// Environment: JOBSD_WS_URL (ws://host:port/graphql), JOBSD_KEY (an API
// key, sent in connection_init), JOBSD_FILTER (a JobFilter as JSON),
// JOBSD_AFTER (a cursor, optional), JOBSD_EVENTS (how many events to wait
// for before leaving), JOBSD_CLIENT ("graphql-ws" or "apollo").
import WebSocket from "ws";
import { createClient } from "graphql-ws";
import { ApolloClient, InMemoryCache, gql } from "@apollo/client/core/index.js";
import { GraphQLWsLink } from "@apollo/client/link/subscriptions/index.js";

const { JOBSD_WS_URL, JOBSD_KEY, JOBSD_FILTER, JOBSD_AFTER, JOBSD_EVENTS, JOBSD_CLIENT } = process.env;
if (!JOBSD_WS_URL || JOBSD_KEY === undefined || !JOBSD_FILTER || !JOBSD_EVENTS) {
  console.error("subscribe.mjs: set JOBSD_WS_URL, JOBSD_KEY, JOBSD_FILTER and JOBSD_EVENTS");
  process.exit(2);
}

const JOB_CHANGES = `
  subscription Watch($filter: JobFilter, $after: String) {
    jobChanges(filter: $filter, after: $after) {
      kind
      id
      at
      cursor
      card { id title company location { city } workArrangement salary { min max currency } category { role } }
    }
  }
`;

const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const want = Number(JOBSD_EVENTS);
const variables = { filter: JSON.parse(JOBSD_FILTER), after: JOBSD_AFTER || null };

const client = createClient({
  url: JOBSD_WS_URL,
  webSocketImpl: WebSocket,
  connectionParams: { "x-api-key": JOBSD_KEY },
  retryAttempts: 0,
  on: {
    connected: () => print({ ready: true }),
    closed: (e) => {
      print({ closed: { code: e.code, reason: e.reason } });
      process.exit(0);
    },
  },
});

let seen = 0;
const done = async () => {
  await client.dispose();
  process.exit(0);
};
const onEvent = (result) => {
  if (result.errors) {
    print({ error: result.errors });
    return done();
  }
  print(result.data.jobChanges);
  if (++seen >= want) done();
};
const onError = (err) => {
  print({ error: Array.isArray(err) ? err : [{ message: String(err && err.message ? err.message : err), code: err && err.code }] });
  done();
};

if (JOBSD_CLIENT === "apollo") {
  const apollo = new ApolloClient({ link: new GraphQLWsLink(client), cache: new InMemoryCache() });
  apollo.subscribe({ query: gql(JOB_CHANGES), variables }).subscribe({ next: onEvent, error: (e) => onError(e.graphQLErrors && e.graphQLErrors.length ? e.graphQLErrors : e) });
} else {
  client.subscribe({ query: JOB_CHANGES, variables }, { next: onEvent, error: onError, complete: () => done() });
}
