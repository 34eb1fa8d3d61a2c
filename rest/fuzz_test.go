package rest_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/rest"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

func newRouter(t testing.TB) http.Handler {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return rest.NewRouter(search.New(norm, &searchtest.Store{}), log)
}

// FuzzJobsQuery sends any query string to GET /jobs: the answer is 200 or
// 400 with a JSON body, never 500 and never a panic.
func FuzzJobsQuery(f *testing.F) {
	for _, seed := range []string{
		"", "skills=golang,k8s&city=SF", "limit=0", "limit=99999999999999999999", "offset=-1",
		"salary_min=NaN", "salary_min=1e400", "salary_max=-0", "title=nurse&job_title=engineer",
		"location=Remote%20-%20US", "work_arrangement=on-site,%FF", "company=%27%3B%20DROP%20TABLE%20jobs%3B--",
		"skills=" + string(make([]byte, 200)), "cursor=eyJzIjoibmV3ZXN0In0", "sort=relevance&q=go", "city=%00",
		"q=%22senior%20go%22%20-java", "employment_type=FT,PT,gig", "foo=bar",
	} {
		f.Add(seed)
	}
	router := newRouter(f)
	f.Fuzz(func(t *testing.T, raw string) {
		req := httptest.NewRequest(http.MethodGet, "/jobs", nil)
		req.URL.RawQuery = raw
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
			t.Fatalf("GET /jobs?%s → %d: %s", raw, rec.Code, rec.Body)
		}
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("GET /jobs?%s → not JSON: %v", raw, err)
		}
		if rec.Code == http.StatusBadRequest {
			e, _ := body["error"].(map[string]any)
			if e["code"] != domain.CodeInvalidParameter && e["code"] != domain.CodeUnknownParameter {
				t.Fatalf("GET /jobs?%s → 400 with code %v", raw, e["code"])
			}
		}
	})
}

// FuzzJobID sends any id to GET /jobs/{id}: 400 or 404, never 500.
func FuzzJobID(f *testing.F) {
	for _, seed := range []string{"test-1", "Bad Id", "a-", "-1", "x-99999999999999999999999", "%00", "é-1"} {
		f.Add(seed)
	}
	router := newRouter(f)
	f.Fuzz(func(t *testing.T, id string) {
		req := httptest.NewRequest(http.MethodGet, "/jobs/x", nil)
		req.URL.Path = "/jobs/" + id
		req.URL.RawPath = "/jobs/" + url.PathEscape(id)
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("GET /jobs/%q → %d: %s", id, rec.Code, rec.Body)
		}
	})
}
