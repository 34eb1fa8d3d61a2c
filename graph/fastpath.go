package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/jobsd-dev/jobsd/domain"
)

// The fast path answers the common read operations (a page of job cards,
// one job, a page of companies) without gqlgen's per-field execution, whose
// field contexts, collected fields and goroutine per list element cost
// several times REST's hand-written JSON. It resolves the root field with
// the same resolver method and the same argument coercion as the generated
// code (there is no second query path) and writes the data itself, byte for
// byte what gqlgen would (fastpath_encode.go; fastpath_test.go compares the
// two).
//
// An operation qualifies when it is a query whose only selection is one of
// jobs, job or companies, and every selection set under it holds only plain
// fields of plainFields (aliases and __typename allowed), with no fragment,
// directive, argument (but the root field's) or repeated response key.
// Anything else, a resolver error, a null where the schema forbids one, a
// NaN or infinite Float, or a panic goes to gqlgen (next), so that every
// error is gqlgen's own; the resolver then runs twice, on failures only.
//
// The fast path is an operation interceptor: the parameter and context
// mutators (persisted queries, depth and complexity limits, introspection)
// have run before it. It skips gqlgen's response, root-field and field
// interceptors, so it is correct only while none of them changes a
// successful answer (statusOverride looks at errors only, and a fast answer
// has none); and the resolvers it calls get no graphql.FieldContext.

// fastPath is the gqlgen extension of the fast path.
type fastPath struct {
	schema *executableSchema
	// served, when set, is called each time the fast path answers (tests).
	served func()
}

var (
	_ graphql.HandlerExtension     = (*fastPath)(nil)
	_ graphql.OperationInterceptor = (*fastPath)(nil)
)

// ExtensionName implements graphql.HandlerExtension.
func (*fastPath) ExtensionName() string { return "FastPath" }

// Validate implements graphql.HandlerExtension.
func (*fastPath) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation answers a qualifying operation, and leaves any other
// to gqlgen.
func (p *fastPath) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	root := qualifyingRoot(oc)
	if root == nil {
		return next(ctx)
	}
	e, ok := p.answer(ctx, oc, root)
	if !ok {
		return next(ctx)
	}
	if p.served != nil {
		p.served()
	}
	resp := &graphql.Response{Data: claimFastAnswer(ctx, e)}
	if c := operationCost(oc); c != nil {
		resp.Extensions = map[string]any{costExtension: c.Cost}
	}
	return graphql.OneShot(resp)
}

// answer resolves the root field and writes the data of the response into
// an encoder, which the caller releases, or reports false when gqlgen must
// answer.
func (p *fastPath) answer(ctx context.Context, oc *graphql.OperationContext, root *ast.Field) (enc *encoder, ok bool) {
	e := getEncoder()
	defer func() {
		// gqlgen runs the operation again, and recovers and logs the panic
		// itself (once: not here). The tests' count of fast answers shows
		// a panic of the encoder.
		if recover() != nil {
			enc, ok = nil, false
		}
		if !ok {
			putEncoder(e)
		}
	}()

	// The generated argument functions coerce exactly as gqlgen does.
	ec := newExecutionContext(oc, p.schema, nil)
	rawArgs := root.ArgumentMap(oc.Variables)
	query := p.schema.Resolvers.Query()
	e.buf = append(e.buf, '{')
	e.string(root.Alias)
	e.buf = append(e.buf, ':')
	switch root.Name {
	case "jobs":
		args, err := ec.field_Query_jobs_args(ctx, rawArgs)
		if err != nil {
			return nil, false
		}
		page, err := query.Jobs(ctx, args["filter"].(*domain.JobFilter), args["limit"].(*int), args["offset"].(*int),
			args["sort"].(*domain.JobSort), args["after"].(*string))
		if err != nil || page == nil {
			return nil, false
		}
		facets := func(f *ast.Field) ([]*domain.Facet, bool) {
			args, err := ec.field_JobCardPage_facets_args(ctx, f.ArgumentMap(oc.Variables))
			if err != nil {
				return nil, false
			}
			facets, err := p.schema.Resolvers.JobCardPage().Facets(ctx, page, args["fields"].([]domain.FacetField), args["limit"].(*int))
			return facets, err == nil
		}
		e.jobCardPage(root.SelectionSet, page, facets)
	case "job":
		args, err := ec.field_Query_job_args(ctx, rawArgs)
		if err != nil {
			return nil, false
		}
		job, err := query.Job(ctx, args["id"].(string))
		if err != nil {
			return nil, false
		}
		e.job(root.SelectionSet, job) // Query.job is nullable: nil is null
	case "companies":
		args, err := ec.field_Query_companies_args(ctx, rawArgs)
		if err != nil {
			return nil, false
		}
		page, err := query.Companies(ctx, args["minJobs"].(*int), args["limit"].(*int), args["offset"].(*int),
			args["filter"].(*domain.JobFilter))
		if err != nil || page == nil {
			return nil, false
		}
		e.companyPage(root.SelectionSet, page)
	default:
		return nil, false
	}
	e.buf = append(e.buf, '}')
	if e.failed {
		return nil, false
	}
	return e, true
}

// rootTypes are the root fields the fast path answers, with their types.
var rootTypes = map[string]string{"jobs": "JobCardPage", "job": "Job", "companies": "CompanyPage"}

// plainFields are, by object type, the fields the fast path answers: struct
// fields gqlgen reads without a resolver or arguments, and the fields of
// argFields, with the object type of their value ("" for a scalar, an enum
// or a list of them). The other resolver-backed fields (JobCard.employer,
// Job.employer, Job.similar) are left to gqlgen.
var plainFields = map[string]map[string]string{
	"JobCardPage":  {"nodes": "JobCard", "pageInfo": "PageInfo", "facets": "Facet"},
	"Facet":        {"field": "", "values": "FacetValue", "buckets": "SalaryBucket"},
	"FacetValue":   {"value": "", "count": ""},
	"SalaryBucket": {"min": "", "max": "", "count": ""},
	"CompanyPage":  {"nodes": "Company", "pageInfo": "PageInfo"},
	"PageInfo":     {"total": "", "limit": "", "offset": "", "hasMore": "", "endCursor": ""},
	"JobCard": {"id": "", "title": "", "company": "", "location": "Location", "workArrangement": "",
		"employmentType": "", "salary": "Salary", "category": "Category"},
	"Job": {"id": "", "title": "", "company": "", "companyLogo": "", "url": "", "postedAt": "",
		"location": "Location", "workArrangement": "", "employmentType": "", "experienceLevel": "",
		"salary": "Salary", "summary": "", "description": "", "descriptionRaw": "", "responsibilities": "",
		"requiredQualifications": "", "preferredQualifications": "", "skills": "", "tools": "",
		"softSkills": "", "technicalSkills": "", "benefits": "", "education": "", "educationLevels": "",
		"educationMajors": "", "certifications": "", "visaSponsorship": "", "visaRequirements": "",
		"securityClearances": "", "clearanceStatus": "", "travelPercent": "", "source": "",
		"category": "Category"},
	"Location": {"city": "", "state": "", "country": "", "full": ""},
	"Salary":   {"min": "", "max": "", "currency": "", "period": ""},
	"Category": {"field": "", "role": "", "specialization": ""},
	"Company":  {"name": "", "logoUrl": "", "jobCount": "", "slug": ""},
}

// argFields are the fields with arguments the fast path answers, by
// object type: their arguments are coerced by gqlgen's own functions and
// their resolvers called as gqlgen calls them.
var argFields = map[string]map[string]bool{"JobCardPage": {"facets": true}}

// qualifyingRoot returns the root field of an operation the fast path
// answers, or nil.
func qualifyingRoot(oc *graphql.OperationContext) *ast.Field {
	op := oc.Operation
	if op == nil || op.Operation != ast.Query || len(op.Directives) > 0 || len(op.SelectionSet) != 1 {
		return nil
	}
	for _, v := range op.VariableDefinitions {
		if len(v.Directives) > 0 {
			return nil
		}
	}
	root, ok := op.SelectionSet[0].(*ast.Field)
	if !ok || len(root.Directives) > 0 || root.Definition == nil ||
		root.ObjectDefinition == nil || root.ObjectDefinition.Name != "Query" {
		return nil
	}
	typ, ok := rootTypes[root.Name]
	if !ok || !plainSelection(typ, root.SelectionSet) {
		return nil
	}
	return root
}

// plainSelection reports whether a selection set on the object type typ
// holds only plain fields, each under its own response key, and the same
// of theirs.
func plainSelection(typ string, set ast.SelectionSet) bool {
	fields := plainFields[typ]
	if len(set) == 0 || fields == nil {
		return false
	}
	for i, sel := range set {
		f, ok := sel.(*ast.Field)
		if !ok || len(f.Directives) > 0 || f.Definition == nil || f.ObjectDefinition == nil || f.ObjectDefinition.Name != typ ||
			(len(f.Arguments) > 0 || len(f.Definition.Arguments) > 0) && !argFields[typ][f.Name] {
			return false
		}
		// gqlgen merges fields under one response key; the fast path
		// does not.
		for _, prev := range set[:i] {
			if prev.(*ast.Field).Alias == f.Alias {
				return false
			}
		}
		if f.Name == "__typename" {
			if len(f.SelectionSet) > 0 {
				return false
			}
			continue
		}
		child, ok := fields[f.Name]
		switch {
		case !ok:
			return false
		case child == "":
			if len(f.SelectionSet) > 0 {
				return false
			}
		case !plainSelection(child, f.SelectionSet):
			return false
		}
	}
	return true
}
