package store

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// jobRow is a row of the jobs table, as written by imports and read by the
// single-job query. Generated columns (posted_sort, title_tsv, search_tsv)
// are not part of it.
type jobRow struct {
	bun.BaseModel `bun:"table:jobs,alias:j"`

	ID                      string     `bun:"id,pk"`
	CompanyID               int64      `bun:"company_id"`
	Title                   string     `bun:"title"`
	Company                 string     `bun:"company"`
	CompanyLogo             *string    `bun:"company_logo"`
	URL                     *string    `bun:"url"`
	PostedAt                *time.Time `bun:"posted_at"`
	LocationCity            []string   `bun:"location_city,array"`
	LocationState           []string   `bun:"location_state,array"`
	LocationCountry         []string   `bun:"location_country,array"`
	LocationFull            string     `bun:"location_full"`
	WorkArrangement         *string    `bun:"work_arrangement"`
	EmploymentType          *string    `bun:"employment_type"`
	ExperienceLevel         *string    `bun:"experience_level"`
	SalaryMin               *float64   `bun:"salary_min"`
	SalaryMax               *float64   `bun:"salary_max"`
	SalaryCurrency          *string    `bun:"salary_currency"`
	SalaryPeriod            *string    `bun:"salary_period"`
	SalaryAnnualMin         *float64   `bun:"salary_annual_min"`
	SalaryAnnualMax         *float64   `bun:"salary_annual_max"`
	Summary                 *string    `bun:"summary"`
	Description             *string    `bun:"description"`
	DescriptionRaw          *string    `bun:"description_raw"`
	Responsibilities        []string   `bun:"responsibilities,array"`
	RequiredQualifications  []string   `bun:"required_qualifications,array"`
	PreferredQualifications []string   `bun:"preferred_qualifications,array"`
	Skills                  []string   `bun:"skills,array"`
	Tools                   []string   `bun:"tools,array"`
	SoftSkills              []string   `bun:"soft_skills,array"`
	TechnicalSkills         []string   `bun:"technical_skills,array"`
	Benefits                []string   `bun:"benefits,array"`
	Education               []string   `bun:"education,array"`
	EducationLevels         []string   `bun:"education_levels,array"`
	EducationMajors         []string   `bun:"education_majors,array"`
	Certifications          []string   `bun:"certifications,array"`
	VisaSponsorship         []string   `bun:"visa_sponsorship,array"`
	VisaRequirements        []string   `bun:"visa_requirements,array"`
	SecurityClearances      []string   `bun:"security_clearances,array,nullzero"`
	ClearanceStatus         *string    `bun:"clearance_status"`
	TravelPercent           *float64   `bun:"travel_percent"`
	Source                  *string    `bun:"source"`
	CategoryField           *string    `bun:"category_field"`
	CategoryRole            *string    `bun:"category_role"`
	CategorySpecialization  *string    `bun:"category_specialization"`
	ValidThrough            *time.Time `bun:"valid_through"`
	// The columns from here on are jobsd's own: the single-job query
	// leaves them out (unreadColumns).
	// ContentHash is contentHash of the row as written.
	ContentHash []byte   `bun:"content_hash"`
	FilterKeys  []string `bun:"filter_keys,array"`
	// Given holds the source's values where they differ from the stored
	// ones (domain.JobRecord.Given); the single-job query leaves it out.
	Given []byte `bun:"given,type:jsonb"`
}

// cardRow is what a job list reads of a job.
type cardRow struct {
	bun.BaseModel `bun:"table:jobs,alias:j"`

	ID                     string   `bun:"id"`
	Title                  string   `bun:"title"`
	Company                string   `bun:"company"`
	LocationCity           []string `bun:"location_city,array"`
	LocationState          []string `bun:"location_state,array"`
	LocationCountry        []string `bun:"location_country,array"`
	LocationFull           string   `bun:"location_full"`
	WorkArrangement        *string  `bun:"work_arrangement"`
	EmploymentType         *string  `bun:"employment_type"`
	SalaryMin              *float64 `bun:"salary_min"`
	SalaryMax              *float64 `bun:"salary_max"`
	SalaryCurrency         *string  `bun:"salary_currency"`
	SalaryPeriod           *string  `bun:"salary_period"`
	CategoryField          *string  `bun:"category_field"`
	CategoryRole           *string  `bun:"category_role"`
	CategorySpecialization *string  `bun:"category_specialization"`
	CompanyID              int64    `bun:"company_id"`
	// The list extras, read only when asked for (extraColumns).
	PostedAt    *time.Time `bun:"posted_at"`
	CompanyLogo *string    `bun:"company_logo"`
	Summary     *string    `bun:"summary"`
	// The sort key of the list's order, for the page's end cursor.
	SortTime   time.Time `bun:"sort_time,scanonly"`
	SortNumber float64   `bun:"sort_number,scanonly"`
	// NearKeys are the job's points (domain.NearKey), read for a near
	// query's cards: their distance.
	NearKeys []string `bun:"near_keys,array,scanonly"`
}

// companyRow is a row of the companies table.
type companyRow struct {
	bun.BaseModel `bun:"table:companies,alias:c"`

	ID       int64   `bun:"id,pk,autoincrement"`
	Name     string  `bun:"name"`
	NameKey  string  `bun:"name_key"`
	LogoURL  *string `bun:"logo_url"`
	JobCount int     `bun:"job_count"`
	Slug     string  `bun:"slug"`
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func location(city, state, country []string, full string) domain.Location {
	return domain.Location{City: nonNil(city), State: nonNil(state), Country: nonNil(country), Full: full}
}

func salary(lo, hi *float64, currency, period *string) *domain.Salary {
	if lo == nil && hi == nil {
		return nil
	}
	return &domain.Salary{Min: lo, Max: hi, Currency: currency, Period: period}
}

func arrangement(s *string) *domain.WorkArrangement {
	if s == nil {
		return nil
	}
	w := domain.WorkArrangement(*s)
	return &w
}

// toCard converts a list row to a job card.
func (r *cardRow) toCard() domain.JobCard {
	return domain.JobCard{
		ID:              r.ID,
		Title:           r.Title,
		Company:         r.Company,
		Location:        location(r.LocationCity, r.LocationState, r.LocationCountry, r.LocationFull),
		WorkArrangement: arrangement(r.WorkArrangement),
		EmploymentType:  r.EmploymentType,
		Salary:          salary(r.SalaryMin, r.SalaryMax, r.SalaryCurrency, r.SalaryPeriod),
		Category:        domain.Category{Field: r.CategoryField, Role: r.CategoryRole, Specialization: r.CategorySpecialization},
		CompanyID:       r.CompanyID,
		PostedAt:        postedAt(r.PostedAt),
		CompanyLogo:     r.CompanyLogo,
		Summary:         r.Summary,
	}
}

// postedAt writes a posting's instant as the API does, or nil.
func postedAt(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := domain.FormatTime(*t)
	return &s
}

// toJob converts a row to the full job record.
func (r *jobRow) toJob() *domain.Job {
	var clearances []string
	if len(r.SecurityClearances) > 0 {
		clearances = r.SecurityClearances
	}
	return &domain.Job{
		ID:                      r.ID,
		Title:                   r.Title,
		Company:                 r.Company,
		CompanyLogo:             r.CompanyLogo,
		URL:                     r.URL,
		PostedAt:                postedAt(r.PostedAt),
		Location:                location(r.LocationCity, r.LocationState, r.LocationCountry, r.LocationFull),
		WorkArrangement:         arrangement(r.WorkArrangement),
		EmploymentType:          r.EmploymentType,
		ExperienceLevel:         r.ExperienceLevel,
		Salary:                  salary(r.SalaryMin, r.SalaryMax, r.SalaryCurrency, r.SalaryPeriod),
		Summary:                 r.Summary,
		Description:             r.Description,
		DescriptionRaw:          r.DescriptionRaw,
		Responsibilities:        nonNil(r.Responsibilities),
		RequiredQualifications:  nonNil(r.RequiredQualifications),
		PreferredQualifications: nonNil(r.PreferredQualifications),
		Skills:                  nonNil(r.Skills),
		Tools:                   nonNil(r.Tools),
		SoftSkills:              nonNil(r.SoftSkills),
		TechnicalSkills:         nonNil(r.TechnicalSkills),
		Benefits:                nonNil(r.Benefits),
		Education:               nonNil(r.Education),
		EducationLevels:         nonNil(r.EducationLevels),
		EducationMajors:         nonNil(r.EducationMajors),
		Certifications:          nonNil(r.Certifications),
		VisaSponsorship:         nonNil(r.VisaSponsorship),
		VisaRequirements:        nonNil(r.VisaRequirements),
		SecurityClearances:      clearances,
		ClearanceStatus:         r.ClearanceStatus,
		TravelPercent:           r.TravelPercent,
		Source:                  r.Source,
		Category:                domain.Category{Field: r.CategoryField, Role: r.CategoryRole, Specialization: r.CategorySpecialization},
		CompanyID:               r.CompanyID,
	}
}

// fromRecord converts a normalized record to a row of company companyID.
func fromRecord(rec *domain.JobRecord, companyID int64) jobRow {
	j := &rec.Job
	var posted *time.Time
	if !rec.PostedTime.IsZero() {
		t := rec.PostedTime
		posted = &t
	}
	var arr *string
	if j.WorkArrangement != nil {
		s := string(*j.WorkArrangement)
		arr = &s
	}
	r := jobRow{
		ID: j.ID, CompanyID: companyID, Title: j.Title, Company: j.Company, CompanyLogo: j.CompanyLogo, URL: j.URL,
		PostedAt:     posted,
		LocationCity: nonNil(j.Location.City), LocationState: nonNil(j.Location.State), LocationCountry: nonNil(j.Location.Country),
		LocationFull:    j.Location.Full,
		WorkArrangement: arr, EmploymentType: j.EmploymentType, ExperienceLevel: j.ExperienceLevel,
		SalaryAnnualMin: rec.AnnualMin, SalaryAnnualMax: rec.AnnualMax,
		Summary: j.Summary, Description: j.Description, DescriptionRaw: j.DescriptionRaw,
		Responsibilities: nonNil(j.Responsibilities), RequiredQualifications: nonNil(j.RequiredQualifications),
		PreferredQualifications: nonNil(j.PreferredQualifications), Skills: nonNil(j.Skills), Tools: nonNil(j.Tools),
		SoftSkills: nonNil(j.SoftSkills), TechnicalSkills: nonNil(j.TechnicalSkills), Benefits: nonNil(j.Benefits),
		Education: nonNil(j.Education), EducationLevels: nonNil(j.EducationLevels), EducationMajors: nonNil(j.EducationMajors),
		Certifications: nonNil(j.Certifications), VisaSponsorship: nonNil(j.VisaSponsorship),
		VisaRequirements: nonNil(j.VisaRequirements), SecurityClearances: j.SecurityClearances,
		ClearanceStatus: j.ClearanceStatus, TravelPercent: j.TravelPercent, Source: j.Source,
		CategoryField: j.Category.Field, CategoryRole: j.Category.Role, CategorySpecialization: j.Category.Specialization,
		ValidThrough: rec.ValidThrough, FilterKeys: nonNil(rec.FilterKeys), Given: rec.Given,
	}
	if s := j.Salary; s != nil {
		r.SalaryMin, r.SalaryMax, r.SalaryCurrency, r.SalaryPeriod = s.Min, s.Max, s.Currency, s.Period
	}
	return r
}

var typeOfJobRow = reflect.TypeFor[jobRow]()

// jobRowFields are jobRow's columns in its field order, as bun reads the
// struct: the one list COPY's columns, its values and the scan targets
// follow.
var jobRowFields = bun.NewDB(nil, pgdialect.New()).Table(typeOfJobRow).Fields

// copyValues returns the row's values in the order of copyColumns.
func (r *jobRow) copyValues() []any {
	v := reflect.ValueOf(r).Elem()
	values := make([]any, len(jobRowFields))
	for i, f := range jobRowFields {
		if f.GoName == "Given" {
			values[i] = givenValue(r.Given)
			continue
		}
		values[i] = f.Value(v).Interface()
	}
	return values
}

// scanTargets returns pointers to the row's fields in the order of
// copyColumns, for scanning a row read with those columns.
func (r *jobRow) scanTargets() []any {
	v := reflect.ValueOf(r).Elem()
	targets := make([]any, len(jobRowFields))
	for i, f := range jobRowFields {
		targets[i] = f.Value(v).Addr().Interface()
	}
	return targets
}

// unreadColumns is how many of jobRow's last columns the single-job query
// leaves out: content_hash, filter_keys and given.
const unreadColumns = 3

// contentHash is the SHA-256 of everything the row holds but its hash:
// two writes of a record hash alike exactly when they store the same.
func (r *jobRow) contentHash() []byte {
	c := *r
	c.ContentHash = nil
	if c.ValidThrough != nil {
		t := c.ValidThrough.UTC()
		c.ValidThrough = &t
	}
	if c.PostedAt != nil {
		t := c.PostedAt.UTC()
		c.PostedAt = &t
	}
	b, err := json.Marshal(&c)
	if err != nil { // a row holds nothing json cannot write
		panic(fmt.Sprintf("hash job row: %v", err))
	}
	sum := sha256.Sum256(b)
	return sum[:]
}

// givenValue is a row's given values for COPY: SQL NULL when there are
// none.
func givenValue(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}
