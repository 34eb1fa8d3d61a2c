// Queries: the filter values of a request normalized into a domain query.

package normalize

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
)

// MaxListItems is the most items a list filter takes.
const MaxListItems = 50

// queryBuilder collects the parts of a JobQuery and the first error.
type queryBuilder struct {
	q   domain.JobQuery
	err error
}

func (b *queryBuilder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *queryBuilder) filter(field string, values ...string) {
	if len(values) == 0 {
		return
	}
	keys := make([]string, len(values))
	for i, v := range values {
		keys[i] = FilterKey(field, v)
	}
	b.q.Filters = append(b.q.Filters, domain.KeyFilter{Field: field, Values: values, Keys: keys})
}

// echoList records the normalized values of a list filter, and its match
// mode when it is all, in the query's Normalized.
func (b *queryBuilder) echoList(param string, values []string, all bool) {
	n := &b.q.Normalized
	var list *[]string
	var mode **domain.MatchMode
	switch param {
	case domain.FieldSkills:
		list, mode = &n.Skills, &n.SkillsMatch
	case domain.FieldTools:
		list, mode = &n.Tools, &n.ToolsMatch
	case domain.FieldTechnicalSkills:
		list, mode = &n.TechnicalSkills, &n.TechnicalSkillsMatch
	case domain.FieldSoftSkills:
		list, mode = &n.SoftSkills, &n.SoftSkillsMatch
	case domain.FieldVisas:
		list, mode = &n.Visas, &n.VisasMatch
	case domain.FieldEducationLevels:
		list, mode = &n.EducationLevels, &n.EducationLevelsMatch
	case domain.FieldEducationMajors:
		list, mode = &n.EducationMajors, &n.EducationMajorsMatch
	case domain.FieldCertifications:
		list, mode = &n.Certifications, &n.CertificationsMatch
	case domain.FieldSecurityClearances:
		list, mode = &n.SecurityClearances, &n.SecurityClearancesMatch
	case domain.FieldBenefits:
		list, mode = &n.Benefits, &n.BenefitsMatch
	case domain.FieldCity:
		list = &n.City
	case domain.FieldState:
		list = &n.State
	case domain.FieldCountry:
		list = &n.Country
	case domain.FieldCategoryField:
		list = &n.CategoryField
	case domain.FieldCategoryRole:
		list = &n.CategoryRole
	case domain.FieldCategorySpecialization:
		list = &n.CategorySpecialization
	default:
		panic("normalize: no normalized member for " + param)
	}
	*list = values
	if all {
		m := domain.MatchAll
		*mode = &m
	}
}

// items trims the items of a list parameter, drops empty ones, and checks
// their number and text; it returns none once the query is invalid, so
// that no text over MaxTextLength is normalized.
func (b *queryBuilder) items(param string, in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			b.text(param, s)
			out = append(out, s)
		}
	}
	if b.err != nil {
		return nil
	}
	if len(out) > MaxListItems {
		b.fail(domain.InvalidParam(param, "%s takes at most %d items, got %d", param, MaxListItems, len(out)))
		return nil
	}
	return out
}

// list adds a filter over the canonical spellings of a list parameter's
// items: any of them, or all with match mode all.
func (b *queryBuilder) list(param string, in []string, v *Vocab, mode *domain.MatchMode) {
	b.listOf(param, v.List(b.items(param, in)), mode)
}

// listOf adds the filter of a list parameter's normalized values.
func (b *queryBuilder) listOf(param string, values []string, mode *domain.MatchMode) {
	all := false
	if mode != nil {
		switch m := domain.MatchMode(strings.ToLower(strings.TrimSpace(string(*mode)))); m {
		case domain.MatchAny:
		case domain.MatchAll:
			all = true
		default:
			b.fail(domain.AllowedError(param+"_match", string(*mode), domain.MatchModes...))
			return
		}
	}
	if len(values) == 0 {
		return
	}
	b.filter(param, values...)
	b.q.Filters[len(b.q.Filters)-1].All = all
	b.echoList(param, values, all)
}

// skills maps each item to its umbrella skill (contract section 4:
// "golang" → Go, "eks" → AWS): jobs carry the umbrellas of their skills,
// so a job tagged EKS is found by skills=eks and by skills=aws.
func (n *Normalizer) skills(b *queryBuilder, in []string, mode *domain.MatchMode) {
	var values []string
	for _, s := range b.items(domain.FieldSkills, in) {
		_, umbrella, _ := n.Skill(s)
		values = appendNew(values, umbrella)
	}
	b.listOf(domain.FieldSkills, values, mode)
}

// single adds the filter of a one-value parameter, canonicalized by norm.
func (b *queryBuilder) single(param string, in *string, norm func(string) string) {
	if in == nil || strings.TrimSpace(*in) == "" {
		return
	}
	v := norm(*in)
	b.filter(param, v)
	b.echoList(param, []string{v}, false)
}

// text fails on values no search can mean: invalid UTF-8, NUL and other
// control characters, or more than MaxTextLength bytes.
func (b *queryBuilder) text(param, s string) {
	switch {
	case !utf8.ValidString(s):
		b.fail(domain.InvalidParam(param, "%s is not valid UTF-8", param))
	case strings.ContainsFunc(s, func(r rune) bool { return r < ' ' && r != '\t' }):
		b.fail(domain.InvalidParam(param, "%s contains control characters", param))
	case len(s) > MaxTextLength:
		b.fail(domain.InvalidParam(param, "%s is longer than %d bytes", param, MaxTextLength))
	}
}

// MaxTextLength is the longest text a filter value may have.
const MaxTextLength = 1000

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// JobFilter validates and normalizes a job search's filter (contract
// section 4) into a query without its page and order, which package
// search reads. Errors are *domain.Error values naming the REST parameter.
func (n *Normalizer) JobFilter(f *domain.JobFilter) (domain.JobQuery, error) {
	if f == nil {
		f = &domain.JobFilter{}
	}
	b := &queryBuilder{}
	// In this order, so that of two bad values the same one is named.
	for _, p := range []struct {
		param string
		v     *string
	}{
		{"title", f.Title}, {"job_title", f.JobTitle}, {"company", f.Company}, {"city", f.City}, {"state", f.State},
		{"country", f.Country}, {"location", f.Location}, {"category_field", f.CategoryField},
		{"category_role", f.CategoryRole}, {"category_specialization", f.CategorySpecialization}, {"q", f.Q},
		{"posted_after", f.PostedAfter}, {"posted_within", f.PostedWithin},
	} {
		if p.v != nil {
			b.text(p.param, *p.v)
		}
	}
	if b.err != nil {
		return domain.JobQuery{}, b.err
	}
	n.title(b, f)
	if c := str(f.Company); c != "" {
		b.q.Company = c
		b.q.Normalized.Company = &c
	}
	b.single(domain.FieldCity, f.City, n.City)
	b.single(domain.FieldState, f.State, n.State)
	b.single(domain.FieldCountry, f.Country, n.Country)
	n.location(b, f.Location)
	n.near(b, f.Near)
	n.skills(b, f.Skills, f.SkillsMatch)
	b.list(domain.FieldTools, f.Tools, n.Tools, f.ToolsMatch)
	b.list(domain.FieldTechnicalSkills, f.TechnicalSkills, n.TechnicalSkills, f.TechnicalSkillsMatch)
	b.list(domain.FieldSoftSkills, f.SoftSkills, n.SoftSkills, f.SoftSkillsMatch)
	b.list(domain.FieldVisas, f.Visas, n.Visas, f.VisasMatch)
	b.list(domain.FieldEducationLevels, f.EducationLevels, n.EducationLevels, f.EducationLevelsMatch)
	b.list(domain.FieldEducationMajors, f.EducationMajors, n.EducationMajors, f.EducationMajorsMatch)
	b.list(domain.FieldCertifications, f.Certifications, n.Certifications, f.CertificationsMatch)
	b.list(domain.FieldSecurityClearances, f.SecurityClearances, n.SecurityClearances, f.SecurityClearancesMatch)
	b.list(domain.FieldBenefits, f.Benefits, n.Benefits, f.BenefitsMatch)
	n.arrangements(b, f.WorkArrangement)
	n.employmentTypes(b, f.EmploymentType)
	salary(b, f.SalaryMin, f.SalaryMax)
	salaryCurrency(b, f.SalaryCurrency)
	if f.IncludeUnknownSalary != nil && *f.IncludeUnknownSalary {
		b.q.IncludeUnknownSalary = true
		include := true
		b.q.Normalized.IncludeUnknownSalary = &include
	}
	n.posted(b, f.PostedAfter, f.PostedWithin)
	b.single(domain.FieldCategoryField, f.CategoryField, n.CategoryField)
	b.single(domain.FieldCategoryRole, f.CategoryRole, n.CategoryRole)
	b.single(domain.FieldCategorySpecialization, f.CategorySpecialization, n.CategorySpecialization)
	if q := str(f.Q); q != "" {
		b.q.Q = q
		b.q.Normalized.Q = &q
	}
	if b.err != nil {
		return domain.JobQuery{}, b.err
	}
	return b.q, nil
}

// title reads the title intent: a category at the most specific level the
// text names, or the text's words when the taxonomy recognizes nothing.
func (n *Normalizer) title(b *queryBuilder, f *domain.JobFilter) {
	title, jobTitle := str(f.Title), str(f.JobTitle)
	if title != "" && jobTitle != "" && fold.Fold(title) != fold.Fold(jobTitle) {
		b.fail(domain.InvalidParam("job_title", "title and job_title are aliases; give one, or the same value in both"))
		return
	}
	if title == "" {
		title = jobTitle
	}
	if title == "" {
		return
	}
	c, ok := n.Title(title)
	if !ok {
		b.q.TitleText = title
		b.q.Normalized.Title = &domain.NormalizedTitle{Text: &title}
		return
	}
	// The category the title names, down to its level, matched against
	// the category jobs show (Category): a specialization with its role,
	// which a job must show too (a source may give a role and another
	// role's specialization).
	var tf domain.KeyFilter
	echo := &domain.NormalizedTitle{CategoryField: &c.Field}
	switch c.Level {
	case LevelField:
		tf = titleFilter(domain.FieldCategoryField, c.Field)
	case LevelRole:
		echo.CategoryRole = &c.Role
		tf = titleFilter(domain.FieldCategoryRole, c.Role)
	case LevelSpecialization:
		echo.CategoryRole, echo.CategorySpecialization = &c.Role, &c.Specialization
		tf = titleFilter(domain.FieldCategoryRole, c.Role, domain.FieldCategorySpecialization, c.Specialization)
	}
	b.q.Filters = append(b.q.Filters, tf)
	b.q.Normalized.Title = echo
}

// titleFilter is the title intent's filter over category members, given
// as field, value pairs: a job must show every one of them.
func titleFilter(pairs ...string) domain.KeyFilter {
	n := len(pairs) / 2
	f := domain.KeyFilter{Field: domain.FieldTitle, All: true, Values: make([]string, n), Keys: make([]string, n)}
	for i := range n {
		f.Values[i] = pairs[2*i+1]
		f.Keys[i] = FilterKey(pairs[2*i], pairs[2*i+1])
	}
	return f
}

// location reads free location text into city, state and country filters
// (any of the places it names) and the work arrangement it states.
func (n *Normalizer) location(b *queryBuilder, in *string) {
	text := str(in)
	if text == "" {
		return
	}
	loc := n.ParseLocation(text)
	var cities, states, countries []string
	for _, p := range loc.Places {
		cities = appendNew(cities, p.City)
		states = appendNew(states, p.State)
		countries = appendNew(countries, p.Country)
	}
	echo := &domain.NormalizedLocation{}
	for _, part := range []struct {
		field  string
		values []string
		echo   *[]string
	}{{domain.FieldCity, cities, &echo.City}, {domain.FieldState, states, &echo.State}, {domain.FieldCountry, countries, &echo.Country}} {
		if len(part.values) > 0 {
			b.filter(part.field, part.values...)
			*part.echo = part.values
		}
	}
	if w, ok := loc.Arrangement(); ok {
		b.filter(domain.FieldWorkArrangement, string(w))
		echo.WorkArrangement = []domain.WorkArrangement{w}
	}
	if len(echo.City)+len(echo.State)+len(echo.Country)+len(echo.WorkArrangement) == 0 {
		b.fail(domain.InvalidParam("location", "location %q names no city, state, country or work arrangement", domain.Clip(text)))
		return
	}
	b.q.Normalized.Location = echo
}

func appendNew(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

// arrangements reads work arrangements: GraphQL gives enum values, REST the
// text a user typed ("on-site"), normalized here for both.
func (n *Normalizer) arrangements(b *queryBuilder, in []domain.WorkArrangement) {
	raw := make([]string, len(in))
	for i, w := range in {
		raw[i] = string(w)
	}
	var values []string
	for _, s := range b.items("work_arrangement", raw) {
		w, ok := n.WorkArrangement(s)
		if !ok {
			b.fail(domain.AllowedError("work_arrangement", s, domain.WorkArrangements...))
			return
		}
		values = appendNew(values, string(w))
	}
	if len(values) > 0 {
		b.filter(domain.FieldWorkArrangement, values...)
		echo := make([]domain.WorkArrangement, len(values))
		for i, v := range values {
			echo[i] = domain.WorkArrangement(v)
		}
		b.q.Normalized.WorkArrangement = echo
	}
}

func (n *Normalizer) employmentTypes(b *queryBuilder, in []string) {
	var values []string
	for _, s := range b.items("employment_type", in) {
		t, ok := n.EmploymentType(s)
		if !ok {
			b.fail(domain.AllowedError("employment_type", s, EmploymentTypeNames()...))
			return
		}
		values = appendNew(values, t)
	}
	if len(values) > 0 {
		b.filter(domain.FieldEmploymentType, values...)
		b.q.Normalized.EmploymentType = values
	}
}

// posted reads the freshness filters: a date or date-time, and a span
// before now ("24h", "7d"); given both, the later bound holds.
func (n *Normalizer) posted(b *queryBuilder, after, within *string) {
	var bound *time.Time
	later := func(t time.Time) {
		if bound == nil || t.After(*bound) {
			bound = &t
		}
	}
	if s := str(after); s != "" {
		t, err := parseTime(s)
		if err != nil {
			b.fail(domain.InvalidParam("posted_after", "posted_after must be an RFC 3339 date (2026-11-01) or date-time (2026-11-01T09:00:00Z); got %q", domain.Clip(s)))
			return
		}
		later(t)
	}
	if s := str(within); s != "" {
		m := spanPattern.FindStringSubmatch(strings.ToLower(s))
		count := 0
		if m != nil {
			count, _ = strconv.Atoi(m[1])
		}
		if m == nil || count < 1 || (m[2] == "d" && count > 3650) || (m[2] == "h" && count > 3650*24) {
			b.fail(domain.InvalidParam("posted_within", "posted_within must be a number of hours or days up to 10 years, like 24h, 3d, 7d or 30d; got %q", domain.Clip(s)))
			return
		}
		unit := 24 * time.Hour
		if m[2] == "h" {
			unit = time.Hour
		}
		later(n.now().Add(-time.Duration(count) * unit).Truncate(time.Second))
	}
	if bound != nil {
		b.q.PostedAfter = bound
		at := bound.UTC().Format(domain.TimeLayout)
		b.q.Normalized.PostedAfter = &at
	}
}

var spanPattern = regexp.MustCompile(`^(\d{1,6})(h|d)$`)

func salary(b *queryBuilder, lo, hi *float64) {
	for _, p := range []struct {
		name string
		v    *float64
	}{{"salary_min", lo}, {"salary_max", hi}} {
		if p.v != nil && (*p.v < 0 || math.IsNaN(*p.v) || math.IsInf(*p.v, 0)) {
			b.fail(domain.InvalidParam(p.name, "%s must be a number ≥ 0", p.name))
			return
		}
	}
	if lo != nil && hi != nil && *lo > *hi {
		b.fail(domain.InvalidParam("salary_min", "salary_min must not be greater than salary_max"))
		return
	}
	b.q.SalaryMin, b.q.SalaryMax = lo, hi
	b.q.Normalized.SalaryMin, b.q.Normalized.SalaryMax = lo, hi
}

// DefaultCurrency is the currency of salary amounts when a request names
// none (contract section 4).
const DefaultCurrency = "USD"

// salaryCurrency reads the currency of the salary amounts: an ISO 4217
// code in any case, USD when not given. Whether the rates know it is the
// search service's to check (the rates change while the service runs).
func salaryCurrency(b *queryBuilder, code *string) {
	b.q.Currency.Code = DefaultCurrency
	if code == nil {
		return
	}
	c, ok := currency.ValidCode(strings.TrimSpace(*code))
	if !ok {
		b.fail(domain.InvalidParam("salary_currency", "salary_currency must be an ISO 4217 currency code such as USD, EUR or JPY; got %q", domain.Clip(*code)))
		return
	}
	b.q.Currency = domain.SalaryCurrency{Code: c, Named: true}
}
