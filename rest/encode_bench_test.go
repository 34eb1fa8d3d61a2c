package rest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
)

// The JSON encoding of REST answers the way the handlers write them
// (writeJSON of an envelope), on postings of the demo generator normalized
// as an import stores them. The middleware's gzip and ETag are not part of
// it. Run with: go test -run '^$' -bench . -benchmem ./rest

// benchJobs returns n generated postings as jobsd serves them.
func benchJobs(b testing.TB, n int) []domain.Job {
	b.Helper()
	norm, err := normalize.New()
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := seed.Normalized(seed.Options{N: n, Seed: 1}, norm)
	if err != nil {
		b.Fatal(err)
	}
	return jobs
}

// discard is a ResponseWriter that only counts the body's bytes.
type discard struct {
	header http.Header
	n      int
}

func (w *discard) Header() http.Header         { return w.header }
func (w *discard) WriteHeader(int)             {}
func (w *discard) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// benchWrite times writeJSON of v; bytes per second are the body's.
func benchWrite(b *testing.B, path string, v any) {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	w := &discard{header: http.Header{}}
	writeJSON(w, r, http.StatusOK, v)
	size := w.n
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		w.n = 0
		writeJSON(w, r, http.StatusOK, v)
	}
	b.ReportMetric(float64(size), "body-bytes")
}

// BenchmarkEncodeCardPage encodes GET /jobs?limit=100: 100 cards and the
// meta of a filtered list (total, cursor, how the filters were read).
func BenchmarkEncodeCardPage(b *testing.B) {
	jobs := benchJobs(b, 100)
	cards := make([]domain.JobCard, len(jobs))
	for i := range jobs {
		cards[i] = jobs[i].Card()
	}
	last := cards[len(cards)-1]
	cursor := domain.Cursor{Sort: domain.JobSortNewest, Time: seed.Reference, ID: last.ID, Offset: len(cards)}.Encode()
	m := &meta{Total: 41234, Limit: 100, Offset: 0, HasMore: true, NextCursor: &cursor,
		Normalized: &domain.NormalizedFilter{Skills: []string{"Go", "Kubernetes"}, City: []string{"San Francisco"}}}
	benchWrite(b, "/api/v1/jobs?skills=golang,k8s&city=SF&limit=100", envelope{Data: cards, Meta: m})
}

// BenchmarkEncodeJob encodes GET /jobs/{id}: one full record, with its
// plain and HTML descriptions.
func BenchmarkEncodeJob(b *testing.B) {
	job := benchJobs(b, 1)[0]
	benchWrite(b, "/api/v1/jobs/"+job.ID, envelope{Data: &job})
}
