// Package rest serves the REST endpoints of the specification under
// /api/v1. It is a thin layer over the query service (package search, the
// one query path): it reads query strings into the service's arguments and
// writes the {data, meta} envelope or the contract's error body.
package rest

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// Handler serves the REST endpoints over the query service.
type Handler struct {
	svc *search.Service
	log *slog.Logger
	// heartbeat is how often a quiet stream writes a comment line.
	heartbeat time.Duration
	// writeLimit bounds each write of a stream (search.PushWriteLimit).
	writeLimit time.Duration
}

// Option sets a Handler's option.
type Option func(*Handler)

// WithStreamHeartbeat sets how often a stream without events writes a
// comment line (default DefaultStreamHeartbeat).
func WithStreamHeartbeat(d time.Duration) Option { return func(h *Handler) { h.heartbeat = d } }

// WithStreamWriteLimit sets how long each write of a stream may wait for
// its client to read (default search.PushWriteLimit).
func WithStreamWriteLimit(d time.Duration) Option { return func(h *Handler) { h.writeLimit = d } }

// NewRouter returns the /api/v1 routes (mount it at /api/v1).
func NewRouter(svc *search.Service, log *slog.Logger, opts ...Option) http.Handler {
	h := &Handler{svc: svc, log: log, heartbeat: DefaultStreamHeartbeat, writeLimit: search.PushWriteLimit}
	for _, o := range opts {
		o(h)
	}
	r := chi.NewRouter()
	r.Get("/jobs", h.jobs)
	r.Get("/jobs/stream", h.stream)
	r.Get("/jobs/{id}", h.job)
	r.Get("/jobs/{id}/similar", h.similar)
	r.Get("/companies", h.companies)
	r.Get("/companies/{slug}", h.company)
	r.Get("/normalize", h.normalize)
	r.Get("/changes", h.changes)
	r.Get("/suggest", h.suggest)
	r.NotFound(NotFound(log))
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		WriteError(w, r, log, domain.Errorf(domain.CodeMethodNotAllowed, "%s is not allowed here; use GET or HEAD", Clip(r.Method)))
	})
	return r
}

// NotFound answers unknown paths with the contract's not_found error.
func NotFound(log *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, r, log, domain.Errorf(domain.CodeNotFound, "no such path: %s", Clip(r.URL.Path)))
	}
}

// jobParams are the query parameters of GET /jobs.
var jobParams = append(slices.Clone(filterParams), "sort", "limit", "offset", "cursor", "facets", "facet_limit")

func (h *Handler) jobs(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, jobParams...)
	// Read in the order of the parameters' syntax errors: of two, the
	// first named here is the one reported.
	req := search.JobsRequest{Filter: filterOf(p)}
	if s := p.str("sort"); s != nil {
		v := domain.JobSort(*s)
		req.Sort = &v
	}
	req.Page = pageOf(p)
	req.Page.After = p.str("cursor")
	req.Facets = p.list("facets")
	req.FacetLimit = p.integer("facet_limit", "facet_limit must be an integer ≥ 1")
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	page, err := h.svc.Jobs(r.Context(), req)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	m := &meta{
		Total: page.PageInfo.Total, Limit: page.PageInfo.Limit, Offset: page.PageInfo.Offset, HasMore: page.PageInfo.HasMore,
		NextCursor: page.PageInfo.EndCursor, Normalized: normalized(&page.Normalized),
	}
	if page.FacetCounts != nil {
		m.Facets = map[string]any{}
		for _, f := range page.FacetCounts {
			if f.Field == domain.FacetSalary {
				m.Facets[string(f.Field)] = f.Buckets
			} else {
				m.Facets[string(f.Field)] = f.Values
			}
		}
	}
	writeJSON(w, r, http.StatusOK, envelope{Data: cardsOf(page), Meta: m})
}

// pageOf reads the limit and offset parameters of a list.
func pageOf(p *params) search.Page {
	return search.Page{
		Limit:  p.integer("limit", "limit must be an integer ≥ 1"),
		Offset: p.integer("offset", "offset must be an integer ≥ 0"),
	}
}

// normalize shows how filter values are read: GET /normalize?skills=k8s,
// or ?field=skills&value=k8s, answers {"data": {"skills": ["Kubernetes"]}}.
func (h *Handler) normalize(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, append([]string{"field", "value"}, filterParams...)...)
	field, hasField := p.single("field")
	value, hasValue := p.single("value")
	switch {
	case p.err != nil:
	case hasField != hasValue:
		p.fail(domain.InvalidParam("field", "field and value go together"))
	case hasField:
		if !slices.Contains(filterParams, field) {
			p.fail(domain.InvalidParam("field", "field must be one of %s", strings.Join(filterParams, ", ")))
			break
		}
		if _, given := p.values[field]; given {
			p.fail(domain.InvalidParam("field", "%s is given both as field and as a parameter", field))
			break
		}
		p.values.Set(field, value)
	}
	f := filterOf(p)
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	normalized, err := h.svc.Interpret(*f)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	writeJSON(w, r, http.StatusOK, envelope{Data: normalized})
}

func (h *Handler) job(w http.ResponseWriter, r *http.Request) {
	if p := readParams(r.URL); p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	job, err := h.svc.Job(r.Context(), chi.URLParam(r, "id"))
	writeOne(h, w, r, job, err)
}

// writeOne writes one record, or the error (not_found when there is none).
func writeOne[T any](h *Handler, w http.ResponseWriter, r *http.Request, v *T, err error) {
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	writeJSON(w, r, http.StatusOK, envelope{Data: v})
}

// similar serves the postings similar to a job (Job.similar in GraphQL).
func (h *Handler) similar(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, "limit")
	limit := p.integer("limit", "limit must be an integer ≥ 1")
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	page, err := h.svc.Similar(r.Context(), chi.URLParam(r, "id"), limit, false)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	writeJSON(w, r, http.StatusOK, envelope{Data: page.Cards, Meta: &meta{
		Total: page.Total, Limit: page.Limit, Offset: 0, HasMore: len(page.Cards) < page.Total,
	}})
}

// company serves a company's page by its slug.
func (h *Handler) company(w http.ResponseWriter, r *http.Request) {
	if p := readParams(r.URL); p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	slug := chi.URLParam(r, "slug")
	company, err := h.svc.Company(r.Context(), &slug, nil)
	writeOne(h, w, r, company, err)
}

func (h *Handler) companies(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, append([]string{"min_jobs", "limit", "offset"}, filterParams...)...)
	req := search.CompaniesRequest{MinJobs: p.integer("min_jobs", "min_jobs must be an integer ≥ 0"), Page: pageOf(p), Filter: filterOf(p)}
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	page, err := h.svc.Companies(r.Context(), req)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	writeJSON(w, r, http.StatusOK, envelope{Data: page.Nodes, Meta: &meta{
		Total: page.PageInfo.Total, Limit: page.PageInfo.Limit, Offset: page.PageInfo.Offset, HasMore: page.PageInfo.HasMore,
		Normalized: normalized(&page.Normalized),
	}})
}

// changes serves the change feed: GET /changes?after=CURSOR&limit=N.
func (h *Handler) changes(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, "after", "limit")
	after := p.str("after")
	limit := p.integer("limit", "limit must be an integer ≥ 1")
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	page, err := h.svc.Changes(r.Context(), after, limit)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	writeJSON(w, r, http.StatusOK, feedBody(page))
}
