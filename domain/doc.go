// Package domain holds the transport-neutral domain types of jobsd: jobs,
// job cards, companies, the filter both transports give, the normalized
// query, pages and errors. gqlgen binds the GraphQL schema to these types
// by name (their enums are marshaled by package graph/scalar), and the
// REST layer serializes them with their snake_case JSON tags. It imports
// the standard library and package currency (the rates a query converts
// salaries with) only; internal/archtest checks it.
package domain
