package main_test

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// chromium returns the path of an installed Chromium or Chrome, or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// chromiumOrSkip returns Chromium's path, or skips the test saying why:
// what (a browser test) cannot run without it.
func chromiumOrSkip(t *testing.T, what string) string {
	t.Helper()
	path := chromium()
	if path == "" {
		t.Skipf("Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it), so %s cannot run here", what)
	}
	return path
}

// newBrowser starts headless Chromium at path with a window of width×height
// and returns a context for chromedp actions, cancelled (and the browser
// stopped) when the test ends; every action must finish within a minute.
func newBrowser(t *testing.T, path string, width, height int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(width, height),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}

// playgroundService starts jobsd over the fixture with a new key filled
// into the playground (the service's key).
func playgroundService(t *testing.T) *service {
	t.Helper()
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	jobsd(t, dsn, "import", pgtest.Fixture(t, "jobs.ndjson"))
	key := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "playground"))
	s := startServiceOn(t, dsn, "JOBSD_PLAYGROUND_KEY="+key)
	s.key = key
	return s
}

// TestPlaygroundInBrowser loads the playground in headless Chromium, runs
// its example query with the prefilled key, reads the result from the page
// and saves a screenshot (go test -artifacts keeps it).
func TestPlaygroundInBrowser(t *testing.T) {
	browser := chromiumOrSkip(t, "the playground's browser test")
	s := playgroundService(t)
	key := s.key
	ctx := newBrowser(t, browser, 1400, 900)

	step := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, actions...))
	}
	step(chromedp.Navigate(s.base+"/playground"), chromedp.WaitVisible(".graphiql-execute-button"))
	// The schema loads (GraphiQL's introspection query nests 15 levels):
	// Docs lists its types, and no error shows on load.
	step(chromedp.Click(`button[aria-label="Show Documentation Explorer"]`))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](
		`(document.querySelector('.graphiql-doc-explorer') || {innerText: ''}).innerText.includes('All Schema Types')`,
		chromedp.WithPollingTimeout(20*time.Second)))
	docs, _ := chromedp.Run(ctx, chromedp.Text(".graphiql-doc-explorer"))
	require.NoError(t, err, "Docs shows the schema's types, not: %s", docs)
	for _, typ := range []string{"JobCard", "JobFilter", "Company"} {
		assert.Contains(t, docs, typ, "Docs lists the type")
	}
	assert.NotContains(t, docs, "Error fetching schema")
	onLoad, err := chromedp.Run(ctx, chromedp.Text(".result-window"))
	require.NoError(t, err)
	assert.NotContains(t, strings.ToLower(onLoad), "error", "the result pane on load")
	headers, err := chromedp.Run(ctx, chromedp.Text(".graphiql-editor-tool"))
	require.NoError(t, err)
	step(chromedp.Click(".graphiql-execute-button"))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](
		`(document.querySelector('.result-window') || {innerText: ''}).innerText.includes('pageInfo')`,
		chromedp.WithPollingTimeout(20*time.Second)))
	require.NoError(t, err, "the query's result appears on the page")
	result, err := chromedp.Run(ctx, chromedp.Text(".result-window"))
	require.NoError(t, err)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
	require.NoError(t, err)
	png := filepath.Join(t.ArtifactDir(), "playground.png")
	require.NoError(t, os.WriteFile(png, shot, 0o644))
	t.Logf("screenshot: %s", png)

	assert.Contains(t, headers, key, "the key is prefilled in the headers editor")
	assert.Contains(t, result, `"totalCount": 2`, "skills golang in SF: test-1 and test-9")
	assert.Contains(t, result, `"endCursor"`, "a Relay connection")
	assert.Contains(t, result, `"id": "test-1"`, "the first card (the pane shows only its first lines)")
	assert.NotContains(t, result, "unauthorized")
}

// TestPlaygroundSubscription runs a subscription in the playground in
// headless Chromium: GraphiQL sends it over the WebSocket with the
// prefilled key in connection_init, and a posting imported after it shows
// as an ADDED event in the result pane.
func TestPlaygroundSubscription(t *testing.T) {
	browser := chromiumOrSkip(t, "the playground's browser test")
	s := playgroundService(t)
	ctx := newBrowser(t, browser, 1400, 900)
	const query = `subscription Watch { jobChanges(filter: {skills: ["golang"]}) { kind id card { title company } } }`
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(s.base+"/playground?query="+url.QueryEscape(query)),
		chromedp.WaitVisible(".graphiql-execute-button"), chromedp.Click(".graphiql-execute-button")))
	// The subscription is open once jobsd counts it.
	require.Eventually(t, func() bool { return s.metric(t, `jobsd_subscriptions_open{transport="graphql"}`) == 1 },
		20*time.Second, 100*time.Millisecond, "the playground's subscription opens")
	s.importLines(t, `{"id":"play-1","title":"Go Developer","company":"Playground Co","skills":["golang"]}`)
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](
		`(document.querySelector('.result-window') || {innerText: ''}).innerText.includes('ADDED')`,
		chromedp.WithPollingTimeout(20*time.Second)))
	result, _ := chromedp.Run(ctx, chromedp.Text(".result-window"))
	require.NoError(t, err, "the event shows in the result pane, not: %s", result)
	assert.Contains(t, result, `"id": "play-1"`)
	assert.Contains(t, result, "Playground Co")
}
