package normalize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

func pct(v float64) *float64 { return &v }

func str(s string) *string { return &s }

// TestExtractTextFacts reads sentences of real-looking postings; the whole
// TextFacts is compared, so a row also says that nothing else was read.
func TestExtractTextFacts(t *testing.T) {
	n := newNormalizer(t)
	active := str("Active")
	tests := []struct {
		name string
		text string
		want normalize.TextFacts
	}{
		// Travel.
		{"travel up to", "Travel up to 25% to client sites.", normalize.TextFacts{TravelPercent: pct(25)}},
		{"up to N% travel", "This role requires up to 25% travel.", normalize.TextFacts{TravelPercent: pct(25)}},
		{"travel colon", "Travel: 10%", normalize.TextFacts{TravelPercent: pct(10)}},
		{"travel range takes the top", "Approximately 10-20% domestic travel.", normalize.TextFacts{TravelPercent: pct(20)}},
		{"share of the time", "Expect to spend 50% of the time traveling to job sites.", normalize.TextFacts{TravelPercent: pct(50)}},
		{"travel required in parentheses", "Some travel required (approximately 15%).", normalize.TextFacts{TravelPercent: pct(15)}},
		{"no travel required is 0", "No travel required.", normalize.TextFacts{TravelPercent: pct(0)}},
		{"travel agency", "We partner with a travel agency for relocation.", normalize.TextFacts{}},
		{"travel costs", "100% of travel costs are reimbursed.", normalize.TextFacts{}},
		{"travel reimbursed", "Travel is 100% reimbursed by the company.", normalize.TextFacts{}},
		{"no travel stipend", "There is no travel stipend for interviews.", normalize.TextFacts{}},
		{"travel nurse", "Travel nurse assignments of 13 weeks, 36 hours a week.", normalize.TextFacts{}},

		// Security clearances.
		{"active TS/SCI", "Must hold an active TS/SCI clearance.", normalize.TextFacts{SecurityClearances: []string{"Top Secret/SCI"}, ClearanceStatus: active}},
		{"Secret required", "Secret clearance required.", normalize.TextFacts{SecurityClearances: []string{"Secret"}}},
		{"obtain Top Secret", "Ability to obtain a Top Secret clearance.", normalize.TextFacts{SecurityClearances: []string{"Top Secret"}}},
		{"TS/SCI with poly", "Current TS/SCI with Full Scope Poly is required.", normalize.TextFacts{SecurityClearances: []string{"TS/SCI with Polygraph"}, ClearanceStatus: active}},
		{"public trust", "Candidates must be able to pass a Public Trust background investigation.", normalize.TextFacts{SecurityClearances: []string{"Public Trust"}}},
		{"no clearance required", "No security clearance required.", normalize.TextFacts{}},
		{"clearance not required", "A clearance is not required for this role.", normalize.TextFacts{}},
		{"secret sauce", "Our secret sauce is the team.", normalize.TextFacts{}},
		{"confidential information", "Must be able to keep client information confidential.", normalize.TextFacts{}},

		// Visas.
		{"H-1B sponsorship available", "H-1B sponsorship available.", normalize.TextFacts{VisaSponsorship: []string{"H-1B"}}},
		{"several visas", "We sponsor H-1B, TN and E-3 visas.", normalize.TextFacts{VisaSponsorship: []string{"H-1B", "TN", "E-3"}}},
		{"transfers welcome", "H1-B transfers welcome.", normalize.TextFacts{VisaSponsorship: []string{"H-1B"}}},
		{"unable to sponsor", "We are unable to sponsor visas for this role.", normalize.TextFacts{VisaRequirements: []string{"We are unable to sponsor visas for this role."}}},
		{"no sponsorship", "No sponsorship is available for this position.", normalize.TextFacts{VisaRequirements: []string{"No sponsorship is available for this position."}}},
		{"we do not sponsor H-1B", "We do not sponsor H-1B visas.", normalize.TextFacts{VisaRequirements: []string{"We do not sponsor H-1B visas."}}},
		{"will not be able to sponsor", "Unfortunately, we will not be able to sponsor employment visas.", normalize.TextFacts{VisaRequirements: []string{"Unfortunately, we will not be able to sponsor employment visas."}}},
		{"without sponsorship", "Candidates must be authorized to work in the U.S. without sponsorship.", normalize.TextFacts{VisaRequirements: []string{"Candidates must be authorized to work in the U.S. without sponsorship."}}},
		{"now or in the future", "Applicants who require visa sponsorship now or in the future are not eligible.", normalize.TextFacts{VisaRequirements: []string{"Applicants who require visa sponsorship now or in the future are not eligible."}}},
		{"authorized to work", "Must be authorized to work in the United States.", normalize.TextFacts{VisaRequirements: []string{"Must be authorized to work in the United States."}}},
		{"citizenship required", "U.S. citizenship required.", normalize.TextFacts{VisaRequirements: []string{"U.S. citizenship required."}}},
		{"sponsor of hackathons", "We sponsor local hackathons, and you can opt in to mentor.", normalize.TextFacts{}},
		{"equal opportunity", "We are an equal opportunity employer and do not discriminate on the basis of citizenship.", normalize.TextFacts{}},
		{"global citizens", "Our team are global citizens.", normalize.TextFacts{}},

		// Education.
		{"bachelor's in", "Bachelor's degree in Computer Science or a related field.",
			normalize.TextFacts{Education: []string{"Bachelor's degree in Computer Science or a related field."}, EducationLevels: []string{"Bachelor's"}}},
		{"BS/MS", "BS/MS in Electrical Engineering.", normalize.TextFacts{Education: []string{"BS/MS in Electrical Engineering."}, EducationLevels: []string{"Bachelor's", "Master's"}}},
		{"Ph.D.", "Ph.D. in Statistics preferred.", normalize.TextFacts{Education: []string{"Ph.D. in Statistics preferred."}, EducationLevels: []string{"Doctoral"}}},
		{"diploma or GED", "High school diploma or GED required.", normalize.TextFacts{Education: []string{"High school diploma or GED required."}, EducationLevels: []string{"High School"}}},
		{"degree in, no level", "Degree in Nursing from an accredited program.", normalize.TextFacts{Education: []string{"Degree in Nursing from an accredited program."}}},
		{"bachelor's alone", "Bachelor's in Accounting; CPA preferred.", normalize.TextFacts{Education: []string{"Bachelor's in Accounting"}, EducationLevels: []string{"Bachelor's"}}},
		{"no degree required", "No degree required - we value skills over credentials.", normalize.TextFacts{}},
		{"MS Office", "Proficiency in MS Office and Outlook.", normalize.TextFacts{Skills: []string{"Microsoft Office"}, Tools: []string{"Microsoft Office"}}},
		{"MS Office beside a degree", "Bachelor's degree and MS Office skills.",
			normalize.TextFacts{Skills: []string{"Microsoft Office"}, Tools: []string{"Microsoft Office"}, Education: []string{"Bachelor's degree and MS Office skills."}, EducationLevels: []string{"Bachelor's"}}},
		{"high degree of", "You will have a high degree of autonomy.", normalize.TextFacts{}},
		{"master new tools", "Master new tools quickly.", normalize.TextFacts{}},

		// Years of experience.
		{"5+ years", "5+ years of experience with distributed systems.", normalize.TextFacts{ExperienceLevel: str("5+ years")}},
		{"3-5 years", "3-5 years of professional experience.", normalize.TextFacts{ExperienceLevel: str("3-5 years")}},
		{"at least four", "At least four years' experience in retail.", normalize.TextFacts{ExperienceLevel: str("4+ years")}},
		{"minimum of 2", "Minimum of 2 years of hands-on nursing experience.", normalize.TextFacts{ExperienceLevel: str("2+ years")}},
		{"or more", "7 or more years of experience leading teams.", normalize.TextFacts{ExperienceLevel: str("7+ years")}},
		{"one year", "1 year of experience in a call center.", normalize.TextFacts{ExperienceLevel: str("1 year")}},
		{"experience colon", "Experience: 10+ years", normalize.TextFacts{ExperienceLevel: str("10+ years")}},
		{"years ago", "Founded 12 years ago, we now serve 40 countries.", normalize.TextFacts{}},
		{"no experience", "No experience required; we train you.", normalize.TextFacts{}},
		{"years in business", "Over 20 years in business, our experience shows.", normalize.TextFacts{}},

		// Skills and tools, and the words that only look like them.
		{"skills in a sentence", "Experience with Go, Python and Kubernetes.", normalize.TextFacts{Skills: []string{"Go", "Python", "Kubernetes"}, Tools: []string{"Kubernetes"}}},
		{"list at the start", "Go, Rust or C++ in production.", normalize.TextFacts{Skills: []string{"Go", "Rust", "C++"}}},
		{"C in a list", "C, C++ or Rust for embedded firmware.", normalize.TextFacts{Skills: []string{"C", "C++", "Rust"}}},
		{"golang", "Strong golang and gRPC skills.", normalize.TextFacts{Skills: []string{"Go", "gRPC"}}},
		{"tools and the verb excel", "Dashboards in Tableau and Excel; excel at communication.", normalize.TextFacts{Skills: []string{"Excel"}, Tools: []string{"Tableau", "Excel"}}},
		{"Slack the tool", "We chat in Slack and track work in Jira.", normalize.TextFacts{Tools: []string{"Slack", "Jira"}}},
		{"go above", "Go above and beyond for our customers.", normalize.TextFacts{}},
		{"react and rest", "We react quickly to incidents and rest on weekends.", normalize.TextFacts{}},
		{"C-suite", "Report to the C-suite on progress.", normalize.TextFacts{}},
		{"shipping containers", "Load containers at the port, cut some slack for new hires.", normalize.TextFacts{}},
		{"swift and spring", "A swift response every spring.", normalize.TextFacts{}},

		// A paragraph of several facts.
		{"paragraph", "We're hiring a Backend Engineer.\n- 5+ years of experience with Go and PostgreSQL\n- Bachelor's degree in Computer Science\n- Active Secret clearance; travel up to 10%\nWe do not sponsor visas.",
			normalize.TextFacts{
				Skills:             []string{"Go", "PostgreSQL"},
				TravelPercent:      pct(10),
				SecurityClearances: []string{"Secret"}, ClearanceStatus: active,
				VisaRequirements: []string{"We do not sponsor visas."},
				Education:        []string{"Bachelor's degree in Computer Science"}, EducationLevels: []string{"Bachelor's"},
				ExperienceLevel: str("5+ years"),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, n.TextFacts(tt.text), tt.text)
		})
	}
}

func TestExtractFillKeepsGivenValues(t *testing.T) {
	n := newNormalizer(t)
	facts := n.TextFacts("Go and Kubernetes. Up to 25% travel. Active TS/SCI clearance. 5+ years of experience. H-1B sponsorship available.")
	given := domain.Job{
		Skills:          []string{"Rust"},
		TravelPercent:   pct(50),
		ExperienceLevel: str("Senior"),
	}
	facts.Fill(&given)
	assert.Equal(t, []string{"Rust"}, given.Skills, "given skills stay")
	assert.Equal(t, []string{"Kubernetes"}, given.Tools, "missing tools are filled")
	assert.Equal(t, 50.0, *given.TravelPercent)
	assert.Equal(t, "Senior", *given.ExperienceLevel)
	assert.Equal(t, []string{"Top Secret/SCI"}, given.SecurityClearances)
	assert.Equal(t, "Active", *given.ClearanceStatus)
	assert.Equal(t, []string{"H-1B"}, given.VisaSponsorship)

	var empty domain.Job
	normalize.TextFacts{}.Fill(&empty)
	assert.Equal(t, domain.Job{}, empty, "no facts, no change")
}

func TestExtractYearsOfExperience(t *testing.T) {
	for give, want := range map[string]string{
		"6+ years of hands-on SRE experience":          "6+ years",
		"Two to four years of related work experience": "2-4 years",
		"5 yrs exp. in Java":                           "5 years",
		"More than 3 years of experience":              "3+ years",
		"Experience in SRE":                            "",
		"Senior":                                       "",
	} {
		assert.Equal(t, want, normalize.YearsOfExperience(give), give)
	}
}

// FuzzTextFacts reads any text: facts or none, never a panic; a travel
// share is a percentage.
func FuzzTextFacts(f *testing.F) {
	for _, seed := range []string{
		"5+ years of experience with Go. Up to 25% travel. Active TS/SCI clearance.",
		"We do not sponsor H-1B visas; Bachelor's degree in CS.",
		"Go, C, C++ or Rust\n- 10-20% travel\n• B.S. in EE",
		"travel 999%", "", ". . ; ;", "Go", "C-",
	} {
		f.Add(seed)
	}
	n, err := normalize.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		facts := n.TextFacts(text)
		if p := facts.TravelPercent; p != nil && (*p < 0 || *p > 100) {
			t.Fatalf("travel %v%% from %q", *p, text)
		}
		var job domain.Job
		facts.Fill(&job)
	})
}
