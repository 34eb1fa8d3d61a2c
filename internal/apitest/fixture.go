package apitest

// What the fixture testdata/jobs.ndjson holds, as the API answers it.

// AllIDs are the fixture's jobs in the default order (newest first, the
// job without a date last).
var AllIDs = []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8", "test-9", "test-11", "test-12", "test-10"}

// FilterCases are REST filters (query strings of GET /api/v1/jobs) with the
// ids of the fixture's jobs they return, in order.
var FilterCases = []struct {
	Query string
	Want  []string
}{
	{"", AllIDs},
	{"skills=golang", []string{"test-1", "test-9"}},
	{"skills=golang&city=SF", []string{"test-1", "test-9"}},
	{"skills=aws", []string{"test-6"}},
	{"skills=eks", []string{"test-6"}},
	{"skills=k8s", []string{"test-1"}},
	{"skills=reactjs,%20python,,", []string{"test-2", "test-4", "test-5"}},
	{"skills=ML", []string{"test-5"}},
	{"tools=docker", []string{"test-1"}},
	{"technical_skills=REST%20APIs", []string{"test-12"}},
	{"soft_skills=communication", []string{"test-12"}},
	{"visas=h1b", []string{"test-1", "test-9"}},
	{"visas=tn", []string{"test-9"}},
	{"education_levels=bachelors", []string{"test-1"}},
	{"education_levels=PhD,associate", []string{"test-3", "test-5"}},
	{"education_majors=cs", []string{"test-1"}},
	{"education_majors=statistics", []string{"test-5"}},
	{"certifications=bls", []string{"test-3"}},
	{"certifications=CPA", []string{"test-7"}},
	{"security_clearances=TS/SCI", []string{"test-6"}},
	{"benefits=401(k),dental%20insurance", []string{"test-1"}},
	{"work_arrangement=remote", []string{"test-4", "test-5", "test-9", "test-12"}},
	{"work_arrangement=on-site", []string{"test-1", "test-3", "test-6", "test-8", "test-10"}},
	{"work_arrangement=hybrid,remote", []string{"test-2", "test-4", "test-5", "test-7", "test-9", "test-11", "test-12"}},
	{"employment_type=FT", []string{"test-1", "test-2", "test-5", "test-6", "test-7", "test-8", "test-9", "test-12"}},
	{"employment_type=part-time,internship", []string{"test-3", "test-11"}},
	{"company=acme", []string{"test-1", "test-2", "test-12"}},
	{"company=ACME%20CLOUD", []string{"test-1", "test-2", "test-12"}},
	{"company=100%25", []string{}},
	{"city=cambridge", []string{"test-11", "test-12"}},
	{"state=CA", []string{"test-1", "test-9"}},
	{"state=texas", []string{"test-3", "test-10"}},
	{"state=Ontario", []string{"test-7"}},
	{"country=USA", []string{"test-1", "test-2", "test-3", "test-5", "test-6", "test-9", "test-12", "test-10"}},
	{"country=UK", []string{"test-4", "test-11"}},
	{"location=Austin,%20TX", []string{"test-3"}},
	{"location=London,%20UK", []string{"test-4"}},
	{"location=Remote%20-%20US", []string{"test-5", "test-9", "test-12"}},
	{"location=Cambridge,%20MA", []string{"test-12"}},
	{"title=backend%20engineer", []string{"test-1", "test-9"}},
	{"title=Software%20Engineer", []string{"test-1", "test-2", "test-4", "test-6", "test-9", "test-11"}},
	{"job_title=nurse", []string{"test-3"}},
	{"title=nurse&job_title=Nurse", []string{"test-3"}},
	{"title=happiness%20wizard", []string{"test-8"}},
	// Without rates (the Env's default), salary filters compare the
	// postings of the requested currency only (USD unless named): test-4
	// and test-11 (GBP), test-7 (CAD) and test-8 (EUR) are left out.
	{"salary_min=150000", []string{"test-1", "test-2", "test-6", "test-9", "test-12"}},
	{"salary_max=70000", []string{"test-10"}},
	{"salary_min=90000&salary_max=100000", []string{"test-3"}},
	{"salary_min=100000&salary_currency=gbp", []string{"test-4"}},
	{"salary_max=70000&salary_currency=GBP", []string{"test-11"}},
	{"salary_max=100000&salary_currency=EUR", []string{"test-8"}},
	{"category_field=business%20and%20financial%20operations", []string{"test-7"}},
	{"category_role=software%20engineer", []string{"test-1", "test-2", "test-4", "test-6", "test-9", "test-11"}},
	{"category_specialization=backend", []string{"test-1", "test-9"}},
	{"skills=python&work_arrangement=remote&country=UK", []string{"test-4"}},
	{"q=data", []string{"test-5"}},
	{"posted_after=2026-10-25", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6"}},
	{"posted_after=2026-10-24T04:00:00Z", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8"}},
	{"posted_within=3650d", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8", "test-9", "test-11", "test-12"}},
	{"skills=python,ml&skills_match=all", []string{"test-5"}},
	{"visas=h1b,tn&visas_match=all", []string{"test-9"}},
	{"benefits=401k,dental&benefits_match=ALL", []string{"test-1"}},
	{"salary_min=150000&include_unknown_salary=true", []string{"test-1", "test-2", "test-5", "test-6", "test-9", "test-12"}},
}
