//go:generate go run ./fastgen -roots jobs,job,companies,suggest -resolved JobCardConnection.facets

// Package graph serves jobsd's GraphQL API with gqlgen: the schema's
// resolvers, adapters of a few lines over the query service (package
// search), the handler with its limits, transports and error presenter,
// and the fast path of the common reads.
package graph

import (
	"context"
	"log/slog"

	"github.com/99designs/gqlgen/graphql"

	"github.com/jobsd-dev/jobsd/search"
)

// Resolver is the root of the GraphQL resolvers.
type Resolver struct {
	svc *search.Service
	log *slog.Logger
	// present is the handler's error presenter, for the errors that end
	// a subscription after it started (NewHandler sets it).
	present graphql.ErrorPresenterFunc
}

// NewResolver returns the resolvers over the query service.
func NewResolver(svc *search.Service, log *slog.Logger) *Resolver {
	return &Resolver{svc: svc, log: log, present: presentError(log, func(context.Context) string { return "" })}
}

var _ ResolverRoot = (*Resolver)(nil)
