// The subscriptions scenario (-subs): many standing searches of distinct
// filters open over WebSockets while postings land: delivery lag, lost or
// repeated events, CPU and memory.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"
)

// subsConfig sizes the subscriptions scenario.
type subsConfig struct {
	Base, Key, DSN string
	// Jobsd is the binary the imports run.
	Jobsd string
	// N is the subscriptions, PerSocket how many share one WebSocket (as
	// the tabs of one browser would not: the sockets' own cost is
	// measured by the idle memory per subscription with PerSocket 1).
	N, PerSocket int
	// Rate is the postings imported a second (one import a second),
	// for Duration.
	Rate     int
	Duration time.Duration
	// Idle is how long the open subscriptions are watched with nothing
	// landing; MixDuration each run of the list mix, without and with the
	// subscriptions open.
	Idle, MixDuration time.Duration
	Conns             int
	DBN               int // postings loaded, for the report
	Run, Commit, Out  string
	Database          string
}

// subsResult is what one subscriptions scenario found.
type subsResult struct {
	Config  subsConfig
	Sockets int
	Opened  time.Duration // to open every subscription
	// Resident memory of jobsd: before the subscriptions, with them idle,
	// and the peak while postings landed.
	RSSBefore, RSSIdle, RSSLive float64
	// BaseCPU, IdleCPU and LiveCPU are jobsd's processor use, in cores:
	// idle without subscriptions (its index's polls, the expiry's sweeps),
	// idle with them, and while postings land.
	BaseCPU, IdleCPU, LiveCPU float64
	Imports                   int
	Postings                  int
	ImportElapsed             time.Duration // the live phase's length
	ImportErrors              []string
	// Events are the events received for the postings imported; Expected
	// those the subscriptions' filters give (checked with jobs queries).
	Events, Expected                int
	Lost, Repeated, Wrong, Unexpect int
	Problems                        map[string]int
	Lags                            []time.Duration // sorted
	// MixWithout are the list mix's runs without subscriptions, before
	// they open and after they close (the machine drifts: their mean is
	// what MixWith is compared with); MixWith the run with them open.
	MixWithout []phaseResult
	MixWith    phaseResult
}

// subsEvent is one event received.
type subsEvent struct {
	kind, id string
	at       time.Time
}

// subsSocket is one WebSocket and its subscriptions' events.
type subsSocket struct {
	conn   *websocket.Conn
	mu     sync.Mutex // writes
	first  int        // its subscriptions are first, first+1, …
	events [][]subsEvent
	// problems counts what went wrong on it (errors, completes, closes).
	problems map[string]int
	done     chan struct{}
}

// subsFilters returns n distinct JobFilters (GraphQL input) over the
// loaded data's values: umbrella skills with a city, a work arrangement
// or a country, and category roles with a country.
func subsFilters(skills, cities, countries, roles []string, n int) []map[string]any {
	arrangements := []string{"REMOTE", "HYBRID", "ONSITE"}
	var out []map[string]any
	add := func(f map[string]any) bool {
		out = append(out, f)
		return len(out) >= n
	}
	for _, s := range skills {
		if add(map[string]any{"skills": []string{s}}) {
			return out
		}
	}
	for _, s := range skills {
		for _, a := range arrangements {
			if add(map[string]any{"skills": []string{s}, "workArrangement": []string{a}}) {
				return out
			}
		}
	}
	for _, r := range roles {
		for _, c := range countries {
			if add(map[string]any{"categoryRole": r, "country": c}) {
				return out
			}
		}
	}
	for _, c := range cities {
		for _, s := range skills {
			if add(map[string]any{"skills": []string{s}, "city": c}) {
				return out
			}
		}
	}
	for _, r := range roles {
		for _, s := range skills {
			if add(map[string]any{"skills": []string{s}, "categoryRole": r}) {
				return out
			}
		}
	}
	for i, a := range skills {
		for _, b := range skills[i+1:] {
			if add(map[string]any{"skills": []string{a, b}, "skillsMatch": "ALL"}) {
				return out
			}
		}
	}
	for _, c := range cities {
		for i := 0; i+1 < len(skills); i += 2 {
			if add(map[string]any{"skills": skills[i : i+2], "city": c, "workArrangement": []string{"REMOTE", "HYBRID"}}) {
				return out
			}
		}
	}
	return out
}

// runSubs runs the subscriptions scenario and writes its section of
// cfg.Out.
func runSubs(ctx context.Context, cfg subsConfig, db *pgx.Conn, mix []query, skills []string, cpu func() cpuSample, out io.Writer) error {
	cities, err := strings1(ctx, db, `SELECT c FROM jobs, unnest(location_city) AS c GROUP BY c ORDER BY count(*) DESC, c LIMIT 300`)
	if err != nil {
		return err
	}
	countries, err := strings1(ctx, db, `SELECT c FROM jobs, unnest(location_country) AS c GROUP BY c ORDER BY count(*) DESC, c LIMIT 20`)
	if err != nil {
		return err
	}
	roles, err := strings1(ctx, db, `SELECT category_role FROM jobs WHERE category_role IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 200`)
	if err != nil {
		return err
	}
	filters := subsFilters(skills, cities, countries, roles, cfg.N)
	if len(filters) < cfg.N {
		return fmt.Errorf("subs: the data gives %d distinct filters, fewer than %d", len(filters), cfg.N)
	}
	metrics := newClient(cfg.Base, cfg.Key, 2)
	load := newClient(cfg.Base, cfg.Key, cfg.Conns)
	cases, kinds, names := listMix(mix)
	res := &subsResult{Config: cfg, Problems: map[string]int{}}

	fmt.Fprintf(out, "subs: the list mix without subscriptions, %s\n", cfg.MixDuration)
	res.MixWithout = append(res.MixWithout, load.drivePhase(ctx, cases, kinds, len(names), cfg.Conns, cfg.MixDuration, cpu, metrics))
	res.RSSBefore, _ = metrics.metric(ctx, "process_resident_memory_bytes")
	fmt.Fprintf(out, "subs: idle without subscriptions for %s\n", cfg.Idle)
	before := cpu()
	time.Sleep(cfg.Idle)
	res.BaseCPU = cpu().since(before, 0).Jobsd * float64(cpuCount())

	fmt.Fprintf(out, "subs: opening %d subscriptions, %d a socket\n", cfg.N, cfg.PerSocket)
	start := time.Now()
	sockets, err := openSubs(ctx, cfg, filters)
	defer func() {
		for _, s := range sockets {
			_ = s.conn.Close()
		}
	}()
	if err != nil {
		return err
	}
	res.Sockets = len(sockets)
	if err := waitOpen(ctx, metrics, cfg.N); err != nil {
		return err
	}
	res.Opened = time.Since(start)

	// Opening them leaves work behind (the collector's, above all): the
	// idle subscriptions are measured once it is done.
	time.Sleep(5 * time.Second)
	fmt.Fprintf(out, "subs: idle for %s\n", cfg.Idle)
	before = cpu()
	time.Sleep(cfg.Idle)
	res.IdleCPU = cpu().since(before, 0).Jobsd * float64(cpuCount())
	res.RSSIdle, _ = metrics.metric(ctx, "process_resident_memory_bytes")

	fmt.Fprintf(out, "subs: the list mix with the subscriptions open, %s\n", cfg.MixDuration)
	res.MixWith = load.drivePhase(ctx, cases, kinds, len(names), cfg.Conns, cfg.MixDuration, cpu, metrics)

	fmt.Fprintf(out, "subs: %d postings a second for %s\n", cfg.Rate, cfg.Duration)
	committed, err := landPostings(ctx, cfg, res, metrics, cpu)
	if err != nil {
		return err
	}
	// Settle: the last events arrive within the lag.
	time.Sleep(3 * time.Second)
	for _, s := range sockets {
		s.mu.Lock()
		_ = s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		s.mu.Unlock()
		<-s.done
		for k, v := range s.problems {
			res.Problems[k] += v
		}
	}
	if err := res.check(ctx, cfg, filters, sockets, committed); err != nil {
		return err
	}
	if err := waitClosed(ctx, metrics); err != nil {
		return err
	}
	time.Sleep(5 * time.Second) // the collector's work left by closing them
	fmt.Fprintf(out, "subs: the list mix without subscriptions again, %s\n", cfg.MixDuration)
	res.MixWithout = append(res.MixWithout, load.drivePhase(ctx, cases, kinds, len(names), cfg.Conns, cfg.MixDuration, cpu, metrics))
	section := res.markdown()
	return reportScenario(out, "subscriptions", cfg.Out, cfg.DBN, section,
		func(doc string) (string, error) { return placeSubsSection(doc, cfg.DBN, cfg.PerSocket, section) }, res.failures())
}

// cpuCount is the processors the shares of cpuSample.since divide by.
func cpuCount() int { return runtime.NumCPU() }

// openSubs opens the sockets and their subscriptions.
func openSubs(ctx context.Context, cfg subsConfig, filters []map[string]any) ([]*subsSocket, error) {
	u, _ := url.Parse(cfg.Base)
	u.Scheme = strings.Replace(u.Scheme, "http", "ws", 1)
	u.Path = "/graphql"
	dialer := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second,
		ReadBufferSize: 1024, WriteBufferSize: 1024}
	var sockets []*subsSocket
	for first := 0; first < cfg.N; first += cfg.PerSocket {
		conn, resp, err := dialer.DialContext(ctx, u.String(), nil)
		if err != nil {
			return sockets, fmt.Errorf("subs: open socket %d: %w", len(sockets)+1, err)
		}
		resp.Body.Close()
		s := &subsSocket{conn: conn, first: first, problems: map[string]int{}, done: make(chan struct{}),
			events: make([][]subsEvent, min(cfg.PerSocket, cfg.N-first))}
		sockets = append(sockets, s)
		if err := conn.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-key": cfg.Key}}); err != nil {
			return sockets, err
		}
		var ack struct{ Type string }
		if err := conn.ReadJSON(&ack); err != nil || ack.Type != "connection_ack" {
			return sockets, fmt.Errorf("subs: socket %d not acknowledged (%s): %v", len(sockets), ack.Type, err)
		}
		go s.read()
		for i := range s.events {
			msg := map[string]any{"id": fmt.Sprint(i), "type": "subscribe", "payload": map[string]any{
				"query":     `subscription ($filter: JobFilter) { jobChanges(filter: $filter) { kind id cursor card { id title } } }`,
				"variables": map[string]any{"filter": filters[first+i]}}}
			s.mu.Lock()
			err := conn.WriteJSON(msg)
			s.mu.Unlock()
			if err != nil {
				return sockets, err
			}
		}
	}
	return sockets, nil
}

// read records the socket's events until it closes.
func (s *subsSocket) read() {
	defer close(s.done)
	for {
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.CloseNormalClosure {
				s.problems["socket: "+shortErr(err)]++
			}
			return
		}
		now := time.Now()
		var msg struct {
			Type    string
			ID      string
			Payload json.RawMessage
		}
		if json.Unmarshal(data, &msg) != nil {
			s.problems["a message that is not JSON"]++
			continue
		}
		switch msg.Type {
		case "ping":
			s.mu.Lock()
			_ = s.conn.WriteJSON(map[string]any{"type": "pong"})
			s.mu.Unlock()
		case "next":
			var p struct {
				Data struct {
					JobChanges struct{ Kind, ID string }
				}
				Errors []struct{ Message string }
			}
			var i int
			if _, err := fmt.Sscan(msg.ID, &i); err != nil || i < 0 || i >= len(s.events) || json.Unmarshal(msg.Payload, &p) != nil {
				s.problems["a next message of no subscription"]++
				continue
			}
			if len(p.Errors) > 0 {
				s.problems["error: "+p.Errors[0].Message]++
				continue
			}
			s.events[i] = append(s.events[i], subsEvent{kind: p.Data.JobChanges.Kind, id: p.Data.JobChanges.ID, at: now})
		case "error", "complete":
			s.problems["subscription ended: "+msg.Type+" "+string(msg.Payload)]++
		}
	}
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}

// waitOpen waits until jobsd counts n open subscriptions.
func waitOpen(ctx context.Context, metrics *client, n int) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		open, err := metrics.metric(ctx, `jobsd_subscriptions_open{transport="graphql"}`)
		if err == nil && int(open) >= n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("subs: %v of %d subscriptions open after 2 minutes (%v)", open, n, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitClosed waits until jobsd counts no open subscription.
func waitClosed(ctx context.Context, metrics *client) error {
	deadline := time.Now().Add(time.Minute)
	for {
		open, err := metrics.metric(ctx, `jobsd_subscriptions_open{transport="graphql"}`)
		if err == nil && open == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("subs: %v subscriptions still open a minute after their sockets closed (%v)", open, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// subsMarker is the company of the scenario's postings: their total is one
// company filter away.
func subsMarker(run string) string { return "Subsbench " + run }

// landPostings imports cfg.Rate new postings a second for cfg.Duration
// (one `jobsd import` a second) and returns when each posting's import
// ended: its commit, as near as a client can tell.
func landPostings(ctx context.Context, cfg subsConfig, res *subsResult, metrics *client, cpu func() cpuSample) (map[string]time.Time, error) {
	seconds := int(cfg.Duration / time.Second)
	jobs, err := seededJobs(cfg.Run, cfg.Rate*seconds)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "jobsd-subs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	committed := map[string]time.Time{}
	var peak float64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		for {
			if v, err := metrics.metric(ctx, "process_resident_memory_bytes"); err == nil {
				peak = max(peak, v)
			}
			select {
			case <-stop:
				return
			case <-time.After(250 * time.Millisecond):
			}
		}
	})
	before := cpu()
	start := time.Now()
	lc := liveConfig{Jobsd: cfg.Jobsd, DSN: cfg.DSN}
	for k := range seconds {
		if ctx.Err() != nil {
			break
		}
		next := start.Add(time.Duration(k+1) * time.Second)
		batch := jobs[k*cfg.Rate : (k+1)*cfg.Rate]
		posted := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
		var ids []string
		for i := range batch {
			j := &batch[i]
			j.ID = fmt.Sprintf("subsbench-%s%06d", cfg.Run, k*cfg.Rate+i)
			j.Company = subsMarker(cfg.Run)
			j.PostedAt = &posted
			ids = append(ids, j.ID)
		}
		file := filepath.Join(dir, fmt.Sprintf("batch-%d.ndjson", k))
		if err := writeFile(file, func(w io.Writer) error { return writeJobs(w, batch, nil) }); err != nil {
			return nil, err
		}
		r := runJobsdImport(ctx, lc, file)
		res.Imports++
		if r.Err != "" {
			res.ImportErrors = append(res.ImportErrors, r.Err)
			continue
		}
		res.Postings += len(ids)
		for _, id := range ids {
			committed[id] = r.Exited
		}
		time.Sleep(time.Until(next))
	}
	res.ImportElapsed = time.Since(start)
	res.LiveCPU = cpu().since(before, 0).Jobsd * float64(cpuCount())
	close(stop)
	sampler.Wait()
	res.RSSLive = peak
	return committed, nil
}

// check compares each subscription's events for the scenario's postings
// with the postings its filter gives (a jobs query of the filter and the
// scenario's company), and takes the lags.
func (r *subsResult) check(ctx context.Context, cfg subsConfig, filters []map[string]any, sockets []*subsSocket, committed map[string]time.Time) error {
	work := make(chan int)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	hc := &http.Client{Timeout: 30 * time.Second}
	events := func(i int) []subsEvent {
		s := sockets[i/cfg.PerSocket]
		return s.events[i-s.first]
	}
	for range 8 {
		wg.Go(func() {
			for i := range work {
				want, err := matching(ctx, hc, cfg, filters[i])
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				got := map[string]int{}
				for _, ev := range events(i) {
					if _, ours := committed[ev.id]; !ours {
						continue // another posting's change (an expiry)
					}
					r.Events++
					got[ev.id]++
					if ev.kind != "ADDED" {
						r.Unexpect++
					}
					if got[ev.id] > 1 {
						r.Repeated++
						continue
					}
					r.Lags = append(r.Lags, ev.at.Sub(committed[ev.id]))
				}
				r.Expected += len(want)
				for id := range want {
					if got[id] == 0 {
						r.Lost++
					}
				}
				for id := range got {
					if !want[id] {
						r.Wrong++
					}
				}
				mu.Unlock()
			}
		})
	}
	for i := range filters {
		work <- i
	}
	close(work)
	wg.Wait()
	slices.Sort(r.Lags)
	return firstErr
}

// matching returns the ids of the scenario's postings that filter gives.
func matching(ctx context.Context, hc *http.Client, cfg subsConfig, filter map[string]any) (map[string]bool, error) {
	f := map[string]any{"company": subsMarker(cfg.Run)}
	for k, v := range filter {
		f[k] = v
	}
	out := map[string]bool{}
	var after any
	for {
		body, _ := json.Marshal(map[string]any{
			"query":     `query ($f: JobFilter, $after: String) { jobs(filter: $f, first: 100, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
			"variables": map[string]any{"f": f, "after": after}})
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.Base+"/graphql", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-key", cfg.Key)
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		var page struct {
			Data struct {
				Jobs struct {
					Edges    []struct{ Node struct{ ID string } }
					PageInfo struct {
						HasNextPage bool
						EndCursor   *string
					}
				}
			}
			Errors []struct{ Message string }
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil || len(page.Errors) > 0 {
			return nil, fmt.Errorf("subs: check %v: %v %v", f, err, page.Errors)
		}
		for _, e := range page.Data.Jobs.Edges {
			out[e.Node.ID] = true
		}
		if !page.Data.Jobs.PageInfo.HasNextPage {
			return out, nil
		}
		after = *page.Data.Jobs.PageInfo.EndCursor
	}
}
