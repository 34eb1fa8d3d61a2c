package importer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// greenhouseJob is a job of the Greenhouse job-board API
// (boards-api.greenhouse.io/v1/boards/{board}/jobs?content=true), with the
// fields the import reads.
type greenhouseJob struct {
	ID             json.RawMessage `json:"id"`
	Title          string          `json:"title"`
	CompanyName    string          `json:"company_name"`
	UpdatedAt      string          `json:"updated_at"`
	FirstPublished string          `json:"first_published"`
	AbsoluteURL    string          `json:"absolute_url"`
	Content        string          `json:"content"`
	Location       *struct {
		Name string `json:"name"`
	} `json:"location"`
	Offices []struct {
		Name     string  `json:"name"`
		Location *string `json:"location"`
	} `json:"offices"`
	Metadata []struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	} `json:"metadata"`
	PayInputRanges []struct {
		MinCents     *float64 `json:"min_cents"`
		MaxCents     *float64 `json:"max_cents"`
		CurrencyType string   `json:"currency_type"`
		Title        string   `json:"title"`
		Blurb        string   `json:"blurb"`
	} `json:"pay_input_ranges"`
}

// splitGreenhouse yields the jobs of a Greenhouse answer: {"jobs": [...]},
// or a single job (the answer of /jobs/{id}).
func splitGreenhouse(r io.Reader, yield func(record) error) error {
	return splitJSONList(r, "jobs", "title", yield)
}

// mapGreenhouse maps a Greenhouse job onto a posting (see the README's
// table). The job board API gives no closing or expiry date; a board's
// custom field (metadata) named like one (greenhouseValidThrough) is read
// as valid_through when its value is a date.
func mapGreenhouse(data []byte, m *mapper) (entry, error) {
	var g greenhouseJob
	if err := decodeRecord(data, &g); err != nil {
		return entry{}, err
	}
	job, err := m.greenhouseJob(g)
	return entry{job: job, validThrough: greenhouseValidThrough(g)}, err
}

// greenhouseJob maps a Greenhouse job onto a job.
func (m *mapper) greenhouseJob(g greenhouseJob) (domain.Job, error) {
	var job domain.Job
	raw := strings.Trim(string(g.ID), `"`) // a number, or a string of one
	id, ok := numberID(formatGreenhouse, raw)
	if !ok {
		return job, fmt.Errorf("id %s is not a Greenhouse job id (a number)", cmp.Or(string(g.ID), "(none)"))
	}
	job.ID = id
	job.Title = text(g.Title)
	job.Company = text(g.CompanyName)
	job.URL = ptr(g.AbsoluteURL)
	job.PostedAt = dateTime(g.FirstPublished)
	if job.PostedAt == nil {
		job.PostedAt = dateTime(g.UpdatedAt)
	}

	locations := []string{}
	if g.Location != nil {
		locations = append(locations, g.Location.Name)
	}
	for _, o := range g.Offices {
		if o.Location != nil {
			locations = append(locations, *o.Location)
		}
	}
	job.Location.Full = places(locations...)

	for _, md := range g.Metadata {
		value, isText := md.Value.(string)
		if !isText {
			continue
		}
		name := strings.ToLower(md.Name)
		switch {
		case job.EmploymentType == nil && (strings.Contains(name, "employment type") || strings.Contains(name, "job type")):
			if t, ok := m.n.EmploymentType(value); ok {
				job.EmploymentType = &t
			}
		case job.WorkArrangement == nil && (strings.Contains(name, "remote") || strings.Contains(name, "workplace") ||
			strings.Contains(name, "work arrangement") || strings.Contains(name, "location type")):
			if w, ok := m.n.WorkArrangement(value); ok {
				job.WorkArrangement = &w
			}
		}
	}

	if len(g.PayInputRanges) > 0 {
		p := g.PayInputRanges[0]
		s := domain.Salary{Currency: ptr(p.CurrencyType)}
		if p.MinCents != nil {
			v := *p.MinCents / 100
			s.Min = &v
		}
		if p.MaxCents != nil {
			v := *p.MaxCents / 100
			s.Max = &v
		}
		if per := greenhousePeriod(p.Title + " " + p.Blurb); per != "" {
			s.Period = &per
		}
		if s.Min != nil || s.Max != nil {
			job.Salary = &s
		}
	}

	// content is HTML-escaped HTML: unescaped once, it is the HTML.
	content := strings.TrimSpace(html.UnescapeString(g.Content))
	job.DescriptionRaw = ptr(content)
	plain := descriptionText(content)
	job.Description = ptr(plain)
	m.fillFromText(&job, plain)
	return job, nil
}

// greenhouseValidThrough returns the value of the first custom field
// (metadata) whose name says it is when the posting closes ("Application
// Deadline", "Posting Close Date", "Expiration Date") and whose value is
// a date or date-time normalize.ParseValidThrough reads; nil when there
// is none. Custom fields are free text, so a value that is no date is
// passed over rather than made the record's error.
func greenhouseValidThrough(g greenhouseJob) *string {
	for _, md := range g.Metadata {
		value, isText := md.Value.(string)
		if !isText || !closingFieldName(md.Name) {
			continue
		}
		if _, err := normalize.ParseValidThrough(value); err == nil {
			return ptr(value)
		}
	}
	return nil
}

// closingFieldName reports whether a custom field's name says it holds
// when a posting closes.
func closingFieldName(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"deadline", "close date", "closing date", "expiration", "expiry", "expires", "valid through"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// greenhousePeriod reads the period of a Greenhouse pay range from its
// title and blurb ("Hourly Pay Range", "Annual Base Salary", "Base
// Salary" is annual); "" when they do not say.
func greenhousePeriod(s string) string {
	s = strings.ToLower(s)
	switch {
	case strings.Contains(s, "hour"):
		return "hourly"
	case strings.Contains(s, "daily") || strings.Contains(s, "per day"):
		return "daily"
	case strings.Contains(s, "week"):
		return "weekly"
	case strings.Contains(s, "month"):
		return "monthly"
	case strings.Contains(s, "annual") || strings.Contains(s, "year") || strings.Contains(s, "salary"):
		return "annual"
	}
	return ""
}
