// Tests of title classification, its taxonomy and the occupations of reference data.

package normalize

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

// titleRefDir returns the reference-data directory of JOBSD_REFDATA when it
// holds the occupations, else "": unlike the other tests', the title tests
// do not look for the copy beside the repository.
func titleRefDir() string {
	if os.Getenv("JOBSD_REFDATA") == "" {
		return ""
	}
	return refdatatest.Find(refdatatest.Occupations)
}

var titleNormalizers struct {
	once       sync.Once
	plain, ref *Normalizer
	plainErr   error
	refErr     error
}

// titleTestNormalizers returns a normalizer without reference data and one
// with it (nil when JOBSD_REFDATA is unset), loaded once per test binary.
func titleTestNormalizers(t testing.TB) (plain, ref *Normalizer) {
	t.Helper()
	tn := &titleNormalizers
	tn.once.Do(func() {
		tn.plain, tn.plainErr = New()
		if dir := titleRefDir(); dir != "" {
			tn.ref, tn.refErr = New(WithRefData(dir))
		}
	})
	require.NoError(t, tn.plainErr)
	require.NoError(t, tn.refErr)
	return tn.plain, tn.ref
}

// titleCat builds the expected category: its level is the most specific
// member given; code is the role's SOC code (the field's for a field).
func titleCat(field, role, spec, code string) TitleCategory {
	c := TitleCategory{Field: field, Role: role, Specialization: spec, Code: code}
	switch {
	case spec != "":
		c.Level = LevelSpecialization
	case role != "":
		c.Level = LevelRole
	case field != "":
		c.Level = LevelField
	}
	return c
}

// Where a case holds.
const (
	bothModes = iota
	handOnly  // without reference data
	refOnly   // with reference data
)

func TestTitleTaxonomy(t *testing.T) {
	const (
		cm   = "Computer and Mathematical"
		hc   = "Healthcare Practitioners and Technical"
		bf   = "Business and Financial Operations"
		mg   = "Management"
		sal  = "Sales and Related"
		ed   = "Educational Instruction and Library"
		tr   = "Transportation and Material Moving"
		off  = "Office and Administrative Support"
		ae   = "Architecture and Engineering"
		food = "Food Preparation and Serving Related"
		se   = "Software Engineer"
		rn   = "Registered Nurse"
	)
	tests := []struct {
		give string
		want TitleCategory // zero: not recognized
		mode int
	}{
		// Software: the role and its specializations, through noise.
		{"Senior Backend Engineer (Remote)", titleCat(cm, se, "Backend", "15-1252"), bothModes},
		{"Software Engineer, Backend", titleCat(cm, se, "Backend", "15-1252"), bothModes},
		{"Sr. Staff Software Engineer - Payments Team, NYC", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Software Engineer II", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Sr. Software Developer", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Software Engineer - New Grad 2025", titleCat(cm, se, "", "15-1252"), bothModes},
		{"SWE Intern (Summer 2025)", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Software Engineer at Google", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Acme Corp - Software Engineer", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Golang Developer", titleCat(cm, se, "", "15-1252"), bothModes},
		{"Full-Stack Developer", titleCat(cm, se, "Full-Stack", "15-1252"), bothModes},
		{"Front End Engineer | React", titleCat(cm, se, "Frontend", "15-1252"), bothModes},
		{"Android Developer", titleCat(cm, se, "Mobile", "15-1252"), bothModes},
		{"Big Data Engineer", titleCat(cm, se, "Data", "15-1252"), bothModes},
		{"ML Engineer, Ranking", titleCat(cm, se, "Machine Learning", "15-1252"), bothModes},
		{"SRE - Platform", titleCat(cm, se, "DevOps/SRE", "15-1252"), bothModes},
		{"Application Security Engineer", titleCat(cm, se, "Security", "15-1252"), bothModes},
		{"Firmware Engineer", titleCat(cm, se, "Embedded", "15-1252"), bothModes},
		{"SDET II", titleCat(cm, se, "QA", "15-1253"), bothModes}, // QA has its own SOC occupation
		{"Backend", titleCat(cm, se, "Backend", "15-1252"), bothModes},
		{"Sofware Enginer", titleCat(cm, se, "", "15-1252"), bothModes}, // two typos
		{"QA Tester", titleCat(cm, "QA Analyst", "", "15-1253"), bothModes},
		{"Web Developer (WordPress)", titleCat(cm, "Web Developer", "", "15-1254"), bothModes},
		{"Data Analyst III", titleCat(cm, "Data Analyst", "", "15-2051"), bothModes},
		{"Penetration Tester", titleCat(cm, "IT Specialist", "Penetration Testing", "15-1299"), bothModes},
		// "Engineer" alone is ambiguous; its other words settle it.
		{"Engineer", TitleCategory{}, bothModes},
		{"Engineer III", TitleCategory{}, bothModes},
		{"Happiness Engineer", TitleCategory{}, bothModes},
		{"Sales Engineer", titleCat(sal, "Sales Engineer", "", "41-9031"), bothModes},
		{"Network Engineer", titleCat(cm, "Network Engineer", "", "15-1241"), bothModes},
		{"Civil Engineer", titleCat(ae, "Civil Engineer", "", "17-2051"), bothModes},
		{"Structural Engineer", titleCat(ae, "Civil Engineer", "Structural Engineering", "17-2051"), bothModes},
		{"Manager, Software Engineering", titleCat(mg, "Software Engineering Manager", "", "11-3021"), bothModes}, // SOC 11-9041 excludes computer programming
		{"Surgical Technologist - Operating Room", titleCat("Healthcare Practitioners and Technical", "Surgical Technologist", "", "29-2055"), bothModes},
		// Reference data refines a hand reading within its broad occupation.
		{"Special Education Teacher - Middle School", titleCat("Educational Instruction and Library", "Special Education Teachers, Middle School", "", "25-2057"), refOnly},
		{"VP, Engineering", titleCat(mg, "Engineering Manager", "", "11-9041"), bothModes},
		// Who leads data scientists manages them: not one of them.
		{"Director of Data Science", titleCat(mg, "Data Science Manager", "", "11-3021"), bothModes},
		{"Head of Data Science", titleCat(mg, "Data Science Manager", "", "11-3021"), bothModes},
		{"Senior Data Scientist", titleCat(cm, "Data Scientist", "", "15-2051"), bothModes},
		{"EVP, Sales", titleCat(mg, "Sales Manager", "", "11-2022"), bothModes},
		{"Executive Assistant to the CFO", titleCat(off, "Executive Assistant", "", "43-6011"), bothModes},
		{"Assistant to the CEO", TitleCategory{}, bothModes}, // an assistant, not a CEO; of what kind it does not say
		{"Specialist, Accounts Payable", titleCat(off, "Bookkeeper", "Accounts Payable", "43-3031"), bothModes},
		{"Growth Hacker", titleCat(bf, "Marketing Specialist", "", "13-1161"), bothModes},
		{"Engineering Manager, Payments", titleCat(mg, "Engineering Manager", "", "11-9041"), bothModes},
		// Nursing.
		{"Registered Nurse - ICU", titleCat(hc, rn, "ICU/Critical Care", "29-1141"), bothModes},
		{"ICU Nurse", titleCat(hc, rn, "ICU/Critical Care", "29-1141"), bothModes},
		{"RN - Med/Surg - Nights - $10k Sign-On", titleCat(hc, rn, "Med-Surg", "29-1141"), bothModes},
		{"Travel Nurse - Labor & Delivery", titleCat(hc, rn, "Labor & Delivery", "29-1141"), bothModes},
		{"Charge Nurse - Emergency Department", titleCat(hc, rn, "ER/Emergency", "29-1141"), bothModes},
		{"Nurse", titleCat(hc, rn, "", "29-1141"), bothModes},
		{"Critical Care Nurses", titleCat(hc, rn, "ICU/Critical Care", "29-1141"), bothModes},
		{"Registered Nurse Manager", titleCat(mg, "Medical and Health Services Manager", "", "11-9111"), bothModes},
		{"LPN", titleCat(hc, "Licensed Practical Nurse", "", "29-2061"), bothModes},
		{"Nurse Practitioner, Family Medicine", titleCat(hc, "Nurse Practitioner", "Family (FNP)", "29-1171"), bothModes},
		{"Certified Nursing Assistant (CNA) - Nights", titleCat("Healthcare Support", "Nursing Assistant", "", "31-1131"), bothModes},
		{"Hospitalist", titleCat(hc, "Physician", "Hospitalist", "29-1229"), bothModes},
		{"Family Medicine Physician", titleCat(hc, "Family Medicine Physician", "", "29-1215"), bothModes},
		// Accounting, finance, sales.
		{"Staff Accountant", titleCat(bf, "Accountant", "Staff/General", "13-2011"), bothModes},
		{"Tax Senior", titleCat(bf, "Accountant", "Tax", "13-2011"), bothModes},
		{"Senior Auditor", titleCat(bf, "Accountant", "Audit", "13-2011"), bothModes},
		{"Cost Accountant", titleCat(bf, "Accountant", "Cost Accounting", "13-2011"), bothModes},
		{"Accounts Payable Specialist", titleCat(off, "Bookkeeper", "Accounts Payable", "43-3031"), bothModes},
		{"Financial Analyst - FP&A", titleCat(bf, "Financial Analyst", "FP&A", "13-2051"), bothModes},
		{"Account Executive, Mid-Market", titleCat(sal, "Sales Representative", "Account Executive", "41-4012"), bothModes},
		{"Inside Sales Representative", titleCat(sal, "Sales Representative", "Inside Sales", "41-4012"), bothModes},
		{"Outside Sales Rep - Territory", titleCat(sal, "Sales Representative", "Field/Outside Sales", "41-4012"), bothModes},
		{"SDR", titleCat(sal, "Sales Representative", "SDR/BDR", "41-4012"), bothModes},
		{"Enterprise Account Executive", titleCat(sal, "Sales Representative", "Enterprise", "41-4012"), bothModes},
		{"Pharmaceutical Sales Representative", titleCat(sal, "Technical Sales Representative", "", "41-4011"), bothModes},
		{"Nurse Recruiter", titleCat(bf, "Recruiter", "", "13-1071"), bothModes},
		{"Project Manager - Construction", titleCat(mg, "Construction Manager", "", "11-9021"), bothModes},
		{"Product Manager", titleCat(mg, "Product Manager", "", "11-2021"), bothModes},
		{"Marketing Manager, Brand", titleCat(mg, "Marketing Manager", "Brand", "11-2021"), bothModes},
		// Education: "Teacher" alone names the field; other words the role.
		{"Teacher", titleCat(ed, "", "", "25-0000"), bothModes},
		{"Math Teacher - Lincoln High School", titleCat(ed, "High School Teacher", "Secondary Math", "25-2031"), bothModes},
		{"Elementary Teacher (3rd Grade)", titleCat(ed, "Elementary School Teacher", "", "25-2021"), bothModes},
		{"Adjunct Professor - Nursing", titleCat(ed, "Nursing Instructor", "", "25-1072"), bothModes},
		// Trades, transport, service; noise and typos.
		{"OTR CDL-A Truck Driver", titleCat(tr, "Truck Driver", "OTR/Long Haul", "53-3032"), bothModes},
		{"Flatbed Driver - Regional", titleCat(tr, "Truck Driver", "Flatbed", "53-3032"), bothModes},
		{"Delivery Driver (Amazon DSP) - $20/hr", titleCat(tr, "Light Truck Driver", "", "53-3033"), bothModes},
		{"Warehouse Associate - $19/hr - Immediate Start", titleCat(tr, "Warehouse Associate", "", "53-7062"), bothModes},
		{"Forklift Operator (2nd Shift)", titleCat(tr, "Forklift Operator", "", "53-7051"), bothModes},
		{"Cashier - Store #1234 - Dallas, TX", titleCat(sal, "Cashier", "", "41-2011"), bothModes},
		{"Assistant, Dental Office", titleCat("Healthcare Support", "Dental Assistant", "", "31-9091"), bothModes},
		{"Reciptionist", titleCat(off, "Receptionist", "", "43-4171"), bothModes},
		{"Customer Service Rep - Work From Home", titleCat(off, "Customer Service Representative", "", "43-4051"), bothModes},
		{"Line Cook", titleCat(food, "Restaurant Cook", "", "35-2014"), bothModes},
		{"Barista", titleCat(food, "Fast Food and Counter Worker", "Barista", "35-3023"), bothModes},
		{"Electrician Apprentice", titleCat("Construction and Extraction", "Electrician", "", "47-2111"), bothModes},
		{"HVAC Service Technician", titleCat("Installation, Maintenance, and Repair", "HVAC Technician", "", "49-9021"), bothModes},
		{"Attorney - Litigation", titleCat("Legal", "Lawyer", "Litigation", "23-1011"), bothModes},
		{"Nanny", titleCat("Personal Care and Service", "Childcare Worker", "Nanny", "39-9011"), bothModes},
		{"Uber Driver", titleCat(tr, "Taxi Driver", "", "53-3054"), bothModes},
		// A driver the title says no more of is the SOC's driver of no
		// listed kind (Motor Vehicle Operators, All Other); a second job
		// after it is no refinement ("Driver / Data Collector").
		{"Driver", titleCat(tr, "Driver", "", "53-3099"), bothModes},
		{"Driver / Map Data Collector", titleCat(tr, "Driver", "", "53-3099"), bothModes},
		// Fields, and what names nothing.
		{"healthcare", titleCat(hc, "", "", "29-0000"), bothModes},
		{"Mechanic", titleCat("Installation, Maintenance, and Repair", "", "", "49-0000"), bothModes},
		{"Manager", TitleCategory{}, bothModes},
		{"Chief Happiness Wizard", TitleCategory{}, bothModes},
		{"asdf qwerty", TitleCategory{}, bothModes},
		{"((((", TitleCategory{}, bothModes},
		{"", TitleCategory{}, bothModes},
		// Occupations only the reference data knows, named as O*NET does.
		{"Astronomer", TitleCategory{}, handOnly},
		{"Astronomer", titleCat("Life, Physical, and Social Science", "Astronomers", "", "19-2011"), refOnly},
		{"Embalmer", titleCat("Personal Care and Service", "Embalmers", "", "39-4011"), refOnly},
		{"Compliance Manager", titleCat(mg, "Managers, All Other", "Compliance Managers", "11-9199"), refOnly},
		{"Clinical Research Coordinator", TitleCategory{}, handOnly},
		{"Clinical Research Coordinator", titleCat(mg, "Natural Sciences Manager", "Clinical Research Coordinators", "11-9121"), refOnly},
		{"Geographic Information Systems Technician", titleCat(cm, "IT Specialist", "GIS", "15-1299"), refOnly},
		{"Computer Occupations, All Other", titleCat(cm, "IT Specialist", "", "15-1299"), refOnly},
		{"Chief Executives", titleCat(mg, "Chief Executive", "", "11-1011"), bothModes},
		{"Sr. Astronomer - Observatory (Remote)", titleCat("Life, Physical, and Social Science", "Astronomers", "", "19-2011"), refOnly},
		{"Roof Bolter", titleCat("Construction and Extraction", "Roof Bolters, Mining", "", "47-5043"), refOnly},
	}
	for _, tt := range tests {
		eachTitleMode(t, tt.give, tt.mode, func(t *testing.T, n *Normalizer) {
			got, ok := n.Title(tt.give)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want.Level != LevelNone, ok)
		})
	}
}

// eachTitleMode runs fn as a subtest named name under "hand/" (the
// built-in vocabulary) and "refdata/" (with JOBSD_REFDATA; skipped when it
// is unset), as mode asks (bothModes, handOnly, refOnly).
func eachTitleMode(t *testing.T, name string, mode int, fn func(t *testing.T, n *Normalizer)) {
	t.Helper()
	plain, ref := titleTestNormalizers(t)
	for _, m := range []struct {
		name string
		n    *Normalizer
		on   bool
	}{{"hand", plain, mode != refOnly}, {"refdata", ref, mode != handOnly}} {
		if !m.on {
			continue
		}
		t.Run(m.name+"/"+name, func(t *testing.T) {
			if m.n == nil {
				t.Skip("JOBSD_REFDATA is unset")
			}
			fn(t, m.n)
		})
	}
}

// TestTitleAccuracy measures the taxonomy on titles as postings write them,
// with the SOC code a person would file them under: the role's code must be
// the one given ("" for titles that must stay unrecognized).
func TestTitleAccuracy(t *testing.T) {
	plain, ref := titleTestNormalizers(t)
	for _, m := range []struct {
		name string
		n    *Normalizer
	}{{"hand", plain}, {"refdata", ref}} {
		t.Run(m.name, func(t *testing.T) {
			if m.n == nil {
				t.Skip("JOBSD_REFDATA is unset")
			}
			right, wrong := 0, 0
			for _, tt := range postingTitles {
				got, _ := m.n.Title(tt.title)
				code := ""
				if got.Level >= LevelRole {
					code = got.Code
				}
				switch {
				case code == tt.code:
					right++
				case code != "":
					wrong++
					t.Logf("%q: %s %s, want %s", tt.title, code, got.Role, tt.code)
				default:
					t.Logf("%q: unrecognized, want %s", tt.title, tt.code)
				}
			}
			share := float64(right) / float64(len(postingTitles))
			t.Logf("%d of %d right (%.1f%%), %d wrong", right, len(postingTitles), 100*share, wrong)
			assert.GreaterOrEqual(t, share, 0.95)
		})
	}
}

func BenchmarkTitle(b *testing.B) {
	benchTitles(b, []string{"Senior Backend Engineer (Remote)", "RN - Med/Surg - Nights - $10k Sign-On", "Manager, Software Engineering",
		"Warehouse Associate - $19/hr - Immediate Start", "Chief Happiness Wizard", "Sofware Enginer", "Staff Accountant"})
}

// BenchmarkTitleInternships: titles that name the job by a discipline or
// its level form, as internship postings do (the head readings' path:
// each such title is classified more than once).
func BenchmarkTitleInternships(b *testing.B) {
	benchTitles(b, []string{"Electrical Engineering Intern - Summer 2027", "Marketing Analytics Co-op", "Software Intern, Payments",
		"Business Analysis Associate", "Engineering Intern", "Data Scientist - Pricing Analytics", "Process Engineer III - Etch"})
}

// benchTitles classifies titles in turn, built in and with reference data.
func benchTitles(b *testing.B, titles []string) {
	plain, ref := titleTestNormalizers(b)
	for _, m := range []struct {
		name string
		n    *Normalizer
	}{{"hand", plain}, {"refdata", ref}} {
		b.Run(m.name, func(b *testing.B) {
			if m.n == nil {
				b.Skip("JOBSD_REFDATA is unset")
			}
			i := 0
			for b.Loop() {
				m.n.Title(titles[i%len(titles)])
				i++
			}
		})
	}
}

// TestCategoryNames: category members spell canonically, and the
// occupations' attribution is among the sources.
func TestCategoryNames(t *testing.T) {
	plain, ref := titleTestNormalizers(t)
	assert.Equal(t, "Software Engineer", plain.CategoryRole("software developers"))
	assert.Equal(t, "Software Engineer", plain.CategoryRole("Backend Engineer"), "a more specific phrase names its role")
	assert.Equal(t, "Healthcare Practitioners and Technical", plain.CategoryField("healthcare"))
	assert.Equal(t, "ICU/Critical Care", plain.CategorySpecialization("icu nurse"))
	assert.Equal(t, "Quantum Basket Weaver", plain.CategoryRole("  Quantum   Basket Weaver "))
	if ref != nil {
		found := false
		for _, s := range ref.Sources() {
			found = found || strings.Contains(s.Attribution, "O*NET 29.3 Database") && s.Licence == "CC BY 4.0"
		}
		assert.True(t, found, "the O*NET attribution is among the sources")
	}
}
