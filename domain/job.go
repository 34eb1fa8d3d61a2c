package domain

import "time"

// TimeLayout is how posted_at is written: RFC 3339, UTC, second precision.
const TimeLayout = "2006-01-02T15:04:05Z"

// FormatTime writes an instant as the API writes every instant
// (TimeLayout): posted_at, closed_at, a change's at.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// Location is where a job is: lists of normalized cities, states and
// countries, and Full, the combined text "city, state, country".
type Location struct {
	City    []string `json:"city"`
	State   []string `json:"state"`
	Country []string `json:"country"`
	Full    string   `json:"full"`
}

// Salary is the pay range of a posting. Max is nil for "from X" ranges and
// Min is nil for "up to X" ranges; at least one of them is set.
type Salary struct {
	Min      *float64 `json:"min"`
	Max      *float64 `json:"max"`
	Currency *string  `json:"currency"`
	Period   *string  `json:"period"`
}

// Category is a job's place in the occupation taxonomy. Members are nil when
// unknown.
type Category struct {
	Field          *string `json:"field"`
	Role           *string `json:"role"`
	Specialization *string `json:"specialization"`
}

// JobCard is the lightweight view of a job returned by job lists.
type JobCard struct {
	ID              string           `json:"id"`
	Title           string           `json:"title"`
	Company         string           `json:"company"`
	Location        Location         `json:"location"`
	WorkArrangement *WorkArrangement `json:"work_arrangement"`
	EmploymentType  *string          `json:"employment_type"`
	Salary          *Salary          `json:"salary"`
	Category        Category         `json:"category"`
	// CompanyID is the stored company's id, for GraphQL's employer.
	CompanyID int64 `json:"-"`
	// PostedAt, CompanyLogo and Summary are GraphQL's list extras, read
	// only when a selection asks for them (JobQuery.CardExtras); REST's card is
	// the specification's eight fields without them.
	PostedAt    *string `json:"-"`
	CompanyLogo *string `json:"-"`
	Summary     *string `json:"-"`
	// DistanceKm is the distance from a near filter's point to the
	// nearest of the posting's cities, to one decimal: nil without a
	// point, and for a remote posting the filter adds (REST writes it as
	// distance_km only with a point: NearCard).
	DistanceKm *float64 `json:"-"`
}

// Job is the full record of one posting (specification 2.1).
type Job struct {
	ID                      string           `json:"id"`
	Title                   string           `json:"title"`
	Company                 string           `json:"company"`
	CompanyLogo             *string          `json:"company_logo"`
	URL                     *string          `json:"url"`
	PostedAt                *string          `json:"posted_at"`
	Location                Location         `json:"location"`
	WorkArrangement         *WorkArrangement `json:"work_arrangement"`
	EmploymentType          *string          `json:"employment_type"`
	ExperienceLevel         *string          `json:"experience_level"`
	Salary                  *Salary          `json:"salary"`
	Summary                 *string          `json:"summary"`
	Description             *string          `json:"description"`
	DescriptionRaw          *string          `json:"description_raw"`
	Responsibilities        []string         `json:"responsibilities"`
	RequiredQualifications  []string         `json:"required_qualifications"`
	PreferredQualifications []string         `json:"preferred_qualifications"`
	Skills                  []string         `json:"skills"`
	Tools                   []string         `json:"tools"`
	SoftSkills              []string         `json:"soft_skills"`
	TechnicalSkills         []string         `json:"technical_skills"`
	Benefits                []string         `json:"benefits"`
	Education               []string         `json:"education"`
	EducationLevels         []string         `json:"education_levels"`
	EducationMajors         []string         `json:"education_majors"`
	Certifications          []string         `json:"certifications"`
	VisaSponsorship         []string         `json:"visa_sponsorship"`
	VisaRequirements        []string         `json:"visa_requirements"`
	SecurityClearances      []string         `json:"security_clearances"`
	ClearanceStatus         *string          `json:"clearance_status"`
	TravelPercent           *float64         `json:"travel_percent"`
	Source                  *string          `json:"source"`
	Category                Category         `json:"category"`
	// CompanyID is the stored company's id, for GraphQL's employer.
	CompanyID int64 `json:"-"`
}

// Card returns the job card view of the job.
func (j *Job) Card() JobCard {
	return JobCard{
		ID:              j.ID,
		Title:           j.Title,
		Company:         j.Company,
		Location:        j.Location,
		WorkArrangement: j.WorkArrangement,
		EmploymentType:  j.EmploymentType,
		Salary:          j.Salary,
		Category:        j.Category,
		CompanyID:       j.CompanyID,
		PostedAt:        j.PostedAt,
		CompanyLogo:     j.CompanyLogo,
		Summary:         j.Summary,
	}
}

// Company is a hiring organization with the number of jobs it has.
type Company struct {
	Name     string  `json:"name"`
	LogoURL  *string `json:"logo_url"`
	JobCount int     `json:"job_count"`
	// Slug names the company's page (extension).
	Slug string `json:"slug"`
}

// CompanyProfile is a company's page: the company and how its jobs divide
// by category field and work arrangement.
type CompanyProfile struct {
	ID                int64        `json:"-"`
	Name              string       `json:"name"`
	Slug              string       `json:"slug"`
	LogoURL           *string      `json:"logo_url"`
	JobCount          int          `json:"job_count"`
	ByCategory        []ValueCount `json:"by_category"`
	ByWorkArrangement []ValueCount `json:"by_work_arrangement"`
}

// ValueCount is how many jobs have a value; Value is nil for jobs without
// one.
type ValueCount struct {
	Value *string `json:"value"`
	Count int     `json:"count"`
}

// CompanyIDPrefix begins a company's global id (GraphQL's Node.id).
const CompanyIDPrefix = "company:"

// ID is the company's global id: "company:" and its slug, which
// Query.node(id:) resolves.
func (c *Company) ID() string { return CompanyIDPrefix + c.Slug }
