package graph

import (
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph/model"
	"github.com/jobsd-dev/jobsd/graph/scalar"
)

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

// companyKey returns the slug or the name company(...) names: by's one
// member, or the deprecated slug or name argument. gqlparser checks a
// literal CompanyKey has exactly one member, but not a variable's value:
// both are checked here.
func companyKey(by *model.CompanyKey, slug, name *string) (*string, *string, error) {
	if by == nil {
		return slug, name, nil
	}
	if slug != nil || name != nil {
		return nil, nil, domain.InvalidParam("by", "give by, or the deprecated slug or name, not both")
	}
	if (by.Slug == nil) == (by.Name == nil) {
		return nil, nil, domain.InvalidParam("by", "by must give exactly one of slug and name")
	}
	return by.Slug, by.Name, nil
}

// enumFacets spells the values of the facets of enum-typed fields as
// GraphQL's enum values (hybrid → HYBRID, full-time → FULL_TIME), so that
// a value reads as the card's and goes back into the filter; REST keeps
// its spellings. A stored employment type outside the contract's set has
// no enum value and is kept as given. The facets' values are copied.
func enumFacets(facets []domain.Facet) []domain.Facet {
	for i, f := range facets {
		var spell func(string) string
		switch string(f.Field) {
		case domain.FieldWorkArrangement:
			spell = strings.ToUpper
		case domain.FieldEmploymentType:
			spell = func(s string) string {
				if v, ok := scalar.EmploymentTypeValue(s); ok {
					return v
				}
				return s
			}
		default:
			continue
		}
		values := make([]domain.FacetValue, len(f.Values))
		for j, v := range f.Values {
			values[j] = domain.FacetValue{Value: spell(v.Value), Count: v.Count}
		}
		facets[i].Values = values
	}
	return facets
}

// enumProfile spells a company page's work arrangements as GraphQL's enum
// values (hybrid → HYBRID), as enumFacets does.
func enumProfile(p *domain.CompanyProfile) *domain.CompanyProfile {
	if p == nil {
		return nil
	}
	out := *p
	out.ByWorkArrangement = make([]domain.ValueCount, len(p.ByWorkArrangement))
	for i, v := range p.ByWorkArrangement {
		if v.Value != nil {
			s := strings.ToUpper(*v.Value)
			v.Value = &s
		}
		out.ByWorkArrangement[i] = v
	}
	return &out
}
