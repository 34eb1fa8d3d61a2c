package server

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/jobsd-dev/jobsd/live"
	"github.com/jobsd-dev/jobsd/rest"
	"github.com/jobsd-dev/jobsd/store"
)

// metrics counts requests and their latency by route and status, and
// exposes them with the Go runtime's, the process's and the database
// pool's figures.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// graphQLErrors counts the errors GraphQL answers carry, most of them
	// sent with status 200.
	graphQLErrors *prometheus.CounterVec
}

func newMetrics(dbs map[string]*sql.DB, indexStats func() store.IndexStats, liveStats func() live.Stats) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "jobsd_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "jobsd_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method", "status"}),
		graphQLErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "jobsd_graphql_errors_total",
			Help: "Errors in GraphQL answers, by the contract's error code.",
		}, []string{"code"}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.graphQLErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for name, db := range dbs {
		m.registry.MustRegister(collectors.NewDBStatsCollector(db, name))
	}
	if indexStats != nil {
		m.registry.MustRegister(indexCollector{indexStats})
	}
	if liveStats != nil {
		m.registry.MustRegister(liveCollector{liveStats})
	}
	return m
}

// indexCollector exports the in-memory index's figures: how far it is
// behind the change feed, what it applied, and what it left to SQL.
type indexCollector struct{ stats func() store.IndexStats }

var (
	indexBehindSeconds = prometheus.NewDesc("jobsd_index_behind_seconds",
		"How long the in-memory index has lacked changes of the feed (0 when current).", nil, nil)
	indexBehindChanges = prometheus.NewDesc("jobsd_index_behind_changes",
		"Changes of the feed the in-memory index lacked at its last check.", nil, nil)
	indexApplied = prometheus.NewDesc("jobsd_index_changes_applied_total",
		"Changed jobs applied to the in-memory index without building it again.", nil, nil)
	indexBuilds = prometheus.NewDesc("jobsd_index_builds_total",
		"Builds of the in-memory index from the database (the first, and new bases).", nil, nil)
	indexAnswered = prometheus.NewDesc("jobsd_index_answers_total",
		"Job lists, facet sets and company lists the in-memory index answered.", nil, nil)
	indexSQLAnswers = prometheus.NewDesc("jobsd_index_sql_answers_total",
		"Job lists the index could not answer in time (the feed kept moving, or it could not catch up), answered in SQL.", nil, nil)
	indexStale = prometheus.NewDesc("jobsd_index_stale_pages_total",
		"Requests that found the change feed past the index, answered after a catch-up.", nil, nil)
	indexJobs = prometheus.NewDesc("jobsd_index_jobs",
		"Open jobs in the in-memory index.", nil, nil)
	indexBytes = prometheus.NewDesc("jobsd_index_bytes",
		"Size of the in-memory index's arrays and bitmaps, its layer's included: most of the live heap (a build holds a second index beside it).", nil, nil)
	indexDeltaJobs = prometheus.NewDesc("jobsd_index_delta_jobs",
		"Jobs changed since the in-memory index's base was built (a new base is built past 5%).", nil, nil)
)

// Describe implements prometheus.Collector.
func (indexCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{indexBehindSeconds, indexBehindChanges, indexApplied, indexBuilds,
		indexAnswered, indexSQLAnswers, indexStale, indexJobs, indexDeltaJobs, indexBytes} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c indexCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	ch <- prometheus.MustNewConstMetric(indexBehindSeconds, prometheus.GaugeValue, st.Behind.Seconds())
	ch <- prometheus.MustNewConstMetric(indexBehindChanges, prometheus.GaugeValue, float64(st.BehindChanges))
	ch <- prometheus.MustNewConstMetric(indexApplied, prometheus.CounterValue, float64(st.Applied))
	ch <- prometheus.MustNewConstMetric(indexBuilds, prometheus.CounterValue, float64(st.Builds))
	ch <- prometheus.MustNewConstMetric(indexAnswered, prometheus.CounterValue, float64(st.Answered))
	ch <- prometheus.MustNewConstMetric(indexSQLAnswers, prometheus.CounterValue, float64(st.SQLAnswers))
	ch <- prometheus.MustNewConstMetric(indexStale, prometheus.CounterValue, float64(st.Stale))
	ch <- prometheus.MustNewConstMetric(indexJobs, prometheus.GaugeValue, float64(st.Jobs))
	ch <- prometheus.MustNewConstMetric(indexDeltaJobs, prometheus.GaugeValue, float64(st.DeltaJobs))
	ch <- prometheus.MustNewConstMetric(indexBytes, prometheus.GaugeValue, float64(st.Bytes))
}

// liveCollector exports the subscriptions' figures: how many are open, the
// events delivered and how late, and the subscribers that fell behind.
type liveCollector struct{ stats func() live.Stats }

var (
	liveOpen = prometheus.NewDesc("jobsd_subscriptions_open",
		"Open subscriptions, by transport (graphql: WebSocket subscriptions; sse: REST event streams).", []string{"transport"}, nil)
	liveStarted = prometheus.NewDesc("jobsd_subscriptions_started_total",
		"Subscriptions and streams started.", nil, nil)
	liveEvents = prometheus.NewDesc("jobsd_subscription_events_total",
		"Events delivered to subscribers.", nil, nil)
	liveResyncs = prometheus.NewDesc("jobsd_subscription_resyncs_total",
		"Subscriptions ended with resync_required: their subscriber fell too far behind.", nil, nil)
	liveHistory = prometheus.NewDesc("jobsd_subscription_history_changes",
		"Changes kept for subscriptions that resume after a cursor.", nil, nil)
	liveLag = prometheus.NewDesc("jobsd_subscription_delivery_lag_seconds",
		"Delay of each event delivered, from its change's instant to its subscriber taking it.", nil, nil)
)

// Describe implements prometheus.Collector.
func (liveCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{liveOpen, liveStarted, liveEvents, liveResyncs, liveHistory, liveLag} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c liveCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	for _, via := range []string{"graphql", "sse"} {
		ch <- prometheus.MustNewConstMetric(liveOpen, prometheus.GaugeValue, float64(st.Open[via]), via)
	}
	ch <- prometheus.MustNewConstMetric(liveStarted, prometheus.CounterValue, float64(st.Started))
	ch <- prometheus.MustNewConstMetric(liveEvents, prometheus.CounterValue, float64(st.Delivered))
	ch <- prometheus.MustNewConstMetric(liveResyncs, prometheus.CounterValue, float64(st.Resyncs))
	ch <- prometheus.MustNewConstMetric(liveHistory, prometheus.GaugeValue, float64(st.History))
	buckets := make(map[float64]uint64, len(live.LagBounds))
	for i, b := range live.LagBounds {
		buckets[b] = st.Lag.Buckets[i]
	}
	ch <- prometheus.MustNewConstHistogram(liveLag, st.Lag.Count, st.Lag.Sum, buckets)
}

// handler serves the metrics in Prometheus' text format, except to the
// requests HideMetrics marked, which get the API's 404.
func (m *metrics) handler() http.Handler {
	metrics := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	notFound := rest.NotFound(slog.Default()) // a 404 logs nothing
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Context().Value(metricsHiddenKey{}) != nil {
			notFound(w, r)
			return
		}
		metrics.ServeHTTP(w, r)
	})
}

// metricsHiddenKey marks the context of a request that must not be
// answered with the metrics.
type metricsHiddenKey struct{}

// HideMetrics wraps the handler New returns so that its /metrics answers
// 404 like any unknown path: for the main listener when the metrics are
// served on a listener of their own. Every other route is unchanged.
func HideMetrics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), metricsHiddenKey{}, true)))
	})
}

// knownMethods are the methods the metrics label by name: RFC 9110's and
// PATCH. Any other becomes "other", so that a client cannot add series.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodConnect: true,
	http.MethodOptions: true, http.MethodTrace: true,
}

// methodLabel is the method label of a request: its method when known,
// else "other".
func methodLabel(method string) string {
	if knownMethods[method] {
		return method
	}
	return "other"
}

// graphQLError counts one error of a GraphQL answer.
func (m *metrics) graphQLError(code string) {
	if code == "" {
		code = "none"
	}
	m.graphQLErrors.WithLabelValues(code).Inc()
}

// observe records the request once it is served; the route is chi's
// pattern ("/api/v1/jobs/{id}") and the method one of knownMethods or
// "other", so that no request adds a series of its own.
// routeOf is r's route pattern, the metrics' label: read while its
// handler runs, or when it has just returned (the router reuses what it
// reads afterwards).
func routeOf(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
		return rc.RoutePattern()
	}
	return "unmatched"
}

func (m *metrics) observe(r *http.Request, route string, status int, took time.Duration) {
	code, method := strconv.Itoa(status), methodLabel(r.Method)
	m.requests.WithLabelValues(route, method, code).Inc()
	m.latency.WithLabelValues(route, method, code).Observe(took.Seconds())
}
