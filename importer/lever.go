package importer

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
)

// leverPosting is a posting of the Lever postings API
// (api.lever.co/v0/postings/{company}?mode=json), with the fields the
// import reads.
type leverPosting struct {
	ID         string `json:"id"`
	Text       string `json:"text"`
	Categories struct {
		Location     string   `json:"location"`
		Commitment   string   `json:"commitment"`
		AllLocations []string `json:"allLocations"`
	} `json:"categories"`
	Country          string       `json:"country"`
	CreatedAt        *json.Number `json:"createdAt"`
	Description      string       `json:"description"`
	DescriptionPlain string       `json:"descriptionPlain"`
	Lists            []struct {
		Text    string `json:"text"`
		Content string `json:"content"`
	} `json:"lists"`
	Additional      string `json:"additional"`
	AdditionalPlain string `json:"additionalPlain"`
	HostedURL       string `json:"hostedUrl"`
	ApplyURL        string `json:"applyUrl"`
	WorkplaceType   string `json:"workplaceType"`
	SalaryRange     *struct {
		Min      *float64 `json:"min"`
		Max      *float64 `json:"max"`
		Currency string   `json:"currency"`
		Interval string   `json:"interval"`
	} `json:"salaryRange"`
}

// splitLever yields the postings of a Lever answer: an array of postings,
// or a single posting.
func splitLever(r io.Reader, yield func(record) error) error {
	return splitJSONList(r, "", "text", yield)
}

// mapLever maps a Lever posting onto a posting (see the README's table).
// The postings API gives no closing or expiry date (its fields are the
// posting's text, categories, URLs, workplace type, salary range and
// createdAt), so a Lever posting has no valid_through: it closes by a
// tombstone or a snapshot import.
func mapLever(data []byte, m *mapper) (entry, error) {
	var p leverPosting
	if err := decodeRecord(data, &p); err != nil {
		return entry{}, err
	}
	job, err := m.leverJob(p)
	return entry{job: job}, err
}

// leverJob maps a Lever posting onto a job.
func (m *mapper) leverJob(p leverPosting) (domain.Job, error) {
	var job domain.Job
	id, err := leverID(p.ID)
	if err != nil {
		return job, err
	}
	job.ID = id
	job.Title = text(p.Text)
	job.URL = urlOf(p.HostedURL, p.ApplyURL)
	if p.CreatedAt != nil {
		ms, err := p.CreatedAt.Int64()
		if err != nil {
			return job, fmt.Errorf("createdAt %s is not a time in milliseconds", p.CreatedAt)
		}
		at := time.UnixMilli(ms).UTC().Format(domain.TimeLayout)
		job.PostedAt = &at
	}
	job.Location.Full = places(append([]string{p.Categories.Location}, p.Categories.AllLocations...)...)
	if c := strings.TrimSpace(p.Country); c != "" {
		job.Location.Country = []string{c} // the country of the first location
	}
	if w, ok := m.n.WorkArrangement(p.WorkplaceType); ok {
		job.WorkArrangement = &w
	}
	if t, ok := m.n.EmploymentType(p.Categories.Commitment); ok {
		job.EmploymentType = &t
	}
	if s := p.SalaryRange; s != nil && (s.Min != nil || s.Max != nil) {
		if per, ok := leverPeriod(s.Interval); ok {
			job.Salary = &domain.Salary{Min: s.Min, Max: s.Max, Currency: ptr(s.Currency), Period: &per}
		}
	}

	var raw strings.Builder
	raw.WriteString(htmlOrText(p.Description, p.DescriptionPlain))
	for _, l := range p.Lists {
		title := text(l.Text)
		raw.WriteString("<h3>" + html.EscapeString(title) + "</h3><ul>" + l.Content + "</ul>")
		list := items(l.Content)
		switch leverList(title) {
		case listRequired:
			job.RequiredQualifications = append(job.RequiredQualifications, list...)
		case listPreferred:
			job.PreferredQualifications = append(job.PreferredQualifications, list...)
		case listResponsibilities:
			job.Responsibilities = append(job.Responsibilities, list...)
		case listBenefits:
			job.Benefits = append(job.Benefits, list...)
		}
	}
	raw.WriteString(htmlOrText(p.Additional, p.AdditionalPlain))
	job.DescriptionRaw = ptr(raw.String())
	plain := descriptionText(raw.String())
	job.Description = ptr(plain)
	m.fillFromText(&job, plain)
	return job, nil
}

// leverID returns lever-<n> for a posting's UUID, n the first 15 hex
// digits of the UUID (60 bits) in decimal: stable, and unique as long as
// those 60 random bits are.
func leverID(uuid string) (string, error) {
	hex := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(uuid), "-", ""))
	if len(hex) != 32 {
		return "", fmt.Errorf("id %q is not a Lever posting id (a UUID)", uuid)
	}
	for _, c := range hex {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", fmt.Errorf("id %q is not a Lever posting id (a UUID)", uuid)
		}
	}
	n, err := strconv.ParseUint(hex[:15], 16, 64)
	if err != nil {
		return "", fmt.Errorf("id %q is not a Lever posting id (a UUID): %w", uuid, err)
	}
	return formatLever + "-" + strconv.FormatUint(n, 10), nil
}

// leverPeriod reads a salaryRange interval ("per-year-salary",
// "per-hour-wage"); false for one that is not pay per period ("one-time").
func leverPeriod(interval string) (string, bool) {
	s := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(interval)), "per-")
	s = strings.TrimSuffix(strings.TrimSuffix(s, "-salary"), "-wage")
	return period(s)
}

// htmlOrText returns the HTML of a Lever text, made from its plain
// version (lines kept) when it has no HTML one.
func htmlOrText(htmlText, plain string) string {
	if h := htmlOf(htmlText); h != "" {
		return h
	}
	if plain = strings.TrimSpace(plain); plain != "" {
		return "<div>" + strings.ReplaceAll(html.EscapeString(plain), "\n", "<br>") + "</div>"
	}
	return ""
}

// What a Lever list holds, read from its title.
const (
	listOther = iota
	listRequired
	listPreferred
	listResponsibilities
	listBenefits
)

// leverList reads what a Lever list holds from its title: preferred
// qualifications ("Nice to have", "Bonus points"), required ones
// ("Requirements", "What you'll need", "What we're looking for", "About
// you"), responsibilities ("What you'll do", "Responsibilities", "In this
// role"), benefits ("Perks", "What we offer"). Any other list ("About the
// team", "Our stack") stays in the description only: filing it under a
// field would be a guess.
func leverList(title string) int {
	t := strings.ToLower(strings.ReplaceAll(title, "’", "'"))
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("nice to have", "nice-to-have", "preferred", "bonus", "plus", "pluses", "ideally"):
		return listPreferred
	case has("requirement", "qualification", "you'll need", "you will need", "what you need", "you'll bring", "you will bring",
		"what you bring", "looking for", "who you are", "about you", "you have", "you should have", "must have", "must-have",
		"skills", "experience"):
		return listRequired
	case has("responsibilit", "what you'll do", "what you will do", "what you'll be doing", "you will", "in this role",
		"the role", "day to day", "day-to-day", "duties", "your impact"):
		return listResponsibilities
	case has("benefit", "perks", "what we offer", "we offer"):
		return listBenefits
	}
	return listOther
}
