package store_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
)

// TestTextIndex: descriptions are found by q once indexed; a replaced job
// loses its indexed text with the old record, is found by its other words
// meanwhile, and is indexed anew.
func TestTextIndex(t *testing.T) {
	e := newEnv(t)
	_, err := e.importText(`{"id":"ti-1","title":"Operator","company":"Ti","description":"Run the Kafka clusters."}
{"id":"ti-2","title":"Kafka Operator","company":"Ti","description":"Run the Pulsar clusters."}`, importer.Options{})
	require.NoError(t, err)
	q := func(words string) []string {
		ids, _, _ := e.ids(domain.JobFilter{Q: &words}, nil, nil, nil, nil)
		return ids
	}
	assert.Equal(t, []string{"ti-2"}, q("kafka"), "descriptions wait for the text index")
	assert.Zero(t, e.count("SELECT count(*) FROM job_texts"), "nothing indexed at import")

	n, err := e.st.IndexTexts(e.ctx, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"ti-2", "ti-1"}, q("kafka"), "the title's match ranks first")
	assert.Equal(t, []string{"ti-2"}, q("pulsar"))
	assert.Equal(t, []string{"ti-2"}, q("kafka pulsar"), "the whole document of a job answers: title and description words together")
	assert.Equal(t, []string{"ti-2"}, q("kafka -\"run the kafka\""), "a phrase of the description excludes")
	n, err = e.st.IndexTexts(e.ctx, 2, nil)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing left")

	_, err = e.importText(`{"id":"ti-2","title":"Kafka Operator","company":"Ti","description":"Run the RabbitMQ clusters."}`, importer.Options{})
	require.NoError(t, err)
	assert.Empty(t, q("pulsar"), "the old description went with the old record")
	assert.Equal(t, []string{"ti-2", "ti-1"}, q("kafka"), "the replaced job is found by its title meanwhile")
	n, err = e.st.IndexTexts(e.ctx, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, []string{"ti-2"}, q("rabbitmq"))
	assert.Equal(t, 2, e.count("SELECT count(*) FROM job_texts"))

	// A description whose whole tsvector would pass PostgreSQL's 1 MB is
	// read up to maxIndexedDescription, and indexing goes on past it.
	var huge strings.Builder
	for i := range 120_000 {
		fmt.Fprintf(&huge, "w%07d ", i)
	}
	// The import's own bounds refuse such a record: it is written to the
	// store directly, as a database filled otherwise may hold it.
	im, err := e.st.BeginImport(e.ctx)
	require.NoError(t, err)
	require.NoError(t, im.Write(e.ctx, []domain.JobRecord{
		{Job: domain.Job{ID: "ti-3", Title: "Archivist", Company: "Ti", Description: ptr(huge.String())}},
		{Job: domain.Job{ID: "ti-4", Title: "Librarian", Company: "Ti", Description: ptr("Catalogue the zettel boxes.")}},
	}))
	require.NoError(t, im.Commit(e.ctx))
	n, err = e.st.IndexTexts(e.ctx, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"ti-3"}, q("w0000001"), "the start of a huge description")
	assert.Empty(t, q("w0119999"), "past maxIndexedDescription")
	assert.Equal(t, []string{"ti-4"}, q("zettel"), "the job after it is indexed too")
}
