package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/seed"
)

// liveGen makes the import files of the live scenario from the seed
// generator's postings, so that they look like the loaded data: a crawled
// source prepared before the phases, the 50-posting imports of the live
// phase, and the snapshot of the crawled source that closes part of it.
//
// Everything it writes is named after the run (ids, the crawled source,
// the marker companies), so that a run never meets an earlier run's
// postings even on the same database.
type liveGen struct {
	run    string
	source string
	// newPer and updatesPer are a batch's new and re-imported postings.
	newPer, updatesPer int
	// closeEvery: the snapshot leaves out every closeEvery-th posting of
	// the crawl (10: 10% of it).
	closeEvery int
	now        func() time.Time

	mu sync.Mutex
	// crawl is the crawled source's postings as last written.
	crawl []domain.Job
	// fresh are generated postings not used yet, for new ones.
	fresh []domain.Job
	// batches counts the batches made; updated counts crawl postings
	// re-imported so far (the next to re-import is the next kept one).
	batches, updated int
}

// liveGenOptions size the generator.
type liveGenOptions struct {
	Run        string // names the run: up to 12 digits (ids are <source>-<number>)
	Crawl      int    // postings of the crawled source (10,000)
	New        int    // new postings per batch (40)
	Updates    int    // re-imported postings per batch (10)
	Batches    int    // batches to have new postings for
	CloseEvery int    // the snapshot leaves out every CloseEvery-th crawl posting (10)
	Now        func() time.Time
}

// newLiveGen generates the crawl and enough postings for opts.Batches
// batches with the seed generator, seeded from the run's name.
func newLiveGen(opts liveGenOptions) (*liveGen, error) {
	if opts.Crawl < 1 || opts.New < 1 || opts.New > 1000 || opts.Batches > 99999 || opts.Updates < 0 || opts.Batches < 1 || opts.CloseEvery < 2 {
		return nil, fmt.Errorf("live generator: crawl %d, new %d, updates %d, batches %d, close every %d: want positive sizes and close every ≥ 2",
			opts.Crawl, opts.New, opts.Updates, opts.Batches, opts.CloseEvery)
	}
	if opts.Updates > opts.Crawl-opts.Crawl/opts.CloseEvery {
		return nil, fmt.Errorf("live generator: %d updates a batch, more than the %d crawl postings the snapshot keeps", opts.Updates, opts.Crawl-opts.Crawl/opts.CloseEvery)
	}
	if !runRE.MatchString(opts.Run) {
		return nil, fmt.Errorf("live generator: run %q: want 1 to 12 digits", opts.Run)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	jobs, err := seededJobs(opts.Run, opts.Crawl+opts.New*opts.Batches)
	if err != nil {
		return nil, fmt.Errorf("live generator: %w", err)
	}
	g := &liveGen{run: opts.Run, source: "livecrawl_" + opts.Run, newPer: opts.New, updatesPer: opts.Updates,
		closeEvery: opts.CloseEvery, now: opts.Now, crawl: jobs[:opts.Crawl], fresh: jobs[opts.Crawl:]}
	for i := range g.crawl {
		j := &g.crawl[i]
		j.ID = fmt.Sprintf("%s-%d", g.source, i)
		j.Source = ptr(g.source)
		j.URL = ptr(fmt.Sprintf("https://jobs.example.com/%s/%d", g.source, i))
		j.Company += " " + g.crawlMarker()
	}
	return g, nil
}

// seededJobs returns n of the seed generator's postings, seeded from the
// run's name, with as many companies as the loaded data has from 80,000
// postings up.
func seededJobs(run string, n int) ([]domain.Job, error) {
	h := fnv.New64a()
	h.Write([]byte(run))
	var buf bytes.Buffer
	if err := seed.Write(&buf, seed.Options{N: n, Seed: h.Sum64(), Companies: 2000}); err != nil {
		return nil, err
	}
	var jobs []domain.Job
	for dec := json.NewDecoder(&buf); dec.More(); {
		var j domain.Job
		if err := dec.Decode(&j); err != nil {
			return nil, fmt.Errorf("read posting %d: %w", len(jobs), err)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// runRE is a run's name: digits, as the number of the ids it makes.
var runRE = regexp.MustCompile(`^[0-9]{1,12}$`)

func ptr[T any](v T) *T { return &v }

// crawlMarker ends the company names of the crawl's postings: their
// companies are the seed generator's, each its own company, and the
// marker makes the crawl's total one company filter away.
func (g *liveGen) crawlMarker() string { return "via livecrawl " + g.run }

// CrawlPath is the REST list whose meta.total counts the crawl's open
// postings.
func (g *liveGen) CrawlPath() string {
	return "/api/v1/jobs?limit=1&company=" + url.QueryEscape(g.crawlMarker())
}

// Source is the crawled source's name, the snapshot's --source.
func (g *liveGen) Source() string { return g.source }

// closes says whether the snapshot leaves out crawl posting i.
func (g *liveGen) closes(i int) bool { return i%g.closeEvery == g.closeEvery-1 }

// Closing is how many crawl postings the snapshot closes.
func (g *liveGen) Closing() int { return len(g.crawl) / g.closeEvery }

// WriteCrawl writes the crawled source's postings, to import before the
// phases.
func (g *liveGen) WriteCrawl(w io.Writer) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return writeJobs(w, g.crawl, nil)
}

// WriteSnapshot writes the crawl as it now stands without the postings it
// closes: the complete list of the source's open postings after the crawl.
func (g *liveGen) WriteSnapshot(w io.Writer) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return writeJobs(w, g.crawl, g.closes)
}

// batch is one 50-posting import: its marker company, which only its new
// postings have, and the ids it opens and updates.
type batch struct {
	Seq     int
	Marker  string
	New     []string
	Updated []string
}

// marker is the company of batch k's new postings: unique to the run and
// the batch, and no substring of another batch's (fixed width).
func (g *liveGen) marker(k int) string { return fmt.Sprintf("Livebench %s %05d", g.run, k) }

// WriteBatch writes the next batch: New postings of the batch's marker
// company, posted now, and Updates postings of the crawl (among those the
// snapshot keeps, in turn) written again with a changed title.
func (g *liveGen) WriteBatch(w io.Writer) (batch, error) {
	return g.WriteBatchClosing(w, nil)
}

// WriteBatchClosing writes the next batch as WriteBatch does, followed by
// a tombstone of each of the ids closing (an earlier batch's postings).
func (g *liveGen) WriteBatchClosing(w io.Writer, closing []string) (batch, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.fresh) < g.newPer {
		return batch{}, fmt.Errorf("live generator: no postings left for batch %d (generated for %d)", g.batches+1, g.batches)
	}
	g.batches++
	b := batch{Seq: g.batches, Marker: g.marker(g.batches)}
	posted := g.now().UTC().Truncate(time.Second).Format(time.RFC3339)
	jobs := make([]domain.Job, 0, g.newPer+g.updatesPer)
	for i, j := range g.fresh[:g.newPer] {
		source := "greenhouse"
		if j.Source != nil {
			source = *j.Source
		}
		// Far above the seed's numbers (100000 up): 9, the run, the batch, i.
		j.ID = fmt.Sprintf("%s-9%s%05d%03d", source, g.run, b.Seq, i)
		j.URL = ptr(fmt.Sprintf("https://jobs.example.com/%s", strings.Replace(j.ID, "-", "/", 1)))
		j.Company = b.Marker
		j.PostedAt = ptr(posted)
		jobs = append(jobs, j)
		b.New = append(b.New, j.ID)
	}
	g.fresh = g.fresh[g.newPer:]
	for range g.updatesPer {
		i := g.nextKept()
		j := &g.crawl[i]
		j.Title = retitle(j.Title, b.Seq)
		jobs = append(jobs, *j)
		b.Updated = append(b.Updated, j.ID)
	}
	if err := writeJobs(w, jobs, nil); err != nil {
		return b, err
	}
	for _, id := range closing {
		if _, err := fmt.Fprintf(w, "{\"id\":%q,\"closed\":true}\n", id); err != nil {
			return b, fmt.Errorf("write tombstone %s: %w", id, err)
		}
	}
	return b, nil
}

// nextKept returns the index of the next crawl posting to re-import: the
// crawl's postings the snapshot keeps, in turn.
func (g *liveGen) nextKept() int {
	kept := g.closeEvery - 1 // per closeEvery postings
	n := g.updated % (len(g.crawl) - g.Closing())
	g.updated++
	return n/kept*g.closeEvery + n%kept
}

// retitle is title as batch k changes it: a team named after the batch,
// replacing the one an earlier batch gave.
func retitle(title string, k int) string {
	if i := strings.LastIndex(title, ", team "); i >= 0 {
		title = title[:i]
	}
	return fmt.Sprintf("%s, team %d", title, k)
}

// writeJobs writes jobs as NDJSON in the import format, leaving out those
// whose index skip accepts.
func writeJobs(w io.Writer, jobs []domain.Job, skip func(int) bool) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range jobs {
		if skip != nil && skip(i) {
			continue
		}
		if err := enc.Encode(&jobs[i]); err != nil {
			return fmt.Errorf("write posting %s: %w", jobs[i].ID, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write postings: %w", err)
	}
	return nil
}
