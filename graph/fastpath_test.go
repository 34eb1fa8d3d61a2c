package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

// The fast path must answer exactly as gqlgen does: every test here sends
// the same request to a handler with the fast path and to one without it,
// over the same store, and compares status and body byte for byte; and it
// checks, with the handler's count of fast answers, that the fast path did
// answer the operations it should (so that always falling back fails).

func sp(s string) *string                                 { return &s }
func fp(f float64) *float64                               { return &f }
func wa(w domain.WorkArrangement) *domain.WorkArrangement { return &w }

// tricky has every kind of character gqlgen's string writer treats apart.
const tricky = "quote \" backslash \\ slash / nul \x00 bell \x07 bs \b tab \t lf \n ff \f cr \r us \x1f del \x7f " +
	"<b>&amp;</b> ls \u2028 ps \u2029 café 日本語 🚀 bad utf-8 \xff\xfe\xc3 end\\"

var fixtureCards = []domain.JobCard{
	{
		ID: "src-1", Title: tricky, Company: `Acme "Q" <&>`, CompanyID: 1,
		Location:        domain.Location{City: []string{tricky, "São Paulo"}, State: []string{"California"}, Country: []string{}, Full: tricky},
		WorkArrangement: wa(domain.WorkArrangementRemote), EmploymentType: sp("full-time"),
		Salary:   &domain.Salary{Min: fp(0.1), Max: fp(1e21), Currency: sp("USD"), Period: sp("annual")},
		Category: domain.Category{Field: sp("Computer and Mathematical"), Role: sp(tricky), Specialization: sp("Backend")},
		PostedAt: sp("2026-10-30T10:00:00Z"), CompanyLogo: sp(tricky), Summary: sp(tricky),
	},
	{
		// nil salary, nil lists of a non-null type, nil enums and strings
		ID: "src-2", Title: "", Company: "", CompanyID: 2,
	},
	{
		ID: "src-3", Title: "Nurse", Company: "Zeta", CompanyID: 3,
		Location:        domain.Location{City: []string{"Austin"}, State: []string{"Texas"}, Country: []string{"United States"}, Full: "Austin, Texas, United States"},
		WorkArrangement: wa(domain.WorkArrangementHybrid),
		Salary:          &domain.Salary{Min: fp(123456.789), Max: nil},
		// an instant in another RFC 3339 form: DateTime writes it in UTC
		PostedAt: sp("2026-10-30T12:00:00.5+02:00"), Summary: sp(""),
	},
	{
		ID: "src-4", Title: "Floats", Company: "Zeta", CompanyID: 3, WorkArrangement: wa(domain.WorkArrangementOnsite),
		Salary: &domain.Salary{Min: fp(1e6), Max: fp(1.5e6), Currency: sp(""), Period: sp("hourly")},
	},
	{
		ID: "src-5", Title: "More floats", Company: "Zeta", CompanyID: 1, EmploymentType: sp("gig"), // no enum value: null
		Salary: &domain.Salary{Min: fp(math.Copysign(0, -1)), Max: fp(5e-324)},
	},
	{
		ID: "src-6", Title: "Extreme floats", Company: "Zeta", CompanyID: 2, WorkArrangement: wa(`ré"mote`),
		Salary: &domain.Salary{Min: fp(1e-7), Max: fp(math.MaxFloat64), Currency: sp("€"), Period: sp("month\u2028ly")},
	},
	{
		ID: "src-7", Title: "Round", Company: "Zeta", CompanyID: 2,
		Salary: &domain.Salary{Min: fp(100000), Max: fp(999999.5)},
	},
}

var fixtureJobs = map[string]*domain.Job{
	"src-1": {
		ID: "src-1", Title: tricky, Company: `Acme "Q" <&>`, CompanyID: 1, CompanyLogo: sp("https://x.test/logo.png?a=1&b=<2>"),
		URL: sp("https://x.test/jobs/1"), PostedAt: sp("2024-05-01T00:00:00Z"),
		Location:        domain.Location{City: []string{"San Francisco"}, State: []string{"California"}, Country: []string{"United States"}, Full: "San Francisco, California, United States + 1 more"},
		WorkArrangement: wa(domain.WorkArrangementRemote), EmploymentType: sp("contract"), ExperienceLevel: sp("senior"),
		Salary:  &domain.Salary{Min: fp(115000), Max: fp(128000.25), Currency: sp("USD"), Period: sp("annual")},
		Summary: sp(tricky), Description: sp("line one\nline two\n\ttabbed"), DescriptionRaw: sp(`<p class="x">Hello &amp; <b>bye</b></p>`),
		Responsibilities: []string{tricky, "Ship"}, RequiredQualifications: []string{"Go"}, PreferredQualifications: []string{},
		Skills: []string{"Go", "Kubernetes"}, Tools: []string{"git"}, SoftSkills: []string{"Communication"},
		TechnicalSkills: []string{"Distributed systems"}, Benefits: []string{"401(k)"}, Education: []string{"BS \"CS\""},
		EducationLevels: []string{"bachelor"}, EducationMajors: []string{"Computer Science"}, Certifications: []string{},
		VisaSponsorship: []string{"H-1B"}, VisaRequirements: []string{}, SecurityClearances: []string{},
		ClearanceStatus: sp("none"), TravelPercent: fp(12.5), Source: sp("greenhouse"),
		Category: domain.Category{Field: sp("Computer and Mathematical"), Role: sp("Software Engineer")},
	},
	"src-2": {ID: "src-2", Title: "Minimal", Company: "Zeta", CompanyID: 2},
	"src-3": {
		ID: "src-3", Title: "Cleared", Company: "Zeta", CompanyID: 3, SecurityClearances: []string{"Secret", "TS/SCI"},
		TravelPercent: fp(1e21), Salary: &domain.Salary{Min: fp(0.1)}, WorkArrangement: wa(domain.WorkArrangementOnsite),
	},
	"src-8": {ID: "src-8", Title: "NaN travel", Company: "Zeta", CompanyID: 1, TravelPercent: fp(math.NaN())},
	"src-9": {ID: "src-9", Title: "Inf salary", Company: "Zeta", CompanyID: 1, Salary: &domain.Salary{Max: fp(math.Inf(1))}},
}

var fixtureCompanies = []domain.Company{
	{Name: tricky, JobCount: 2147483647, Slug: "acme"},
	{Name: "Zeta", LogoURL: sp("https://x.test/z.png?a=1&b=<2>"), JobCount: 0, Slug: ""},
	{Name: "Ω", LogoURL: sp(""), JobCount: -1, Slug: "omega"},
}

// fixtureStore answers from the fixtures; the company filter of a job
// search picks a special answer ("nan", "fail", "down", "nil", "panic").
func fixtureStore() *searchtest.Store {
	return &searchtest.Store{
		// Suggestions count 1, 2 or 3 jobs by their place; "fail" fails.
		SuggestCountsFunc: func(_ context.Context, base domain.JobQuery, values []*domain.ValueFilter, _ int) ([]int, error) {
			if base.Company == "fail" {
				return nil, errors.New("disk on fire")
			}
			out := make([]int, len(values))
			for i := range out {
				out[i] = 1 + i%3
			}
			return out, nil
		},
		FindJobCardsFunc: func(_ context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
			switch q.Company {
			case "nan":
				return []domain.JobCard{{ID: "src-1", Salary: &domain.Salary{Min: fp(math.NaN())}}}, 1, nil, nil
			case "fail":
				return nil, 0, nil, errors.New("disk on fire")
			case "down":
				return nil, 0, nil, domain.Errorf(domain.CodeUnavailable, "the database is unavailable")
			case "nil":
				return nil, 0, nil, nil
			case "badtime": // DateTime's marshaler fails: gqlgen answers
				return []domain.JobCard{{ID: "src-1", PostedAt: sp("yesterday")}}, 1, nil, nil
			case "panic":
				panic("a store bug")
			}
			from := min(q.Offset, len(fixtureCards))
			page := fixtureCards[from:min(from+q.Limit, len(fixtureCards))]
			cursors := make([]domain.Cursor, len(page))
			for i := range page {
				cursors[i] = domain.Cursor{Sort: q.Sort, ID: page[i].ID, Offset: q.Offset + i + 1}
			}
			return page, 1<<53 + 1, cursors, nil
		},
		JobByIDFunc: func(_ context.Context, id string) (*domain.Job, error) {
			if id == "src-500" {
				return nil, errors.New("connection reset")
			}
			if id == "src-410" {
				at := time.Date(2026, 11, 26, 10, 0, 2, 0, time.UTC)
				return nil, &domain.Error{Code: domain.CodeGone, Message: "job src-410 closed at 2026-11-26T10:00:02Z", ClosedAt: &at}
			}
			if j, ok := fixtureJobs[id]; ok {
				return j, nil
			}
			return nil, domain.Errorf(domain.CodeNotFound, "no job has id %s", id)
		},
		CompaniesFunc: func(_ context.Context, q domain.CompanyQuery) ([]domain.Company, int, error) {
			from := min(q.Offset, len(fixtureCompanies))
			return fixtureCompanies[from:min(from+q.Limit, len(fixtureCompanies))], 9223372036854775807, nil
		},
		CompaniesByIDFunc: func(_ context.Context, ids []int64) (map[int64]*domain.Company, error) {
			out := map[int64]*domain.Company{}
			for _, id := range ids {
				if id >= 1 && int(id) <= len(fixtureCompanies) {
					out[id] = &fixtureCompanies[id-1]
				}
			}
			return out, nil
		},
		SimilarJobsFunc: func(_ context.Context, _ string, limit int) ([]domain.JobCard, int, error) {
			return fixtureCards[:min(limit, 3)], 3, nil
		},
		FacetsFunc: func(_ context.Context, _ domain.JobQuery, fields []string, _ int) ([]domain.Facet, error) {
			out := make([]domain.Facet, len(fields))
			for i, f := range fields {
				out[i] = domain.Facet{Field: domain.FacetField(f), Values: []domain.FacetValue{{Value: tricky, Count: 3}, {Value: "b", Count: 1}}}
				if f == "work_arrangement" {
					out[i].Values = nil // [FacetValue!]!: gqlgen writes []
				}
				if f == domain.FacetSalary {
					out[i] = domain.Facet{Field: domain.FacetSalary, Values: []domain.FacetValue{},
						Buckets: []domain.SalaryBucket{{Min: 0, Max: fp(25000), Count: 1}, {Min: 25000, Count: 2}}}
				}
			}
			return out, nil
		},
	}
}

// pair is the same endpoint with and without the fast path.
type pair struct {
	fast, slow http.Handler
	served     atomic.Int64
}

func newPair(t *testing.T, opts graph.HandlerOptions) *pair {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r := graph.NewResolver(search.New(norm, fixtureStore()), log)
	p := &pair{}
	fastOpts, slowOpts := opts, opts
	graph.CountFastPath(&fastOpts, &p.served)
	slowOpts.NoFastPath = true
	p.fast, p.slow = graph.NewHandler(r, fastOpts), graph.NewHandler(r, slowOpts)
	return p
}

// request is a POST of a query with variables (nil: none), or, with
// get set, a GET of the query.
type request struct {
	query     string
	variables map[string]any
	opName    string
	hash      string // automatic persisted query: the query's SHA-256
	get       bool
}

func (q request) send(t *testing.T, h http.Handler) (int, string) {
	t.Helper()
	var req *http.Request
	if q.get {
		v := url.Values{"query": {q.query}}
		if q.variables != nil {
			b, _ := json.Marshal(q.variables)
			v.Set("variables", string(b))
		}
		req = httptest.NewRequest(http.MethodGet, "/graphql?"+v.Encode(), nil)
	} else {
		body := map[string]any{"query": q.query}
		if q.variables != nil {
			body["variables"] = q.variables
		}
		if q.opName != "" {
			body["operationName"] = q.opName
		}
		if q.hash != "" {
			body["extensions"] = map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": q.hash}}
		}
		b, err := json.Marshal(body)
		require.NoError(t, err)
		req = httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.String()
}

// compare sends q to both handlers, requires the same status and body, and
// reports whether the fast path answered; it returns the body.
func (p *pair) compare(t *testing.T, q request, wantFast bool) string {
	t.Helper()
	var fastStatus, slowStatus int
	var fastBody, slowBody string
	var fast bool
	// An answer read from the clock (postedWithin's postedAfter, to the
	// second) may change between the two requests: they are sent again
	// once when their bodies differ.
	for try := 0; try < 2; try++ {
		before := p.served.Load()
		fastStatus, fastBody = q.send(t, p.fast)
		fast = p.served.Load() > before
		slowStatus, slowBody = q.send(t, p.slow)
		if fastBody == slowBody {
			break
		}
	}
	require.Equal(t, slowStatus, fastStatus, "status of %s", q.query)
	require.Equal(t, slowBody, fastBody, "body of %s (variables %v)", q.query, q.variables)
	require.Equal(t, wantFast, fast, "fast path answered %s", q.query)
	require.True(t, json.Valid([]byte(fastBody)), fastBody)
	return fastBody
}

const (
	cardFields = `id title company location { city state country full } workArrangement employmentType ` +
		`salary { min max currency period } category { field role specialization }`
	jobFields = `id title company companyLogo url postedAt location { city state country full } workArrangement ` +
		`employmentType experienceLevel salary { min max currency period } summary description descriptionRaw ` +
		`responsibilities requiredQualifications preferredQualifications skills tools softSkills technicalSkills ` +
		`benefits education educationLevels educationMajors certifications visaSponsorship visaRequirements ` +
		`securityClearances clearanceStatus travelPercent source category { field role specialization }`
	pageInfoFields = `pageInfo { total limit offset hasMore endCursor }`
	relayFields    = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`
	normalized     = `normalized { title { categoryField categoryRole categorySpecialization text } company location { city state country workArrangement } ` +
		`city state country skills skillsMatch tools workArrangement employmentType salaryMin salaryMax includeUnknownSalary postedAfter q ` +
		`categoryRole salaryCurrency { currency ratesDate } }`
)

func TestFastPathAnswersAsGqlgen(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{})
	cursor := domain.Cursor{Sort: domain.JobSortNewest, ID: "src-2", Offset: 2}.Encode()
	for _, q := range []request{
		{query: `{ jobs { nodes { ` + cardFields + ` } ` + pageInfoFields + ` } }`},
		{query: `{ jobs(limit: 100) { __typename nodes { __typename ` + cardFields + ` } ` + pageInfoFields + ` } }`},
		{query: `query Jobs($filter: JobFilter, $limit: Int) { jobs(filter: $filter, limit: $limit) { nodes { ` + cardFields + ` } ` + pageInfoFields + ` } }`,
			variables: map[string]any{"filter": map[string]any{"skills": []string{"golang"}, "workArrangement": []string{"REMOTE"}, "salaryMin": 1000.5}, "limit": 3}},
		{query: `{ jobs(filter: {skills: ["golang"], workArrangement: [REMOTE], salaryMin: 1000.5}, limit: 3) { nodes { ` + cardFields + ` } ` + pageInfoFields + ` } }`},
		{query: `query($after: String) { jobs(after: $after, limit: 2) { nodes { id } ` + pageInfoFields + ` } }`, variables: map[string]any{"after": cursor}},
		{query: `{ jobs(limit: 100) { nodes { ` + cardFields + ` postedAt companyLogo summary } } }`}, // the list extras
		{query: `{ jobs(offset: 1000) { nodes { id } ` + pageInfoFields + ` } }`},                     // empty page, null endCursor
		{query: `{ jobs(filter: {company: "nil"}) { nodes { id } ` + pageInfoFields + ` } }`},         // nil nodes
		{query: `{ jobs(sort: SALARY_DESC, limit: 2) { p: pageInfo { t: total hasMore } n: nodes { b: title a: id s: salary { max min } } } }`},
		{query: `{ page: jobs { nodes { title: id id: title } } }`}, // swapped aliases
		{query: `{ jobs { facets(fields: [SKILLS, SALARY, WORK_ARRANGEMENT]) { field values { value count } buckets { min max count } } } }`},
		{query: `query($f: [FacetField!]!, $l: Int) { jobs(limit: 2) { nodes { id } f: facets(fields: $f, limit: $l) { __typename b: buckets { max } v: values { count } field } ` + pageInfoFields + ` } }`,
			variables: map[string]any{"f": []string{"SALARY", "COUNTRY"}, "l": 5}},
		{query: `{ job(id: "src-1") { ` + jobFields + ` } }`},
		{query: `{ job(id: "src-1") { __typename location { __typename full } salary { __typename min } category { __typename role } } }`},
		{query: `{ job(id: "src-2") { ` + jobFields + ` } }`},
		{query: `{ job(id: "src-3") { ` + jobFields + ` } }`},
		{query: `query($id: ID!) { j: job(id: $id) { id securityClearances travelPercent } }`, variables: map[string]any{"id": "src-3"}},
		{query: `{ job(id: "src-404") { id } }`}, // not found: null, no error
		{query: `{ companies { nodes { name logoUrl jobCount slug __typename } ` + pageInfoFields + ` } }`},
		{query: `query($m: Int, $f: JobFilter) { companies(minJobs: $m, limit: 2, offset: 1, filter: $f) { nodes { slug name } pageInfo { offset limit } } }`,
			variables: map[string]any{"m": 3, "f": map[string]any{"skills": []string{"k8s"}}}},
		{query: `{ companies(offset: 50) { nodes { name } pageInfo { hasMore } } }`},
		{query: `{ jobs(limit: 2) { nodes { id } } }`, get: true},
		// Relay connections
		{query: `{ jobs(first: 3) { edges { cursor node { ` + cardFields + ` } } ` + relayFields + ` } }`},
		{query: `query($after: String) { jobs(first: 2, after: $after) { __typename e: edges { __typename c: cursor n: node { id } } ` + relayFields + ` } }`,
			variables: map[string]any{"after": cursor}},
		{query: `{ jobs(offset: 1000) { edges { cursor } ` + relayFields + ` } }`}, // empty page: null cursors
		{query: `{ jobs(filter: {title: "backend engineer", skills: ["k8s"], skillsMatch: ALL, location: "Remote - US", salaryMin: 100, ` +
			`includeUnknownSalary: true, q: "kafka", company: "acme", postedWithin: "30d"}, sort: NEWEST) { ` + normalized + ` nodes { id } } }`},
		{query: `{ jobs { ` + normalized + ` } }`}, // nothing given: every member null
		{query: `{ companies(first: 2) { edges { cursor node { id name slug } } nodes { id } ` + relayFields + ` } }`},
		{query: `query A { job(id: "src-1") { id } } query B { jobs(limit: 1) { nodes { title } } }`, opName: "B"},
		{query: "# comment\nquery  Spaced ( $l : Int = 2 ) {\n jobs ( limit : $l ) {\n nodes { id }\n }\n}"},
		// Suggestions
		{query: `{ suggest(field: SKILLS, prefix: "go") { value count filter { skills company categoryRole categorySpecialization location } } }`},
		{query: `query($p: String!, $f: JobFilter) { s: suggest(field: TITLE, prefix: $p, filter: $f, limit: 3) { __typename v: value filter { __typename categoryRole } } }`,
			variables: map[string]any{"p": "eng", "f": map[string]any{"workArrangement": []string{"REMOTE"}}}},
		{query: `{ suggest(field: SKILLS, prefix: "zzzzqq") { value } }`}, // none
	} {
		p.compare(t, q, true)
	}

	// A sanity check of what is compared.
	body := p.compare(t, request{query: `{ job(id: "src-404") { id } }`}, true)
	assert.Equal(t, `{"data":{"job":null},"extensions":{"cost":{"requested":2,"limit":10000}}}`, body)
	body = p.compare(t, request{query: `{ jobs(limit: 1) { nodes { title salary { min max } } } }`}, true)
	assert.Contains(t, body, `\u0000 bell \u0007 bs \u0008 tab \t lf \n ff \u000C cr \r us \u001F del `+"\x7f"+` \u003cb\u003e\u0026amp;`)
	assert.Contains(t, body, `ls \u2028 ps \u2029 café 日本語 🚀`)
	assert.Contains(t, body, `"salary":{"min":0.1,"max":1e+21}`)
}

func TestFastPathFallsBack(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{})
	for _, q := range []request{
		// not plain: fragments, directives, resolvers
		{query: `{ jobs { ...Page } } fragment Page on JobCardConnection { nodes { id } }`},
		{query: `{ jobs { nodes { ... on JobCard { id } } } }`},
		{query: `{ jobs { nodes { ... { id } } } }`},
		{query: `{ jobs { nodes { id title @include(if: true) } } }`},
		{query: `{ jobs { nodes { id title @skip(if: true) } } }`},
		{query: `query($x: Boolean!) { jobs @include(if: $x) { nodes { id } } }`, variables: map[string]any{"x": false}},
		{query: `{ jobs { nodes { id employer { name } } } }`},
		{query: `{ job(id: "src-1") { id similar(limit: 2) { id } } }`},
		// facets the resolver refuses
		{query: `{ jobs { facets(fields: [SKILLS], limit: 0) { field } } }`},
		{query: `query($l: Int) { jobs { facets(fields: [SKILLS], limit: $l) { field } } }`, variables: map[string]any{"l": -1}},
		{query: `{ job(id: "src-1") { id employer { name slug } } }`},
		{query: `{ jobs { nodes { id id } } }`},              // one response key twice
		{query: `{ jobs { nodes { id } nodes { title } } }`}, // merged selections
		{query: `{ jobs { nodes { id } } companies { nodes { name } } }`},
		{query: `{ __typename }`},
		{query: `{ company(slug: "acme") { name } }`},
		{query: `{ interpretFilter(filter: {skills: ["k8s"]}) { skills } }`},
		{query: `{ node(id: "src-1") { id ... on Job { title } } }`},
		{query: `{ __schema { queryType { name } } }`},
		// errors of the resolvers: invalid arguments, the store
		{query: `{ jobs(limit: 0) { nodes { id } } }`},
		{query: `{ jobs(offset: -1) { nodes { id } } }`},
		{query: `{ jobs(sort: RELEVANCE) { nodes { id } } }`},
		{query: `{ jobs(after: "garbage") { nodes { id } } }`},
		{query: `{ companies(limit: -5) { nodes { name } } }`},
		{query: `{ suggest(field: SKILLS, prefix: "go", limit: 0) { value } }`},
		{query: `{ suggest(field: SKILLS, prefix: "go", filter: {company: "fail"}) { value } }`},
		{query: `{ job(id: "not an id") { id } }`},
		{query: `{ job(id: "src-500") { id } }`},
		{query: `{ job(id: "src-410") { ` + jobFields + ` } }`}, // closed: null and gone, never data
		{query: `{ jobs(filter: {company: "fail"}) { nodes { id } } }`},
		{query: `{ jobs(filter: {company: "down"}) { nodes { id } } }`}, // 503
		{query: `{ jobs(filter: {company: "panic"}) { nodes { id } } }`},
		// gqlgen answers NaN and infinities with an error
		{query: `{ jobs(filter: {company: "nan"}) { nodes { id salary { min } } } }`},
		{query: `{ job(id: "src-8") { id travelPercent } }`},
		{query: `{ job(id: "src-9") { salary { max } } }`},
		// and an instant that is not one with an error
		{query: `{ jobs(filter: {company: "badtime"}) { nodes { id postedAt } } }`},
		// errors before execution
		{query: `{ jobs(filter: {postedAfter: "soon"}) { nodes { id } } }`},
		{query: `{ jobs(filter: {employmentType: [FT]}) { nodes { id } } }`},
		{query: `{ company(by: {slug: "a", name: "b"}) { name } }`},
		{query: `{ jobs(limit: "x") { nodes { id } } }`},
		{query: `query($l: Int) { jobs(limit: $l) { nodes { id } } }`, variables: map[string]any{"l": "x"}},
		{query: `{ jobs(filter: {workArrangement: [MARS]}) { nodes { id } } }`},
		{query: `{ jobs { nodes { nope } } }`},
		{query: `{ jobs { nodes { id } }`},
		{query: `query A { jobs { nodes { id } } } query B { job(id: "src-1") { id } }`, opName: "C"},
		{query: `mutation { jobs { nodes { id } } }`},
	} {
		p.compare(t, q, false)
	}
}

func TestFastPathRespectsLimitsAndPersistedQueries(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{ComplexityLimit: 20, DepthLimit: 3})
	p.compare(t, request{query: `{ jobs(limit: 100) { nodes { id title } } }`}, false)           // too complex
	p.compare(t, request{query: `{ jobs { nodes { location { full } } } }`}, false)              // too deep
	p.compare(t, request{query: `{ jobs(limit: 2) { nodes { id } pageInfo { total } } }`}, true) // within both

	p = newPair(t, graph.HandlerOptions{})
	query := `{ jobs(limit: 2) { nodes { id title } } }`
	sum := sha256.Sum256([]byte(query))
	hash := hex.EncodeToString(sum[:])
	p.compare(t, request{hash: hash}, false) // not yet known
	p.compare(t, request{query: query, hash: hash}, true)
	p.compare(t, request{hash: hash}, true)
}

// TestFastPathClosedJob: a closed posting is gqlgen's null with the gone
// error and its closing instant, never the fast path's data.
func TestFastPathClosedJob(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{})
	for _, q := range []request{
		{query: `{ job(id: "src-410") { id title } }`},
		{query: `query($id: ID!) { j: job(id: $id) { ` + jobFields + ` } }`, variables: map[string]any{"id": "src-410"}},
	} {
		body := p.compare(t, q, false)
		var resp struct {
			Data   map[string]*struct{} `json:"data"`
			Errors []struct {
				Path       []any          `json:"path"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &resp), body)
		require.Len(t, resp.Data, 1, body)
		for _, v := range resp.Data {
			assert.Nil(t, v, body)
		}
		require.Len(t, resp.Errors, 1, body)
		assert.Equal(t, "gone", resp.Errors[0].Extensions["code"], body)
		assert.Equal(t, "2026-11-26T10:00:02Z", resp.Errors[0].Extensions["closedAt"], body)
	}
}

// slowFields are the fields only gqlgen answers.
var slowFields = []string{"JobCard.employer", "Job.employer", "Job.similar"}

// TestFastPathRandomOperations compares random selections of every field
// of the schema under jobs, job and companies, in random orders, with
// random aliases and __typename, and arguments as literals or variables.
func TestFastPathRandomOperations(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{MaxAliases: 1000, ComplexityLimit: 1 << 30})
	g := &opGen{rnd: rand.New(rand.NewPCG(1, 2)), schema: graph.NewExecutableSchema(graph.Config{}).Schema()}
	var fast int
	for i := range 600 {
		q, wantFast := g.operation([]string{"jobs", "job", "companies"}[i%3])
		p.compare(t, q, wantFast)
		if wantFast {
			fast++
		}
	}
	t.Logf("%d of 600 random operations answered by the fast path", fast)
	assert.Greater(t, fast, 400, "most random operations are plain")
}

type opGen struct {
	rnd    *rand.Rand
	schema *ast.Schema
	slow   bool
	vars   []string // variable definitions
	values map[string]any
}

// operation returns a random operation on the root field, and whether the
// fast path must answer it.
func (g *opGen) operation(root string) (request, bool) {
	g.slow, g.vars, g.values = false, nil, map[string]any{}
	var args []string
	switch root {
	case "jobs":
		args = g.args(map[string]argChoice{
			"limit":  {"Int", []any{1, 2, 5, 100}},
			"offset": {"Int", []any{0, 3, 2147483647}},
			"sort":   {"JobSort", []any{"NEWEST", "SALARY_ASC"}},
			"filter": {"JobFilter", []any{map[string]any{"skills": []any{"golang", "k8s"}}, map[string]any{"workArrangement": []any{"HYBRID"}, "salaryMax": 1e6}}},
		})
	case "job":
		args = g.args(map[string]argChoice{"id": {"ID!", []any{"src-1", "src-2", "src-3", "src-404"}}})
		if len(args) == 0 {
			args = []string{`id: "src-1"`}
		}
	case "companies":
		args = g.args(map[string]argChoice{
			"minJobs": {"Int", []any{1, 5}},
			"limit":   {"Int", []any{1, 2}},
			"offset":  {"Int", []any{0, 1, 10}},
			"filter":  {"JobFilter", []any{map[string]any{"q": "go"}}},
		})
	}
	typ := g.schema.Query.Fields.ForName(root).Type.Name()
	sel := root
	if g.rnd.IntN(4) == 0 {
		sel = "r: " + root
	}
	if len(args) > 0 {
		sel += "(" + strings.Join(args, ", ") + ")"
	}
	sel += " " + g.selection(typ)
	query := "{ " + sel + " }"
	if len(g.vars) > 0 {
		query = "query Random(" + strings.Join(g.vars, ", ") + ") " + query
	}
	var vars map[string]any
	if len(g.values) > 0 {
		vars = g.values
	}
	return request{query: query, variables: vars}, !g.slow
}

type argChoice struct {
	typ    string
	values []any
}

// args picks some of the arguments, each a literal or a variable.
func (g *opGen) args(choices map[string]argChoice) []string {
	var out []string
	names := make([]string, 0, len(choices))
	for name := range choices {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if g.rnd.IntN(2) == 0 {
			continue
		}
		c := choices[name]
		v := c.values[g.rnd.IntN(len(c.values))]
		if g.rnd.IntN(2) == 0 {
			g.vars = append(g.vars, "$"+name+": "+c.typ)
			g.values[name] = v
			out = append(out, name+": $"+name)
		} else {
			out = append(out, name+": "+literal(v, c.typ))
		}
	}
	return out
}

// literal writes a value as GraphQL; strings of an enum type unquoted.
func literal(v any, typ string) string {
	switch v := v.(type) {
	case string:
		if typ == "JobSort" || typ == "WorkArrangement" {
			return v
		}
		return fmt.Sprintf("%q", v)
	case []any:
		items := make([]string, len(v))
		for i, x := range v {
			items[i] = literal(x, typ)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var members []string
		for _, k := range keys {
			t := ""
			if k == "workArrangement" {
				t = "WorkArrangement"
			}
			members = append(members, k+": "+literal(v[k], t))
		}
		return "{" + strings.Join(members, ", ") + "}"
	default:
		return fmt.Sprint(v)
	}
}

// selection picks a random non-empty subset of the fields of an object
// type, in a random order.
func (g *opGen) selection(typ string) string {
	var fields []*ast.FieldDefinition
	for _, f := range g.schema.Types[typ].Fields {
		if !strings.HasPrefix(f.Name, "__") {
			fields = append(fields, f)
		}
	}
	g.rnd.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	fields = fields[:1+g.rnd.IntN(len(fields))]
	keys := map[string]bool{}
	var parts []string
	for _, f := range fields {
		if slices.Contains(slowFields, typ+"."+f.Name) {
			if g.rnd.IntN(4) != 0 {
				continue // keep most operations plain
			}
			g.slow = true
		}
		if g.rnd.IntN(8) == 0 {
			parts = append(parts, g.key(keys, fields, "__typename")+"__typename")
		}
		part := g.key(keys, fields, f.Name) + f.Name
		switch typ + "." + f.Name {
		case "JobCardConnection.facets":
			part += "(fields: [SKILLS, SALARY, WORK_ARRANGEMENT])"
		case "Job.similar":
			part += "(limit: 2)"
		}
		if child := g.schema.Types[f.Type.Name()]; child.Kind == ast.Object {
			part += " " + g.selection(child.Name)
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		parts = append(parts, "__typename")
	}
	return "{ " + strings.Join(parts, " ") + " }"
}

// key returns an alias prefix ("alias: ") for a field, or "", keeping the
// response keys of a selection set distinct.
func (g *opGen) key(keys map[string]bool, fields []*ast.FieldDefinition, name string) string {
	alias := name
	switch g.rnd.IntN(6) {
	case 0:
		alias = fmt.Sprintf("a%d", g.rnd.IntN(1000))
	case 1:
		alias = fields[g.rnd.IntN(len(fields))].Name // another field's name
	}
	if keys[alias] {
		alias = fmt.Sprintf("k%d", len(keys))
	}
	for keys[alias] {
		alias += "_"
	}
	keys[alias] = true
	if alias == name {
		return ""
	}
	return alias + ": "
}
