package store_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/normalize"
)

func TestRenormalize(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	digests, anyJob, err := e.st.Vocabularies(e.ctx)
	require.NoError(t, err)
	assert.True(t, anyJob)
	assert.Equal(t, []string{e.norm.Digest()}, digests, "the import records its vocabulary")
	jobs := e.count("SELECT count(*) FROM jobs")

	res, err := e.st.Renormalize(e.ctx, "other-vocabulary", e.norm.Rederive, nil)
	require.NoError(t, err)
	assert.Equal(t, jobs, res.Jobs, "every job is read")
	assert.Zero(t, res.Changed, "the same vocabularies derive the same records")
	digests, _, err = e.st.Vocabularies(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"other-vocabulary"}, digests, "renormalize leaves only its vocabulary")

	// A vocabulary that reads every job's skills as Rust changes every job.
	rusty := func(stored domain.Job, given []byte) (domain.JobRecord, error) {
		job, err := normalize.Given(stored, given)
		if err != nil {
			return domain.JobRecord{}, err
		}
		job.Skills = []string{"Rust"}
		return e.norm.Job(job)
	}
	res, err = e.st.Renormalize(e.ctx, "rusty", rusty, nil)
	require.NoError(t, err)
	assert.Equal(t, jobs, res.Changed)
	assert.Equal(t, jobs, e.count("SELECT count(*) FROM jobs"), "no job is lost")
	assert.Equal(t, jobs, e.count("SELECT count(*) FROM jobs WHERE 'Rust' = ANY(skills) AND filter_keys @> '{skills:rust}'"))
	assert.Zero(t, e.count("SELECT count(*) FROM companies c WHERE job_count <> (SELECT count(*) FROM jobs j WHERE j.company_id = c.id)"),
		"company counts stay exact")

	// A failure half-way leaves everything as it was.
	before := e.count("SELECT sum(length(filter_keys::text)) FROM jobs")
	seen := 0
	failing := func(stored domain.Job, given []byte) (domain.JobRecord, error) {
		if seen++; seen == jobs {
			return domain.JobRecord{}, errors.New("vocabulary broke")
		}
		stored.Skills = []string{"COBOL"}
		return e.norm.Job(stored)
	}
	_, err = e.st.Renormalize(e.ctx, "broken", failing, nil)
	require.ErrorContains(t, err, "vocabulary broke")
	assert.Equal(t, before, e.count("SELECT sum(length(filter_keys::text)) FROM jobs"), "nothing is half-written")
	assert.Zero(t, e.count("SELECT count(*) FROM jobs WHERE 'COBOL' = ANY(skills)"))
	digests, _, err = e.st.Vocabularies(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"rusty"}, digests)

	// An import adds its vocabulary to those recorded.
	_, err = e.importText(`{"id":"new-1","title":"Cook","company":"Diner"}`+"\n", importer.Options{})
	require.NoError(t, err)
	digests, _, err = e.st.Vocabularies(e.ctx)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"rusty", e.norm.Digest()}, digests)
}
