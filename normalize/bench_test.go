package normalize_test

import (
	"strings"
	"testing"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

var sampleHTML = strings.Repeat(`<h2>About Acme &amp; Co</h2>
<p>We build   software that helps small businesses run their operations. You will join a small team.</p>
<ul>
  <li>Design, build and maintain features used by thousands of customers</li>
  <li>Write clear documentation &amp; review the work of peers</li>
</ul>
<p><strong>Our stack:</strong> Go, PostgreSQL, Kubernetes.</p>
`, 6)

func BenchmarkHTMLText(b *testing.B) {
	b.SetBytes(int64(len(sampleHTML)))
	for b.Loop() {
		normalize.HTMLText(sampleHTML)
	}
}

func BenchmarkJob(b *testing.B) {
	n, err := normalize.New()
	if err != nil {
		b.Fatal(err)
	}
	str := func(s string) *string { return &s }
	job := domain.Job{ID: "bench-1", Title: "Senior Backend Engineer", Company: "Acme Cloud",
		Location: domain.Location{Full: "San Francisco, CA; New York, NY"}, DescriptionRaw: str(sampleHTML),
		Skills: []string{"golang", "k8s", "PostgreSQL", "reactjs"}, Tools: []string{"Docker", "Jira"},
		Benefits: []string{"401k", "dental", "PTO"}, Education: []string{"BS in Computer Science or a related field"},
		Salary: &domain.Salary{Min: new(float64), Period: str("yearly"), Currency: str("usd")}}
	for b.Loop() {
		if _, err := n.Job(job); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJobQuery(b *testing.B) {
	n, err := normalize.New()
	if err != nil {
		b.Fatal(err)
	}
	str := func(s string) *string { return &s }
	f := &domain.JobFilter{Skills: []string{"golang", "k8s"}, Location: str("San Francisco, CA"), Title: str("backend engineer"),
		WorkArrangement: []domain.WorkArrangement{"remote"}, EmploymentType: []string{"FT"}}
	for b.Loop() {
		if _, err := n.JobFilter(f); err != nil {
			b.Fatal(err)
		}
	}
}
