// Package domain holds the transport-neutral domain types of jobsd: jobs,
// job cards, companies, the normalized query, pages and errors. gqlgen
// autobinds the GraphQL schema to these types, and the REST layer serializes
// them with their snake_case JSON tags. It imports only the standard library.
package domain
