package main_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// demoService starts jobsd serve --demo over n seeded demo jobs, with the
// demo key in the page, and closes one job; it returns the service and
// the closed job's id.
func demoService(t *testing.T, n int) (*service, string) {
	t.Helper()
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	jobsd(t, dsn, "seed", "--n", strconv.Itoa(n))
	key := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "demo", "--rate", "100000", "--burst", "100000"))
	s := startServiceWith(t, dsn, []string{"--demo"}, "JOBSD_PLAYGROUND_KEY="+key)
	s.key = key
	// The oldest posting, closed by a
	// tombstone: the page must show it as closed.
	status, body, _ := s.get(t, "/api/v1/jobs?limit=1&sort=oldest")
	require.Equal(t, http.StatusOK, status, body)
	closed := ids(body["data"])[0]
	_, errOut, err := runJobsd(dsn, strings.NewReader(fmt.Sprintf(`{"id": %q, "closed": true, "closed_at": "2026-11-20T10:00:00Z"}`+"\n", closed)), "import", "-")
	require.NoError(t, err, errOut)
	return s, closed
}

// pageWaiter returns a function that polls a JavaScript condition on the
// browser's page, failing the test with what the page shows when it never
// holds within 20 s.
func pageWaiter(t *testing.T, ctx context.Context) func(cond, what string) {
	return func(cond, what string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second)))
		if err != nil {
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("%s: %v; the page shows:\n%s", what, err, text)
		}
	}
}

// TestDemoPageServedOnlyWithDemo: /demo exists with --demo, carries the
// key, and is 404 without it; --demo without a key is a usage error.
func TestDemoPageServedOnlyWithDemo(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	plain := startServiceOn(t, dsn)
	res, err := http.Get(plain.base + "/demo/")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode, "no /demo without --demo")

	demo := startServiceWith(t, dsn, []string{"--demo"}, "JOBSD_PLAYGROUND_KEY=jobsd_demo-key")
	for path, want := range map[string]string{
		"/demo":           `<meta name="jobsd-api-key" content="jobsd_demo-key">`,
		"/demo/app.js":    "IntersectionObserver",
		"/demo/style.css": ".cards",
	} {
		res, err := http.Get(demo.base + path)
		require.NoError(t, err)
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Contains(t, string(b), want, path)
	}

	_, errOut, err := runJobsd(dsn, nil, "serve", "--addr", "127.0.0.1:0", "--demo")
	require.Error(t, err)
	assert.Contains(t, errOut, "--demo (JOBSD_DEMO) serves a search page that sends the --playground-key")
}

// TestDemoPageInBrowser drives the reference search page in headless
// Chromium on the real binary: it types "golang SF", sees results and the
// total, scrolls to the second page, narrows by a facet value, opens a
// job, and opens a closed job. It saves a screenshot of the results (and
// writes docs/demo.png when JOBSD_UPDATE_SCREENSHOT=1).
func TestDemoPageInBrowser(t *testing.T) {
	browser := chromiumOrSkip(t, "the search page's browser test")
	s, closed := demoService(t, 4000)
	ctx := newBrowser(t, browser, 1200, 900)
	step := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, actions...))
	}
	waitFor := pageWaiter(t, ctx)
	eval := func(expr string) int {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		require.NoError(t, err, expr)
		return v
	}
	const cards = `document.querySelectorAll('#cards .card').length`
	const total = `Number(document.getElementById('status').dataset.total || -1)`

	step(chromedp.Navigate(s.base+"/demo"), chromedp.WaitVisible("#box"))
	waitFor(total+` >= 0`, "the page lists all jobs on load")
	all := eval(total)
	step(chromedp.SendKeys("#box", "golang SF"), chromedp.Click(`#search button[type=submit]`))
	waitFor(total+` >= 0 && `+total+` !== `+strconv.Itoa(all), "the search's total appears")

	// The total is REST's for Go jobs in San Francisco, and the first page
	// is ten of them.
	found := eval(total)
	status, body, _ := s.get(t, "/api/v1/jobs?skills=golang&city=SF&limit=1")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, body["meta"].(map[string]any)["total"], found, "the page's total is REST's for skills=golang&city=SF")
	require.Greater(t, found, 10, "the demo data has more than a page of Go jobs in SF")
	assert.Equal(t, 10, eval(cards), "the first page")
	reading, err := chromedp.Run(ctx, chromedp.Text("#reading"))
	require.NoError(t, err)
	assert.Contains(t, reading, "golang")
	assert.Contains(t, reading, "SF")
	status, body, _ = s.get(t, "/api/v1/jobs?skills=golang&city=SF&limit=20")
	require.Equal(t, http.StatusOK, status)
	rest := ids(body["data"])

	// Scrolling to the end loads the second page after the first.
	step(chromedp.ScrollIntoView("#sentinel"))
	waitFor(cards+` > 10`, "the second page loads on scroll")
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#cards .card')].map(c => c.dataset.id)`))
	require.NoError(t, err)
	assert.Equal(t, rest[:min(len(rest), len(shown))], shown, "the cards are REST's pages, in order")

	// A facet value narrows the search to its count.
	step(chromedp.ScrollIntoView("#facets"))
	facet := `document.querySelector('#facets button[data-field="WORK_ARRANGEMENT"]')`
	waitFor(facet+` !== null`, "the work-arrangement facet shows")
	count := eval(`parseInt(` + facet + `.querySelector('.count').textContent.replace(/,/g, ''), 10)`)
	require.Less(t, count, found, "a facet value narrows")
	step(chromedp.Click(`#facets button[data-field="WORK_ARRANGEMENT"]`))
	waitFor(total+` === `+strconv.Itoa(count), "the total becomes the facet value's count")
	waitFor(`document.querySelector('#facets button[aria-pressed="true"]') !== null`, "the clicked value shows as chosen")
	assert.Equal(t, min(count, 10), eval(cards))

	assert.Equal(t, 0, eval(`document.getElementById('new-jobs').offsetHeight`), "no \"0 new jobs\" button")

	// The window as a visitor sees it after the click, as a PNG.
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0), true`))
	require.NoError(t, err)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	png := filepath.Join(t.ArtifactDir(), "demo.png")
	require.NoError(t, os.WriteFile(png, shot, 0o644))
	t.Logf("screenshot: %s", png)
	if os.Getenv("JOBSD_UPDATE_SCREENSHOT") == "1" {
		require.NoError(t, os.WriteFile("../../docs/demo.png", shot, 0o644))
	}

	// A card opens the job's detail.
	title, err := chromedp.Run(ctx, chromedp.Text("#cards .card h2 a"))
	require.NoError(t, err)
	step(chromedp.Click("#cards .card h2 a"))
	waitFor(`!document.getElementById('detail-view').hidden && document.getElementById('detail-title') !== null && document.getElementById('detail-title').textContent !== ''`, "the job's detail shows")
	heading, err := chromedp.Run(ctx, chromedp.Text("#detail-title"))
	require.NoError(t, err)
	assert.Equal(t, title, heading)
	detail, err := chromedp.Run(ctx, chromedp.Text("#detail"))
	require.NoError(t, err)
	assert.Contains(t, detail, "Go", "the job's skills")
	assert.Contains(t, detail, "Work arrangement")
	assert.Greater(t, eval(`document.querySelectorAll('#detail .description p').length`), 3, "the description keeps its paragraphs")
	assert.Equal(t, 0, eval(`Math.round(window.scrollY)`), "the job opens at the top")

	// A closed job's id shows it closed, with the instant it closed.
	step(chromedp.Navigate(s.base + "/demo/#job/" + closed))
	waitFor(`document.querySelector('#detail .closed') !== null`, "the closed job shows as closed")
	detail, err = chromedp.Run(ctx, chromedp.Text("#detail"))
	require.NoError(t, err)
	assert.Contains(t, detail, "This job is closed")
	assert.Contains(t, detail, "Closed on November 20, 2026")

	// In a phone's width the page fits: nothing scrolls sideways, and the
	// facets stack above the results.
	step(chromedp.EmulateViewport(390, 800), chromedp.Navigate(s.base+"/demo/"))
	waitFor(total+` >= 0 && `+cards+` > 0`, "the page lists jobs in a narrow window")
	wide := eval(`document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	assert.LessOrEqual(t, wide, 0, "no horizontal scrolling at 390 px")
	above := eval(`document.getElementById('facets').getBoundingClientRect().bottom <= document.getElementById('cards').getBoundingClientRect().top ? 1 : 0`)
	assert.Equal(t, 1, above, "the facets stack above the results")
}

// TestDemoPageShowsNewJobs: the search page keeps its search open over the
// WebSocket. A posting imported into the search while it is shown is
// offered as "1 new job" without a reload; showing it lists it first,
// with the total one more; a listed posting that closes is marked closed.
func TestDemoPageShowsNewJobs(t *testing.T) {
	browser := chromiumOrSkip(t, "the search page's browser test")
	s, _ := demoService(t, 600)
	ctx := newBrowser(t, browser, 1200, 900)
	waitFor := pageWaiter(t, ctx)
	const total = `Number(document.getElementById('status').dataset.total || -1)`
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(s.base+"/demo"), chromedp.WaitVisible("#box"),
		chromedp.SendKeys("#box", "golang SF"), chromedp.Click(`#search button[type=submit]`)))
	waitFor(`document.getElementById('reading').innerText.includes('(San Francisco') && `+total+` > 0`, "the search's total appears")
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](total))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.metric(t, `jobsd_subscriptions_open{transport="graphql"}`) == 1 },
		20*time.Second, 100*time.Millisecond, "the page subscribes to its search")

	s.importLines(t, fmt.Sprintf(`{"id":"greenhouse-990001","title":"Go Developer","company":"Live Demo Co","skills":["golang"],"location":{"full":"San Francisco, CA"},"posted_at":%q}`,
		time.Now().UTC().Format(time.RFC3339)))
	waitFor(`document.getElementById('new-jobs').dataset.count === '1' && !document.getElementById('new-jobs').hidden`, `"1 new job" shows`)
	label, err := chromedp.Run(ctx, chromedp.Text("#new-jobs"))
	require.NoError(t, err)
	assert.Contains(t, label, "1 new job")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#new-jobs")))
	waitFor(total+` === `+strconv.Itoa(before+1), "the total counts the new job")
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#cards .card').dataset.id`))
	require.NoError(t, err)
	assert.Equal(t, "greenhouse-990001", first, "the newest job first")
	waitFor(`document.getElementById('new-jobs').hidden`, "the offer is gone once shown")

	// A listed job that closes is marked closed in place.
	s.importLines(t, `{"id":"greenhouse-990001","closed":true}`)
	waitFor(`document.querySelector('#cards .card[data-id="greenhouse-990001"]').classList.contains('closed')`, "the closed job is marked")
}

// TestDemoPageWithin: the "within" selector beside the search box reads
// the place as a city to search around: the total is REST's near search,
// the cards nearest first with their distance, and the reading says so.
func TestDemoPageWithin(t *testing.T) {
	browser := chromiumOrSkip(t, "the search page's browser test")
	s, _ := demoService(t, 2000)
	ctx := newBrowser(t, browser, 1200, 900)
	waitFor := pageWaiter(t, ctx)
	const total = `Number(document.getElementById('status').dataset.total || -1)`
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(s.base+"/demo"), chromedp.WaitVisible("#within")))
	waitFor(total+` >= 0`, "the page lists all jobs on load")
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue("#within", "50"), chromedp.SendKeys("#box", "SF"),
		chromedp.Click(`#search button[type=submit]`)))
	waitFor(`document.getElementById('reading').textContent.includes('within 50 mi')`, "the reading says within 50 mi")

	status, body, _ := s.get(t, "/api/v1/jobs?near=SF&radius=50mi&sort=distance&limit=10")
	require.Equal(t, http.StatusOK, status, body)
	want := body["meta"].(map[string]any)["total"]
	status, exact, _ := s.get(t, "/api/v1/jobs?city=SF&limit=1")
	require.Equal(t, http.StatusOK, status)
	require.Greater(t, want, exact["meta"].(map[string]any)["total"], "San Jose is within 50 mi of San Francisco")
	waitFor(total+` === `+strconv.FormatFloat(want.(float64), 'f', -1, 64), "the total is REST's near=SF&radius=50mi")
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#cards .card')].map(c => c.dataset.id)`))
	require.NoError(t, err)
	assert.Equal(t, ids(body["data"]), shown, "REST's page, nearest first")
	distance, err := chromedp.Run(ctx, chromedp.Text("#cards .card .distance"))
	require.NoError(t, err)
	assert.Contains(t, distance, "mi away")
	reading, err := chromedp.Run(ctx, chromedp.Text("#reading"))
	require.NoError(t, err)
	assert.Contains(t, reading, "San Francisco, California, United States")
}

// TestFrontendOnAnotherOrigin: with --demo (make run), a page served from
// another local origin (a frontend's dev server) queries /graphql, pages
// with the Relay cursor, and subscribes to jobChanges, as a browser allows only with CORS; without
// --demo and --cors-origins, the same query is refused by the browser.
func TestFrontendOnAnotherOrigin(t *testing.T) {
	browser := chromiumOrSkip(t, "the cross-origin browser test")
	s, _ := demoService(t, 300)
	page := func(base string) string {
		return `<!doctype html><html><body><p id="total">…</p><p id="pages">…</p><p id="event">…</p>
<script src="` + base + `/playground/assets/graphql-ws.min.js"></script>
<script>
const base = "` + base + `", key = "` + s.key + `";
const jobs = (after) => fetch(base + "/graphql", {method: "POST", headers: {"content-type": "application/json", "x-api-key": key},
  body: JSON.stringify({query: "query($after: String) { jobs(first: 2, after: $after) { totalCount pageInfo { endCursor } edges { node { id } } } }",
    variables: {after}})}).then((r) => r.json());
jobs(null).then((b) => {
  document.getElementById("total").textContent = "total " + b.data.jobs.totalCount;
  const first = b.data.jobs.edges.map((e) => e.node.id);
  // The next page, after the first's endCursor.
  return jobs(b.data.jobs.pageInfo.endCursor).then((n) => {
    document.getElementById("pages").textContent = first.concat(n.data.jobs.edges.map((e) => e.node.id)).join(" ");
  });
}).catch((e) => { document.getElementById("total").textContent = "refused"; });
if (window.graphqlWs) {
  const client = graphqlWs.createClient({url: base.replace(/^http/, "ws") + "/graphql", connectionParams: {"x-api-key": key}});
  client.subscribe({query: "subscription { jobChanges { kind id } }"},
    {next: ({data}) => { document.getElementById("event").textContent = "event " + data.jobChanges.id; }, error: () => {}, complete: () => {}});
}
</script></body></html>`
	}
	frontend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page(s.base))
	}))
	defer frontend.Close()
	require.NotEqual(t, frontend.URL, s.base, "another origin: another port")

	ctx := newBrowser(t, browser, 800, 600)
	waitFor := pageWaiter(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(frontend.URL)))
	waitFor(`document.getElementById('total').textContent.startsWith('total ')`, "the query answers across origins")
	text, err := chromedp.Run(ctx, chromedp.Text("#total"))
	require.NoError(t, err)
	status, body, _ := s.get(t, "/api/v1/jobs?limit=1")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, fmt.Sprintf("total %v", body["meta"].(map[string]any)["total"]), text, "REST's total (one of the 300 is closed)")
	waitFor(`document.getElementById('pages').textContent.split(' ').length === 4`, "the page pages across origins")
	pages, err := chromedp.Run(ctx, chromedp.Text("#pages"))
	require.NoError(t, err)
	status, body, _ = s.get(t, "/api/v1/jobs?limit=4")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, strings.Join(ids(body["data"]), " "), pages, "two pages of two are REST's first four")
	require.Eventually(t, func() bool { return s.metric(t, `jobsd_subscriptions_open{transport="graphql"}`) == 1 },
		20*time.Second, 50*time.Millisecond, "the page subscribed")
	s.importLines(t, `{"id":"origin-1","title":"Go Developer","company":"Origin Co"}`)
	waitFor(`document.getElementById('event').textContent === 'event origin-1'`, "the event reaches the page")

	// Without --demo, CORS is off unless configured: the browser refuses.
	plain := startServiceWith(t, s.dsn, nil)
	plain.key = s.key
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page(plain.base))
	}))
	defer other.Close()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(other.URL)))
	waitFor(`document.getElementById('total').textContent === 'refused'`, "the browser refuses the answer without CORS")
}

// TestDemoSuggestsAsYouType: Chromium types "sof" in the demo page's box;
// suggestions show with their counts (REST's for the same prefix), the
// arrow keys move through them, and Enter searches the one chosen: the
// page's total is then the suggestion's count.
func TestDemoSuggestsAsYouType(t *testing.T) {
	browser := chromiumOrSkip(t, "the search page's browser test")
	s, _ := demoService(t, 2000)
	ctx := newBrowser(t, browser, 1200, 900)
	waitFor := pageWaiter(t, ctx)
	const total = `Number(document.getElementById('status').dataset.total || -1)`
	const options = `document.querySelectorAll('#suggestions [role=option]')`

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(s.base+"/demo"), chromedp.WaitVisible("#box")))
	waitFor(total+` >= 0`, "the page lists all jobs on load")
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys("#box", "sof")))
	waitFor(options+`.length > 0 && !document.getElementById('suggestions').hidden`, "suggestions show")
	waitFor(`document.getElementById('box').getAttribute('aria-expanded') === 'true'`, "the combobox says it is expanded")

	// The first title suggestion is REST's first for "sof", count and all.
	status, body, _ := s.get(t, "/api/v1/suggest?field=title&prefix=sof&limit=3")
	require.Equal(t, http.StatusOK, status)
	first := body["data"].([]any)[0].(map[string]any)
	assert.Contains(t, first["value"], "Software")
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](options+`[0].textContent`))
	require.NoError(t, err)
	assert.Contains(t, shown, first["value"].(string))
	assert.Contains(t, strings.ReplaceAll(shown, ",", ""), strconv.Itoa(int(first["count"].(float64))))

	// Down twice and up once: the first is chosen; Enter searches it.
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys("#box", kb.ArrowDown+kb.ArrowDown+kb.ArrowUp)))
	waitFor(`document.getElementById('box').getAttribute('aria-activedescendant') === 'suggestion-0'`, "the arrow keys choose the first")
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys("#box", kb.Enter)))
	waitFor(total+` === `+strconv.Itoa(int(first["count"].(float64))), "the total becomes the suggestion's count")
	waitFor(`document.getElementById('suggestions').hidden`, "the suggestions close")
	box, err := chromedp.Run(ctx, chromedp.Value("#box"))
	require.NoError(t, err)
	assert.Equal(t, first["value"], box)
}
