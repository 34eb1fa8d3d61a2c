//go:generate go run ./fastgen -roots jobs,job,companies -resolved JobCardConnection.facets

// Package graph serves jobsd's GraphQL API with gqlgen: the schema's
// resolvers, adapters of a few lines over the query service (package
// search), the handler with its limits, transports and error presenter,
// and the fast path of the common reads.
package graph

import (
	"log/slog"

	"github.com/jobsd-dev/jobsd/search"
)

// Resolver is the root of the GraphQL resolvers.
type Resolver struct {
	svc *search.Service
	log *slog.Logger
}

// NewResolver returns the resolvers over the query service.
func NewResolver(svc *search.Service, log *slog.Logger) *Resolver {
	return &Resolver{svc: svc, log: log}
}

var _ ResolverRoot = (*Resolver)(nil)
