package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watcher is a Node client subscribed to the service
// (clients/apollo-test/subscribe.mjs): the JSON lines it prints.
type watcher struct {
	lines chan map[string]any
	cmd   *exec.Cmd
}

// watch starts subscribe.mjs with client ("graphql-ws" or "apollo") on the
// filter (a JobFilter as JSON), after the cursor after ("" for none), until
// it has seen events events; it waits for the socket's acknowledgement
// unless the key is refused.
func (s *service) watch(t *testing.T, node, client, key, filter, after string, events int) *watcher {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, node, "subscribe.mjs")
	cmd.Dir = nodeClients
	cmd.Env = append(os.Environ(), "JOBSD_WS_URL=ws"+strings.TrimPrefix(s.base, "http")+"/graphql", "JOBSD_KEY="+key,
		"JOBSD_FILTER="+filter, "JOBSD_AFTER="+after, "JOBSD_EVENTS="+itoa(events), "JOBSD_CLIENT="+client)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	w := &watcher{lines: make(chan map[string]any, 64), cmd: cmd}
	go func() {
		defer close(w.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				w.lines <- line
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("subscribe.mjs stderr: %s", stderr.String())
		}
	})
	return w
}

// next returns the watcher's next line, failing the test after a wait.
func (w *watcher) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case line, ok := <-w.lines:
		require.True(t, ok, "subscribe.mjs ended")
		return line
	case <-time.After(15 * time.Second):
		t.Fatal("no line from subscribe.mjs within 15 s")
		return nil
	}
}

// event returns the watcher's next line, which must be an event of kind
// for the job id, and the event's cursor.
func (w *watcher) event(t *testing.T, kind, id string) map[string]any {
	t.Helper()
	line := w.next(t)
	require.Equal(t, kind, line["kind"], "%v", line)
	require.Equal(t, id, line["id"], "%v", line)
	require.NotEmpty(t, line["cursor"])
	return line
}

// metric reads one series of the service's /metrics (-1 when it is
// missing).
func (s *service) metric(t *testing.T, series string) float64 {
	t.Helper()
	resp, err := http.Get(s.base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), series+" "); ok {
			var f float64
			_, err := fmt.Sscan(v, &f)
			require.NoError(t, err)
			return f
		}
	}
	return -1
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// importLines imports NDJSON lines into the service's database.
func (s *service) importLines(t *testing.T, lines ...string) {
	t.Helper()
	_, errOut, err := runJobsd(s.dsn, strings.NewReader(strings.Join(lines, "\n")+"\n"), "import", "-")
	require.NoError(t, err, errOut)
}

// feedEnd returns the change feed's cursor after its last change.
func (s *service) feedEnd(t *testing.T) string {
	t.Helper()
	cursor := ""
	for {
		path := "/api/v1/changes?limit=1000"
		if cursor != "" {
			path += "&after=" + cursor
		}
		status, body, _ := s.get(t, path)
		require.Equal(t, http.StatusOK, status, "%v", body)
		meta := body["meta"].(map[string]any)
		cursor = meta["next_cursor"].(string)
		if meta["has_more"] != true {
			return cursor
		}
	}
}

// TestSubscriptionsEndToEnd drives the binary with the graphql-ws client
// (clients/apollo-test/subscribe.mjs): a subscription to a filter gets
// ADDED, UPDATED and REMOVED as postings open, change, leave the filter,
// come into it and close, each once, in feed order, with the card after
// the change; one that resumes after an event's cursor gets exactly the
// events that followed it; Apollo Client's GraphQLWsLink gets the same;
// a bad key is closed with 4403 and a bad filter is the jobs error.
func TestSubscriptionsEndToEnd(t *testing.T) {
	node := nodeClient(t, "graphql-ws")
	s := startService(t)
	start := s.feedEnd(t)
	const goFilter = `{"skills": ["golang"]}`
	w := s.watch(t, node, "graphql-ws", s.key, goFilter, start, 5)
	require.Equal(t, true, w.next(t)["ready"])

	const (
		goJob      = `{"id":"live-1","title":"Backend Engineer","company":"Live Co","skills":["golang"],"salary":{"min":100000,"max":120000,"currency":"USD","period":"yearly"}}`
		goJobMore  = `{"id":"live-1","title":"Backend Engineer","company":"Live Co","skills":["golang","k8s"],"salary":{"min":110000,"max":130000,"currency":"USD","period":"yearly"}}`
		pyJob      = `{"id":"live-1","title":"Backend Engineer","company":"Live Co","skills":["python"]}`
		nurse      = `{"id":"live-2","title":"Registered Nurse","company":"Live Care","skills":["patient care"]}`
		nurseGo    = `{"id":"live-2","title":"Registered Nurse","company":"Live Care","skills":["patient care","golang"]}`
		nurseClose = `{"id":"live-2","closed":true}`
	)
	s.importLines(t, goJob)
	added := w.event(t, "ADDED", "live-1")
	card := added["card"].(map[string]any)
	assert.Equal(t, "Backend Engineer", card["title"])
	assert.Equal(t, "Live Co", card["company"])
	s.importLines(t, nurse) // no event: it does not match
	s.importLines(t, goJobMore)
	updated := w.event(t, "UPDATED", "live-1")
	assert.EqualValues(t, 110000, updated["card"].(map[string]any)["salary"].(map[string]any)["min"], "the card after the change")
	s.importLines(t, goJobMore) // unchanged: no change, no event
	s.importLines(t, pyJob)
	removed := w.event(t, "REMOVED", "live-1")
	assert.Nil(t, removed["card"])
	s.importLines(t, nurseGo)
	w.event(t, "ADDED", "live-2")
	s.importLines(t, nurseClose)
	w.event(t, "REMOVED", "live-2")

	t.Run("resume after a cursor", func(t *testing.T) {
		again := s.watch(t, node, "graphql-ws", s.key, goFilter, updated["cursor"].(string), 3)
		require.Equal(t, true, again.next(t)["ready"])
		again.event(t, "REMOVED", "live-1")
		again.event(t, "ADDED", "live-2")
		again.event(t, "REMOVED", "live-2")
	})
	t.Run("Apollo Client", func(t *testing.T) {
		apollo := s.watch(t, node, "apollo", s.key, goFilter, start, 2)
		require.Equal(t, true, apollo.next(t)["ready"])
		first := apollo.event(t, "ADDED", "live-1")
		assert.Equal(t, added["cursor"], first["cursor"])
		assert.Equal(t, "Backend Engineer", first["card"].(map[string]any)["title"])
		apollo.event(t, "UPDATED", "live-1")
	})
	t.Run("a bad key is closed with 4403", func(t *testing.T) {
		for _, key := range []string{"", "jobsd_unknownunknownunknownunknown12"} {
			refused := s.watch(t, node, "graphql-ws", key, goFilter, "", 1)
			line := refused.next(t)
			closed, ok := line["closed"].(map[string]any)
			require.True(t, ok, "%v", line)
			assert.EqualValues(t, 4403, closed["code"])
			assert.NotEmpty(t, closed["reason"])
		}
	})
	t.Run("a bad filter is the jobs error", func(t *testing.T) {
		bad := s.watch(t, node, "graphql-ws", s.key, `{"postedWithin": "forever"}`, "", 1)
		require.Equal(t, true, bad.next(t)["ready"])
		line := bad.next(t)
		errs, ok := line["error"].([]any)
		require.True(t, ok, "%v", line)
		ext := errs[0].(map[string]any)["extensions"].(map[string]any)
		assert.Equal(t, "invalid_parameter", ext["code"])
		assert.Equal(t, "postedWithin", ext["param"])
	})
	t.Run("a cursor of no feed is invalid", func(t *testing.T) {
		bad := s.watch(t, node, "graphql-ws", s.key, goFilter, "bm90LWEtY3Vyc29y", 1)
		require.Equal(t, true, bad.next(t)["ready"])
		errs, ok := bad.next(t)["error"].([]any)
		require.True(t, ok)
		assert.Equal(t, "invalid_parameter", errs[0].(map[string]any)["extensions"].(map[string]any)["code"])
	})
}

// sse is an open event stream of GET /api/v1/jobs/stream.
type sse struct {
	resp *http.Response
	r    *bufio.Reader
}

// stream opens GET /api/v1/jobs/stream?query with the service's key;
// headers are name, value pairs.
func (s *service) stream(t *testing.T, query string, headers ...string) *sse {
	t.Helper()
	req := s.request(t, http.MethodGet, "/api/v1/jobs/stream?"+query, headers...)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return &sse{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next reads the stream's next event (comments skipped): its type, id and
// data; it fails the test after 15 s, or when the stream ends.
func (e *sse) next(t *testing.T) (string, string, map[string]any) {
	t.Helper()
	var event, id string
	var data map[string]any
	done := make(chan bool)
	go func() {
		for {
			line, err := e.r.ReadString('\n')
			if err != nil {
				done <- false
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case line == "" && event != "":
				done <- true
				return
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "id: "):
				id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &data)
			}
		}
	}()
	select {
	case ok := <-done:
		require.True(t, ok, "the stream ended")
	case <-time.After(15 * time.Second):
		t.Fatal("no event within 15 s")
	}
	return event, id, data
}

// TestEventStreamEndToEnd reads GET /api/v1/jobs/stream from the binary as
// a REST client does: the events of its filter with the cursor as id and
// the REST card, a reconnect with Last-Event-ID resuming after it, and the
// errors of GET /jobs before the stream starts.
func TestEventStreamEndToEnd(t *testing.T) {
	s := startService(t)
	start := s.feedEnd(t)
	stream := s.stream(t, "skills=golang&after="+start)
	require.Equal(t, http.StatusOK, stream.resp.StatusCode)
	assert.Equal(t, "text/event-stream; charset=utf-8", stream.resp.Header.Get("Content-Type"))
	s.importLines(t, `{"id":"sse-1","title":"Go Developer","company":"Stream Co","skills":["golang"]}`)
	s.importLines(t, `{"id":"sse-2","title":"Go Developer","company":"Stream Co","skills":["golang"]}`)
	kind, firstID, data := stream.next(t)
	assert.Equal(t, "added", kind)
	assert.Equal(t, "added", data["kind"])
	assert.Equal(t, "sse-1", data["id"])
	card := data["card"].(map[string]any)
	assert.Equal(t, "Stream Co", card["company"])
	assert.NotContains(t, card, "posted_at", "the card as GET /jobs lists it")
	kind, _, data = stream.next(t)
	assert.Equal(t, "added", kind)
	assert.Equal(t, "sse-2", data["id"])
	s.importLines(t, `{"id":"sse-1","closed":true}`)
	kind, _, data = stream.next(t)
	assert.Equal(t, "removed", kind)
	assert.Nil(t, data["card"])

	t.Run("a near stream's cards carry distance_km", func(t *testing.T) {
		near := s.stream(t, "near=Boston&radius=25mi&after="+s.feedEnd(t))
		require.Equal(t, http.StatusOK, near.resp.StatusCode)
		s.importLines(t, `{"id":"sse-3","title":"Nurse","company":"Stream Co","location":{"city":["Somerville"],"state":["MA"],"country":["US"]}}`)
		kind, _, data := near.next(t)
		assert.Equal(t, "added", kind)
		assert.Equal(t, "sse-3", data["id"])
		card := data["card"].(map[string]any)
		require.Contains(t, card, "distance_km")
		assert.InDelta(t, 3, card["distance_km"], 3, "Somerville is about 3 km from Boston")
	})
	t.Run("a blank near is no filter: cards without distance_km", func(t *testing.T) {
		blank := s.stream(t, "near=&skills=golang&after="+s.feedEnd(t))
		require.Equal(t, http.StatusOK, blank.resp.StatusCode)
		s.importLines(t, `{"id":"sse-4","title":"Go Developer","company":"Stream Co","skills":["golang"]}`)
		_, _, data := blank.next(t)
		assert.Equal(t, "sse-4", data["id"])
		assert.NotContains(t, data["card"].(map[string]any), "distance_km")
	})
	t.Run("a keyword stream follows the text", func(t *testing.T) {
		words := s.stream(t, "q=axolotl&after="+s.feedEnd(t))
		require.Equal(t, http.StatusOK, words.resp.StatusCode)
		s.importLines(t, `{"id":"sse-5","title":"Axolotl Keeper","company":"Stream Co","description":"Feeding and care."}`)
		kind, _, data := words.next(t)
		assert.Equal(t, "added", kind)
		assert.Equal(t, "sse-5", data["id"])
		// Its description indexed, then its title changed: keyword search
		// reads the old title's words too until the description is indexed
		// again, which the stream waits for.
		jobsd(t, s.dsn, "textindex")
		s.importLines(t, `{"id":"sse-5","title":"Newt Keeper","company":"Stream Co","description":"Feeding and care."}`)
		kind, _, data = words.next(t)
		assert.Equal(t, "removed", kind, "updated out of the search")
		assert.Equal(t, "sse-5", data["id"])
		// A posting that has the word in its description only.
		s.importLines(t, `{"id":"sse-6","title":"Aquarist","company":"Stream Co","description":"Our axolotl colony needs you."}`)
		kind, _, data = words.next(t)
		assert.Equal(t, "added", kind, "found by its description once indexed")
		assert.Equal(t, "sse-6", data["id"])
	})
	t.Run("Last-Event-ID resumes after it", func(t *testing.T) {
		again := s.stream(t, "skills=golang&after="+start, "Last-Event-ID", firstID)
		_, _, data := again.next(t)
		assert.Equal(t, "sse-2", data["id"])
		kind, _, data := again.next(t)
		assert.Equal(t, "removed", kind)
		assert.Equal(t, "sse-1", data["id"])
	})
	t.Run("errors before the stream are JSON", func(t *testing.T) {
		for query, code := range map[string]string{"sort=newest": "unknown_parameter", "posted_within=forever": "invalid_parameter", "after=nope": "invalid_parameter"} {
			status, body, _ := s.get(t, "/api/v1/jobs/stream?"+query)
			assert.Equal(t, http.StatusBadRequest, status, query)
			assert.Equal(t, code, body["error"].(map[string]any)["code"], query)
		}
		status, _, _ := s.get(t, "/api/v1/jobs/stream", "x-api-key", "")
		assert.Equal(t, http.StatusUnauthorized, status)
	})
}
