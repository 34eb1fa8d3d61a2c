package graph

import (
	"sync/atomic"

	"github.com/vektah/gqlparser/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// CountFastPath makes the handler built with opts count in n the
// operations its fast path answers.
func CountFastPath(opts *HandlerOptions, n *atomic.Int64) {
	opts.fastPathServed = func() { n.Add(1) }
}

// CostWalkSteps validates query against the schema and returns the
// selections the cost walk visited and the cost it found.
func CostWalkSteps(query string, vars map[string]any) (steps, cost int, err error) {
	doc, errs := gqlparser.LoadQuery(parsedSchema, query)
	if len(errs) > 0 {
		return 0, 0, errs
	}
	rules := &costRules{limit: 1 << 40, maxString: 1 << 20, needsDatabase: func(*domain.JobFilter, *domain.JobSort) bool { return false }}
	w := costWalk{rules: rules, vars: vars, frags: doc.Fragments}
	for _, op := range doc.Operations {
		cost = satAdd(cost, w.set(op.SelectionSet).cost)
	}
	return w.steps, cost, nil
}
