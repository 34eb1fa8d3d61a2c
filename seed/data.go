package seed

// place is a real city with its state and country, and how many postings
// it draws relative to the others.
type place struct {
	city, state, country string
	weight               int
}

var places = []place{
	{"San Francisco", "CA", "USA", 12}, {"New York", "NY", "USA", 14}, {"Seattle", "WA", "USA", 8},
	{"Austin", "TX", "USA", 7}, {"Boston", "MA", "USA", 6}, {"Chicago", "IL", "USA", 6},
	{"Los Angeles", "CA", "USA", 6}, {"Denver", "CO", "USA", 4}, {"Atlanta", "GA", "USA", 4},
	{"Dallas", "TX", "USA", 4}, {"Houston", "TX", "USA", 3}, {"Washington", "DC", "USA", 4},
	{"Arlington", "VA", "USA", 3}, {"San Jose", "CA", "USA", 3}, {"San Diego", "CA", "USA", 3},
	{"Phoenix", "AZ", "USA", 2}, {"Philadelphia", "PA", "USA", 2}, {"Pittsburgh", "PA", "USA", 2},
	{"Minneapolis", "MN", "USA", 2}, {"Raleigh", "NC", "USA", 2}, {"Nashville", "TN", "USA", 2},
	{"Miami", "FL", "USA", 2}, {"Salt Lake City", "UT", "USA", 1}, {"Portland", "OR", "USA", 2},
	{"Columbus", "OH", "USA", 1}, {"Detroit", "MI", "USA", 1}, {"Cambridge", "MA", "USA", 1},
	{"Toronto", "ON", "Canada", 5}, {"Vancouver", "BC", "Canada", 3}, {"Montreal", "QC", "Canada", 2},
	{"London", "ON", "Canada", 1}, {"Ottawa", "ON", "Canada", 1},
	{"London", "", "United Kingdom", 7}, {"Manchester", "", "UK", 2}, {"Edinburgh", "", "UK", 1},
	{"Cambridge", "", "UK", 1}, {"Dublin", "", "Ireland", 2}, {"Berlin", "", "Germany", 4},
	{"Munich", "", "Germany", 2}, {"Hamburg", "", "Germany", 1}, {"Paris", "", "France", 3},
	{"Amsterdam", "", "Netherlands", 3}, {"Madrid", "", "Spain", 1}, {"Barcelona", "", "Spain", 1},
	{"Lisbon", "", "Portugal", 1}, {"Stockholm", "", "Sweden", 1}, {"Zurich", "", "Switzerland", 1},
	{"Warsaw", "", "Poland", 1}, {"Bengaluru", "", "India", 4}, {"Mumbai", "", "India", 2},
	{"Pune", "", "India", 1}, {"Singapore", "", "Singapore", 2}, {"Tokyo", "", "Japan", 1},
	{"Sydney", "NSW", "Australia", 2}, {"Melbourne", "VIC", "Australia", 1}, {"São Paulo", "", "Brazil", 1},
	{"Mexico City", "", "Mexico", 1}, {"Tel Aviv", "", "Israel", 1},
	// Cities around the large ones, for searches within a distance
	// (near=Austin&radius=25mi finds Round Rock).
	{"Round Rock", "TX", "USA", 1}, {"Plano", "TX", "USA", 1}, {"Fort Worth", "TX", "USA", 1},
	{"Irving", "TX", "USA", 1}, {"Oakland", "CA", "USA", 1}, {"Palo Alto", "CA", "USA", 1},
	{"Mountain View", "CA", "USA", 1}, {"Jersey City", "NJ", "USA", 1}, {"Hoboken", "NJ", "USA", 1},
	{"Somerville", "MA", "USA", 1}, {"Bellevue", "WA", "USA", 1}, {"Redmond", "WA", "USA", 1},
	{"Durham", "NC", "USA", 1}, {"Irvine", "CA", "USA", 1}, {"Mississauga", "ON", "Canada", 1},
	{"Oxford", "", "UK", 1},
}

// occupation is a family of titles with what their postings ask for.
type occupation struct {
	titles         []string
	weight         int
	skills, tools  []string
	technical      []string
	certifications []string
	majors         []string
	education      string   // the usual requirement
	pay            payScale // typical pay
	clearable      bool     // defense and government work asks for clearances
	sponsorable    bool     // employers sponsor visas for it
}

// payScale is a typical pay range and its period, in US dollars.
type payScale struct {
	period   string
	low, top float64
}

var annualTech = payScale{"year", 90000, 240000}

var occupations = []occupation{
	{titles: []string{"Backend Engineer", "Backend Software Engineer", "Back-End Developer", "Software Engineer, Backend"}, weight: 10,
		skills: []string{"Go", "golang", "Python", "Java", "PostgreSQL", "postgres", "Kubernetes", "k8s", "AWS", "EKS", "Lambda", "Kafka", "Redis", "gRPC", "Docker", "Rust", "Node.js", "Scala", "GCP"},
		tools:  []string{"Git", "Docker", "Terraform", "Jenkins", "Datadog", "Grafana", "Jira"}, technical: []string{"Distributed Systems", "Microservices", "REST APIs", "System Design", "CI/CD"},
		majors: []string{"Computer Science", "Computer Engineering", "Mathematics"}, education: "Bachelor's degree in Computer Science or a related field", pay: annualTech, clearable: true, sponsorable: true},
	{titles: []string{"Frontend Engineer", "Front-End Developer", "UI Engineer", "Frontend Software Engineer"}, weight: 7,
		skills: []string{"React", "reactjs", "TypeScript", "JavaScript", "Redux", "Next.js", "Vue.js", "Angular", "GraphQL", "TSX", "CSS"},
		tools:  []string{"Git", "Figma", "Jira", "GitHub Actions"}, technical: []string{"REST APIs", "Test Automation", "CI/CD"},
		majors: []string{"Computer Science"}, education: "BS in Computer Science or equivalent experience", pay: annualTech, sponsorable: true},
	{titles: []string{"Full Stack Engineer", "Full-Stack Developer", "Software Engineer", "Software Developer", "Software Engineer II", "Senior Software Engineer", "Staff Software Engineer"}, weight: 14,
		skills: []string{"JavaScript", "TypeScript", "React", "Node.js", "nodejs", "Python", "Django", "Ruby on Rails", "Go", "Java", "Spring", "C#", ".NET", "dotnet", "PostgreSQL", "MySQL", "MongoDB", "AWS", "Azure", "GCP"},
		tools:  []string{"Git", "Docker", "Jira", "Confluence", "GitHub Actions"}, technical: []string{"REST APIs", "Microservices", "Agile", "CI/CD"},
		majors: []string{"Computer Science", "Information Technology"}, education: "Bachelor's degree in Computer Science, Engineering or related", pay: annualTech, clearable: true, sponsorable: true},
	{titles: []string{"iOS Engineer", "Android Developer", "Mobile Engineer", "Mobile Software Engineer"}, weight: 3,
		skills: []string{"Swift", "Kotlin", "Objective-C", "React Native", "Java"}, tools: []string{"Git", "Jira"},
		majors: []string{"Computer Science"}, education: "BS in Computer Science", pay: annualTech, sponsorable: true},
	{titles: []string{"Data Engineer", "Senior Data Engineer", "Analytics Engineer", "Big Data Engineer"}, weight: 5,
		skills: []string{"Python", "SQL", "Spark", "pyspark", "Kafka", "BigQuery", "AWS", "Scala", "PostgreSQL", "dbt"},
		tools:  []string{"Git", "Tableau", "Docker", "Terraform"}, technical: []string{"Data Modeling", "Distributed Systems", "Data Analysis"},
		majors: []string{"Computer Science", "Statistics", "Mathematics"}, education: "Bachelor's or Master's degree in a quantitative field", pay: annualTech, sponsorable: true},
	{titles: []string{"Machine Learning Engineer", "ML Engineer", "AI Engineer", "Senior Machine Learning Engineer"}, weight: 4,
		skills: []string{"Python", "PyTorch", "TensorFlow", "Machine Learning", "ml", "Kubernetes", "AWS", "GCP", "Spark"},
		tools:  []string{"Git", "Docker", "MATLAB"}, technical: []string{"Machine Learning", "Deep Learning", "Distributed Systems"},
		majors: []string{"Computer Science", "Statistics", "Mathematics", "Physics"}, education: "MS or PhD in Computer Science, Statistics or a related field", pay: payScale{"year", 130000, 320000}, sponsorable: true},
	{titles: []string{"DevOps Engineer", "Site Reliability Engineer", "Platform Engineer", "Cloud Engineer", "SRE"}, weight: 5,
		skills: []string{"Kubernetes", "k8s", "Terraform", "AWS", "EKS", "GCP", "GKE", "Azure", "Linux", "Go", "Python", "Docker"},
		tools:  []string{"Terraform", "Jenkins", "Prometheus", "Grafana", "Datadog", "GitHub Actions", "Kubernetes"}, technical: []string{"CI/CD", "Cloud Infrastructure", "Distributed Systems"},
		certifications: []string{"CKA", "AWS Certified Solutions Architect"}, majors: []string{"Computer Science", "Information Technology"},
		education: "Bachelor's degree or equivalent experience", pay: annualTech, clearable: true, sponsorable: true},
	{titles: []string{"Security Engineer", "Application Security Engineer", "Cybersecurity Engineer"}, weight: 3,
		skills: []string{"Python", "Go", "AWS", "Linux", "Kubernetes"}, tools: []string{"Git", "Datadog"}, technical: []string{"Network Security", "Cloud Infrastructure"},
		certifications: []string{"CISSP", "Security+"}, majors: []string{"Computer Science", "Information Technology"},
		education: "Bachelor's degree in Computer Science or Cybersecurity", pay: annualTech, clearable: true},
	{titles: []string{"Embedded Software Engineer", "Firmware Engineer"}, weight: 2,
		skills: []string{"C", "C++", "cpp", "Rust", "Linux", "Python"}, tools: []string{"Git", "MATLAB"},
		majors: []string{"Electrical Engineering", "Computer Engineering"}, education: "BS in Electrical or Computer Engineering", pay: annualTech, clearable: true, sponsorable: true},
	{titles: []string{"QA Engineer", "QA Automation Engineer", "SDET", "Software Test Engineer"}, weight: 2,
		skills: []string{"Python", "Java", "JavaScript", "Selenium", "Cypress"}, tools: []string{"Jira", "Jenkins", "Git"}, technical: []string{"Test Automation", "Agile"},
		majors: []string{"Computer Science"}, education: "Bachelor's degree or equivalent", pay: payScale{"year", 70000, 160000}},
	{titles: []string{"Data Scientist", "Senior Data Scientist", "Applied Scientist"}, weight: 4,
		skills: []string{"Python", "SQL", "pandas", "Machine Learning", "TensorFlow", "Spark"}, tools: []string{"Tableau", "Excel", "Git"}, technical: []string{"Machine Learning", "Data Analysis"},
		majors: []string{"Statistics", "Mathematics", "Computer Science", "Economics"}, education: "Master's degree in Statistics, Mathematics or related; PhD preferred", pay: payScale{"year", 110000, 250000}, sponsorable: true},
	{titles: []string{"Data Analyst", "Business Intelligence Analyst", "Reporting Analyst"}, weight: 4,
		skills: []string{"SQL", "Excel", "Python"}, tools: []string{"Tableau", "Power BI", "Excel"}, technical: []string{"Data Analysis"},
		majors: []string{"Statistics", "Economics", "Mathematics", "Business Administration"}, education: "Bachelor's degree in a quantitative field", pay: payScale{"year", 60000, 130000}},
	{titles: []string{"Product Manager", "Senior Product Manager", "Technical Product Manager"}, weight: 4,
		skills: []string{"SQL", "Figma"}, tools: []string{"Jira", "Confluence", "Figma"}, technical: []string{"Agile"},
		majors: []string{"Business Administration", "Computer Science"}, education: "Bachelor's degree; MBA a plus", pay: payScale{"year", 110000, 250000}},
	{titles: []string{"Engineering Manager", "Software Engineering Manager", "Director of Engineering"}, weight: 2,
		skills: []string{"Go", "Java", "AWS", "Kubernetes"}, tools: []string{"Jira", "Confluence"}, technical: []string{"System Design", "Agile"},
		majors: []string{"Computer Science"}, education: "BS in Computer Science or equivalent", pay: payScale{"year", 170000, 320000}, sponsorable: true},
	{titles: []string{"Product Designer", "UX Designer", "UI/UX Designer", "Graphic Designer"}, weight: 3,
		skills: []string{"Figma"}, tools: []string{"Figma", "Sketch"}, majors: []string{"Graphic Design"},
		education: "Bachelor's degree in Design or equivalent portfolio", pay: payScale{"year", 70000, 180000}},
	{titles: []string{"Registered Nurse", "RN - Medical Surgical", "ICU Nurse", "ER Nurse", "Pediatric Nurse", "Travel Nurse - ICU"}, weight: 8,
		skills: []string{"Patient Care", "EHR", "Epic", "Phlebotomy"}, tools: []string{"Epic"}, technical: []string{"Medication Administration"},
		certifications: []string{"RN License", "BLS", "ACLS"}, majors: []string{"Nursing"}, education: "Associate or Bachelor of Science in Nursing (BSN)", pay: payScale{"hour", 32, 85}},
	{titles: []string{"Nurse Practitioner", "Family Nurse Practitioner"}, weight: 2,
		skills: []string{"Patient Care", "Electronic Health Records"}, certifications: []string{"BLS"}, majors: []string{"Nursing"},
		education: "Master's degree in Nursing (MSN)", pay: payScale{"year", 100000, 160000}},
	{titles: []string{"Medical Assistant", "Certified Medical Assistant", "Phlebotomist"}, weight: 3,
		skills: []string{"Patient Care", "Phlebotomy", "EHR"}, certifications: []string{"BLS"},
		education: "High school diploma or GED", pay: payScale{"hour", 17, 28}},
	{titles: []string{"Pharmacist", "Clinical Pharmacist"}, weight: 1, skills: []string{"Patient Care"},
		education: "PharmD", pay: payScale{"year", 120000, 165000}},
	{titles: []string{"Staff Accountant", "Senior Accountant", "Tax Accountant", "Internal Auditor", "Bookkeeper"}, weight: 4,
		skills: []string{"GAAP", "Bookkeeping", "Excel"}, tools: []string{"QuickBooks", "Excel", "SAP"}, technical: []string{"Financial Reporting", "Budgeting"},
		certifications: []string{"CPA"}, majors: []string{"Accounting", "Finance"}, education: "Bachelor's degree in Accounting or Finance; CPA preferred", pay: payScale{"year", 55000, 120000}},
	{titles: []string{"Financial Analyst", "FP&A Analyst", "Investment Analyst"}, weight: 3,
		skills: []string{"Financial Modeling", "Excel", "SQL"}, tools: []string{"Excel", "Power BI"}, technical: []string{"Budgeting", "Financial Reporting"},
		certifications: []string{"CFA"}, majors: []string{"Finance", "Economics", "Accounting"}, education: "Bachelor's degree in Finance, Economics or Accounting", pay: payScale{"year", 70000, 140000}},
	{titles: []string{"Account Executive", "Enterprise Account Executive", "Sales Development Representative", "Account Manager", "Inside Sales Representative"}, weight: 6,
		skills: []string{"Salesforce", "Negotiation"}, tools: []string{"Salesforce", "HubSpot", "Slack"}, technical: []string{"Lead Generation"},
		majors: []string{"Business Administration", "Marketing"}, education: "Bachelor's degree preferred", pay: payScale{"year", 50000, 150000}},
	{titles: []string{"Marketing Manager", "Product Marketing Manager", "Growth Manager"}, weight: 3,
		skills: []string{"SEO", "Excel"}, tools: []string{"HubSpot", "Salesforce"}, majors: []string{"Marketing", "Business Administration"},
		education: "Bachelor's degree in Marketing or related", pay: payScale{"year", 80000, 170000}},
	{titles: []string{"Recruiter", "Technical Recruiter", "Talent Acquisition Specialist"}, weight: 2,
		tools: []string{"Slack", "Excel"}, majors: []string{"Business Administration"}, education: "Bachelor's degree", pay: payScale{"year", 55000, 120000}},
	{titles: []string{"Project Manager", "Technical Program Manager", "Program Manager"}, weight: 3,
		tools: []string{"Jira", "Confluence", "Excel"}, technical: []string{"Agile", "Budgeting"}, certifications: []string{"PMP"},
		majors: []string{"Business Administration"}, education: "Bachelor's degree; PMP certification a plus", pay: payScale{"year", 85000, 175000}, clearable: true},
	{titles: []string{"Customer Support Specialist", "Customer Service Representative", "Call Center Agent"}, weight: 4,
		tools: []string{"Zendesk", "Salesforce", "Slack"}, education: "High school diploma or equivalent", pay: payScale{"hour", 16, 26}},
	{titles: []string{"Administrative Assistant", "Executive Assistant", "Receptionist"}, weight: 2,
		tools: []string{"Excel", "Slack"}, education: "High school diploma; associate degree a plus", pay: payScale{"hour", 18, 32}},
	{titles: []string{"Mechanical Engineer", "Electrical Engineer", "Civil Engineer", "Hardware Engineer"}, weight: 3,
		skills: []string{"AutoCAD", "MATLAB"}, tools: []string{"AutoCAD", "SolidWorks", "MATLAB"}, technical: []string{"CAD"},
		certifications: []string{"PE"}, majors: []string{"Mechanical Engineering", "Electrical Engineering"}, education: "BS in Mechanical, Electrical or Civil Engineering", pay: payScale{"year", 75000, 150000}, clearable: true, sponsorable: true},
	{titles: []string{"High School Math Teacher", "Elementary Teacher", "Science Teacher", "Adjunct Professor"}, weight: 2,
		skills: []string{"Curriculum Development"}, certifications: []string{"Teaching License"}, majors: []string{"Education", "Mathematics"},
		education: "Bachelor's degree and state teaching certification", pay: payScale{"year", 45000, 90000}},
	{titles: []string{"CDL-A Truck Driver", "Delivery Driver", "Truck Driver"}, weight: 3,
		skills: []string{"CDL"}, certifications: []string{"CDL Class A"}, education: "High school diploma or GED", pay: payScale{"week", 1100, 2100}},
	{titles: []string{"Warehouse Associate", "Forklift Operator", "Fulfillment Associate"}, weight: 3,
		skills: []string{"Forklift"}, education: "", pay: payScale{"hour", 16, 24}},
	{titles: []string{"Electrician", "Journeyman Electrician"}, weight: 1, education: "High school diploma; state license", pay: payScale{"hour", 25, 50}},
	{titles: []string{"Line Cook", "Sous Chef", "Barista"}, weight: 2, education: "", pay: payScale{"hour", 15, 26}},
	{titles: []string{"Technical Writer", "Content Writer"}, weight: 1, tools: []string{"Confluence"}, education: "Bachelor's degree in English or Communications", pay: payScale{"day", 350, 700}},
}

var companyPrefixes = []string{
	"Acme", "Blue", "Bright", "Cedar", "Clear", "Cloud", "Copper", "Crest", "Delta", "Echo", "Ever", "Falcon", "First",
	"Fox", "Golden", "Granite", "Green", "Harbor", "Helix", "Horizon", "Iron", "Juniper", "Keystone", "Lumen", "Maple",
	"Meridian", "Nimbus", "North", "Nova", "Oak", "Orbit", "Pacific", "Peak", "Pine", "Pioneer", "Polar", "Quantum",
	"Red", "River", "Sage", "Silver", "Sky", "Solar", "Spark", "Stone", "Summit", "Terra", "Tidal", "True", "Vertex",
}

var companySuffixes = []string{
	"Labs", "Systems", "Health", "Analytics", "Software", "Robotics", "Financial", "Logistics", "Bank", "Medical Center",
	"Energy", "Media", "Foods", "Dynamics", "Networks", "Insurance", "Defense", "Retail", "Learning", "Motors",
}

var softSkills = []string{"Communication", "Teamwork", "Leadership", "Problem Solving", "Time Management", "Attention to Detail", "Adaptability", "Critical Thinking", "Customer Service", "Mentoring", "collaboration", "detail-oriented"}

var benefits = []string{"Health Insurance", "Dental", "Vision", "401k", "PTO", "Parental Leave", "Equity", "Remote Work Stipend", "Tuition Reimbursement", "Gym Membership", "Life Insurance", "Flexible Hours"}

var visas = []string{"H-1B", "h1b", "TN", "E-3", "L-1", "O-1", "F-1 OPT", "STEM OPT", "Green Card"}

var clearances = []string{"Secret", "Top Secret", "TS/SCI", "TS/SCI with Poly", "Public Trust", "DOE Q"}

var currencies = map[string]struct {
	code string
	rate float64 // US dollars → local currency, roughly
}{
	"USA": {"USD", 1}, "Canada": {"CAD", 1.35}, "United Kingdom": {"GBP", 0.8}, "UK": {"GBP", 0.8}, "Ireland": {"EUR", 0.92},
	"Germany": {"EUR", 0.92}, "France": {"EUR", 0.92}, "Netherlands": {"EUR", 0.92}, "Spain": {"EUR", 0.92},
	"Portugal": {"EUR", 0.92}, "Sweden": {"SEK", 10.5}, "Switzerland": {"CHF", 0.9}, "Poland": {"PLN", 4},
	"India": {"INR", 83}, "Singapore": {"SGD", 1.35}, "Japan": {"JPY", 150}, "Australia": {"AUD", 1.5},
	"Brazil": {"BRL", 5}, "Mexico": {"MXN", 17}, "Israel": {"ILS", 3.7},
}
