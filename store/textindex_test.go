package store_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph/model"
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
		ids, _, _ := e.ids(model.JobFilter{Q: &words}, nil, nil, nil, nil)
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
	line, err := json.Marshal(map[string]any{"id": "ti-3", "title": "Archivist", "company": "Ti", "description": huge.String()})
	require.NoError(t, err)
	_, err = e.importText(string(line)+"\n"+`{"id":"ti-4","title":"Librarian","company":"Ti","description":"Catalogue the zettel boxes."}`, importer.Options{})
	require.NoError(t, err)
	n, err = e.st.IndexTexts(e.ctx, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"ti-3"}, q("w0000001"), "the start of a huge description")
	assert.Empty(t, q("w0119999"), "past maxIndexedDescription")
	assert.Equal(t, []string{"ti-4"}, q("zettel"), "the job after it is indexed too")
}
