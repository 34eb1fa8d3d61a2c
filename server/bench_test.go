package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/seed"
)

// The cost of the layers above the store, REST against GraphQL: the same
// page of 25 generated cards (or one job) served through the whole
// handler (auth, limits, gzip off, ETag, JSON), the store answering from
// memory. GraphQL's layers are to cost at most 1.3× REST's; the store's
// share is the same for both and measured by make bench. Run with:
//   go test -run '^$' -bench . -benchmem ./server

func benchHandler(b *testing.B) (http.Handler, string) {
	b.Helper()
	norm, err := normalize.New()
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := seed.Normalized(seed.Options{N: 25, Seed: 1}, norm)
	if err != nil {
		b.Fatal(err)
	}
	var cards []domain.JobCard
	for i := range jobs {
		jobs[i].CompanyID = int64(i + 1)
		cards = append(cards, jobs[i].Card())
	}
	return newHandler(b, &searchtest.Store{
		FindJobCardsFunc: func(context.Context, domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
			return cards, 1000, make([]domain.Cursor, len(cards)), nil
		},
		JobByIDFunc: func(context.Context, string) (*domain.Job, error) { return &jobs[0], nil },
	}, slog.New(slog.NewJSONHandler(io.Discard, nil)), 1e9)
}

func benchServe(b *testing.B, h http.Handler, newRequest func() *http.Request) {
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newRequest())
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

const benchCardFields = `id title company location { city state country full } workArrangement employmentType ` +
	`salary { min max currency period } category { field role specialization }`

func graphQLRequest(key, query string) func() *http.Request {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": map[string]any{"filter": map[string]any{"skills": []string{"go"}}}})
	return func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("x-api-key", key)
		return r
	}
}

func restRequest(key, path string) func() *http.Request {
	return func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("x-api-key", key)
		return r
	}
}

func BenchmarkListREST(b *testing.B) {
	h, key := benchHandler(b)
	benchServe(b, h, restRequest(key, "/api/v1/jobs?skills=go&limit=25"))
}

func BenchmarkListGraphQL(b *testing.B) {
	h, key := benchHandler(b)
	benchServe(b, h, graphQLRequest(key, `query Jobs($filter: JobFilter) { jobs(filter: $filter, limit: 25) { nodes { `+
		benchCardFields+` } pageInfo { total limit offset hasMore endCursor } } }`))
}

func BenchmarkJobREST(b *testing.B) {
	h, key := benchHandler(b)
	benchServe(b, h, restRequest(key, "/api/v1/jobs/src-1"))
}

func BenchmarkJobGraphQL(b *testing.B) {
	h, key := benchHandler(b)
	benchServe(b, h, graphQLRequest(key, `{ job(id: "src-1") { id title company companyLogo url postedAt `+
		`location { city state country full } workArrangement employmentType experienceLevel `+
		`salary { min max currency period } summary description descriptionRaw responsibilities `+
		`requiredQualifications preferredQualifications skills tools softSkills technicalSkills benefits `+
		`education educationLevels educationMajors certifications visaSponsorship visaRequirements `+
		`securityClearances clearanceStatus travelPercent source category { field role specialization } } }`))
}
