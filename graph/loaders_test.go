package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

func TestEmployersOfAPageCostOneQuery(t *testing.T) {
	norm, err := normalize.New()
	require.NoError(t, err)
	var mu sync.Mutex
	var batches [][]int64
	st := &searchtest.Store{
		// A page of cards from five companies.
		FindJobCardsFunc: func(_ context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
			cards := make([]domain.JobCard, q.Limit)
			for i := range cards {
				cards[i] = domain.JobCard{ID: fmt.Sprintf("t-%d", i), Title: "Engineer", Company: "Co", CompanyID: int64(i%5 + 1),
					Location: domain.Location{City: []string{}, State: []string{}, Country: []string{}}}
			}
			return cards, 1000, nil, nil
		},
		// Counts the company queries.
		CompaniesByIDFunc: func(_ context.Context, ids []int64) (map[int64]*domain.Company, error) {
			mu.Lock()
			batches = append(batches, append([]int64(nil), ids...))
			mu.Unlock()
			out := map[int64]*domain.Company{}
			for _, id := range ids {
				out[id] = &domain.Company{Name: fmt.Sprintf("Company %d", id), JobCount: 20}
			}
			return out, nil
		},
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(graph.NewHandler(graph.NewResolver(search.New(norm, st), log), graph.HandlerOptions{}))
	defer srv.Close()

	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"query":"{ jobs(limit: 100) { nodes { id employer { name jobCount } } } }"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var body struct {
		Data struct {
			Jobs struct {
				Nodes []struct {
					ID       string
					Employer struct{ Name string }
				}
			}
		}
		Errors []any
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	require.Empty(t, body.Errors)
	require.Len(t, body.Data.Jobs.Nodes, 100)
	assert.Equal(t, "Company 1", body.Data.Jobs.Nodes[0].Employer.Name)
	assert.Equal(t, "Company 5", body.Data.Jobs.Nodes[99].Employer.Name)
	require.Len(t, batches, 1, "100 employers, one company query")
	assert.ElementsMatch(t, []int64{1, 2, 3, 4, 5}, batches[0])
}
