package search

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/suggest"
)

// suggestFieldList names the suggested fields, for errors.
var suggestFieldList = func() string {
	names := make([]string, len(domain.SuggestFields))
	for i, f := range domain.SuggestFields {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}()

// Suggestion limits.
const (
	DefaultSuggestions = 8
	MaxSuggestions     = 20
	// MaxSuggestPrefix is the longest prefix, in code points.
	MaxSuggestPrefix = 64
)

// Suggest returns the values of field that prefix completes to, with how
// many jobs each selects under filter (where the suggestion's parameter
// replaces the one filter gives): values with jobs only, those matched
// exactly first, each group by count then folded value; at most limit.
func (s *Service) Suggest(ctx context.Context, field *string, prefix *string, filter *domain.JobFilter, limit *int) (*domain.Suggestions, error) {
	out := &domain.Suggestions{Limit: DefaultSuggestions}
	switch {
	case field == nil || *field == "":
		return nil, domain.InvalidParam("field", "field is required: one of %s", suggestFieldList)
	case !slices.Contains(domain.SuggestFields, domain.SuggestField(*field)):
		return nil, domain.InvalidParam("field", "field must be one of %s", suggestFieldList)
	}
	out.Field = *field
	if prefix != nil {
		out.Prefix = *prefix
	}
	switch {
	case !utf8.ValidString(out.Prefix):
		return nil, domain.InvalidParam("prefix", "prefix is not valid UTF-8")
	case utf8.RuneCountInString(out.Prefix) > MaxSuggestPrefix:
		return nil, domain.InvalidParam("prefix", "prefix must be at most %d characters", MaxSuggestPrefix)
	}
	if limit != nil {
		if *limit < 1 || *limit > MaxSuggestions {
			return nil, domain.InvalidParam("limit", "limit must be an integer from 1 to %d", MaxSuggestions)
		}
		out.Limit = *limit
	}
	if filter == nil {
		filter = &domain.JobFilter{}
	}
	if _, err := s.jobQuery(filter, Page{}, nil); err != nil {
		return nil, err
	}
	// One read of the feed's position for the whole request: every count
	// and list of values below is of an index that has it.
	at := s.store.SuggestAt(ctx)
	sources, err := s.suggestSources(ctx, at, out.Field)
	if err != nil {
		return nil, err
	}
	for _, typos := range []bool{false, true} {
		var found []scored
		for _, src := range sources {
			more, err := s.score(ctx, at, src, out.Prefix, typos, filter, out.Limit)
			if err != nil {
				return nil, err
			}
			found = append(found, more...)
		}
		slices.SortFunc(found, func(a, b scored) int {
			return cmp.Or(cmp.Compare(b.count, a.count), strings.Compare(a.folded, b.folded))
		})
		for _, f := range found[:min(len(found), out.Limit-len(out.Nodes))] {
			out.Nodes = append(out.Nodes, f.src.suggestion(f.term, f.count))
		}
		if len(out.Nodes) == out.Limit {
			break
		}
	}
	if out.Nodes == nil {
		out.Nodes = []domain.Suggestion{}
	}
	return out, nil
}

// scored is a value found, and its count.
type scored struct {
	src    *source
	term   int
	count  int
	folded string
}

// score finds the values of src that prefix completes to (only those
// found with one edit, with typos) and counts them under filter with
// src's parameter left out: those with jobs, among which the k with most.
func (s *Service) score(ctx context.Context, at int64, src *source, prefix string, typos bool, filter *domain.JobFilter, k int) ([]scored, error) {
	dict, err := s.presentDict(ctx, at, src)
	if err != nil {
		return nil, err
	}
	var terms []int
	for _, m := range dict.Find(prefix, typos) {
		if m.Typo == typos {
			terms = append(terms, m.Entry)
		}
	}
	if len(terms) == 0 {
		return nil, nil
	}
	base, err := s.jobQuery(src.without(filter), Page{}, nil)
	if err != nil {
		return nil, err
	}
	values := make([]*domain.ValueFilter, len(terms))
	for i, t := range terms {
		if values[i], err = s.valueQuery(src, t); err != nil {
			return nil, err
		}
	}
	counts, err := s.store.SuggestCounts(ctx, at, base, values, k)
	if err != nil {
		return nil, err
	}
	var out []scored
	for i, t := range terms {
		if counts[i] > 0 {
			out = append(out, scored{src: src, term: t, count: counts[i], folded: src.folded[t]})
		}
	}
	return out, nil
}

// presentDict returns the dictionary of src's values that may have jobs
// in the current index (a subset of src.dict, made again when the index's
// set of keys changes), or src.dict itself for companies (their source
// is the index's) and without an index.
func (s *Service) presentDict(ctx context.Context, at int64, src *source) (*suggest.Dict, error) {
	if src.param == "company" {
		return src.dict, nil
	}
	cur := src.present.Load()
	var known index.KeysKey
	if cur != nil {
		known = cur.key
	}
	values, err := s.valueQueries(src)
	if err != nil {
		return nil, err
	}
	present, key, changed, ok := s.store.SuggestPresent(ctx, at, known, values)
	switch {
	case !ok:
		return src.dict, nil
	case !changed:
		return cur.dict, nil
	}
	next := &presentDict{key: key, dict: src.dict.Subset(present)}
	src.present.Store(next)
	return next.dict, nil
}

// presentDict is the subset of a source's dictionary of the values that
// may have jobs in the indexes of a set of keys.
type presentDict struct {
	key  index.KeysKey
	dict *suggest.Dict
}

// valueQueries returns the filters of every value of src, made once.
func (s *Service) valueQueries(src *source) ([]*domain.ValueFilter, error) {
	if all := src.all.Load(); all != nil {
		return *all, nil
	}
	out := make([]*domain.ValueFilter, len(src.terms))
	for t := range src.terms {
		v, err := s.valueQuery(src, t)
		if err != nil {
			return nil, err
		}
		out[t] = v
	}
	src.all.Store(&out)
	return out, nil
}

// valueQuery returns the query of the filter that selects src's value t,
// normalized once (it is shared: not to be changed).
func (s *Service) valueQuery(src *source, t int) (*domain.ValueFilter, error) {
	if q := src.queries[t].Load(); q != nil {
		return q, nil
	}
	var f domain.JobFilter
	src.set(&f, src.terms[t].Filter)
	q, err := s.jobQuery(&f, Page{}, nil)
	if err != nil {
		return nil, err
	}
	// What counting reads of it, kept for every value of a source: the
	// keys (interned: most values of a source share some) and company.
	kept := &domain.ValueFilter{Company: q.Company, Filters: make([]domain.KeyFilter, len(q.Filters))}
	src.mu.Lock()
	for i, f := range q.Filters {
		keys := make([]string, len(f.Keys))
		for j, k := range f.Keys {
			keys[j] = src.intern(k)
		}
		kept.Filters[i] = domain.KeyFilter{Field: src.intern(f.Field), Keys: keys, All: f.All}
	}
	src.mu.Unlock()
	if !src.queries[t].CompareAndSwap(nil, kept) {
		return src.queries[t].Load(), nil // made meanwhile: one pointer a value
	}
	return kept, nil
}

// source is one kind of suggested value: its terms, their dictionary, and
// the filter parameter they set.
type source struct {
	param   string
	terms   []normalize.SuggestTerm
	folded  []string
	dict    *suggest.Dict
	queries []atomic.Pointer[domain.ValueFilter]
	// present is the dictionary of the values that may have jobs; all
	// are the queries once every one is made.
	present atomic.Pointer[presentDict]
	all     atomic.Pointer[[]*domain.ValueFilter]
	// mu guards keys, the strings of the queries' keys, once each.
	mu   sync.Mutex
	keys map[string]string
	// companies is the key of the index's list a company source is of.
	companies index.CompaniesKey
}

func newSource(param string, terms []normalize.SuggestTerm) *source {
	src := &source{param: param, terms: terms, folded: make([]string, len(terms)), queries: make([]atomic.Pointer[domain.ValueFilter], len(terms))}
	entries := make([]suggest.Entry, len(terms))
	for i, t := range terms {
		entries[i] = suggest.Entry{Spellings: t.Spellings}
		src.folded[i] = fold.Fold(t.Value)
	}
	src.dict = suggest.New(entries)
	for i := range src.terms {
		src.terms[i].Spellings = nil // in the dictionary now
	}
	return src
}

// intern returns the one copy of s among the queries' keys. src.mu is
// held.
func (src *source) intern(s string) string {
	if v, ok := src.keys[s]; ok {
		return v
	}
	if src.keys == nil {
		src.keys = map[string]string{}
	}
	src.keys[s] = s
	return s
}

// suggestParams are the parameters suggestions set, and the members of
// JobFilter and SuggestedFilter that are each.
var suggestParams = map[string]struct {
	job       func(f *domain.JobFilter, v *string) // nil v: unset
	suggested func(f *domain.SuggestedFilter, v string)
}{
	"company": {func(f *domain.JobFilter, v *string) { f.Company = v },
		func(f *domain.SuggestedFilter, v string) { f.Company = &v }},
	"skills": {func(f *domain.JobFilter, v *string) {
		if f.Skills = nil; v != nil {
			f.Skills = []string{*v}
		}
	}, func(f *domain.SuggestedFilter, v string) { f.Skills = []string{v} }},
	"category_role": {func(f *domain.JobFilter, v *string) { f.CategoryRole = v },
		func(f *domain.SuggestedFilter, v string) { f.CategoryRole = &v }},
	"category_specialization": {func(f *domain.JobFilter, v *string) { f.CategorySpecialization = v },
		func(f *domain.SuggestedFilter, v string) { f.CategorySpecialization = &v }},
	"location": {func(f *domain.JobFilter, v *string) { f.Location = v },
		func(f *domain.SuggestedFilter, v string) { f.Location = &v }},
}

// set sets src's parameter of f to v.
func (src *source) set(f *domain.JobFilter, v string) { suggestParams[src.param].job(f, &v) }

// without returns f without src's parameter, which a suggestion replaces.
func (src *source) without(f *domain.JobFilter) *domain.JobFilter {
	g := *f
	suggestParams[src.param].job(&g, nil)
	return &g
}

// suggestion is the suggestion of term t, with its count.
func (src *source) suggestion(t, count int) domain.Suggestion {
	term := src.terms[t]
	sg := domain.Suggestion{Value: term.Value, Count: count}
	suggestParams[src.param].suggested(&sg.Filter, term.Filter)
	return sg
}

// suggestSources are the sources of the suggestions of each field: built
// once from the vocabularies, but the companies, built again when the
// index's list of companies changes.
type suggestSources struct {
	once                 sync.Once
	roles, specs, skills *source
	locationsOnce        sync.Once
	locations            *source
	companiesMu          sync.Mutex
	companies            atomic.Pointer[source]
}

// suggestSources returns the sources of field's values.
func (s *Service) suggestSources(ctx context.Context, at int64, field string) ([]*source, error) {
	ss := s.suggestions
	ss.once.Do(func() {
		roles, specs := s.norm.TitleTerms()
		ss.roles, ss.specs = newSource("category_role", roles), newSource("category_specialization", specs)
		ss.skills = newSource("skills", s.norm.SkillTerms())
	})
	switch field {
	case "title":
		return []*source{ss.roles, ss.specs}, nil
	case "skills":
		return []*source{ss.skills}, nil
	case "company":
		src, err := s.companySource(ctx, at)
		return []*source{src}, err
	case "location":
		ss.locationsOnce.Do(func() { ss.locations = newSource("location", s.norm.LocationTerms()) })
		return []*source{ss.locations}, nil
	}
	return nil, nil
}

// PrepareSuggestions builds the dictionaries of the fields whose values
// come from the vocabularies, and normalizes their values' filters, which
// the first request of each field would do otherwise.
func (s *Service) PrepareSuggestions() {
	for _, field := range []string{"title", "skills", "location"} {
		sources, _ := s.suggestSources(context.Background(), -1, field)
		for _, src := range sources {
			for t := range src.terms {
				if _, err := s.valueQuery(src, t); err != nil {
					break
				}
			}
		}
	}
}

// companySource returns the source of the companies the index knows now.
func (s *Service) companySource(ctx context.Context, at int64) (*source, error) {
	ss := s.suggestions
	cur := ss.companies.Load()
	var known index.CompaniesKey
	if cur != nil {
		known = cur.companies
	}
	names, key, changed, err := s.store.SuggestCompanies(ctx, at, known)
	if err != nil || !changed {
		return cur, err
	}
	ss.companiesMu.Lock()
	defer ss.companiesMu.Unlock()
	if now := ss.companies.Load(); now != nil && now != cur && now.companies == key {
		return now, nil // built meanwhile
	}
	terms := make([]normalize.SuggestTerm, 0, len(names))
	for _, n := range names {
		terms = append(terms, normalize.SuggestTerm{Value: n, Filter: n, Spellings: []string{n}})
	}
	src := newSource("company", terms)
	src.companies = key
	if key != (index.CompaniesKey{}) {
		ss.companies.Store(src)
	}
	return src, nil
}
