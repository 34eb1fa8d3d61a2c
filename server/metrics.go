package server

import (
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
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

func newMetrics(dbs map[string]*sql.DB) *metrics {
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
	return m
}

// handler serves the metrics in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// graphQLError counts one error of a GraphQL answer.
func (m *metrics) graphQLError(code string) {
	if code == "" {
		code = "none"
	}
	m.graphQLErrors.WithLabelValues(code).Inc()
}

// observe records the request once it is served; the route is chi's
// pattern ("/api/v1/jobs/{id}"), so that ids do not explode the labels.
func (m *metrics) observe(r *http.Request, status int, took time.Duration) {
	route := "unmatched"
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
		route = rc.RoutePattern()
	}
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, r.Method, code).Inc()
	m.latency.WithLabelValues(route, r.Method, code).Observe(took.Seconds())
}
