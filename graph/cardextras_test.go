package graph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestSelectsCardExtras: a job list reads the cards' extras when its
// selection names one of them on JobCard, through fields, fragments and
// spreads, and only then.
func TestSelectsCardExtras(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  bool
	}{
		{`{ jobs { nodes { id title company } pageInfo { total } } }`, false},
		{`{ jobs { nodes { id employer { name slug } } facets(fields: [SKILLS]) { field } } }`, false},
		{`{ jobs { nodes { id postedAt } } }`, true},
		{`{ jobs { nodes { companyLogo } } }`, true},
		{`{ jobs { n: nodes { s: summary } } }`, true},
		{`{ jobs { nodes { ... on JobCard { summary } } } }`, true},
		{`{ jobs { ...Page } } fragment Page on JobCardConnection { nodes { ...Card } } fragment Card on JobCard { postedAt }`, true},
		{`{ jobs { ...Page } } fragment Page on JobCardConnection { nodes { id } }`, false},
		{`{ job(id: "a-1") { summary similar { id } } }`, false},
		{`{ job(id: "a-1") { similar { id summary } } }`, true},
	} {
		doc, errs := gqlparser.LoadQuery(parsedSchema, tc.query)
		require.Nil(t, errs, tc.query)
		root := doc.Operations[0].SelectionSet[0].(*ast.Field)
		set := root.SelectionSet
		if root.Name == "job" { // Job.similar's selection, as its resolver sees it
			for _, s := range set {
				if f := s.(*ast.Field); f.Name == "similar" {
					set = f.SelectionSet
				}
			}
		}
		assert.Equal(t, tc.want, setSelectsCardExtras(set), tc.query)
	}
	doc, errs := gqlparser.LoadQuery(parsedSchema, `{ job(id: "a-1") { summary companyLogo postedAt } }`)
	require.Nil(t, errs)
	assert.False(t, setSelectsCardExtras(doc.Operations[0].SelectionSet), "a Job's fields of the same names are no card's")
}
