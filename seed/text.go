package seed

var missions = []string{
	"build and run the systems our customers depend on every day",
	"improve the quality and reliability of our core products",
	"care for patients with skill and compassion",
	"help our customers get the most out of our products",
	"turn data into decisions that shape the business",
	"grow our presence in new markets",
	"keep our operations running safely and on time",
	"design experiences people love to use",
}

var aboutLines = []string{
	"builds software that helps small businesses run their operations.",
	"is a fast-growing company serving customers in more than forty countries.",
	"has been a trusted name in its field for over thirty years.",
	"is on a mission to make essential services simple and affordable.",
	"partners with public agencies to deliver critical infrastructure.",
	"operates hospitals and clinics across the region.",
}

var teamLines = []string{
	"You will join a small team that owns its work from idea to production.",
	"You will report to the head of the department and work across teams.",
	"Our teams work in short cycles and ship often.",
	"You will mentor colleagues and help set the direction of the team.",
}

var responsibilityLines = []string{
	"Design, build and maintain features used by thousands of customers",
	"Collaborate with product, design and operations on priorities",
	"Write clear documentation and review the work of peers",
	"Take part in an on-call rotation and improve reliability",
	"Measure outcomes and iterate on what you ship",
	"Mentor junior colleagues as the {role} team grows",
	"Follow safety, quality and compliance procedures",
	"Communicate progress to stakeholders every week",
	"Identify problems early and propose practical solutions",
}

var requiredLines = []string{
	"3+ years of experience as a {role} or in a similar role",
	"Strong written and verbal communication",
	"Experience working in a fast-paced environment",
	"Ability to work independently and manage priorities",
	"Relevant license or certification where required by law",
	"Comfort with the tools of the trade and willingness to learn new ones",
}

var preferredLines = []string{
	"Experience in a high-growth company",
	"Familiarity with regulated industries",
	"A second language",
	"Experience leading projects end to end",
}

var fillerParagraphs = []string{
	"We believe great work happens when people have the time, tools and trust to do it well. Our teams set clear goals, give each other honest feedback and celebrate progress together. You will have room to grow, a budget for learning, and colleagues who care about doing things right.",
	"Our hiring process is simple: a short call with a recruiter, a conversation with the hiring manager, a practical exercise that reflects the real work, and a final conversation with the team. We aim to reach a decision within two weeks and we give feedback at every stage.",
	"We serve customers across many industries and time zones, so no two days look the same. You will see the impact of your work quickly, and you will help shape how we work as we grow. We value curiosity, ownership and kindness.",
	"Compensation is determined by experience, skills and location. The range shown is a good-faith estimate for this role; total compensation may also include a bonus, equity and a comprehensive benefits package.",
	"We are committed to building a team that reflects the communities we serve. If you are excited about this role but your experience does not match every requirement, we encourage you to apply anyway.",
	"Reasonable accommodations are available for candidates with disabilities throughout the application and interview process. Please let your recruiter know how we can help.",
}
