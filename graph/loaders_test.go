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

	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/graph/model"
	"github.com/jobsd-dev/jobsd/normalize"
)

// pageStore answers job lists with a page of cards from five companies and
// counts the company queries.
type pageStore struct {
	mu      sync.Mutex
	batches [][]int64
}

func (s *pageStore) FindJobCards(_ context.Context, q model.JobQuery) ([]model.JobCard, int, *model.Cursor, error) {
	cards := make([]model.JobCard, q.Limit)
	for i := range cards {
		cards[i] = model.JobCard{ID: fmt.Sprintf("t-%d", i), Title: "Engineer", Company: "Co", CompanyID: int64(i%5 + 1),
			Location: model.Location{City: []string{}, State: []string{}, Country: []string{}}}
	}
	return cards, 1000, nil, nil
}

func (s *pageStore) JobByID(_ context.Context, id string) (*model.Job, error) {
	return nil, model.Errorf(model.CodeNotFound, "no job %s", id)
}

func (s *pageStore) Companies(context.Context, model.CompanyQuery) ([]model.Company, int, error) {
	return nil, 0, nil
}

func (s *pageStore) CompanyBySlug(_ context.Context, slug string) (*model.CompanyProfile, error) {
	return nil, model.Errorf(model.CodeNotFound, "no company %s", slug)
}

func (s *pageStore) SimilarJobs(_ context.Context, id string, _ int) ([]model.JobCard, int, error) {
	return nil, 0, nil
}

func (s *pageStore) Facets(context.Context, model.JobQuery, []string, int) ([]model.Facet, error) {
	return nil, nil
}

func (s *pageStore) CompaniesByID(_ context.Context, ids []int64) (map[int64]*model.Company, error) {
	s.mu.Lock()
	s.batches = append(s.batches, append([]int64(nil), ids...))
	s.mu.Unlock()
	out := map[int64]*model.Company{}
	for _, id := range ids {
		out[id] = &model.Company{Name: fmt.Sprintf("Company %d", id), JobCount: 20}
	}
	return out, nil
}

func TestEmployersOfAPageCostOneQuery(t *testing.T) {
	norm, err := normalize.New()
	require.NoError(t, err)
	st := &pageStore{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(graph.NewHandler(graph.NewResolver(norm, st, log), graph.HandlerOptions{}))
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
	require.Len(t, st.batches, 1, "100 employers, one company query")
	assert.ElementsMatch(t, []int64{1, 2, 3, 4, 5}, st.batches[0])
}
