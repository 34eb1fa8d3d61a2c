// Package seed generates realistic demo job postings, deterministically: the
// same count and seed always give the same records. Postings come from
// hundreds of companies with a long-tailed number of jobs each, in real
// cities of several countries, across many occupations, with salaries in
// several periods and currencies, HTML descriptions, and the nulls the
// contract allows.
package seed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// Reference is the date demo postings are posted before.
var Reference = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// Options tune the generator.
type Options struct {
	N         int    // number of postings
	Seed      uint64 // the same seed gives the same postings
	Companies int    // number of companies (default: N/40, between 50 and 2,000)
	// Lifecycle, when not zero, gives the postings a life as of that
	// instant (the demo data of make run): every ExpiringEvery-th posting
	// a valid_through 1 to 14 days after it, and every ClosedEvery-th is
	// closed by a tombstone, written after the postings, a day before it.
	Lifecycle time.Time
}

// The shares of postings Lifecycle makes expiring and closed.
const (
	ExpiringEvery = 100
	ClosedEvery   = 250
)

var sources = []string{"greenhouse", "lever", "workday", "ashby", "smartrecruiters"}

// Write writes opts.N postings to w as NDJSON in the import format.
func Write(w io.Writer, opts Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	g := newGenerator(opts)
	type posting struct {
		domain.Job
		ValidThrough string `json:"valid_through,omitempty"`
	}
	var closed []string
	for i := range opts.N {
		p := posting{Job: g.job(i)}
		if !opts.Lifecycle.IsZero() {
			if i%ExpiringEvery == ExpiringEvery/2 {
				p.ValidThrough = opts.Lifecycle.Add(time.Duration(1+i%14) * 24 * time.Hour).UTC().Format(time.RFC3339)
			}
			if i%ClosedEvery == ClosedEvery-1 {
				closed = append(closed, p.ID)
			}
		}
		if err := enc.Encode(&p); err != nil {
			return fmt.Errorf("write posting %d: %w", i, err)
		}
	}
	at := opts.Lifecycle.Add(-24 * time.Hour).UTC().Format(time.RFC3339)
	for _, id := range closed {
		if err := enc.Encode(map[string]any{"id": id, "closed": true, "closed_at": at}); err != nil {
			return fmt.Errorf("write tombstone of %s: %w", id, err)
		}
	}
	return bw.Flush()
}

// Normalized returns opts.N postings as an import stores them: written
// as NDJSON, read back and normalized by norm (for tests and benchmarks).
func Normalized(opts Options, norm *normalize.Normalizer) ([]domain.Job, error) {
	var buf bytes.Buffer
	if err := Write(&buf, opts); err != nil {
		return nil, err
	}
	jobs := make([]domain.Job, 0, opts.N)
	for dec := json.NewDecoder(&buf); dec.More(); {
		var j domain.Job
		if err := dec.Decode(&j); err != nil {
			return nil, fmt.Errorf("read posting %d: %w", len(jobs), err)
		}
		rec, err := norm.Job(j)
		if err != nil {
			return nil, fmt.Errorf("normalize posting %d: %w", len(jobs), err)
		}
		jobs = append(jobs, rec.Job)
	}
	return jobs, nil
}

type company struct {
	name, logo string
	defense    bool
	home       place
}

type generator struct {
	rnd        *rand.Rand
	companies  []company
	zipf       *rand.Zipf
	placeTotal int
	occTotal   int
}

func newGenerator(opts Options) *generator {
	rnd := rand.New(rand.NewPCG(opts.Seed, 0x6a6f627364))
	n := opts.Companies
	if n == 0 {
		n = min(max(opts.N/40, 50), 2000)
	}
	g := &generator{rnd: rnd}
	for _, p := range places {
		g.placeTotal += p.weight
	}
	for _, o := range occupations {
		g.occTotal += o.weight
	}
	seen := map[string]bool{}
	for len(g.companies) < n {
		name := companyPrefixes[rnd.IntN(len(companyPrefixes))] + " " + companySuffixes[rnd.IntN(len(companySuffixes))]
		if seen[name] {
			name = fmt.Sprintf("%s %d", name, len(g.companies))
		}
		seen[name] = true
		slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
		c := company{name: name, home: g.place(), defense: strings.HasSuffix(name, "Defense") || rnd.IntN(25) == 0}
		if rnd.IntN(10) > 0 {
			c.logo = "https://logos.example.com/" + slug + ".png"
		}
		g.companies = append(g.companies, c)
	}
	// A long tail: a few companies post most jobs.
	g.zipf = rand.NewZipf(rnd, 1.2, 4, uint64(n-1))
	return g
}

func (g *generator) place() place {
	k := g.rnd.IntN(g.placeTotal)
	for _, p := range places {
		if k < p.weight {
			return p
		}
		k -= p.weight
	}
	return places[0]
}

func (g *generator) occupation() occupation {
	k := g.rnd.IntN(g.occTotal)
	for _, o := range occupations {
		if k < o.weight {
			return o
		}
		k -= o.weight
	}
	return occupations[0]
}

func (g *generator) chance(percent int) bool { return g.rnd.IntN(100) < percent }

func pick[T any](g *generator, list []T) T { return list[g.rnd.IntN(len(list))] }

// some returns between lo and hi distinct items of list.
func some(g *generator, list []string, lo, hi int) []string {
	if len(list) == 0 {
		return []string{}
	}
	n := min(lo+g.rnd.IntN(hi-lo+1), len(list))
	idx := g.rnd.Perm(len(list))[:n]
	out := make([]string, n)
	for i, k := range idx {
		out[i] = list[k]
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func (g *generator) job(i int) domain.Job {
	c := g.companies[g.zipf.Uint64()]
	o := g.occupation()
	title := pick(g, o.titles)
	if g.chance(20) && !strings.HasPrefix(title, "Senior") && !strings.HasPrefix(title, "Staff") {
		title = pick(g, []string{"Senior ", "Sr. ", "Junior ", "Lead ", "Principal "}) + title
	}
	source := sources[i%len(sources)]
	j := domain.Job{
		ID:      fmt.Sprintf("%s-%d", source, 100000+i),
		Title:   title,
		Company: c.name,
		URL:     ptr(fmt.Sprintf("https://jobs.example.com/%s/%d", source, 100000+i)),
		Source:  ptr(source),
	}
	if c.logo != "" {
		j.CompanyLogo = ptr(c.logo)
	}
	if !g.chance(2) {
		posted := Reference.Add(-time.Duration(g.rnd.Int64N(int64(120 * 24 * time.Hour)))).Truncate(time.Second)
		j.PostedAt = ptr(posted.Format(time.RFC3339))
	}
	g.location(&j, c)
	j.EmploymentType = ptr(pick(g, []string{"full-time", "full-time", "full-time", "full-time", "full-time", "full-time", "Full Time", "FT", "contract", "part-time", "internship", "temporary"}))
	if strings.Contains(title, "Travel") {
		j.EmploymentType = ptr("contract")
	}
	if !g.chance(15) {
		j.ExperienceLevel = ptr(level(title, g))
	}
	g.salary(&j, o, c)
	j.Skills = some(g, o.skills, 2, 6)
	j.Tools = some(g, o.tools, 0, 4)
	j.TechnicalSkills = some(g, o.technical, 0, 3)
	j.SoftSkills = some(g, softSkills, 1, 4)
	j.Benefits = some(g, benefits, 0, 6)
	j.Certifications = some(g, o.certifications, 0, 2)
	j.Education = []string{}
	if o.education != "" {
		j.Education = []string{o.education}
	}
	j.EducationMajors = some(g, o.majors, 0, 2)
	j.VisaSponsorship = []string{}
	j.VisaRequirements = []string{}
	if o.sponsorable && g.chance(20) {
		j.VisaSponsorship = some(g, visas, 1, 3)
	} else if g.chance(10) {
		j.VisaRequirements = []string{pick(g, []string{"Must be authorized to work in the country of the role", "No visa sponsorship available", "US citizenship required"})}
	}
	if o.clearable && c.defense && g.chance(60) {
		cl := pick(g, clearances)
		j.SecurityClearances = []string{cl}
		j.ClearanceStatus = ptr(pick(g, []string{"Active", "Required", "Must be able to obtain"}))
		j.VisaRequirements = []string{"US citizenship required"}
	}
	if g.chance(70) {
		j.TravelPercent = ptr(float64(pick(g, []int{0, 0, 0, 5, 10, 10, 25, 50, 75})))
	}
	j.Responsibilities = g.sentences(responsibilityLines, 3, 6, title)
	j.RequiredQualifications = g.sentences(requiredLines, 2, 5, title)
	j.PreferredQualifications = g.sentences(preferredLines, 0, 3, title)
	if !g.chance(10) {
		j.Summary = ptr(fmt.Sprintf("%s is hiring a %s to %s.", c.name, title, pick(g, missions)))
	}
	raw := g.description(&j, c)
	j.DescriptionRaw = &raw
	return j
}

func level(title string, g *generator) string {
	switch {
	case strings.Contains(title, "Senior"), strings.Contains(title, "Sr."):
		return "senior"
	case strings.Contains(title, "Junior"):
		return "entry"
	case strings.Contains(title, "Lead"), strings.Contains(title, "Principal"), strings.Contains(title, "Staff"):
		return "lead"
	case strings.Contains(title, "Director"), strings.Contains(title, "Manager"):
		return "manager"
	}
	return pick(g, []string{"entry", "mid", "mid", "senior"})
}

func (g *generator) location(j *domain.Job, c company) {
	arr := pick(g, []string{"remote", "hybrid", "hybrid", "onsite", "onsite", "onsite", "on-site", ""})
	home := c.home
	if g.chance(40) {
		home = g.place()
	}
	text := func(p place) string {
		parts := []string{p.city}
		if p.state != "" {
			parts = append(parts, p.state)
		}
		if p.state == "" || g.chance(30) {
			parts = append(parts, p.country)
		}
		return strings.Join(parts, ", ")
	}
	switch {
	case arr == "remote" && g.chance(50):
		j.Location = domain.Location{Full: pick(g, []string{"Remote - US", "Remote in USA", "Remote, Canada", "Remote - UK", "Remote", "Anywhere", "Remote (Germany)"})}
	case g.chance(10):
		second := g.place()
		j.Location = domain.Location{Full: text(home) + "; " + text(second)}
		if g.chance(40) {
			j.Location.Full += "; " + text(g.place())
		}
	case g.chance(15):
		// Some sources give the parts rather than the text.
		j.Location = domain.Location{City: []string{home.city}, Country: []string{home.country}}
		if home.state != "" {
			j.Location.State = []string{home.state}
		}
	default:
		j.Location = domain.Location{Full: text(home)}
		if arr == "hybrid" && g.chance(30) {
			j.Location.Full = "Hybrid - " + j.Location.Full
		}
	}
	if arr != "" {
		j.WorkArrangement = ptr(domain.WorkArrangement(arr))
	}
}

func (g *generator) salary(j *domain.Job, o occupation, c company) {
	if g.chance(22) {
		return
	}
	country := c.home.country
	if len(j.Location.Country) > 0 {
		country = j.Location.Country[0]
	}
	for _, p := range places {
		if strings.HasPrefix(j.Location.Full, p.city) {
			country = p.country
			break
		}
	}
	cur, ok := currencies[country]
	if !ok {
		cur = currencies["USA"]
	}
	pay := o.pay
	period := pay.period
	lo := pay.low + g.rnd.Float64()*(pay.top-pay.low)*0.6
	hi := lo * (1.1 + g.rnd.Float64()*0.4)
	if period == "year" && cur.code == "EUR" && g.chance(30) {
		period, lo, hi = "month", lo/12, hi/12
	}
	round := func(v float64) float64 {
		v *= cur.rate
		switch {
		case v >= 10000:
			return math.Round(v/1000) * 1000
		case v >= 1000:
			return math.Round(v/50) * 50
		}
		return math.Round(v*4) / 4
	}
	s := &domain.Salary{Min: ptr(round(lo)), Currency: ptr(cur.code), Period: ptr(pick(g, periodSpellings[period]))}
	if !g.chance(10) {
		s.Max = ptr(round(hi))
	}
	j.Salary = s
}

var periodSpellings = map[string][]string{
	"year": {"annual", "annual", "yearly", "year"}, "month": {"monthly", "month"}, "week": {"weekly"},
	"day": {"daily", "day"}, "hour": {"hourly", "hour", "per hour"},
}

func (g *generator) sentences(lines []string, lo, hi int, title string) []string {
	out := some(g, lines, lo, hi)
	for i, s := range out {
		out[i] = strings.ReplaceAll(s, "{role}", strings.ToLower(title))
	}
	return out
}

// description renders the posting as HTML, as career sites publish it.
func (g *generator) description(j *domain.Job, c company) string {
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, "<h2>About %s</h2>\n<p>%s %s</p>\n", esc(c.name), esc(c.name), esc(pick(g, aboutLines)))
	fmt.Fprintf(&b, "<h2>The role</h2>\n<p>As a %s you will %s. %s</p>\n", esc(j.Title), esc(pick(g, missions)), esc(pick(g, teamLines)))
	list := func(head string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "<h3>%s</h3>\n<ul>\n", esc(head))
		for _, s := range items {
			fmt.Fprintf(&b, "  <li>%s</li>\n", esc(s))
		}
		b.WriteString("</ul>\n")
	}
	list("What you'll do", j.Responsibilities)
	list("What you'll bring", j.RequiredQualifications)
	list("Nice to have", j.PreferredQualifications)
	if len(j.Skills) > 0 {
		fmt.Fprintf(&b, "<p><strong>Our stack &amp; skills:</strong> %s.</p>\n", esc(strings.Join(j.Skills, ", ")))
	}
	if len(j.Education) > 0 {
		fmt.Fprintf(&b, "<p><strong>Education:</strong> %s.</p>\n", esc(j.Education[0]))
	}
	list("Benefits", j.Benefits)
	for range 2 + g.rnd.IntN(4) {
		fmt.Fprintf(&b, "<p>%s</p>\n", esc(pick(g, fillerParagraphs)))
	}
	b.WriteString("<p><em>We are an equal opportunity employer and value diversity at our company.</em></p>\n")
	return b.String()
}
