package importer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
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

// mapGreenhouse maps a Greenhouse job onto a job (see the README's table).
func mapGreenhouse(data []byte, m *mapper) (domain.Job, error) {
	var g greenhouseJob
	if err := decodeRecord(data, &g); err != nil {
		return domain.Job{}, err
	}
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
