package rest

import (
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// filterParam is a parameter of the job lists that filters: its name and
// how its text is read into the filter both transports give
// (domain.JobFilter). Only syntax is read here (numbers, lists, booleans);
// what values mean is package search's and normalize's.
type filterParam struct {
	name string
	read func(p *params, f *domain.JobFilter)
}

// filters are the filter parameters of GET /jobs (and of the endpoints
// that take a job filter), in the order their errors are found and their
// names listed.
var filters = []filterParam{
	text("title", func(f *domain.JobFilter) **string { return &f.Title }),
	text("job_title", func(f *domain.JobFilter) **string { return &f.JobTitle }),
	text("company", func(f *domain.JobFilter) **string { return &f.Company }),
	text("city", func(f *domain.JobFilter) **string { return &f.City }),
	text("location", func(f *domain.JobFilter) **string { return &f.Location }),
	text("state", func(f *domain.JobFilter) **string { return &f.State }),
	text("country", func(f *domain.JobFilter) **string { return &f.Country }),
	list("skills", func(f *domain.JobFilter) *[]string { return &f.Skills }),
	list("tools", func(f *domain.JobFilter) *[]string { return &f.Tools }),
	list("technical_skills", func(f *domain.JobFilter) *[]string { return &f.TechnicalSkills }),
	list("soft_skills", func(f *domain.JobFilter) *[]string { return &f.SoftSkills }),
	list("visas", func(f *domain.JobFilter) *[]string { return &f.Visas }),
	list("education_levels", func(f *domain.JobFilter) *[]string { return &f.EducationLevels }),
	list("education_majors", func(f *domain.JobFilter) *[]string { return &f.EducationMajors }),
	list("certifications", func(f *domain.JobFilter) *[]string { return &f.Certifications }),
	list("security_clearances", func(f *domain.JobFilter) *[]string { return &f.SecurityClearances }),
	list("benefits", func(f *domain.JobFilter) *[]string { return &f.Benefits }),
	{"work_arrangement", func(p *params, f *domain.JobFilter) {
		for _, s := range p.list("work_arrangement") {
			f.WorkArrangement = append(f.WorkArrangement, domain.WorkArrangement(s))
		}
	}},
	list("employment_type", func(f *domain.JobFilter) *[]string { return &f.EmploymentType }),
	number("salary_min", func(f *domain.JobFilter) **float64 { return &f.SalaryMin }),
	number("salary_max", func(f *domain.JobFilter) **float64 { return &f.SalaryMax }),
	text("category_field", func(f *domain.JobFilter) **string { return &f.CategoryField }),
	text("category_role", func(f *domain.JobFilter) **string { return &f.CategoryRole }),
	text("category_specialization", func(f *domain.JobFilter) **string { return &f.CategorySpecialization }),
	text("q", func(f *domain.JobFilter) **string { return &f.Q }),
	text("posted_after", func(f *domain.JobFilter) **string { return &f.PostedAfter }),
	text("posted_within", func(f *domain.JobFilter) **string { return &f.PostedWithin }),
	{"include_unknown_salary", func(p *params, f *domain.JobFilter) { f.IncludeUnknownSalary = p.boolean("include_unknown_salary") }},
	text("salary_currency", func(f *domain.JobFilter) **string { return &f.SalaryCurrency }),
	match("skills_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.SkillsMatch }),
	match("tools_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.ToolsMatch }),
	match("technical_skills_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.TechnicalSkillsMatch }),
	match("soft_skills_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.SoftSkillsMatch }),
	match("visas_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.VisasMatch }),
	match("education_levels_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.EducationLevelsMatch }),
	match("education_majors_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.EducationMajorsMatch }),
	match("certifications_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.CertificationsMatch }),
	match("security_clearances_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.SecurityClearancesMatch }),
	match("benefits_match", func(f *domain.JobFilter) **domain.MatchMode { return &f.BenefitsMatch }),
	// The near filter (contract section 13): a place or a point, a radius
	// with an optional unit ("25mi").
	near("near", func(p *params, n *domain.NearInput) { n.Place = p.str("near") }),
	near("lat", func(p *params, n *domain.NearInput) {
		n.Lat = p.float("lat", "lat must be a number of degrees greater than -90 and less than 90")
	}),
	near("lng", func(p *params, n *domain.NearInput) {
		n.Lng = p.float("lng", "lng must be a number of degrees from -180 to 180")
	}),
	near("radius", func(p *params, n *domain.NearInput) {
		if s := p.str("radius"); s != nil {
			r, unit, err := normalize.ParseRadius(*s)
			p.fail(err)
			n.Radius, n.Unit = &r, &unit
		}
	}),
	near("include_remote", func(p *params, n *domain.NearInput) { n.IncludeRemote = p.boolean("include_remote") }),
}

// filterParams are the names of the filter parameters.
var filterParams = func() []string {
	names := make([]string, len(filters))
	for i, f := range filters {
		names[i] = f.name
	}
	return names
}()

// filterOf reads the filter parameters into the filter the GraphQL jobs
// field takes too; its near filter is nil when no near parameter is given.
func filterOf(p *params) *domain.JobFilter {
	f := &domain.JobFilter{Near: &domain.NearInput{}}
	for _, param := range filters {
		param.read(p, f)
	}
	if *f.Near == (domain.NearInput{}) {
		f.Near = nil
	}
	return f
}

// text is a parameter of one text value.
func text(name string, field func(*domain.JobFilter) **string) filterParam {
	return filterParam{name, func(p *params, f *domain.JobFilter) { *field(f) = p.str(name) }}
}

// list is a comma-separated list parameter.
func list(name string, field func(*domain.JobFilter) *[]string) filterParam {
	return filterParam{name, func(p *params, f *domain.JobFilter) { *field(f) = p.list(name) }}
}

// number is a parameter of one number ≥ 0.
func number(name string, field func(*domain.JobFilter) **float64) filterParam {
	return filterParam{name, func(p *params, f *domain.JobFilter) { *field(f) = p.number(name) }}
}

// match is the match mode of a list parameter (any, all).
func match(name string, field func(*domain.JobFilter) **domain.MatchMode) filterParam {
	return filterParam{name, func(p *params, f *domain.JobFilter) {
		if v := p.str(name); v != nil {
			m := domain.MatchMode(*v)
			*field(f) = &m
		}
	}}
}

// near is a parameter of the near filter.
func near(name string, read func(p *params, n *domain.NearInput)) filterParam {
	return filterParam{name, func(p *params, f *domain.JobFilter) { read(p, f.Near) }}
}
