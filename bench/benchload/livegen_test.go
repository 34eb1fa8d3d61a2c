package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

var liveNow = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

func testGen(t *testing.T) *liveGen {
	t.Helper()
	g, err := newLiveGen(liveGenOptions{Run: "71", Crawl: 100, New: 4, Updates: 2, Batches: 3, CloseEvery: 10,
		Now: func() time.Time { return liveNow }})
	require.NoError(t, err)
	return g
}

// readJobs decodes NDJSON postings, checking that the importer's
// normalizer accepts each.
func readJobs(t *testing.T, b []byte) []domain.Job {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	var jobs []domain.Job
	for dec := json.NewDecoder(bytes.NewReader(b)); dec.More(); {
		var j domain.Job
		require.NoError(t, dec.Decode(&j))
		_, err := norm.Job(j)
		require.NoError(t, err, "posting %s", j.ID)
		jobs = append(jobs, j)
	}
	return jobs
}

func ids(jobs []domain.Job) map[string]domain.Job {
	m := map[string]domain.Job{}
	for _, j := range jobs {
		m[j.ID] = j
	}
	return m
}

func TestLiveGenCrawl(t *testing.T) {
	g := testGen(t)
	var buf bytes.Buffer
	require.NoError(t, g.WriteCrawl(&buf))
	crawl := readJobs(t, buf.Bytes())
	require.Len(t, crawl, 100)
	assert.Len(t, ids(crawl), 100, "ids are unique")
	for _, j := range crawl {
		require.NotNil(t, j.Source)
		assert.Equal(t, "livecrawl_71", *j.Source)
		assert.True(t, strings.HasPrefix(j.ID, "livecrawl_71-"), j.ID)
		assert.NotEmpty(t, j.Title)
		assert.True(t, strings.HasSuffix(j.Company, " via livecrawl 71"), j.Company)
		assert.NotEqual(t, " via livecrawl 71", j.Company)
	}
	assert.Equal(t, "/api/v1/jobs?limit=1&company=via+livecrawl+71", g.CrawlPath())
	assert.Equal(t, "livecrawl_71", g.Source())
	assert.Equal(t, 10, g.Closing())

	// The same run gives the same postings.
	var again bytes.Buffer
	require.NoError(t, testGen(t).WriteCrawl(&again))
	assert.Equal(t, buf.String(), again.String())
}

func TestLiveGenBatches(t *testing.T) {
	g := testGen(t)
	var crawlBuf bytes.Buffer
	require.NoError(t, g.WriteCrawl(&crawlBuf))
	crawl := ids(readJobs(t, crawlBuf.Bytes()))

	var markers []string
	updated := map[string]string{}
	for k := 1; k <= 3; k++ {
		var buf bytes.Buffer
		b, err := g.WriteBatch(&buf)
		require.NoError(t, err)
		jobs := readJobs(t, buf.Bytes())
		require.Len(t, jobs, 6)
		assert.Equal(t, k, b.Seq)
		assert.Len(t, b.New, 4)
		assert.Len(t, b.Updated, 2)
		for _, j := range jobs[:4] {
			assert.Contains(t, b.New, j.ID)
			assert.NotContains(t, crawl, j.ID, "a new posting's id is not the crawl's")
			assert.Equal(t, b.Marker, j.Company)
			require.NotNil(t, j.PostedAt)
			assert.Equal(t, liveNow.Format(time.RFC3339), *j.PostedAt)
			assert.NotEqual(t, "livecrawl_71", *j.Source, "new postings lie outside the snapshot's scope")
		}
		for _, j := range jobs[4:] {
			assert.Contains(t, b.Updated, j.ID)
			old, ok := crawl[j.ID]
			require.True(t, ok, "an update re-imports a crawl posting")
			assert.NotEqual(t, old.Title, j.Title)
			assert.True(t, strings.HasPrefix(j.Title, old.Title+", team "), j.Title)
			assert.Equal(t, old.Company, j.Company)
			updated[j.ID] = j.Title
		}
		for _, m := range markers {
			assert.NotContains(t, b.Marker, m)
			assert.NotContains(t, m, b.Marker)
		}
		markers = append(markers, b.Marker)
	}
	assert.Len(t, updated, 6, "each batch re-imports other postings")
	_, err := g.WriteBatch(&bytes.Buffer{})
	assert.Error(t, err, "generated for 3 batches")

	// The snapshot: the crawl as it now stands, without the 10% it closes.
	var buf bytes.Buffer
	require.NoError(t, g.WriteSnapshot(&buf))
	snap := ids(readJobs(t, buf.Bytes()))
	require.Len(t, snap, 90)
	closed := 0
	for id := range crawl {
		if _, ok := snap[id]; !ok {
			closed++
		}
	}
	assert.Equal(t, 10, closed)
	for id, title := range updated {
		require.Contains(t, snap, id, "updated postings are kept")
		assert.Equal(t, title, snap[id].Title)
	}
}

func TestNewLiveGenSizes(t *testing.T) {
	for _, o := range []liveGenOptions{
		{Run: "x1", Crawl: 10, New: 1, Batches: 1, CloseEvery: 10},
		{Run: "1", Crawl: 0, New: 1, Batches: 1, CloseEvery: 10},
		{Run: "1", Crawl: 10, New: 1, Batches: 1, CloseEvery: 1},
		{Run: "1", Crawl: 10, New: 1, Updates: 10, Batches: 1, CloseEvery: 10},
	} {
		_, err := newLiveGen(o)
		assert.Error(t, err, "%+v", o)
	}
}

func TestRetitle(t *testing.T) {
	assert.Equal(t, "Nurse, team 3", retitle("Nurse", 3))
	assert.Equal(t, "Nurse, team 4", retitle("Nurse, team 3", 4))
}
