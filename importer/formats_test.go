package importer

import (
	"encoding/json"
	"errors"
	"html"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

func s(v string) *string { return &v }

func f(v float64) *float64 { return &v }

func wa(w domain.WorkArrangement) *domain.WorkArrangement { return &w }

func newMapper(t *testing.T, company string) *mapper {
	t.Helper()
	n, err := normalize.New()
	require.NoError(t, err)
	return &mapper{n: n, company: company}
}

// mapped is one record of a fixture: the job it maps onto and its
// normalized record, or why it is invalid.
type mapped struct {
	job     domain.Job
	rec     domain.JobRecord
	dropped *LineError // the URL fields dropped to null
	bad     *LineError
	close   *domain.JobClose // a tombstone
}

// mapInput splits and maps the records of input in the named format.
func mapInput(t *testing.T, name, input, company string) ([]mapped, error) {
	t.Helper()
	fm, err := lookupFormat(name)
	require.NoError(t, err)
	m := newMapper(t, company)
	var out []mapped
	err = fm.split(strings.NewReader(input), func(r record) error {
		var one mapped
		var e entry
		e, one.bad = mapRecord(fm, r, m)
		one.job, one.close = e.job, e.close
		if one.bad == nil {
			var o op
			o, one.dropped, one.bad = prepare(fm, r, m)
			one.rec = o.rec
		}
		out = append(out, one)
		return nil
	})
	return out, err
}

func mapFixture(t *testing.T, name, file, company string) []mapped {
	t.Helper()
	b, err := os.ReadFile("../testdata/formats/" + file)
	require.NoError(t, err)
	out, err := mapInput(t, name, string(b), company)
	require.NoError(t, err)
	return out
}

// assertJob compares a mapped job field by field with want; the raw
// description is compared apart (wantRaw: equal, or when it ends with "…",
// a prefix).
func assertJob(t *testing.T, want domain.Job, wantRaw string, got domain.Job) {
	t.Helper()
	require.NotNil(t, got.DescriptionRaw, "description_raw")
	if prefix, ok := strings.CutSuffix(wantRaw, "…"); ok {
		assert.True(t, strings.HasPrefix(*got.DescriptionRaw, prefix), "description_raw starts %q: %q", prefix, *got.DescriptionRaw)
	} else {
		assert.Equal(t, wantRaw, *got.DescriptionRaw, "description_raw")
	}
	got.DescriptionRaw = nil
	assert.Equal(t, want, got)
}

func TestFormatGreenhouse(t *testing.T) {
	got := mapFixture(t, formatGreenhouse, "greenhouse.json", "Northwind Robotics")
	require.Len(t, got, 3)
	for _, g := range got {
		require.Nil(t, g.bad)
	}

	assertJob(t, domain.Job{
		ID: "greenhouse-4012345", Title: "Senior Backend Engineer, Payments", Company: "Northwind Robotics",
		URL:             s("https://boards.greenhouse.io/northwindrobotics/jobs/4012345"),
		PostedAt:        s("2026-10-20T13:15:00Z"), // first_published, not updated_at
		Location:        domain.Location{Full: "San Francisco, CA; New York, NY; San Francisco, California, United States; New York, New York, United States"},
		EmploymentType:  s("full-time"),
		ExperienceLevel: s("5+ years"),
		Salary:          &domain.Salary{Min: f(185000), Max: f(230000), Currency: s("USD"), Period: s("annual")},
		Description: s("About the role\nNorthwind Robotics' payments team moves money for 4,000 warehouses. You’ll design the services that price, bill & settle every pick.\n" +
			"What you'll do\nBuild and operate payment services in Go on Kubernetes\nOwn PostgreSQL schemas and migrations for the ledger\nMentor engineers and review designs\n" +
			"What we're looking for\n5+ years of experience building backend services\nBachelor's degree in Computer Science or equivalent experience.\nExperience with Kafka and Terraform is a plus\n" +
			"Travel up to 10% for quarterly planning weeks.\nWe sponsor H-1B visas and welcome H-1B transfers.\n" +
			"Northwind Robotics is an equal opportunity employer. We do not discriminate on the basis of race, religion, national origin, citizenship status or any other protected status."),
		Skills:          []string{"Go", "Kubernetes", "PostgreSQL", "Kafka", "Terraform"},
		Tools:           []string{"Kubernetes", "Terraform"},
		Education:       []string{"Bachelor's degree in Computer Science or equivalent experience."},
		EducationLevels: []string{"Bachelor's"},
		VisaSponsorship: []string{"H-1B"},
		TravelPercent:   f(10),
	}, "<h2>About the role</h2>\n<p>Northwind Robotics&#39; payments team…", got[0].job)

	assertJob(t, domain.Job{
		ID: "greenhouse-4012399", Title: "Systems Administrator (Cleared) – Federal",
		Company:         "Northwind Robotics", // no company_name: the --company default
		URL:             s("https://boards.greenhouse.io/northwindrobotics/jobs/4012399"),
		PostedAt:        s("2026-10-25T12:00:00Z"), // updated_at, as first_published is missing
		Location:        domain.Location{Full: "Chantilly, VA"},
		ExperienceLevel: s("3-5 years"),
		Description: s("Overview\nKeep our customer's classified networks running — on site in Chantilly, VA.\nAdminister Red Hat Linux and Windows servers\nPatch, harden & audit systems against DISA STIGs\n" +
			"Requirements\nActive TS/SCI clearance with polygraph is required to start.\nU.S. citizenship required.\n3-5 years of systems administration experience\nCompTIA Security+ certification\n" +
			"Up to 25% travel to customer sites in Maryland and Virginia.\nWe are unable to sponsor visas for this position."),
		Skills:             []string{"Red Hat Enterprise Linux", "Linux"},
		VisaRequirements:   []string{"U.S. citizenship required.", "We are unable to sponsor visas for this position."},
		SecurityClearances: []string{"TS/SCI with Polygraph"},
		ClearanceStatus:    s("Active"),
		TravelPercent:      f(25),
	}, "<p><strong>Overview</strong></p>\n<p>Keep our customer&#39;s classified networks running &mdash; on site…", got[1].job)

	assertJob(t, domain.Job{
		ID: "greenhouse-4012400", Title: "Data Analyst Intern (Summer 2027)", Company: "Northwind Robotics",
		URL:            s("https://boards.greenhouse.io/northwindrobotics/jobs/4012400"),
		PostedAt:       s("2026-10-29T10:30:00Z"),
		Location:       domain.Location{Full: "London, United Kingdom"},
		EmploymentType: s("internship"),
		Salary:         &domain.Salary{Min: f(22), Max: f(26), Currency: s("GBP"), Period: s("hourly")}, // cents, "Hourly Pay Range"
		Description: s("Join our analytics team for the summer in London.\nYou will clean data in SQL and build dashboards in Tableau and Excel. Go further: present your findings to the leadership team.\n" +
			"Currently pursuing a degree in Statistics, Economics or a related field.\nNo travel required."),
		Skills:        []string{"SQL", "Excel"}, // not Go: "Go further"
		Tools:         []string{"Tableau", "Excel"},
		Education:     []string{"Currently pursuing a degree in Statistics, Economics or a related field."},
		TravelPercent: f(0),
	}, "<p>Join our analytics team for the summer in London.</p>\n<p>You will clean data in SQL and build dashboards in Tableau and Excel. Go further: present your findings to the leadership team.</p>\n"+
		"<p>Currently pursuing a degree in Statistics, Economics or a related field.</p>\n<p>No travel required.</p>", got[2].job)

	// The content is unescaped exactly once.
	var board struct{ Jobs []struct{ Content string } }
	b, err := os.ReadFile("../testdata/formats/greenhouse.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &board))
	assert.Equal(t, html.UnescapeString(board.Jobs[0].Content), *got[0].job.DescriptionRaw)
	assert.Contains(t, *got[0].rec.DescriptionRaw, "bill &amp; settle")
	// Stored sanitized: the same HTML, entities spelled as characters.
	assert.Equal(t, normalize.SanitizeHTML(*got[0].job.DescriptionRaw), *got[0].rec.DescriptionRaw)
	assert.Contains(t, *got[0].rec.DescriptionRaw, "You’ll design")

	// Normalized.
	r := got[0].rec
	assert.Equal(t, domain.Location{City: []string{"San Francisco", "New York"}, State: []string{"California", "New York"},
		Country: []string{"United States"}, Full: "San Francisco, California, United States + 1 more"}, r.Location)
	assert.Equal(t, []string{"Computer Science"}, r.EducationMajors)
	assert.Equal(t, "greenhouse", *r.Source)
	assert.Equal(t, domain.Category{Field: s("Computer and Mathematical"), Role: s("Software Engineer"), Specialization: s("Backend")}, r.Category)
	require.NotNil(t, r.AnnualMin)
	assert.Equal(t, 185000.0, *r.AnnualMin)
	r = got[1].rec
	assert.Equal(t, domain.Location{City: []string{"Chantilly"}, State: []string{"Virginia"}, Country: []string{"United States"}, Full: "Chantilly, Virginia, United States"}, r.Location)
	r = got[2].rec
	assert.Equal(t, []string{"Statistics", "Economics"}, r.EducationMajors)
	assert.Equal(t, 22.0*2080, *r.AnnualMin, "hourly pay annualized")
}

func TestFormatGreenhouseNeedsCompany(t *testing.T) {
	got := mapFixture(t, formatGreenhouse, "greenhouse.json", "")
	require.Len(t, got, 3)
	assert.Nil(t, got[0].bad)
	require.NotNil(t, got[1].bad)
	assert.Equal(t, "record 2 (greenhouse-4012399): company is required: the Greenhouse job has no company_name; give --company NAME", got[1].bad.String())
	assert.Nil(t, got[2].bad)
}

func TestFormatLever(t *testing.T) {
	got := mapFixture(t, formatLever, "lever.json", "Maple Ledger")
	require.Len(t, got, 3)
	for _, g := range got {
		require.Nil(t, g.bad)
	}

	assertJob(t, domain.Job{
		ID: "lever-408738175165449289", Title: "Staff Software Engineer, Platform", Company: "Maple Ledger",
		URL:             s("https://jobs.lever.co/mapleledger/5ac21346-8e0c-4494-8e7a-3eb92ff77902"),
		PostedAt:        s("2026-10-28T12:40:00Z"),
		Location:        domain.Location{Country: []string{"CA"}, Full: "Toronto, ON; Vancouver, BC"},
		WorkArrangement: wa(domain.WorkArrangementHybrid),
		EmploymentType:  s("full-time"),
		ExperienceLevel: s("8+ years"),
		Salary:          &domain.Salary{Min: f(180000), Max: f(220000), Currency: s("CAD"), Period: s("annual")},
		Description: s("Maple Ledger builds the accounting platform behind 30,000 Canadian small businesses. The Platform team runs the services every other team ships on.\n" +
			"We're hiring a Staff Software Engineer to lead our move to event-driven services.\n" +
			"What you'll do\nDesign event-driven services in Go and Kafka\nLead architecture reviews across three teams\nCoach senior engineers\n" +
			"What you'll need\n8+ years of experience in software engineering\nDeep experience with PostgreSQL & distributed systems\n" +
			"Nice to have\nExperience with Terraform on AWS\nOpen-source contributions\n" +
			"Perks\nDental\nRRSP matching\nUnlimited PTO\n" +
			"Maple Ledger is committed to accessibility & inclusion. Travel: up to 15% (Toronto and Vancouver offices)."),
		Responsibilities:        []string{"Design event-driven services in Go and Kafka", "Lead architecture reviews across three teams", "Coach senior engineers"},
		RequiredQualifications:  []string{"8+ years of experience in software engineering", "Deep experience with PostgreSQL & distributed systems"},
		PreferredQualifications: []string{"Experience with Terraform on AWS", "Open-source contributions"},
		Skills:                  []string{"Go", "Kafka", "PostgreSQL", "Terraform", "AWS"},
		Tools:                   []string{"Terraform"},
		Benefits:                []string{"Dental", "RRSP matching", "Unlimited PTO"},
		TravelPercent:           f(15),
	}, "<div><b>Maple Ledger</b> builds…", got[0].job)
	assert.Contains(t, *got[0].job.DescriptionRaw, "<h3>What you&#39;ll need</h3><ul><li>8+ years of experience in software engineering</li>")

	assertJob(t, domain.Job{
		ID: "lever-797027517400147189", Title: "Customer Support Specialist (Part-Time)", Company: "Maple Ledger",
		URL:             s("https://jobs.lever.co/mapleledger/b0f9c4de-2d8e-4f5a-9a61-0c7e2b3d4f10"),
		PostedAt:        s("2026-10-30T12:00:00Z"),
		Location:        domain.Location{Country: []string{"US"}, Full: "Remote - United States"},
		WorkArrangement: wa(domain.WorkArrangementRemote),
		EmploymentType:  s("part-time"),
		Salary:          &domain.Salary{Min: f(24), Max: f(28), Currency: s("USD"), Period: s("hourly")},
		Description: s("Help accountants get unstuck, by chat and email, four evenings a week.\nYou'll work in Zendesk and Salesforce and hand bugs to engineering in Jira.\nNo travel required.\n" +
			"About the team\nTwelve specialists across four time zones\nRequirements\n2+ years in a customer support role\nMust be authorized to work in the United States"),
		// "About the team" is no field; "Requirements" are required qualifications.
		RequiredQualifications: []string{"2+ years in a customer support role", "Must be authorized to work in the United States"},
		Skills:                 []string{"Salesforce"},
		Tools:                  []string{"Zendesk", "Salesforce", "Jira"},
		VisaRequirements:       []string{"Must be authorized to work in the United States"},
		TravelPercent:          f(0),
	}, "<div>Help accountants get unstuck…", got[1].job)

	assertJob(t, domain.Job{
		ID: "lever-59639652398056661", Title: "Technical Writer (6-month contract)", Company: "Maple Ledger",
		URL:            s("https://jobs.lever.co/mapleledger/0d3e1f2a-7b6c-4d5e-8f90-a1b2c3d4e5f6/apply"), // no hostedUrl
		PostedAt:       s("2026-10-31T12:00:00Z"),
		Location:       domain.Location{Country: []string{"CA"}, Full: "Montreal, QC"},
		EmploymentType: s("contract"),
		// A one-time amount is no salary; workplaceType "unspecified" is no arrangement.
		Description: s("Write the API reference for our public REST API over a six-month contract."),
	}, "<div>Write the API reference for our public REST API over a six-month contract.</div>", got[2].job)

	r := got[0].rec
	assert.Equal(t, domain.Location{City: []string{"Toronto", "Vancouver"}, State: []string{"Ontario", "British Columbia"},
		Country: []string{"Canada"}, Full: "Toronto, Ontario, Canada + 1 more"}, r.Location)
	assert.Equal(t, []string{"Dental Insurance", "RRSP matching", "Paid Time Off"}, r.Benefits)
	r = got[1].rec
	assert.Equal(t, domain.Location{City: []string{}, State: []string{}, Country: []string{"United States"}, Full: "United States"}, r.Location)
	assert.Equal(t, 24.0*2080, *r.AnnualMin)
	assert.Nil(t, got[2].rec.Salary)
	assert.Nil(t, got[2].rec.WorkArrangement)
}

func TestFormatLeverNeedsCompany(t *testing.T) {
	got := mapFixture(t, formatLever, "lever.json", "")
	require.Len(t, got, 3)
	for i, g := range got {
		require.NotNil(t, g.bad)
		assert.Equal(t, i+1, g.bad.Line)
		assert.Equal(t, "company is required: Lever postings do not name their company; give --company NAME", g.bad.Reason)
	}
	assert.Equal(t, "record 1 (lever-408738175165449289): company is required: Lever postings do not name their company; give --company NAME", got[0].bad.String())
}

func TestFormatJSONLDPage(t *testing.T) {
	got := mapFixture(t, formatJSONLD, "jobposting.html", "")
	require.Len(t, got, 1, "one JobPosting; the Hospital and BreadcrumbList block is skipped")
	require.Nil(t, got[0].bad)
	assertJob(t, domain.Job{
		ID:          "jsonld-202755019052721733", // identifier RN-ICU-2231 is not a number: hashed with the company
		Title:       "Registered Nurse – ICU (Nights)",
		Company:     "St. Mary's Regional Medical Center",
		CompanyLogo: s("https://stmarys.example/img/logo.png"),
		URL:         s("https://careers.stmarys.example/jobs/rn-icu-2231"),
		PostedAt:    s("2026-10-27T00:00:00Z"),
		Location: domain.Location{City: []string{"Austin", "Round Rock"}, State: []string{"TX", "TX"},
			Country: []string{"US", "US"}},
		EmploymentType:  s("full-time"), // PER_DIEM names no contract type; FULL_TIME does
		ExperienceLevel: s("2+ years"),  // monthsOfExperience 24
		Salary:          &domain.Salary{Min: f(42.5), Max: f(58), Currency: s("USD"), Period: s("hourly")},
		Description: s("St. Mary's Regional Medical Center is hiring night-shift nurses for our 32-bed ICU.\nShift: 7p–7a, three nights a week.\n" +
			"Document care in Epic and work alongside respiratory therapists & intensivists.\n" +
			"Active Texas RN license or compact license required; BLS and ACLS within 30 days of hire."),
		Responsibilities:       []string{"Assess and monitor up to two critically ill patients", "Titrate vasoactive drips per protocol"},
		RequiredQualifications: []string{"Active RN license (Texas or compact)", "BLS and ACLS certification"},
		Skills:                 []string{"Patient care", "Epic", "critical care nursing"},
		Tools:                  []string{"Epic"}, // from the text, as the posting gives no tools
		Benefits:               []string{"Medical", "dental", "vision insurance", "403(b) with 4% match", "Tuition reimbursement"},
		Education:              []string{"associate degree"},
		EducationLevels:        []string{"Associate's"},
	}, "<p>St. Mary&#39;s Regional Medical Center is hiring night-shift nurses for our 32-bed ICU.</p>\n<p><strong>Shift:</strong> 7p&ndash;7a, three nights a week.</p>\n"+
		"<p>Document care in Epic and work alongside respiratory therapists &amp; intensivists.</p>\n"+
		"<p>Active Texas RN license or compact license required; BLS and ACLS within 30 days of hire.</p>", got[0].job)

	r := got[0].rec
	assert.Equal(t, domain.Location{City: []string{"Austin", "Round Rock"}, State: []string{"Texas"}, Country: []string{"United States"},
		Full: "Austin, Texas, United States + 1 more"}, r.Location)
	assert.Equal(t, []string{"Health Insurance", "Dental Insurance", "Vision Insurance", "403(b) with 4% match", "Tuition Reimbursement"}, r.Benefits)
	assert.Equal(t, domain.Category{Field: s("Healthcare Practitioners and Technical"), Role: s("Registered Nurse"), Specialization: s("ICU/Critical Care")}, r.Category)
}

func TestFormatJSONLDGraph(t *testing.T) {
	got := mapFixture(t, formatJSONLD, "jobs.jsonld", "")
	require.Len(t, got, 2)
	for _, g := range got {
		require.Nil(t, g.bad)
	}
	assertJob(t, domain.Job{
		ID:    "jsonld-88231", // a numeric identifier
		Title: "Senior Site Reliability Engineer",
		// hiringOrganization is a reference to the @graph's Organization.
		Company: "Quillsoft", CompanyLogo: s("https://quillsoft.example/logo.svg"),
		URL:             s("https://quillsoft.example/careers/88231"),
		PostedAt:        s("2026-10-30T14:00:00Z"),
		Location:        domain.Location{City: []string{"", ""}, State: []string{"", ""}, Country: []string{"USA", "Canada"}},
		WorkArrangement: wa(domain.WorkArrangementRemote), // TELECOMMUTE
		EmploymentType:  s("contract"),
		ExperienceLevel: s("6+ years"), // experienceRequirements, not the text's "At least 6 years"
		Salary:          &domain.Salary{Min: f(95), Max: f(95), Currency: s("USD"), Period: s("hourly")},
		Description: s("Keep Quillsoft's editor online for 2 million writers.\nYou will run our AWS fleet with Terraform and Kubernetes, and build tooling in Python.\n" +
			"At least 6 years of experience in SRE or infrastructure roles.\nB.S. in Computer Science or Electrical Engineering.\n" +
			"Active Secret clearance required (federal customers).\nH-1B sponsorship available.\nTravel: approximately 5-10% for on-call handoffs."),
		Skills:             []string{"AWS", "Terraform", "Kubernetes", "Python"},
		Tools:              []string{"Terraform", "Kubernetes"},
		Benefits:           []string{"Remote work stipend", "401k"},
		Education:          []string{"B.S. in Computer Science or Electrical Engineering."},
		EducationLevels:    []string{"Bachelor's"},
		VisaSponsorship:    []string{"H-1B"},
		SecurityClearances: []string{"Secret"},
		ClearanceStatus:    s("Active"),
		TravelPercent:      f(10),
	}, "Keep Quillsoft&#39;s editor online for 2 million writers.\n…", got[0].job)

	assertJob(t, domain.Job{
		ID:       "jsonld-43629330490650468", // no identifier: hashed from the sameAs URL
		Title:    "Product Designer",
		Company:  "Quillsoft",
		URL:      s("https://quillsoft.example/careers/product-designer"),
		PostedAt: s("2026-10-15T00:00:00Z"),
		Location: domain.Location{City: []string{"Berlin"}, State: []string{""}, Country: []string{"Germany"}},
		// employmentType OTHER names no contract type.
		Description:      s("Design the writing experience in Figma.\nWe do not sponsor visas."),
		Skills:           []string{"Figma"},
		Tools:            []string{"Figma"},
		VisaRequirements: []string{"We do not sponsor visas."},
	}, "<p>Design the writing experience in Figma.</p><p>We do not sponsor visas.</p>", got[1].job)

	r := got[0].rec
	assert.Equal(t, domain.Location{City: []string{}, State: []string{}, Country: []string{"United States", "Canada"}, Full: "United States + 1 more"}, r.Location)
	assert.Equal(t, []string{"Remote Work Stipend", "401(k)"}, r.Benefits)
	assert.Equal(t, []string{"Computer Science", "Electrical Engineering"}, r.EducationMajors)
	assert.Equal(t, domain.Category{Field: s("Computer and Mathematical"), Role: s("Software Engineer"), Specialization: s("DevOps/SRE")}, r.Category)
}

// TestFormatJSONLDInputs reads the shapes JSON-LD comes in, and the
// records it cannot use.
func TestFormatJSONLDInputs(t *testing.T) {
	posting := func(fields string) string {
		return `{"@context":"https://schema.org","@type":"JobPosting",` + fields + `}`
	}
	tests := []struct {
		name    string
		input   string
		company string
		ids     []string
		bad     []string // LineError.String() of each invalid record, in order
		err     string
	}{
		{name: "one object", input: posting(`"title":"Nurse","hiringOrganization":"Acme Health","identifier":"12"`), ids: []string{"jsonld-12"}},
		{name: "an array", input: `[` + posting(`"title":"Nurse","hiringOrganization":"Acme Health","identifier":12`) + `,` +
			posting(`"title":"Cook","hiringOrganization":{"name":"Diner"},"identifier":{"@type":"PropertyValue","value":"0013"}`) + `]`,
			ids: []string{"jsonld-12", "jsonld-0013"}},
		{name: "NDJSON, by line", input: posting(`"title":"Nurse","hiringOrganization":"Acme Health","identifier":"1"`) + "\n\n" +
			`{"@type":"Organization","name":"Acme"}` + "\n" +
			`{"@type":"JobPosting", broken` + "\n" +
			posting(`"title":"Cook","identifier":"4"`) + "\n",
			ids: []string{"jsonld-1"},
			bad: []string{"line 4: not valid JSON (offset 24): invalid character 'b' looking for beginning of object key string",
				"line 5: company is required: the JobPosting names no hiringOrganization; give --company NAME"}},
		{name: "NDJSON with --company", input: posting(`"title":"Cook","identifier":"4"`) + "\n" + posting(`"title":"Baker","identifier":"5"`),
			company: "Diner", ids: []string{"jsonld-4", "jsonld-5"}},
		{name: "no title", input: posting(`"hiringOrganization":"Acme Health","identifier":"7"`),
			bad: []string{"record 1 (jsonld-7): title is required: the JobPosting has no title"}},
		{name: "bad date", input: posting(`"title":"Nurse","hiringOrganization":"Acme","identifier":"8","datePosted":"last week"`),
			bad: []string{`record 1 (jsonld-8): posted_at "last week" is not an RFC 3339 date-time or date`}},
		{name: "schema prefix and type list", input: `{"@graph":[{"@type":["schema:JobPosting"],"title":"Nurse","hiringOrganization":"Acme","identifier":"9"}]}`,
			ids: []string{"jsonld-9"}},
		{name: "HTML with a broken JobPosting block", input: `<html><head><script type="application/ld+json">{"@type":"WebSite","name":"x",}</script>` +
			`<script type="application/ld+json">{"@type":"JobPosting","title":"Nurse",}</script>` +
			`<script type="application/ld+json"><!--` + posting(`"title":"Cook","hiringOrganization":"Diner","identifier":"3"`) + `--></script></head></html>`,
			ids: []string{"jsonld-3"},
			bad: []string{"record 1: ld+json script 2: not valid JSON (offset 39): invalid character '}' looking for beginning of object key string"}},
		{name: "HTML without postings", input: `<!doctype html><p>Careers</p><script type="application/ld+json">{"@type":"Organization","name":"Acme"}</script>`,
			err: "no schema.org JobPosting in the input"},
		{name: "empty", input: "  \n", err: "no schema.org JobPosting in the input"},
		{name: "not JSON", input: "{\n  \"@type\": \"JobPosting\",\n  title\n}", err: "not valid JSON (line 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mapInput(t, formatJSONLD, tt.input, tt.company)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			ids, bad := []string{}, []string{}
			for _, g := range got {
				if g.bad != nil {
					bad = append(bad, g.bad.String())
				} else {
					ids = append(ids, g.rec.ID)
				}
			}
			if tt.ids == nil {
				tt.ids = []string{}
			}
			if tt.bad == nil {
				tt.bad = []string{}
			}
			assert.Equal(t, tt.ids, ids)
			assert.Equal(t, tt.bad, bad)
		})
	}
}

func TestFormatJSONLDHashedIDs(t *testing.T) {
	id := func(fields string) string {
		got, err := mapInput(t, formatJSONLD, `{"@type":"JobPosting",`+fields+`}`, "")
		require.NoError(t, err)
		require.Len(t, got, 1)
		return got[0].job.ID
	}
	a := id(`"title":"Nurse","hiringOrganization":"Acme","identifier":"REQ-7"`)
	assert.Equal(t, a, id(`"title":"ICU Nurse","hiringOrganization":"Acme","identifier":"REQ-7","url":"https://x.example/1"`), "the identifier decides")
	assert.NotEqual(t, a, id(`"title":"Nurse","hiringOrganization":"Globex","identifier":"REQ-7"`), "per company")
	assert.Equal(t, hashID("jsonld", "url\x00https://x.example/2"), id(`"title":"Nurse","hiringOrganization":"Acme","url":"https://x.example/2"`))
	assert.Equal(t, hashID("jsonld", "title\x00nurse\x00acme"), id(`"title":"Nurse","hiringOrganization":"Acme"`))
	assert.True(t, normalize.ValidJobID(a), a)
}

func TestFormatIDs(t *testing.T) {
	for give, want := range map[string]string{
		"5ac21346-8e0c-4494-8e7a-3eb92ff77902": "lever-408738175165449289",
		"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF": "lever-1152921504606846975",
		"00000000-0000-0000-0000-000000000000": "lever-0",
	} {
		got, err := leverID(give)
		require.NoError(t, err, give)
		assert.Equal(t, want, got, give)
	}
	for _, give := range []string{"", "123", "5ac21346-8e0c-4494-8e7a-3eb92ff7790z", "5ac21346-8e0c-4494-8e7a-3eb92ff779021"} {
		_, err := leverID(give)
		assert.Error(t, err, give)
	}
	// hashID: the first 15 hex digits of the SHA-256, in decimal.
	assert.Equal(t, "jsonld-43629330490650468", hashID("jsonld", "url\x00https://quillsoft.example/careers/product-designer"))
	id, ok := numberID("greenhouse", "4012345")
	assert.True(t, ok)
	assert.Equal(t, "greenhouse-4012345", id)
	for _, give := range []string{"", "12a", "-1", "1234567890123456789"} {
		_, ok := numberID("greenhouse", give)
		assert.False(t, ok, give)
	}
}

func TestFormatDocumentErrors(t *testing.T) {
	tests := []struct {
		format, input, err string
	}{
		{formatGreenhouse, "{\"jobs\": [\n  {\"id\": 1,}\n]}", "not valid JSON (line 2)"},
		{formatGreenhouse, `{"meta":{"total":0}}`, `a JSON object without "jobs"`},
		{formatGreenhouse, `{"jobs": {"id": 1}}`, `"jobs" must be an array of jobs`},
		{formatLever, `{"ok": false, "error": "Document not found"}`, `a JSON object without "text": not a posting`},
		{formatLever, `"postings"`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.format+" "+tt.input, func(t *testing.T) {
			_, err := mapInput(t, tt.format, tt.input, "Co")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

func TestFormatRecordErrors(t *testing.T) {
	tests := []struct {
		name, format, input string
		want                []string
	}{
		{"greenhouse id not a number", formatGreenhouse, `{"jobs":[{"id":"abc","title":"Nurse"}]}`,
			[]string{`record 1: id "abc" is not a Greenhouse job id (a number)`}},
		{"greenhouse no id", formatGreenhouse, `{"jobs":[{"title":"Nurse"}]}`,
			[]string{`record 1: id (none) is not a Greenhouse job id (a number)`}},
		{"greenhouse no title", formatGreenhouse, `{"jobs":[{"id":5,"title":"","company_name":"Acme"},{"id":6,"title":"Cook","company_name":"Acme"}]}`,
			[]string{`record 1 (greenhouse-5): title is required: the Greenhouse job has no title`}},
		{"greenhouse bad type", formatGreenhouse, `{"jobs":[{"id":5,"title":["Nurse"]}]}`,
			[]string{`record 1: title must be a string, not a JSON array`}},
		{"lever bad id", formatLever, `[{"id":"not-a-uuid","text":"Nurse"}]`,
			[]string{`record 1: id "not-a-uuid" is not a Lever posting id (a UUID)`}},
		{"lever salary min over max", formatLever, `[{"id":"5ac21346-8e0c-4494-8e7a-3eb92ff77902","text":"Nurse","salaryRange":{"min":10,"max":5,"currency":"USD","interval":"per-hour-wage"}}]`,
			[]string{`record 1 (lever-408738175165449289): salary.min 10 is greater than salary.max 5`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mapInput(t, tt.format, tt.input, "Co")
			require.NoError(t, err)
			var bad []string
			for _, g := range got {
				if g.bad != nil {
					bad = append(bad, g.bad.String())
				}
			}
			assert.Equal(t, tt.want, bad)
		})
	}
}

func TestFormatNDJSONUnchanged(t *testing.T) {
	got, err := mapInput(t, formatNDJSON, `{"id":"test-1","title":"Nurse","company":"Acme"}`+"\n\n"+`{"id":"test-2","title":"Nurse"}`+"\n", "")
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Nil(t, got[0].bad)
	assert.Equal(t, "line 3: company is required", got[1].bad.String(), "line numbers count blank lines, no id in the report")

	got, err = mapInput(t, formatNDJSON, `{"id":"test-2","title":"Nurse"}`, "Default Co")
	require.NoError(t, err)
	assert.Nil(t, got[0].bad)
	assert.Equal(t, "Default Co", got[0].rec.Company, "--company applies to NDJSON too")

	got, err = mapInput(t, formatNDJSON, `{"id":"test-3","title":"Nurse","company":"Acme","description":"Up to 25% travel. Epic and Go."}`, "")
	require.NoError(t, err)
	assert.Nil(t, got[0].rec.TravelPercent, "the full-record shape is taken as it is: nothing read from the text")
	assert.Empty(t, got[0].rec.Skills)
}

func TestFormatUnknown(t *testing.T) {
	_, err := lookupFormat("csv")
	require.Error(t, err)
	assert.Equal(t, `unknown import format "csv" (one of ndjson, jsonld, greenhouse, lever)`, err.Error())
	assert.Equal(t, []string{"ndjson", "jsonld", "greenhouse", "lever"}, Formats())
	assert.False(t, errors.Is(err, ErrInvalid))
}

func TestFormatJSONLDReferencesAreBounded(t *testing.T) {
	refs := strings.Repeat(`{"@id":"#n"},`, 2000)
	input := `{"@graph":[{"@id":"#n","name":"Acme","parts":[` + refs + `{"@id":"#n"}]},` +
		`{"@type":"JobPosting","title":"Nurse","hiringOrganization":{"@id":"#n"},"identifier":"1","about":[` + refs + `{"@id":"#n"}]}]}`
	got, err := mapInput(t, formatJSONLD, input, "")
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Nil(t, got[0].bad)
	assert.Equal(t, "Acme", got[0].job.Company)
}
