package search

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// Limits of list requests (contract sections 1, 3 and 4).
const (
	DefaultJobLimit     = 25
	DefaultCompanyLimit = 50
	// MaxLimit is the largest page of jobs or companies; a larger limit is
	// clamped to it.
	MaxLimit       = 100
	DefaultMinJobs = 1
	// DefaultFacetLimit and MaxFacetLimit bound the values of each facet.
	DefaultFacetLimit = 10
	MaxFacetLimit     = 100
)

// Page is how a list request pages: its size (Limit, or First, Relay's
// name of it in GraphQL connections; one of them), and where it starts:
// an Offset, or After, the cursor of the page before (REST's cursor,
// GraphQL's after).
type Page struct {
	First, Limit, Offset *int
	After                *string
}

// size returns the page's size: def when not given, clamped to most;
// below 1 is an error, and so is giving both first and limit.
func (p Page) size(def, most int) (int, error) {
	limit, err := p.limit()
	if err != nil {
		return 0, err
	}
	return limitOf(limit, def, most)
}

// limit returns the size given, first or limit (Relay's rule: one of
// them), unchecked.
func (p Page) limit() (*int, error) {
	if p.First == nil {
		return p.Limit, nil
	}
	if p.Limit != nil {
		return nil, domain.InvalidParam("first", "first and limit are the same page size; give one of them")
	}
	if *p.First < 1 {
		return nil, domain.InvalidParam("first", "first must be an integer ≥ 1")
	}
	return p.First, nil
}

// limitOf validates a list's limit: def when not given, clamped to most;
// below 1 is an error.
func limitOf(limit *int, def, most int) (int, error) {
	if limit == nil {
		return def, nil
	}
	if *limit < 1 {
		return 0, domain.InvalidParam("limit", "limit must be an integer ≥ 1")
	}
	return min(*limit, most), nil
}

// offset returns the page's offset, 0 when not given; below 0 is an
// error.
func (p Page) offset() (int, error) {
	if p.Offset == nil {
		return 0, nil
	}
	if *p.Offset < 0 {
		return 0, domain.InvalidParam("offset", "offset must be an integer ≥ 0")
	}
	return *p.Offset, nil
}

// after returns the page's cursor, nil when none is given; a cursor and
// an offset other than 0 are exclusive.
func (p Page) after() (*string, error) {
	if p.After == nil || strings.TrimSpace(*p.After) == "" {
		return nil, nil
	}
	if p.Offset != nil && *p.Offset != 0 {
		return nil, domain.InvalidParam("cursor", "cursor and offset are exclusive; give one of them")
	}
	after := strings.TrimSpace(*p.After)
	return &after, nil
}

// offsetAfter returns the offset given, or the item after the cursor (a
// company's edge cursor), unchecked.
func (p Page) offsetAfter() (*int, error) {
	after, err := p.after()
	if err != nil || after == nil {
		return p.Offset, err
	}
	c, err := domain.DecodeOffsetCursor(*after)
	if err != nil {
		return nil, domain.InvalidParam("cursor", "cursor is not a cursor of this list; pass a cursor of the previous page unchanged")
	}
	n := int(c)
	return &n, nil
}

// ReadJobQuery validates and normalizes a job search into its query
// (contract sections 3 and 4): the page (size first), the filter
// (normalize), then the order and the cursor. It leaves the rates to the
// service (withRates). Errors are *domain.Error values naming the REST
// parameter.
func ReadJobQuery(norm *normalize.Normalizer, filter *domain.JobFilter, page Page, sort *domain.JobSort) (domain.JobQuery, error) {
	limit, err := page.size(DefaultJobLimit, MaxLimit)
	if err != nil {
		return domain.JobQuery{}, err
	}
	offset, err := page.offset()
	if err != nil {
		return domain.JobQuery{}, err
	}
	q, err := norm.JobFilter(filter)
	if err != nil {
		return domain.JobQuery{}, err
	}
	q.Limit, q.Offset = limit, offset
	if err := orderAndCursor(&q, sort, page); err != nil {
		return domain.JobQuery{}, err
	}
	return q, nil
}

// orderAndCursor picks the order (newest, contract section 3; relevance
// when a keyword query q is given) unless sort says otherwise, and reads
// the cursor of a previous page. A relevance cursor carries the offset of
// the next page: relevance has no key to seek.
func orderAndCursor(q *domain.JobQuery, sort *domain.JobSort, page Page) error {
	q.Sort = domain.JobSortNewest
	if q.Q != "" {
		q.Sort = domain.JobSortRelevance
	}
	if sort != nil {
		if !sort.IsValid() {
			return domain.AllowedError("sort", string(*sort), domain.JobSorts...)
		}
		q.Sort = *sort
	}
	if q.Sort == domain.JobSortRelevance && q.Q == "" {
		return domain.InvalidParam("sort", "sort=relevance needs a keyword query q")
	}
	if q.Sort == domain.JobSortDistance && q.Near == nil {
		return domain.InvalidParam("sort", "sort=distance needs a point: near (a city) or lat and lng")
	}
	after, err := page.after()
	if err != nil || after == nil {
		return err
	}
	c, err := domain.DecodeCursor(*after)
	switch {
	case err != nil || !c.Sort.IsValid() || !normalize.ValidJobID(c.ID) || c.Offset < 0 || math.IsNaN(c.Number):
		return cursorError("is not a cursor of a job list", "")
	case c.Sort != q.Sort:
		return cursorError(fmt.Sprintf("is of the %s order, not %s", c.Sort, q.Sort),
			fmt.Sprintf("; ask with sort %s, or without the cursor", c.Sort))
	}
	q.Offset = c.Offset
	if q.Sort != domain.JobSortRelevance {
		q.After = &c
	}
	return nil
}

// cursorError is the invalid_parameter error of a job list's cursor that
// is not, in each transport's terms: what is wrong, then what to do.
func cursorError(wrong, instead string) *domain.Error {
	if instead == "" {
		instead = "; pass the %s of the previous page unchanged"
	} else {
		instead += " (the %s of the previous page)"
	}
	e := domain.InvalidParam("cursor", "cursor %s"+instead, wrong, "meta.next_cursor")
	e.GraphQLMessage = fmt.Sprintf("after %s"+instead, wrong, "pageInfo.endCursor, or an edge's cursor,")
	return e
}

// readCompanyQuery validates a company list request; a job filter with
// any member set makes only the matching jobs count.
func readCompanyQuery(norm *normalize.Normalizer, req CompaniesRequest) (domain.CompanyQuery, error) {
	// Relay's rule and the cursor first, then the values' bounds.
	given, err := req.Page.limit()
	if err != nil {
		return domain.CompanyQuery{}, err
	}
	at, err := req.Page.offsetAfter()
	if err != nil {
		return domain.CompanyQuery{}, err
	}
	page := Page{Limit: given, Offset: at}
	limit, err := page.size(DefaultCompanyLimit, MaxLimit)
	if err != nil {
		return domain.CompanyQuery{}, err
	}
	offset, err := page.offset()
	if err != nil {
		return domain.CompanyQuery{}, err
	}
	q := domain.CompanyQuery{MinJobs: DefaultMinJobs, Limit: limit, Offset: offset}
	if req.MinJobs != nil {
		if *req.MinJobs < 0 {
			return q, domain.InvalidParam("min_jobs", "min_jobs must be an integer ≥ 0")
		}
		q.MinJobs = *req.MinJobs
	}
	if req.Filter != nil {
		jq, err := norm.JobFilter(req.Filter)
		if err != nil {
			return q, err
		}
		if !jq.Normalized.IsEmpty() {
			q.Jobs = &jq
		}
	}
	return q, nil
}

// facetRequest is a validated request for facets: the fields (REST names,
// without repeats) and how many values of each (default 10, at most 100).
type facetRequest struct {
	fields []string
	limit  int
}

// readFacets validates a request for facets.
func readFacets(fields []string, limit *int) (facetRequest, error) {
	n := DefaultFacetLimit
	if limit != nil {
		if *limit < 1 {
			return facetRequest{}, domain.InvalidParam("facet_limit", "facet_limit must be an integer ≥ 1")
		}
		n = min(*limit, MaxFacetLimit)
	}
	var out []string
	for _, f := range fields {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" || slices.Contains(out, f) {
			continue
		}
		if !slices.Contains(domain.FacetFields, f) {
			return facetRequest{}, domain.AllowedError("facets", f, domain.FacetFields...)
		}
		out = append(out, f)
	}
	return facetRequest{fields: out, limit: n}, nil
}
