package domain

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/currency"
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
	// FieldTitle is the field of the title intent's filter. It matches the
	// keys of the category a job shows (FieldCategory*), under a field of
	// its own so that the category facets do not leave it out as their own
	// filter.
	FieldTitle = "title"
	// FieldSalaryCurrency and FieldSalary are fields of the service's own
	// keys (CurrencyKey, NoSalaryKey), not of a filter.
	FieldSalaryCurrency = "salary_currency"
	FieldSalary         = "salary"
)

// Key is the index key of a field's value: "field:value". Every key is
// one: a filter value's (its value folded, normalize.FilterKey), a
// currency's, no salary's and a point's (NearKey).
func Key(field, value string) string { return field + ":" + value }

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
	// Currency is what the salary bounds, the salary sorts and the salary
	// histogram are in.
	Currency SalaryCurrency
	// PostedAfter keeps jobs posted at or after it (undated jobs never).
	PostedAfter *time.Time
	// CompanyID keeps the jobs of one company (a company page's jobs).
	CompanyID *int64
	// Near is the point and radius of a near filter (its KeyFilter is
	// among Filters): cards then carry their distance, and it orders
	// JobSortDistance.
	Near   *NearQuery
	Sort   JobSort
	Limit  int
	Offset int
	After  *Cursor
	// CardExtras reads each card's list extras too (PostedAt, CompanyLogo,
	// Summary): GraphQL asks for them when a selection names them, so that
	// a page without them costs what it did.
	CardExtras bool
	// Normalized tells how each filter was interpreted (REST meta.normalized).
	Normalized NormalizedFilter
}

// SalaryCurrency is the currency a query compares salaries in, and the
// rates it converts postings' salaries with.
type SalaryCurrency struct {
	// Code is an ISO 4217 code, upper case ("USD" unless the request named
	// another).
	Code string
	// Named tells that the request named the currency.
	Named bool
	// Rates are the reference rates the query was read with; nil without
	// rates (salaries are then compared in their own currency only).
	Rates *currency.Rates
}

// CurrencyKey is the index key of the postings whose salary is in code
// (upper case).
func CurrencyKey(code string) string { return Key(FieldSalaryCurrency, code) }

// NoSalaryKey is the index key of the postings without a salary.
var NoSalaryKey = Key(FieldSalary, "none")

// UsesSalary reports whether q filters or sorts by salary.
func (q *JobQuery) UsesSalary() bool {
	return q.SalaryMin != nil || q.SalaryMax != nil || q.Sort == JobSortSalaryDesc || q.Sort == JobSortSalaryAsc
}

// TextQuery is the full-text part of a job query: the title's words
// outside the taxonomy and the keyword search. The database judges it; the
// index answers the rest.
type TextQuery struct {
	TitleText string
	Q         string
}

// Text returns q's full-text part.
func (q *JobQuery) Text() TextQuery { return TextQuery{TitleText: q.TitleText, Q: q.Q} }

// Empty reports whether t holds no condition.
func (t TextQuery) Empty() bool { return t.TitleText == "" && t.Q == "" }

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
	var buf [cursorSize]byte
	return string(c.AppendEncode(buf[:0]))
}

// cursorSize is room for the text of a usual cursor.
const cursorSize = 160

// AppendEncode appends the text of Encode to dst: the cursor's JSON
// (json.Marshal's bytes) in unpadded base64url. A page's edges encode a
// cursor per card, so the JSON is written without reflection, and only a
// cursor json.Marshal would write otherwise (a string to escape, a NaN, a
// year past 9999) takes json.Marshal (TestCursorEncodeAsJSON).
func (c Cursor) AppendEncode(dst []byte) []byte {
	var buf [cursorSize]byte
	b, ok := c.appendJSON(buf[:0])
	if !ok {
		b, _ = json.Marshal(c)
	}
	return base64.RawURLEncoding.AppendEncode(dst, b)
}

// appendJSON appends the cursor's JSON as json.Marshal writes it, or
// reports false when json.Marshal would write (or refuse) it otherwise.
func (c Cursor) appendJSON(b []byte) ([]byte, bool) {
	if !plainJSON(string(c.Sort)) || !plainJSON(c.ID) {
		return b, false
	}
	b = append(b, `{"s":"`...)
	b = append(b, c.Sort...)
	b = append(b, '"')
	if !c.Time.IsZero() {
		if y := c.Time.Year(); y < 0 || y > 9999 {
			return b, false
		}
		if _, offset := c.Time.Zone(); offset%60 != 0 {
			return b, false
		}
		b = append(b, `,"t":"`...)
		b = c.Time.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	if c.Number != 0 {
		if math.IsNaN(c.Number) || math.IsInf(c.Number, 0) {
			return b, false
		}
		b = append(b, `,"n":`...)
		b = appendJSONFloat(b, c.Number)
	}
	b = append(b, `,"i":"`...)
	b = append(b, c.ID...)
	b = append(b, `","o":`...)
	b = strconv.AppendInt(b, int64(c.Offset), 10)
	return append(b, '}'), true
}

// plainJSON reports whether json.Marshal writes s between quotes as it is:
// printable ASCII but the quote, the backslash and HTML's <, > and &.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendJSONFloat appends a finite float64 as encoding/json does: %f
// notation, but exponent notation below 1e-6 and from 1e21, with a
// one-digit negative exponent unpadded (1e-07 → 1e-7).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
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

// PageInfo describes one page of a list (REST meta, GraphQL's PageInfo).
type PageInfo struct {
	Total   int  `json:"total"`
	Limit   int  `json:"limit"`
	Offset  int  `json:"offset"`
	HasMore bool `json:"has_more"`
	// EndCursor is the cursor after the page's last item (nil on an empty
	// page): the after of the next page.
	EndCursor *string `json:"next_cursor,omitempty"`
	// StartCursor is the cursor of the page's first item, the position
	// after it (nil on an empty page).
	StartCursor *string `json:"-"`
}

// HasNextPage is Relay's name of HasMore: items follow the page.
func (p *PageInfo) HasNextPage() bool { return p.HasMore }

// HasPreviousPage reports whether items precede the page: its offset,
// or the position its after cursor records, is past the first item.
func (p *PageInfo) HasPreviousPage() bool { return p.Offset > 0 }

// JobCardPage is one page of job cards (GraphQL's JobCardConnection).
type JobCardPage struct {
	Nodes    []JobCard
	PageInfo PageInfo
	// Cursors holds, for each card, the position after it: Cursors[i]
	// is the after of the page that follows Nodes[i].
	Cursors []Cursor `json:"-"`
	// Normalized echoes how the filters were interpreted.
	Normalized NormalizedFilter
	// Query is the query of the page, for its facets.
	Query JobQuery `json:"-"`
	// FacetCounts are the facets the search asked for with the page (REST's
	// meta.facets), nil when it asked for none; GraphQL counts its facets
	// field by field.
	FacetCounts []Facet `json:"-"`
}

// JobCardEdge is a card of a page with its cursor (a Relay edge).
type JobCardEdge struct {
	Cursor EdgeCursor
	Node   *JobCard
}

// Edges returns the page's cards with their cursors, which are encoded
// only as they are written.
func (p *JobCardPage) Edges() []JobCardEdge {
	edges := make([]JobCardEdge, len(p.Nodes))
	for i := range p.Nodes {
		edges[i].Node = &p.Nodes[i]
		if i < len(p.Cursors) {
			edges[i].Cursor = EdgeCursor{&p.Cursors[i]}
		}
	}
	return edges
}

// EdgeCursor is an edge's cursor: the text of its Cursor's Encode,
// appended straight into an answer (AppendText) rather than made into a
// string per edge first. The zero EdgeCursor is "".
type EdgeCursor struct{ c *Cursor }

// String returns the cursor's text.
func (e EdgeCursor) String() string {
	if e.c == nil {
		return ""
	}
	return e.c.Encode()
}

// AppendText appends the cursor's text (base64url: it needs no escaping
// in JSON).
func (e EdgeCursor) AppendText(b []byte) ([]byte, error) {
	if e.c != nil {
		b = e.c.AppendEncode(b)
	}
	return b, nil
}

// TotalCount is the exact number of matching jobs (PageInfo.Total).
func (p *JobCardPage) TotalCount() int { return p.PageInfo.Total }

// CompanyPage is one page of companies (GraphQL's CompanyConnection).
type CompanyPage struct {
	Nodes    []Company
	PageInfo PageInfo
	// Normalized echoes how a job filter was interpreted (empty without
	// one).
	Normalized NormalizedFilter
}

// CompanyEdge is a company of a page with its cursor (a Relay edge).
type CompanyEdge struct {
	Cursor string
	Node   *Company
}

// Edges returns the page's companies with their cursors: a company list
// is paged by offset, and a company's cursor is the position after it.
func (p *CompanyPage) Edges() []CompanyEdge {
	edges := make([]CompanyEdge, len(p.Nodes))
	for i := range p.Nodes {
		edges[i] = CompanyEdge{Cursor: OffsetCursor(p.PageInfo.Offset + i + 1).Encode(), Node: &p.Nodes[i]}
	}
	return edges
}

// TotalCount is the exact number of matching companies (PageInfo.Total).
func (p *CompanyPage) TotalCount() int { return p.PageInfo.Total }

// OffsetCursor is a position in a list paged by offset (companies): the
// offset of the item that follows. It is opaque to clients.
type OffsetCursor int

// offsetCursorPrefix marks the text of an OffsetCursor, so that a job
// list's cursor is not read as one.
const offsetCursorPrefix = "offset:"

// Encode returns the opaque text form of the cursor.
func (c OffsetCursor) Encode() string {
	return base64.RawURLEncoding.EncodeToString(strconv.AppendInt([]byte(offsetCursorPrefix), int64(c), 10))
}

// DecodeOffsetCursor parses a cursor made by OffsetCursor.Encode.
func DecodeOffsetCursor(s string) (OffsetCursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return 0, err
	}
	text, ok := strings.CutPrefix(string(b), offsetCursorPrefix)
	if !ok {
		return 0, errors.New("not an offset cursor")
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 {
		return 0, errors.New("not an offset cursor")
	}
	return OffsetCursor(n), nil
}

// JobRecord is a job ready to store: the public record plus what the
// normalizer derived for matching, which the API does not show.
type JobRecord struct {
	Job
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
