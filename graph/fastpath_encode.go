package graph

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/jobsd-dev/jobsd/domain"
)

// encoder writes the data of a fast-path answer byte for byte as gqlgen's
// generated marshalers would (graph/generated.go and the graphql package of
// gqlgen v0.17.90): members in selection order keyed by their alias, no
// whitespace, nil pointers as null, nil non-null lists as [], nullable
// lists (Job.securityClearances) nil as null.
//
// Each object method is given a selection set the fast path checked
// (plainSelection) and sets failed, rather than guess, on anything else.
type encoder struct {
	buf []byte
	// failed is set when the data needs what gqlgen answers with an error
	// (a NaN or infinite Float) or a member the encoder does not know: the
	// operation then goes to gqlgen.
	failed bool
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 1 << 20

func getEncoder() *encoder { return encoders.Get().(*encoder) }

func putEncoder(e *encoder) {
	if cap(e.buf) > maxPooled {
		return
	}
	e.buf = e.buf[:0]
	e.failed = false
	encoders.Put(e)
}

// object writes an object of the named type with the members of sel:
// __typename here, the others by member, which reports false for a member
// it does not know. Keys are written as graphql.FieldSet does.
func (e *encoder) object(sel ast.SelectionSet, typename string, member func(f *ast.Field) bool) {
	e.buf = append(e.buf, '{')
	for i, s := range sel {
		f, ok := s.(*ast.Field)
		if !ok {
			e.failed = true
			return
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		// A response key is a GraphQL name ([_A-Za-z][_0-9A-Za-z]*, as the
		// parser reads it), which quoting leaves as it is.
		e.buf = append(e.buf, '"')
		e.buf = append(e.buf, f.Alias...)
		e.buf = append(e.buf, `":`...)
		if f.Name == "__typename" {
			e.string(typename)
		} else if !member(f) {
			e.failed = true
		}
		if e.failed {
			return
		}
	}
	e.buf = append(e.buf, '}')
}

// array writes a list of n items, item(i) writing the i-th.
func (e *encoder) array(n int, item func(i int)) {
	e.buf = append(e.buf, '[')
	for i := range n {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		item(i)
	}
	e.buf = append(e.buf, ']')
}

const hexDigits = "0123456789ABCDEF"

// escapeOrCheck marks the bytes string escapes (controls, quote,
// backslash, HTML's three) and 0xe2, which may begin U+2028 or U+2029: one
// table load per byte instead of seven comparisons.
var escapeOrCheck = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for _, c := range []byte{'"', '\\', '<', '>', '&', 0xe2} {
		t[c] = true
	}
	return t
}()

// string writes s quoted as graphql.MarshalString (writeQuotedString)
// and then json.Marshal of the response do together: control characters,
// '"' and '\' escaped as gqlgen escapes them (\t, \r and \n by name, the
// others as \u00XX in upper-case hex), then <, >, &, U+2028 and U+2029 as
// encoding/json escapes them (\u003c, \u2028); everything else, invalid
// UTF-8 included, is copied as is. So postTransport can write the bytes
// without json.Marshal, and json.Marshal leaves them unchanged. gqlgen
// ranges over runes, but every byte it escapes is ASCII, which never
// occurs inside a multi-byte sequence, so ranging over bytes escapes the
// same bytes.
func (e *encoder) string(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escapeOrCheck[c] {
			continue
		}
		if c == 0xe2 { // U+2028 and U+2029, which encoding/json escapes
			if i+2 >= len(s) || s[i+1] != 0x80 || s[i+2]&^1 != 0xa8 {
				continue
			}
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, `\u202`...)
			e.buf = append(e.buf, hexDigits[s[i+2]&1+8])
			i += 2
			start = i + 1
			continue
		}
		e.buf = append(e.buf, s[start:i]...)
		switch c {
		case '\t':
			e.buf = append(e.buf, `\t`...)
		case '\r':
			e.buf = append(e.buf, `\r`...)
		case '\n':
			e.buf = append(e.buf, `\n`...)
		case '\\':
			e.buf = append(e.buf, `\\`...)
		case '"':
			e.buf = append(e.buf, `\"`...)
		case '<':
			e.buf = append(e.buf, `\u003c`...)
		case '>':
			e.buf = append(e.buf, `\u003e`...)
		case '&':
			e.buf = append(e.buf, `\u0026`...)
		default:
			e.buf = append(e.buf, `\u00`...)
			e.buf = append(e.buf, hexDigits[c>>4])
			e.buf = append(e.buf, hexDigits[c&0xf])
		}
		start = i + 1
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
}

func (e *encoder) null() { e.buf = append(e.buf, "null"...) }

// optString writes a nullable String.
func (e *encoder) optString(s *string) {
	if s == nil {
		e.null()
		return
	}
	e.string(*s)
}

// strings writes a [String!]!: nil is [], as gqlgen makes an empty Array.
func (e *encoder) strings(list []string) {
	e.array(len(list), func(i int) { e.string(list[i]) })
}

// optStrings writes a [String!]: nil is null, empty is [].
func (e *encoder) optStrings(list []string) {
	if list == nil {
		e.null()
		return
	}
	e.strings(list)
}

// int writes an Int as graphql.MarshalInt does.
func (e *encoder) int(n int) {
	e.buf = strconv.AppendInt(e.buf, int64(n), 10)
}

// bool writes a Boolean as graphql.MarshalBoolean does.
func (e *encoder) bool(b bool) {
	e.buf = strconv.AppendBool(e.buf, b)
}

// optFloat writes a nullable Float as graphql.MarshalFloatContext does,
// with fmt's %g, which is strconv's shortest 'g' format (1e+21, 1e+06,
// 123456.789). gqlgen answers NaN and infinities with an error: they fail.
func (e *encoder) optFloat(f *float64) {
	if f == nil {
		e.null()
		return
	}
	if math.IsNaN(*f) || math.IsInf(*f, 0) {
		e.failed = true
		return
	}
	e.buf = strconv.AppendFloat(e.buf, *f, 'g', -1, 64)
}

// workArrangementGQL are the known work arrangements as their MarshalGQL
// writes them ("REMOTE"), made once: MarshalGQL allocates.
var workArrangementGQL = func() map[domain.WorkArrangement]string {
	m := map[domain.WorkArrangement]string{}
	for _, w := range domain.WorkArrangements {
		var b bytes.Buffer
		w.MarshalGQL(&b)
		m[w] = b.String()
	}
	return m
}()

// workArrangement writes the enum as its MarshalGQL does, which is what
// gqlgen calls.
func (e *encoder) workArrangement(w *domain.WorkArrangement) {
	if w == nil {
		e.null()
		return
	}
	if s, ok := workArrangementGQL[*w]; ok {
		e.buf = append(e.buf, s...)
		return
	}
	w.MarshalGQL(e)
}

// Write appends p, for the marshalers that write to an io.Writer.
func (e *encoder) Write(p []byte) (int, error) {
	e.buf = append(e.buf, p...)
	return len(p), nil
}

// jobCardPage writes a page; facets resolves its facets field (false:
// gqlgen must answer).
func (e *encoder) jobCardPage(sel ast.SelectionSet, p *domain.JobCardPage, facets func(*ast.Field) ([]*domain.Facet, bool)) {
	e.object(sel, "JobCardPage", func(f *ast.Field) bool {
		switch f.Name {
		case "facets":
			list, ok := facets(f)
			if !ok {
				return false
			}
			e.array(len(list), func(i int) { e.facet(f.SelectionSet, list[i]) })
		case "nodes":
			e.array(len(p.Nodes), func(i int) { e.jobCard(f.SelectionSet, &p.Nodes[i]) })
		case "pageInfo":
			e.pageInfo(f.SelectionSet, &p.PageInfo)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) facet(sel ast.SelectionSet, fc *domain.Facet) {
	if fc == nil { // [Facet!]!: gqlgen answers a null item with an error
		e.failed = true
		return
	}
	e.object(sel, "Facet", func(f *ast.Field) bool {
		switch f.Name {
		case "field":
			e.string(strings.ToUpper(string(fc.Field))) // FacetField.MarshalGQL
		case "values":
			e.array(len(fc.Values), func(i int) { e.facetValue(f.SelectionSet, &fc.Values[i]) })
		case "buckets":
			if fc.Buckets == nil {
				e.null()
				break
			}
			e.array(len(fc.Buckets), func(i int) { e.salaryBucket(f.SelectionSet, &fc.Buckets[i]) })
		default:
			return false
		}
		return true
	})
}

func (e *encoder) facetValue(sel ast.SelectionSet, v *domain.FacetValue) {
	e.object(sel, "FacetValue", func(f *ast.Field) bool {
		switch f.Name {
		case "value":
			e.string(v.Value)
		case "count":
			e.int(v.Count)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) salaryBucket(sel ast.SelectionSet, b *domain.SalaryBucket) {
	e.object(sel, "SalaryBucket", func(f *ast.Field) bool {
		switch f.Name {
		case "min":
			e.optFloat(&b.Min)
		case "max":
			e.optFloat(b.Max)
		case "count":
			e.int(b.Count)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) companyPage(sel ast.SelectionSet, p *domain.CompanyPage) {
	e.object(sel, "CompanyPage", func(f *ast.Field) bool {
		switch f.Name {
		case "nodes":
			e.array(len(p.Nodes), func(i int) { e.company(f.SelectionSet, &p.Nodes[i]) })
		case "pageInfo":
			e.pageInfo(f.SelectionSet, &p.PageInfo)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) pageInfo(sel ast.SelectionSet, p *domain.PageInfo) {
	e.object(sel, "PageInfo", func(f *ast.Field) bool {
		switch f.Name {
		case "total":
			e.int(p.Total)
		case "limit":
			e.int(p.Limit)
		case "offset":
			e.int(p.Offset)
		case "hasMore":
			e.bool(p.HasMore)
		case "endCursor":
			e.optString(p.EndCursor)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) jobCard(sel ast.SelectionSet, c *domain.JobCard) {
	e.object(sel, "JobCard", func(f *ast.Field) bool {
		switch f.Name {
		case "id":
			e.string(c.ID)
		case "title":
			e.string(c.Title)
		case "company":
			e.string(c.Company)
		case "location":
			e.location(f.SelectionSet, &c.Location)
		case "workArrangement":
			e.workArrangement(c.WorkArrangement)
		case "employmentType":
			e.optString(c.EmploymentType)
		case "salary":
			e.salary(f.SelectionSet, c.Salary)
		case "category":
			e.category(f.SelectionSet, &c.Category)
		default:
			return false
		}
		return true
	})
}

// job writes a nullable Job (Query.job is null when no job has the id).
func (e *encoder) job(sel ast.SelectionSet, j *domain.Job) {
	if j == nil {
		e.null()
		return
	}
	e.object(sel, "Job", func(f *ast.Field) bool {
		switch f.Name {
		case "id":
			e.string(j.ID)
		case "title":
			e.string(j.Title)
		case "company":
			e.string(j.Company)
		case "companyLogo":
			e.optString(j.CompanyLogo)
		case "url":
			e.optString(j.URL)
		case "postedAt":
			e.optString(j.PostedAt)
		case "location":
			e.location(f.SelectionSet, &j.Location)
		case "workArrangement":
			e.workArrangement(j.WorkArrangement)
		case "employmentType":
			e.optString(j.EmploymentType)
		case "experienceLevel":
			e.optString(j.ExperienceLevel)
		case "salary":
			e.salary(f.SelectionSet, j.Salary)
		case "summary":
			e.optString(j.Summary)
		case "description":
			e.optString(j.Description)
		case "descriptionRaw":
			e.optString(j.DescriptionRaw)
		case "responsibilities":
			e.strings(j.Responsibilities)
		case "requiredQualifications":
			e.strings(j.RequiredQualifications)
		case "preferredQualifications":
			e.strings(j.PreferredQualifications)
		case "skills":
			e.strings(j.Skills)
		case "tools":
			e.strings(j.Tools)
		case "softSkills":
			e.strings(j.SoftSkills)
		case "technicalSkills":
			e.strings(j.TechnicalSkills)
		case "benefits":
			e.strings(j.Benefits)
		case "education":
			e.strings(j.Education)
		case "educationLevels":
			e.strings(j.EducationLevels)
		case "educationMajors":
			e.strings(j.EducationMajors)
		case "certifications":
			e.strings(j.Certifications)
		case "visaSponsorship":
			e.strings(j.VisaSponsorship)
		case "visaRequirements":
			e.strings(j.VisaRequirements)
		case "securityClearances":
			e.optStrings(j.SecurityClearances)
		case "clearanceStatus":
			e.optString(j.ClearanceStatus)
		case "travelPercent":
			e.optFloat(j.TravelPercent)
		case "source":
			e.optString(j.Source)
		case "category":
			e.category(f.SelectionSet, &j.Category)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) location(sel ast.SelectionSet, l *domain.Location) {
	e.object(sel, "Location", func(f *ast.Field) bool {
		switch f.Name {
		case "city":
			e.strings(l.City)
		case "state":
			e.strings(l.State)
		case "country":
			e.strings(l.Country)
		case "full":
			e.string(l.Full)
		default:
			return false
		}
		return true
	})
}

// salary writes a nullable Salary.
func (e *encoder) salary(sel ast.SelectionSet, s *domain.Salary) {
	if s == nil {
		e.null()
		return
	}
	e.object(sel, "Salary", func(f *ast.Field) bool {
		switch f.Name {
		case "min":
			e.optFloat(s.Min)
		case "max":
			e.optFloat(s.Max)
		case "currency":
			e.optString(s.Currency)
		case "period":
			e.optString(s.Period)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) category(sel ast.SelectionSet, c *domain.Category) {
	e.object(sel, "Category", func(f *ast.Field) bool {
		switch f.Name {
		case "field":
			e.optString(c.Field)
		case "role":
			e.optString(c.Role)
		case "specialization":
			e.optString(c.Specialization)
		default:
			return false
		}
		return true
	})
}

func (e *encoder) company(sel ast.SelectionSet, c *domain.Company) {
	e.object(sel, "Company", func(f *ast.Field) bool {
		switch f.Name {
		case "name":
			e.string(c.Name)
		case "logoUrl":
			e.optString(c.LogoURL)
		case "jobCount":
			e.int(c.JobCount)
		case "slug":
			e.string(c.Slug)
		default:
			return false
		}
		return true
	})
}
