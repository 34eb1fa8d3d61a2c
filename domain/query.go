package domain

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"time"
)

// Filter fields: the names under which a job's normalized values are
// matched. Each KeyFilter of a JobQuery names one of them.
const (
	FieldSkills                 = "skills"
	FieldTools                  = "tools"
	FieldTechnicalSkills        = "technical_skills"
	FieldSoftSkills             = "soft_skills"
	FieldVisas                  = "visas"
	FieldEducationLevels        = "education_levels"
	FieldEducationMajors        = "education_majors"
	FieldCertifications         = "certifications"
	FieldSecurityClearances     = "security_clearances"
	FieldBenefits               = "benefits"
	FieldWorkArrangement        = "work_arrangement"
	FieldEmploymentType         = "employment_type"
	FieldCity                   = "city"
	FieldState                  = "state"
	FieldCountry                = "country"
	FieldCategoryField          = "category_field"
	FieldCategoryRole           = "category_role"
	FieldCategorySpecialization = "category_specialization"
	// The category the normalizer gives a job's own title, matched by the
	// title intent filter.
	FieldTitleField          = "title_field"
	FieldTitleRole           = "title_role"
	FieldTitleSpecialization = "title_specialization"
)

// KeyFilter matches jobs that have any of Values in Field. Values are
// canonical spellings; Keys are their match keys ("field:folded value"),
// compared with the keys of a JobRecord.
type KeyFilter struct {
	Field  string
	Values []string
	Keys   []string
	// All requires every value instead of any.
	All bool
}

// JobQuery is a validated, normalized job search: every KeyFilter, the
// company substring, the title full-text words, the salary range and the
// keyword query must all match (AND).
type JobQuery struct {
	Filters   []KeyFilter
	Company   string
	TitleText string
	Q         string
	SalaryMin *float64
	SalaryMax *float64
	// IncludeUnknownSalary keeps jobs without a salary in a salary filter.
	IncludeUnknownSalary bool
	// PostedAfter keeps jobs posted at or after it (undated jobs never).
	PostedAfter *time.Time
	// CompanyID keeps the jobs of one company (a company page's jobs).
	CompanyID *int64
	Sort      JobSort
	Limit     int
	Offset    int
	After     *Cursor
	// Normalized tells how each filter was interpreted (REST meta.normalized).
	Normalized map[string]any
}

// CompanyQuery is a validated company list request.
type CompanyQuery struct {
	MinJobs int
	Limit   int
	Offset  int
	// Jobs, when set, counts only the jobs that match it (its paging and
	// order are not used).
	Jobs *JobQuery
}

// Cursor is a position in a sorted job list: the sort key and id of the last
// job of a page, and the offset of the next job. It is opaque to clients.
type Cursor struct {
	Sort   JobSort   `json:"s"`
	Time   time.Time `json:"t,omitzero"`
	Number float64   `json:"n,omitempty"`
	ID     string    `json:"i"`
	Offset int       `json:"o"`
}

// Encode returns the opaque text form of the cursor.
func (c Cursor) Encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses a cursor made by Encode.
func DecodeCursor(s string) (Cursor, error) {
	var c Cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, err
	}
	return c, nil
}

// PageInfo describes one page of a list (REST meta).
type PageInfo struct {
	Total     int     `json:"total"`
	Limit     int     `json:"limit"`
	Offset    int     `json:"offset"`
	HasMore   bool    `json:"has_more"`
	EndCursor *string `json:"next_cursor,omitempty"`
}

// JobCardPage is one page of job cards.
type JobCardPage struct {
	Nodes    []JobCard
	PageInfo PageInfo
	// Normalized echoes how the filters were interpreted (REST only).
	Normalized map[string]any
	// Query is the query of the page, for its facets.
	Query JobQuery `json:"-"`
}

// CompanyPage is one page of companies.
type CompanyPage struct {
	Nodes    []Company
	PageInfo PageInfo
	// Normalized echoes how a job filter was interpreted (REST only).
	Normalized map[string]any
}

// JobRecord is a job ready to store: the public record plus what the
// normalizer derived for matching, which the API does not show.
type JobRecord struct {
	Job
	// TitleCategory is the category the normalizer gives the job's title.
	TitleCategory Category
	// PostedTime is PostedAt parsed; zero when unknown.
	PostedTime time.Time
	// ValidThrough is when the posting closes by itself (the record's
	// valid_through, schema.org validThrough); nil when it does not.
	ValidThrough *time.Time
	// AnnualMin and AnnualMax are the salary bounds per year; nil when the
	// salary or its period is unknown.
	AnnualMin, AnnualMax *float64
	// FilterKeys are the match keys of every filterable value of the job.
	FilterKeys []string
	// CompanySlug names the company's page.
	CompanySlug string
	// Given holds the values the source gave where they differ from the
	// normalized ones (a JSON object; nil when none does), so that the
	// record can be normalized again (normalize.Given).
	Given []byte
}

// Without returns q without the filters of a facet field: its key
// filters, and for company and salary their own clauses (disjunctive
// faceting counts a field without its own filter).
func (q JobQuery) Without(field string) JobQuery {
	filters := q.Filters
	q.Filters = make([]KeyFilter, 0, len(filters))
	for _, f := range filters {
		if f.Field != field {
			q.Filters = append(q.Filters, f)
		}
	}
	switch field {
	case FacetCompany:
		q.Company = ""
	case FacetSalary:
		q.SalaryMin, q.SalaryMax, q.IncludeUnknownSalary = nil, nil, false
	}
	return q
}

// cardExtrasKey marks a context whose job lists read the cards' extras.
type cardExtrasKey struct{}

// WithCardExtras returns a context whose job lists (a search's page, a
// company's jobs, similar jobs) also read each card's list extras:
// PostedAt, CompanyLogo and Summary. GraphQL asks for them when a
// selection names them, so that a page without them costs what it did.
func WithCardExtras(ctx context.Context) context.Context {
	return context.WithValue(ctx, cardExtrasKey{}, true)
}

// CardExtras reports whether the job lists of ctx read the cards' extras.
func CardExtras(ctx context.Context) bool {
	v, _ := ctx.Value(cardExtrasKey{}).(bool)
	return v
}
