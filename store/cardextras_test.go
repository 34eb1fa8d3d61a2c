package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// TestCardExtras: a job list reads the cards' list extras (posted_at,
// company_logo, summary) only when its query asks for them, in SQL and
// through the index alike, and they are the job's own.
func TestCardExtras(t *testing.T) {
	e, indexed, _ := indexedEnv(t, 200)
	for _, sort := range []domain.JobSort{domain.JobSortNewest, domain.JobSortSalaryAsc} {
		limit := 30
		q, err := search.ReadJobQuery(e.norm, &domain.JobFilter{}, search.Page{Limit: &limit}, &sort)
		require.NoError(t, err)

		plain, _, _, err := indexed.FindJobCards(e.ctx, q)
		require.NoError(t, err)
		require.Len(t, plain, limit)
		for _, c := range plain {
			assert.Nil(t, c.PostedAt, "%s: not asked for", c.ID)
			assert.Nil(t, c.CompanyLogo, "%s: not asked for", c.ID)
			assert.Nil(t, c.Summary, "%s: not asked for", c.ID)
		}

		q.CardExtras = true
		requireSamePages(t, e, indexed, q, "extras, sort "+string(sort))
		cards, _, _, err := indexed.FindJobCards(e.ctx, q)
		require.NoError(t, err)
		require.Equal(t, cardIDs(plain), cardIDs(cards), "the same page")
		var summaries int
		for i, c := range cards {
			job, err := e.st.JobByID(e.ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, job.PostedAt, c.PostedAt, "%s: posted_at", c.ID)
			assert.Equal(t, job.CompanyLogo, c.CompanyLogo, "%s: company_logo", c.ID)
			assert.Equal(t, job.Summary, c.Summary, "%s: summary", c.ID)
			if c.Summary != nil {
				summaries++
			}
			c.PostedAt, c.CompanyLogo, c.Summary = nil, nil, nil
			assert.Equal(t, plain[i], c, "%s: the other fields as without extras", c.ID)
		}
		assert.NotZero(t, summaries, "the seed writes summaries")
	}

	similar, _, err := e.st.SimilarJobs(e.ctx, "test-1", 10, true)
	require.NoError(t, err)
	require.NotEmpty(t, similar)
	for _, c := range similar {
		job, err := e.st.JobByID(e.ctx, c.ID)
		require.NoError(t, err)
		assert.Equal(t, job.Card(), c, "%s: a similar job's card with extras", c.ID)
	}
}
