// Package domain holds the transport-neutral domain types of jobsd: jobs,
// job cards, companies, the normalized query, pages and errors. gqlgen
// autobinds the GraphQL schema to these types, and the REST layer serializes
// them with their snake_case JSON tags. It imports the standard library and
// package currency (the rates a query converts salaries with) only.
package domain
