package graph

import "github.com/jobsd-dev/jobsd/domain"

// orNil turns the service's not_found into GraphQL's null without error
// (job(id:) and company(...) of nothing are null).
func orNil[T any](v *T, err error) (*T, error) {
	if domain.ErrorCode(err) == domain.CodeNotFound {
		return nil, nil
	}
	return v, err
}

// pointers returns pointers to the elements of a slice, as gqlgen's list
// types of objects ask.
func pointers[T any](s []T) []*T {
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}
