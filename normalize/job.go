// Job records: a job validated and normalized at import, with its place, salary and filter keys.

package normalize

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
)

// jobIDPattern is the shape of a public job id: <source>-<number>.
var jobIDPattern = regexp.MustCompile(`^[a-z0-9_]+-[0-9]+$`)

// ValidJobID reports whether id is shaped <source>-<number> (source:
// lowercase letters, digits, _; number: digits).
func ValidJobID(id string) bool {
	return len(id) <= 200 && jobIDPattern.MatchString(id)
}

// Job validates a record read from an import and enriches it (contract
// section 11): values it gives are kept, spelled canonically; derived values
// add to them (umbrella skills) or fill what is missing (category from the
// title, location parts from location.full, work arrangement from
// "Remote", "Hybrid" or "On-site" in the location), never replacing them.
// A record with a field over its bound (MaxTitleLength and the others) is
// invalid, and is not normalized at all: the error names every such field.
// What a page may render is made safe: description_raw is sanitized HTML
// (SanitizeHTML), and a url or company_logo that is not an http or https
// URL (SafeURL) is dropped to null, given value and all; UnsafeURLs tells
// which.
func (n *Normalizer) Job(in domain.Job) (domain.JobRecord, error) {
	return n.Posting(in, nil)
}

// Posting is Job for a record that may say when it closes by itself:
// validThrough is its valid_through (schema.org validThrough) as the
// source wrote it, nil or blank when it gives none. It is bounded like
// the record's other text fields and read by ParseValidThrough into the
// record's ValidThrough; an instant already past is kept (the posting is
// then written closed).
func (n *Normalizer) Posting(in domain.Job, validThrough *string) (domain.JobRecord, error) {
	dropUnsafeURLs(&in)
	errs := overBounds(&in)
	if validThrough != nil {
		if err := overFieldBound("valid_through", *validThrough); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return domain.JobRecord{}, errors.Join(errs...)
	}
	given := snapshot(in)
	j := in
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if field := badText(reflect.ValueOf(&in).Elem(), ""); field != "" {
		bad("%s contains a NUL character or invalid UTF-8", field)
	}
	j.ID = strings.TrimSpace(j.ID)
	j.Title = fold.Collapse(j.Title)
	j.Company = fold.Collapse(j.Company)
	switch {
	case j.ID == "":
		bad("id is required")
	case !ValidJobID(j.ID):
		bad("id %q is not shaped <source>-<number> (source: a-z, 0-9, _; number: digits)", j.ID)
	}
	if j.Title == "" {
		bad("title is required")
	}
	if j.Company == "" {
		bad("company is required")
	}
	rec := domain.JobRecord{}
	if j.PostedAt = optional(j.PostedAt); j.PostedAt != nil {
		t, err := parseTime(*j.PostedAt)
		if err != nil {
			bad("posted_at %q is not an RFC 3339 date-time or date", *j.PostedAt)
		} else {
			rec.PostedTime = t
			s := t.Format(domain.TimeLayout)
			j.PostedAt = &s
		}
	}
	if vt := optional(validThrough); vt != nil {
		if field := badText(reflect.ValueOf(*vt), "valid_through"); field != "" {
			bad("%s contains a NUL character or invalid UTF-8", field)
		} else if t, err := ParseValidThrough(*vt); err != nil {
			errs = append(errs, err)
		} else {
			rec.ValidThrough = &t
		}
	}

	loc := n.jobLocation(&j.Location)
	if j.WorkArrangement != nil && strings.TrimSpace(string(*j.WorkArrangement)) != "" {
		w, ok := n.WorkArrangement(string(*j.WorkArrangement))
		if !ok {
			bad("work_arrangement %q must be one of remote, hybrid, onsite", *j.WorkArrangement)
		}
		j.WorkArrangement = &w
	} else {
		j.WorkArrangement = nil
		if w, ok := loc.Arrangement(); ok {
			j.WorkArrangement = &w
		}
	}
	if j.EmploymentType = optional(j.EmploymentType); j.EmploymentType != nil {
		if t, ok := n.EmploymentType(*j.EmploymentType); ok {
			j.EmploymentType = &t
		}
	}
	if err := n.jobSalary(&j); err != nil {
		errs = append(errs, err)
	}
	if j.TravelPercent != nil && (*j.TravelPercent < 0 || *j.TravelPercent > 100 || math.IsNaN(*j.TravelPercent)) {
		bad("travel_percent %v must be between 0 and 100", *j.TravelPercent)
	}

	for _, p := range []**string{&j.CompanyLogo, &j.URL, &j.ExperienceLevel, &j.Summary, &j.Description, &j.DescriptionRaw, &j.ClearanceStatus, &j.Source} {
		*p = optional(*p)
	}
	if j.DescriptionRaw != nil {
		safe := SanitizeHTML(*j.DescriptionRaw)
		j.DescriptionRaw = optional(&safe)
	}
	if j.Description == nil && j.DescriptionRaw != nil {
		if text := HTMLText(*j.DescriptionRaw); text != "" {
			j.Description = &text
		}
	}
	if j.Source == nil && j.ID != "" {
		if i := strings.LastIndexByte(j.ID, '-'); i > 0 {
			src := j.ID[:i]
			j.Source = &src
		}
	}

	n.jobLists(&j)
	j.Category = n.Category(j.Category, j.Title)
	if len(errs) > 0 {
		return rec, errors.Join(errs...)
	}
	rec.Job = j
	if lo, hi, ok := AnnualSalary(j.Salary); ok {
		rec.AnnualMin, rec.AnnualMax = &lo, &hi
	}
	rec.FilterKeys = append(filterKeys(&rec), n.nearKeys(&rec.Job)...)
	rec.CompanySlug = fold.Slug(j.Company)
	var err error
	if rec.Given, err = givenDiff(&given, &rec.Job); err != nil {
		return rec, err
	}
	return rec, nil
}

// FilterKey is the match key of a value of a filter field: the field and
// the folded value, so that matching ignores case and accents.
func FilterKey(field, value string) string {
	return domain.Key(field, fold.Fold(value))
}

// filterKeys returns the match keys of every filterable value of a record;
// Normalizer.JobFilter builds its KeyFilters from the same fields and
// values.
func filterKeys(r *domain.JobRecord) []string {
	j := &r.Job
	var keys []string
	add := func(field string, values ...string) {
		for _, v := range values {
			if v != "" {
				keys = appendNew(keys, FilterKey(field, v))
			}
		}
	}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	add(domain.FieldSkills, j.Skills...)
	add(domain.FieldTools, j.Tools...)
	add(domain.FieldTechnicalSkills, j.TechnicalSkills...)
	add(domain.FieldSoftSkills, j.SoftSkills...)
	add(domain.FieldVisas, j.VisaSponsorship...)
	add(domain.FieldEducationLevels, j.EducationLevels...)
	add(domain.FieldEducationMajors, j.EducationMajors...)
	add(domain.FieldCertifications, j.Certifications...)
	add(domain.FieldSecurityClearances, j.SecurityClearances...)
	add(domain.FieldBenefits, j.Benefits...)
	add(domain.FieldCity, j.Location.City...)
	add(domain.FieldState, j.Location.State...)
	add(domain.FieldCountry, j.Location.Country...)
	if j.WorkArrangement != nil {
		add(domain.FieldWorkArrangement, string(*j.WorkArrangement))
	}
	add(domain.FieldEmploymentType, deref(j.EmploymentType))
	add(domain.FieldCategoryField, deref(j.Category.Field))
	add(domain.FieldCategoryRole, deref(j.Category.Role))
	add(domain.FieldCategorySpecialization, deref(j.Category.Specialization))
	return keys
}

// badText returns the JSON name of the first string in v that PostgreSQL
// cannot store (NUL, invalid UTF-8), or "".
func badText(v reflect.Value, name string) string {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
			return name
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return badText(v.Elem(), name)
		}
	case reflect.Slice:
		for i := range v.Len() {
			if f := badText(v.Index(i), name); f != "" {
				return f
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			child := tag
			if name != "" {
				child = name + "." + tag
			}
			if f := badText(v.Field(i), child); f != "" {
				return f
			}
		}
	}
	return ""
}

func optional(p *string) *string {
	if p == nil {
		return nil
	}
	s := strings.TrimSpace(*p)
	if s == "" {
		return nil
	}
	return &s
}

// The range of a valid_through: an instant outside it is a source's
// placeholder or a typing error, not when a posting closes.
var (
	minValidThrough = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	maxValidThrough = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// validThroughLayouts are the forms of valid_through read as instants:
// RFC 3339, and the date-times without a zone (read as UTC) and without
// seconds that sources write.
var validThroughLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04:05"}

// ParseValidThrough reads a valid_through: an RFC 3339 date-time (UTC when
// it names no zone; seconds optional), or a date alone (2026-12-31),
// which means through the end of that day UTC: the posting closes at the
// next midnight UTC (2027-01-01T00:00:00Z). The instant is kept to the
// microsecond, as the database keeps it. It must lie between 1970-01-01
// and the last second of 9999; a date of 9999-12-31, a common "never"
// placeholder, closes at that last second.
func ParseValidThrough(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	t, err := parseValidThrough(s)
	if err != nil {
		return time.Time{}, err
	}
	if t.Before(minValidThrough) || t.After(maxValidThrough) {
		return time.Time{}, fmt.Errorf("valid_through %q is not between %s and %s",
			s, minValidThrough.Format(domain.TimeLayout), maxValidThrough.Format(domain.TimeLayout))
	}
	return t, nil
}

func parseValidThrough(s string) (time.Time, error) {
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		if d.Year() == maxValidThrough.Year() && d.YearDay() == maxValidThrough.YearDay() {
			return maxValidThrough, nil
		}
		return d.AddDate(0, 0, 1), nil
	}
	for _, layout := range validThroughLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Truncate(time.Microsecond), nil
		}
	}
	return time.Time{}, fmt.Errorf("valid_through %q is not an RFC 3339 date-time or a date (YYYY-MM-DD)", s)
}

// ParseTime reads an instant as posted_at and the posted_after filter
// accept it: an RFC 3339 date-time, one without an offset (UTC), or a date
// (midnight UTC); the result is UTC, to the second. GraphQL's DateTime
// scalar reads its input with it.
func ParseTime(s string) (time.Time, error) { return parseTime(s) }

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Truncate(time.Second), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date-time: %q", s)
}

// jobLocation normalizes the location in place: given parts spelled
// canonically (a state read within its country), parts parsed from full
// filling what the given parts leave out, implied states and countries
// added, duplicates dropped, and full rebuilt from the first place.
func (n *Normalizer) jobLocation(l *domain.Location) ParsedLocation {
	parsed := n.ParseLocation(l.Full)
	count := max(len(l.City), len(l.State), len(l.Country), len(parsed.Places))
	var places []Place
	for i := range count {
		var p Place
		if i < len(parsed.Places) {
			p = parsed.Places[i]
		}
		p = n.placeFrom(p, at(l.City, i), at(l.State, i), at(l.Country, i))
		if p != (Place{}) && !slices.Contains(places, p) {
			places = append(places, p)
		}
	}
	var full []string
	city, state, country := []string{}, []string{}, []string{}
	for i, p := range places {
		if i == 0 {
			for _, part := range []string{p.City, p.State, p.Country} {
				if part != "" {
					full = append(full, part)
				}
			}
		}
		city, state, country = appendNew(city, p.City), appendNew(state, p.State), appendNew(country, p.Country)
	}
	l.City, l.State, l.Country = city, state, country
	switch {
	case len(full) > 0 && len(places) > 1:
		l.Full = fmt.Sprintf("%s + %d more", strings.Join(full, ", "), len(places)-1)
	case len(full) > 0:
		l.Full = strings.Join(full, ", ")
	default:
		l.Full = fold.Collapse(l.Full)
	}
	return parsed
}

// PlaceOf returns the place named by its parts, each spelled canonically
// (a state read within its country, a city within both) and completed
// (Complete): PlaceOf("Köln", "", "DE") is Cologne, North Rhine-Westphalia,
// Germany. Empty parts are left to Complete.
func (n *Normalizer) PlaceOf(city, state, country string) Place {
	return n.placeFrom(Place{}, city, state, country)
}

// placeFrom returns p with the given parts (those not blank) in place of
// its own, spelled canonically, and completed.
func (n *Normalizer) placeFrom(p Place, city, state, country string) Place {
	if strings.TrimSpace(country) != "" {
		p.Country = n.Country(country)
	}
	if strings.TrimSpace(state) != "" {
		p.State = n.State(state)
		if name, _, ok := n.geo.StateIn(state, p.Country); ok {
			p.State = name
		}
	}
	if strings.TrimSpace(city) != "" {
		p.City = n.City(city)
		if c, ok := n.geo.FindCity(city, p.State, p.Country); ok {
			p.City = c.Name
		}
	}
	return n.Complete(p)
}

// at returns list[i], or "" past its end.
func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// jobSalary checks the salary and spells its currency and period
// canonically; a salary with neither bound is no salary.
func (n *Normalizer) jobSalary(j *domain.Job) error {
	s := j.Salary
	if s == nil {
		return nil
	}
	if s.Min == nil && s.Max == nil {
		j.Salary = nil
		return nil
	}
	for name, v := range map[string]*float64{"salary.min": s.Min, "salary.max": s.Max} {
		if v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return fmt.Errorf("%s must be a number ≥ 0", name)
		}
	}
	if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
		return fmt.Errorf("salary.min %v is greater than salary.max %v", *s.Min, *s.Max)
	}
	if s.Currency = optional(s.Currency); s.Currency != nil {
		c := strings.ToUpper(*s.Currency)
		s.Currency = &c
	}
	if s.Period = optional(s.Period); s.Period != nil {
		p, _, _ := Period(*s.Period)
		s.Period = &p
	}
	return nil
}

// AnnualSalary returns the salary's bounds per year, for the salary filter
// and sorts (contract section 4: hourly × 2080, daily × 260, weekly × 52,
// monthly × 12). A salary without a period, or with one the vocabulary does
// not know, counts as annual. "From X" (no max) reaches up to X, as the
// contract matches it; "up to X" (no min) starts at 0. ok is false without
// a salary.
func AnnualSalary(s *domain.Salary) (lo, hi float64, ok bool) {
	if s == nil || (s.Min == nil && s.Max == nil) {
		return 0, 0, false
	}
	factor := 1.0
	if s.Period != nil {
		if _, f, known := Period(*s.Period); known {
			factor = f
		}
	}
	if s.Min != nil {
		lo = *s.Min * factor
		hi = lo
	}
	if s.Max != nil {
		hi = *s.Max * factor
	}
	return lo, hi, true
}

// jobLists spells every list canonically and derives what the lists imply:
// umbrella skills of the skills, tools and technical skills; education
// levels and majors stated in the education text.
func (n *Normalizer) jobLists(j *domain.Job) {
	j.Tools = n.Tools.List(j.Tools)
	j.TechnicalSkills = n.TechnicalSkills.List(j.TechnicalSkills)
	// Values of the skills vocabulary get their umbrellas from it; the
	// others are stored as Skill reads them, name and umbrella, so that a
	// skills filter (which looks for Skill's umbrella) finds them.
	skills := make([]string, 0, len(j.Skills))
	var others []string
	for _, s := range j.Skills {
		if _, ok := n.Skills.Lookup(s); ok {
			skills = append(skills, s)
		} else if name, umbrella, ok := n.Skill(s); ok {
			others = append(others, name, umbrella)
		} else {
			skills = append(skills, s)
		}
	}
	for _, t := range append(append([]string{}, j.Tools...), j.TechnicalSkills...) {
		if _, ok := n.Skills.Lookup(t); ok {
			skills = append(skills, t)
		}
	}
	j.Skills = n.Skills.WithUmbrellas(skills)
	for _, o := range others {
		if !slices.ContainsFunc(j.Skills, func(s string) bool { return fold.Fold(s) == fold.Fold(o) }) {
			j.Skills = append(j.Skills, o)
		}
	}
	j.SoftSkills = n.SoftSkills.List(j.SoftSkills)
	j.Benefits = n.Benefits.List(j.Benefits)
	j.Certifications = n.Certifications.List(j.Certifications)
	j.VisaSponsorship = n.Visas.List(j.VisaSponsorship)
	j.VisaRequirements = trimList(j.VisaRequirements)
	j.Education = trimList(j.Education)
	text := strings.Join(j.Education, "; ")
	j.EducationLevels = n.EducationLevels.List(append(j.EducationLevels, n.EducationLevels.FindIn(text)...))
	j.EducationMajors = n.EducationMajors.List(append(j.EducationMajors, n.EducationMajors.FindIn(text)...))
	j.Responsibilities = trimList(j.Responsibilities)
	j.RequiredQualifications = trimList(j.RequiredQualifications)
	j.PreferredQualifications = trimList(j.PreferredQualifications)
	if j.SecurityClearances != nil {
		j.SecurityClearances = n.SecurityClearances.List(j.SecurityClearances)
		if len(j.SecurityClearances) == 0 {
			j.SecurityClearances = nil
		}
	}
}

func trimList(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = fold.Collapse(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
