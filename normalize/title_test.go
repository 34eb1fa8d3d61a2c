package normalize

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// titleRefDir returns the reference-data directory of JOBSD_REFDATA when it
// holds the occupations, else "".
func titleRefDir() string {
	dir := os.Getenv("JOBSD_REFDATA")
	if dir == "" {
		return ""
	}
	if _, err := os.Stat(dir + "/occupations/onet_occupation_data.tsv"); err != nil {
		return ""
	}
	return dir
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
		// Fields, and what names nothing.
		{"healthcare", titleCat(hc, "", "", "29-0000"), bothModes},
		{"Driver", titleCat(tr, "", "", "53-0000"), bothModes},
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
	plain, ref := titleTestNormalizers(t)
	for _, tt := range tests {
		for _, m := range []struct {
			name string
			n    *Normalizer
			on   bool
		}{{"hand", plain, tt.mode != refOnly}, {"refdata", ref, tt.mode != handOnly}} {
			if !m.on {
				continue
			}
			t.Run(m.name+"/"+tt.give, func(t *testing.T) {
				if m.n == nil {
					t.Skip("JOBSD_REFDATA is unset")
				}
				got, ok := m.n.Title(tt.give)
				assert.Equal(t, tt.want, got)
				assert.Equal(t, tt.want.Level != LevelNone, ok)
			})
		}
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

// TestTitleNames checks the taxonomy's invariants: every category name
// classifies as its own category; every role has a SOC detailed code whose
// major group is its field's; a given category spells canonically.
func TestTitleNames(t *testing.T) {
	plain, ref := titleTestNormalizers(t)
	for _, n := range []*Normalizer{plain, ref} {
		if n == nil {
			continue
		}
		tx := n.titles
		for _, c := range tx.cats {
			name := c.name(c.Level)
			got, ok := n.Title(name)
			require.True(t, ok, name)
			assert.Equal(t, c, got, name)
			require.Len(t, c.Code, 7, name)
			fieldCode := tx.cats[tx.fieldByMajor[c.Code[:2]]]
			assert.Equal(t, fieldCode.Field, c.Field, name)
			if c.Level == LevelField {
				assert.True(t, strings.HasSuffix(c.Code, "-0000"), name)
			} else {
				assert.Regexp(t, `^\d\d-\d\d\d[1-9]$`, c.Code, name)
			}
		}
	}
	assert.Equal(t, "Software Engineer", plain.CategoryRole("software developers"))
	assert.Equal(t, "Software Engineer", plain.CategoryRole("Backend Engineer"), "a more specific phrase names its role")
	assert.Equal(t, "Healthcare Practitioners and Technical", plain.CategoryField("healthcare"))
	assert.Equal(t, "ICU/Critical Care", plain.CategorySpecialization("icu nurse"))
	assert.Equal(t, "Quantum Basket Weaver", plain.CategoryRole("  Quantum   Basket Weaver "))
	assert.Equal(t, "Computer and Mathematical", plain.titles.fieldOfRole["Software Engineer"])
	if ref != nil {
		assert.Equal(t, "Life, Physical, and Social Science", ref.titles.fieldOfRole["Astronomers"])
		found := false
		for _, s := range ref.Sources() {
			found = found || strings.Contains(s.Attribution, "O*NET 29.3 Database") && s.Licence == "CC BY 4.0"
		}
		assert.True(t, found, "the O*NET attribution is among the sources")
	}
}

// TestOccupationsLoad measures the loading of the occupations: time and
// heap (after GC) that the reference data adds to the taxonomy.
func TestOccupationsLoad(t *testing.T) {
	dir := titleRefDir()
	if dir == "" {
		t.Skip("JOBSD_REFDATA is unset")
	}
	tx, err := loadTaxonomy()
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	require.NoError(t, tx.loadOccupations(dir+"/occupations"))
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	t.Logf("occupations: %s, %.1f MiB of heap; %d categories, %d phrases, %d words",
		took.Round(time.Millisecond), heap, len(tx.cats), len(tx.phrases), len(tx.words))
	assert.Less(t, heap, 40.0, "MiB of heap")
	// The time is logged, not asserted (the race detector and a loaded
	// machine vary it several-fold); BenchmarkOccupationsLoad measures it.
	runtime.KeepAlive(tx)
}

func TestOccupationsLoadErrors(t *testing.T) {
	tx, err := loadTaxonomy()
	require.NoError(t, err)
	assert.ErrorContains(t, tx.loadOccupations(t.TempDir()), "bls_soc_2018_structure_definitions.tsv")
}

func BenchmarkTitle(b *testing.B) {
	plain, ref := titleTestNormalizers(b)
	titles := []string{"Senior Backend Engineer (Remote)", "RN - Med/Surg - Nights - $10k Sign-On", "Manager, Software Engineering",
		"Warehouse Associate - $19/hr - Immediate Start", "Chief Happiness Wizard", "Sofware Enginer", "Staff Accountant"}
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

func BenchmarkOccupationsLoad(b *testing.B) {
	dir := titleRefDir()
	if dir == "" {
		b.Skip("JOBSD_REFDATA is unset")
	}
	var heap float64
	for b.Loop() {
		b.StopTimer()
		tx, err := loadTaxonomy()
		require.NoError(b, err)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		require.NoError(b, tx.loadOccupations(dir+"/occupations"))
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(tx)
		b.StartTimer()
	}
	b.ReportMetric(heap, "MiB-heap")
}

// postingTitles are titles as job postings write them, with the SOC 2018
// detailed occupation they belong to; "" for what names no occupation.
var postingTitles = []struct{ title, code string }{
	{"Senior Software Engineer, Payments Platform", "15-1252"},
	{"Software Development Engineer II - AWS", "15-1252"},
	{"Staff Backend Engineer (Go/Kubernetes)", "15-1252"},
	{"Front End Developer - React", "15-1252"},
	{"Full Stack Engineer @ Fintech Startup", "15-1252"},
	{"iOS Engineer, Consumer App", "15-1252"},
	{"Data Engineer - Snowflake / dbt", "15-1252"},
	{"Machine Learning Engineer, Recommendations", "15-1252"},
	{"Site Reliability Engineer III", "15-1252"},
	{"Embedded Firmware Engineer", "15-1252"},
	{"SDET - Test Automation", "15-1252"},
	{"Sr. QA Analyst", "15-1253"},
	{"Web Developer (WordPress)", "15-1254"},
	{"UX/UI Designer", "15-1255"},
	{"Data Scientist, Product Analytics", "15-2051"},
	{"Business Intelligence Analyst", "15-2051"},
	{"Database Administrator - SQL Server", "15-1242"},
	{"Systems Administrator (Linux)", "15-1244"},
	{"Help Desk Technician Tier 1", "15-1232"},
	{"IT Support Specialist - Onsite", "15-1232"},
	{"Cybersecurity Analyst - SOC", "15-1212"},
	{"Network Engineer II", "15-1241"},
	{"Systems Analyst", "15-1211"},
	{"Computer Programmer", "15-1251"},
	{"Actuarial Analyst", "15-2011"},
	{"Statistician", "15-2041"},
	{"Registered Nurse (RN) - Emergency Department - Nights", "29-1141"},
	{"RN - Med/Surg - $10,000 Sign On Bonus", "29-1141"},
	{"ICU Registered Nurse", "29-1141"},
	{"Travel RN - Labor & Delivery - 13 weeks", "29-1141"},
	{"LPN / LVN - Long Term Care", "29-2061"},
	{"Certified Nursing Assistant - CNA", "31-1131"},
	{"Nurse Practitioner - Family Medicine", "29-1171"},
	{"Physician Assistant - Orthopedics", "29-1071"},
	{"Family Medicine Physician", "29-1215"},
	{"Hospitalist", "29-1229"},
	{"Pharmacist - Retail", "29-1051"},
	{"Pharmacy Technician (Certified)", "29-2052"},
	{"Medical Assistant - Pediatrics", "31-9092"},
	{"Phlebotomist - Part Time", "31-9097"},
	{"Dental Assistant", "31-9091"},
	{"Dental Hygienist", "29-1292"},
	{"Physical Therapist (PT) - Home Health", "29-1123"},
	{"Occupational Therapist", "29-1122"},
	{"Speech-Language Pathologist (SLP)", "29-1127"},
	{"Respiratory Therapist - RRT", "29-1126"},
	{"Radiologic Technologist", "29-2034"},
	{"Ultrasound Technologist", "29-2032"},
	{"Surgical Technologist", "29-2055"},
	{"Medical Laboratory Scientist", "29-2011"},
	{"EMT - Basic", "29-2042"},
	{"Paramedic", "29-2043"},
	{"Home Health Aide - Weekends", "31-1121"},
	{"Caregiver / Companion", "31-1122"},
	{"Medical Coder - Remote", "29-2072"},
	{"Medical Biller", "43-3021"},
	{"Veterinary Technician", "29-2056"},
	{"Veterinarian - Small Animal", "29-1131"},
	{"Mental Health Counselor (LPC)", "21-1014"},
	{"Licensed Clinical Social Worker - LCSW", "21-1023"},
	{"School Counselor", "21-1012"},
	{"Case Aide", "21-1093"},
	{"Substance Abuse Counselor", "21-1011"},
	{"Staff Accountant", "13-2011"},
	{"Senior Tax Accountant", "13-2011"},
	{"Internal Auditor", "13-2011"},
	{"Bookkeeper (Part-Time)", "43-3031"},
	{"Accounts Payable Clerk", "43-3031"},
	{"Payroll Specialist", "43-3051"},
	{"Financial Analyst - FP&A", "13-2051"},
	{"Controller", "11-3031"},
	{"Loan Officer", "13-2072"},
	{"Credit Analyst", "13-2041"},
	{"Insurance Underwriter", "13-2053"},
	{"Claims Adjuster", "13-1031"},
	{"Bank Teller", "43-3071"},
	{"Financial Advisor", "13-2052"},
	{"Human Resources Generalist", "13-1071"},
	{"Technical Recruiter", "13-1071"},
	{"HR Manager", "11-3121"},
	{"Project Manager - Construction", "11-9021"},
	{"Program Manager", "13-1082"},
	{"Business Analyst", "13-1111"},
	{"Management Consultant", "13-1111"},
	{"Buyer", "13-1022"},
	{"Purchasing Agent", "13-1023"},
	{"Logistics Coordinator", "13-1081"},
	{"Event Coordinator", "13-1121"},
	{"Marketing Coordinator", "13-1161"},
	{"Marketing Manager", "11-2021"},
	{"Product Manager - Payments", "11-2021"},
	{"Sales Manager", "11-2022"},
	{"Account Executive - SaaS", "41-4012"},
	{"Sales Development Representative (SDR)", "41-4012"},
	{"Inside Sales Representative", "41-4012"},
	{"Pharmaceutical Sales Representative", "41-4011"},
	{"Retail Sales Associate", "41-2031"},
	{"Cashier - Part Time", "41-2011"},
	{"Store Manager", "41-1011"},
	{"Real Estate Agent", "41-9022"},
	{"Insurance Sales Agent", "41-3021"},
	{"Customer Service Representative - Call Center", "43-4051"},
	{"Receptionist / Front Desk", "43-4171"},
	{"Administrative Assistant", "43-6014"},
	{"Executive Assistant to CEO", "43-6011"},
	{"Office Manager", "43-1011"},
	{"Data Entry Clerk", "43-9021"},
	{"Medical Receptionist", "43-4171"},
	{"Dispatcher", "43-5032"},
	{"Shipping and Receiving Clerk", "43-5071"},
	{"Mail Carrier", "43-5052"},
	{"Elementary School Teacher - 3rd Grade", "25-2021"},
	{"High School Math Teacher", "25-2031"},
	{"Middle School Science Teacher", "25-2022"},
	{"Preschool Teacher", "25-2011"},
	{"Special Education Teacher - Resource Room", "25-2059"},
	{"Substitute Teacher", "25-3031"},
	{"Teacher Assistant / Paraprofessional", "25-9042"},
	{"Math Tutor", "25-3041"},
	{"Adjunct Professor - Nursing", "25-1072"},
	{"Librarian", "25-4022"},
	{"Instructional Designer", "25-9031"},
	{"School Principal", "11-9032"},
	{"Attorney - Litigation", "23-1011"},
	{"Paralegal", "23-2011"},
	{"Legal Secretary", "43-6012"},
	{"Graphic Designer", "27-1024"},
	{"Art Director", "27-1011"},
	{"Copywriter", "27-3043"},
	{"Technical Writer", "27-3042"},
	{"Editor", "27-3041"},
	{"Reporter", "27-3023"},
	{"Public Relations Specialist", "27-3031"},
	{"Photographer", "27-4021"},
	{"Video Editor", "27-4032"},
	{"Interpreter - Spanish", "27-3091"},
	{"Interior Designer", "27-1025"},
	{"Civil Engineer - Transportation", "17-2051"},
	{"Mechanical Engineer", "17-2141"},
	{"Electrical Engineer", "17-2071"},
	{"Chemical Engineer", "17-2041"},
	{"Industrial Engineer", "17-2112"},
	{"Manufacturing Engineer", "17-2112"},
	{"Environmental Engineer", "17-2081"},
	{"Aerospace Engineer", "17-2011"},
	{"Architect", "17-1011"},
	{"Land Surveyor", "17-1022"},
	{"CAD Drafter", "17-3011"},
	{"Engineering Manager", "11-9041"},
	{"Chemist - QC", "19-2031"},
	{"Microbiologist", "19-1022"},
	{"Environmental Scientist", "19-2041"},
	{"Economist", "19-3011"},
	{"Clinical Psychologist", "19-3033"},
	{"Police Officer", "33-3051"},
	{"Correctional Officer", "33-3012"},
	{"Firefighter/EMT", "33-2011"},
	{"Security Officer - Armed", "33-9032"},
	{"Lifeguard", "33-9092"},
	{"911 Dispatcher", "43-5031"},
	{"Line Cook", "35-2014"},
	{"Prep Cook", "35-2021"},
	{"Sous Chef", "35-1011"},
	{"Executive Chef", "35-1011"},
	{"Dishwasher", "35-9021"},
	{"Server - Fine Dining", "35-3031"},
	{"Bartender", "35-3011"},
	{"Barista", "35-3023"},
	{"Host/Hostess", "35-9031"},
	{"Restaurant Manager", "11-9051"},
	{"Janitor - Night Shift", "37-2011"},
	{"Housekeeper - Hotel", "37-2012"},
	{"Landscaper", "37-3011"},
	{"Groundskeeper", "37-3011"},
	{"Hair Stylist", "39-5012"},
	{"Nail Technician", "39-5092"},
	{"Personal Trainer", "39-9031"},
	{"Childcare Worker", "39-9011"},
	{"Nanny", "39-9011"},
	{"Dog Groomer", "39-2021"},
	{"Electrician - Journeyman", "47-2111"},
	{"Apprentice Electrician", "47-2111"},
	{"Plumber", "47-2152"},
	{"Carpenter", "47-2031"},
	{"Construction Laborer", "47-2061"},
	{"Heavy Equipment Operator", "47-2073"},
	{"Roofer", "47-2181"},
	{"Painter - Commercial", "47-2141"},
	{"Construction Superintendent", "11-9021"},
	{"HVAC Service Technician", "49-9021"},
	{"Automotive Technician", "49-3023"},
	{"Diesel Mechanic", "49-3031"},
	{"Maintenance Technician - Apartments", "49-9071"},
	{"Industrial Maintenance Mechanic", "49-9041"},
	{"Aircraft Mechanic (A&P)", "49-3011"},
	{"Auto Body Technician", "49-3021"},
	{"Welder - MIG", "51-4121"},
	{"CNC Machinist", "51-4041"},
	{"CNC Operator - 2nd Shift", "51-9161"},
	{"Assembler", "51-2092"},
	{"Production Worker", "51-9199"},
	{"Quality Inspector", "51-9061"},
	{"Production Supervisor", "51-1011"},
	{"Forklift Operator", "53-7051"},
	{"Warehouse Associate - $19/hr", "53-7062"},
	{"Order Picker", "53-7065"},
	{"Packer", "53-7064"},
	{"CDL-A Truck Driver - OTR", "53-3032"},
	{"Delivery Driver", "53-3033"},
	{"School Bus Driver", "53-3051"},
	{"Bus Operator", "53-3052"},
	{"Flight Attendant", "53-2031"},
	{"Airline Pilot - First Officer", "53-2011"},
	{"Rideshare Driver", "53-3054"},
	{"Valet Attendant", "53-6021"},
	{"Farm Worker", "45-2092"},
	{"Chief Executive Officer", "11-1011"},
	{"General Manager", "11-1021"},
	{"IT Director", "11-3021"},
	{"Chief Financial Officer", "11-1011"},
	{"Facilities Manager", "11-3013"},
	{"Property Manager", "11-9141"},
	{"Medical Office Manager", "11-9111"},
	{"Director of Nursing", "11-9111"},
	{"Warehouse Manager", "11-3071"},
	{"Chief Happiness Wizard", ""},
	{"Engineer", ""},
	{"asdfgh qwerty", ""},
	{"Manager", ""},
	{"Associate", ""},
	{"Senior iOS Developer (Swift)", "15-1252"},
	{"Principal Software Architect", "15-1252"},
	{"Lead Java Engineer", "15-1252"},
	{"Mobile App Developer - React Native", "15-1252"},
	{"Node.js Backend Developer", "15-1252"},
	{"React Frontend Engineer", "15-1252"},
	{"Kubernetes Platform Engineer", "15-1252"},
	{"Cloud Infrastructure Engineer - GCP", "15-1252"},
	{"Game Programmer (Unity)", "15-1252"},
	{"AI/ML Engineer", "15-1252"},
	{"Computer Vision Engineer", "15-1252"},
	{"Data Platform Engineer", "15-1252"},
	{"Software Test Engineer", "15-1252"},
	{"Desktop Support Technician", "15-1232"},
	{"Service Desk Analyst", "15-1232"},
	{"NOC Technician", "15-1231"},
	{"Linux Systems Administrator", "15-1244"},
	{"Network Administrator", "15-1244"},
	{"Information Security Analyst", "15-1212"},
	{"SOC Analyst Tier 2", "15-1212"},
	{"IT Manager", "11-3021"},
	{"Director of IT", "11-3021"},
	{"Database Developer", "15-1243"},
	{"Data Architect", "15-1243"},
	{"Statistical Programmer", "15-2041"},
	{"Marketing Analyst", "13-1161"},
	{"Market Research Analyst", "13-1161"},
	{"Pricing Analyst", "13-2051"},
	{"Budget Analyst", "13-2031"},
	{"Risk Analyst", "13-2054"},
	{"Compliance Officer", "13-1041"},
	{"Auditor - Internal", "13-2011"},
	{"Revenue Accountant", "13-2011"},
	{"Cost Estimator", "13-1051"},
	{"Construction Estimator", "13-1051"},
	{"Field Service Engineer", "49-2094"},
	{"Sales Operations Analyst", "13-1111"},
	{"Operations Analyst", ""},
	{"Strategy Consultant", "13-1111"},
	{"Management Trainee", ""},
	{"Assistant Manager - Retail", "41-1011"},
	{"Shift Manager - Restaurant", "35-1012"},
	{"Catering Manager", "11-9051"},
	{"Hotel General Manager", "11-9081"},
	{"Front Office Manager", "11-9081"},
	{"Nurse Manager - ICU", "11-9111"},
	{"Clinic Manager", "11-9111"},
	{"Practice Administrator", "11-9111"},
	{"Director of Nursing Services", "11-9111"},
	{"Medical Director", "29-1229"},
	{"Anesthesiologist", "29-1211"},
	{"Psychiatrist", "29-1223"},
	{"Pediatrician", "29-1221"},
	{"Radiologist", "29-1224"},
	{"Cardiologist", "29-1212"},
	{"Dermatologist", "29-1213"},
	{"General Surgeon", "29-1249"},
	{"Orthopedic Surgeon", "29-1242"},
	{"Urgent Care Physician", "29-1215"},
	{"Physician Assistant", "29-1071"},
	{"CRNA", "29-1151"},
	{"Certified Nurse Midwife", "29-1161"},
	{"Registered Dietitian", "29-1031"},
	{"Audiologist", "29-1181"},
	{"Respiratory Care Practitioner", "29-1126"},
	{"Mammography Technologist", "29-2034"},
	{"Nuclear Medicine Technologist", "29-2033"},
	{"Histotechnologist", "29-2011"},
	{"Cytotechnologist", "29-2011"},
	{"Dialysis Technician", "29-2099"},
	{"Ophthalmic Technician", "29-2057"},
	{"Optician", "29-2081"},
	{"Psychiatric Technician", "29-2053"},
	{"Orderly", "31-1132"},
	{"Patient Transporter", "31-1132"},
	{"Physical Therapy Aide", "31-2022"},
	{"Pharmacy Clerk", "31-9095"},
	{"Veterinary Receptionist", "43-4171"},
	{"Kennel Attendant", "39-2021"},
	{"Zookeeper", "39-2021"},
	{"Animal Trainer", "39-2011"},
	{"Funeral Director", "39-4031"},
	{"Embalmer", "39-4011"},
	{"Hotel Concierge", "39-6012"},
	{"Tour Guide", "39-7011"},
	{"Flight Instructor", "25-1194"},
	{"Driving Instructor", "25-3021"},
	{"Dance Instructor", "25-3021"},
	{"Fitness Instructor", "39-9031"},
	{"Recreation Coordinator", "39-9032"},
	{"Activities Director", "39-9032"},
	{"Resident Assistant", "39-9041"},
	{"Court Reporter", "27-3092"},
	{"Journalist", "27-3023"},
	{"News Producer", "27-2012"},
	{"Camera Operator", "27-4031"},
	{"Sound Technician", "27-4014"},
	{"Animator", "27-1014"},
	{"Illustrator", "27-1013"},
	{"Fashion Designer", "27-1022"},
	{"Florist", "27-1023"},
	{"Industrial Designer", "27-1021"},
	{"Actor", "27-2011"},
	{"Musician", "27-2042"},
	{"Assistant Coach - Basketball", "27-2022"},
	{"Referee", "27-2023"},
	{"Athletic Trainer", "29-9091"},
	{"Pastor", "21-2011"},
	{"Chaplain", "21-2011"},
	{"Probation Officer", "21-1092"},
	{"Community Health Worker", "21-1094"},
	{"Marriage and Family Therapist", "21-1013"},
	{"Rehabilitation Counselor", "21-1015"},
	{"Judge", "23-1023"},
	{"Law Clerk", "23-1012"},
	{"Title Examiner", "23-2093"},
	{"Archivist", "25-4011"},
	{"Curator", "25-4012"},
	{"Instructional Coach", "25-9031"},
	{"Education Coordinator", ""},
	{"Superintendent of Schools", "11-9032"},
	{"Assistant Principal", "11-9032"},
	{"Daycare Director", "11-9031"},
	{"Mail Handler", "43-5053"},
	{"Postal Clerk", "43-5051"},
	{"File Clerk", "43-4071"},
	{"Order Entry Clerk", "43-4151"},
	{"Production Planner", "43-5061"},
	{"Expediter", "43-5061"},
	{"Meter Reader", "43-5041"},
	{"Switchboard Operator", "43-2011"},
	{"Eligibility Specialist", "43-4061"},
	{"Loan Closer", "43-4131"},
	{"Word Processor", "43-9022"},
	{"Proofreader", "43-9081"},
	{"Farm Manager", "11-9013"},
	{"Tractor Driver", "45-2091"},
	{"Logger", "45-4021"},
	{"Fisherman", "45-3031"},
	{"Roustabout", "47-5071"},
	{"Drywall Installer", "47-2081"},
	{"Tile Setter", "47-2044"},
	{"Brick Mason", "47-2021"},
	{"Concrete Finisher", "47-2051"},
	{"Ironworker", "47-2221"},
	{"Glazier", "47-2121"},
	{"Insulation Installer", "47-2131"},
	{"Pipelayer", "47-2151"},
	{"Elevator Mechanic", "47-4021"},
	{"Building Inspector", "47-4011"},
	{"Lineman", "49-9051"},
	{"Locksmith", "49-9094"},
	{"Millwright", "49-9044"},
	{"Small Engine Mechanic", "49-3053"},
	{"Motorcycle Mechanic", "49-3052"},
	{"Boat Mechanic", "49-3051"},
	{"Appliance Repair Technician", "49-9031"},
	{"Cable Installer", "49-2022"},
	{"Alarm Technician", "49-2098"},
	{"Baker", "51-3011"},
	{"Butcher", "51-3021"},
	{"Meat Cutter", "51-3021"},
	{"Sewing Machine Operator", "51-6031"},
	{"Tailor", "51-6052"},
	{"Upholsterer", "51-6093"},
	{"Cabinet Maker", "51-7011"},
	{"Tool and Die Maker", "51-4111"},
	{"Power Plant Operator", "51-8013"},
	{"Water Treatment Operator", "51-8031"},
	{"Boiler Operator", "51-8021"},
	{"Printing Press Operator", "51-5112"},
	{"Dental Lab Technician", "51-9081"},
	{"Laundry Attendant", "51-6011"},
	{"Injection Molding Operator", "51-9199"},
	{"Packaging Machine Operator", "51-9111"},
	{"Crane Operator", "53-7021"},
	{"Ship Captain", "53-5021"},
	{"Deckhand", "53-5011"},
	{"Train Conductor", "53-4031"},
	{"Locomotive Engineer", "53-4011"},
	{"Air Traffic Controller", "53-2021"},
	{"Parking Attendant", "53-6021"},
	{"Garbage Collector", "53-7081"},
	{"Chauffeur", "53-3053"},
	{"Shuttle Driver", "53-3053"},
	{"Taxi Driver", "53-3054"},
	{"Ambulance Driver", "53-3011"},
	{"Hand Packager", "53-7064"},
}
