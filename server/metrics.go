package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

// metrics are the server's Prometheus metrics, in a registry of its own
// (no global state: two servers in one process count apart).
type metrics struct {
	registry         *prometheus.Registry
	requests         *prometheus.CounterVec
	latency          *prometheus.HistogramVec
	historyErrors    prometheus.Counter
	storeProbeErrors prometheus.Counter
	admissionWaits   prometheus.Counter
	admissionRefused prometheus.Counter
	connsRefused     prometheus.Counter
	stalls           prometheus.Counter
	handles          sync.Map // routeCode -> *routeMetrics
}

func newMetrics(s *Server) *metrics {
	m := &metrics{registry: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robotstxt_http_requests_total",
		Help: "HTTP requests answered, by route (the mux pattern) and status code.",
	}, []string{"route", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "robotstxt_http_request_duration_seconds",
		Help:    "Time to answer HTTP requests, by route and status code.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"route", "code"})
	m.historyErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_history_store_errors_total",
		Help: "Reads and writes of the history that the store failed.",
	})
	m.storeProbeErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_readyz_store_errors_total",
		Help: "Readiness probes the store did not answer.",
	})
	m.admissionWaits = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_inflight_waits_total",
		Help: "Requests that waited for the memory they need (--max-inflight-bytes).",
	})
	m.admissionRefused = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_inflight_refused_total",
		Help: "Requests answered 503 because the memory they need was not free in time.",
	})
	m.connsRefused = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_connections_refused_total",
		Help: "Connections closed at once because their client held --max-conns-per-client already.",
	})
	m.stalls = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_answers_stalled_total",
		Help: "Streamed answers cut because their client read nothing for --stall-timeout.",
	})
	clients := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robotstxt_inflight_clients",
		Help: "Clients that hold or wait for memory in flight (each holds at most a quarter of each pool).",
	}, func() float64 { return float64(max(s.admit.bodies.clientCount(), s.admit.work.clientCount())) })
	inflight := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robotstxt_inflight_bytes",
		Help: "Memory the requests in flight hold, as estimated (of --max-inflight-bytes).",
	}, func() float64 { return float64(s.admit.bodies.held.Load() + s.admit.work.held.Load()) })
	conns := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robotstxt_connections_open",
		Help: "Connections the server holds open (of robotstxt_connections_max).",
	}, func() float64 { return float64(s.openConns.Load()) })
	maxConns := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "robotstxt_connections_max",
		Help: "Connections the server holds open at most (--max-conns; 0: no bound); past it, new ones wait to be accepted.",
	})
	maxConns.Set(float64(max(s.opts.MaxConns, 0)))
	parsedBytes := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robotstxt_parsed_bytes",
		Help: "Memory the inline files kept parsed hold, as their footprints bound it (of --parsed-bytes).",
	}, func() float64 { _, n := s.parsed.usage(); return float64(n) })
	m.registry.MustRegister(s.outbound.collectors()...)
	m.registry.MustRegister(m.requests, m.latency, m.historyErrors, m.storeProbeErrors, m.admissionWaits, m.admissionRefused, m.connsRefused, m.stalls, clients, inflight, conns, maxConns, parsedBytes,
		&cacheCollector{s: s},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// routeCode is a route and a status: the labels of a request's metrics.
type routeCode struct {
	route string
	code  int
}

// routeMetrics are the metrics of one routeCode, looked up once.
type routeMetrics struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

func (m *metrics) observe(route string, status int, elapsed time.Duration) {
	k := routeCode{route, status}
	h, ok := m.handles.Load(k)
	if !ok {
		// Routes are the mux's patterns and codes are few: the handles
		// stay few.
		code := strconv.Itoa(status)
		h, _ = m.handles.LoadOrStore(k, &routeMetrics{m.requests.WithLabelValues(route, code), m.latency.WithLabelValues(route, code)})
	}
	rm := h.(*routeMetrics)
	rm.requests.Inc()
	rm.latency.Observe(elapsed.Seconds())
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// cacheCollector reads the caches' counters (cache.Stats, summed over the
// dialects' caches) when scraped.
type cacheCollector struct{ s *Server }

var (
	descHits        = prometheus.NewDesc("robotstxt_cache_hits_total", "Questions answered from the store.", nil, nil)
	descMisses      = prometheus.NewDesc("robotstxt_cache_misses_total", "Questions that needed a fetch.", nil, nil)
	descStale       = prometheus.NewDesc("robotstxt_cache_stale_total", "Answers given from a copy past its freshness, because its refresh failed.", nil, nil)
	descFetches     = prometheus.NewDesc("robotstxt_fetches_total", "robots.txt fetches made, by outcome: rules, allow_all, disallow_all, unreachable (of which error: no answer at all), not_modified.", []string{"outcome"}, nil)
	descParses      = prometheus.NewDesc("robotstxt_cache_parses_total", "robots.txt bodies parsed.", nil, nil)
	descStoreErrors = prometheus.NewDesc("robotstxt_store_errors_total", "Store reads and writes of the cache that failed (answered anyway), and stored values that could not be read (kind=corrupt).", []string{"kind"}, nil)
	descDegraded    = prometheus.NewDesc("robotstxt_store_degraded", "1 when the store answers from memory in place of the one asked for.", []string{"store"}, nil)
)

// Describe sends the descriptions of the cache's metrics.
func (c *cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descHits, descMisses, descStale, descFetches, descParses, descStoreErrors, descDegraded} {
		ch <- d
	}
}

// Collect sends the cache's counters now.
func (c *cacheCollector) Collect(ch chan<- prometheus.Metric) {
	var t cache.Stats
	for _, ca := range c.s.caches {
		s := ca.Stats()
		t.Hits += s.Hits
		t.Misses += s.Misses
		t.Stale += s.Stale
		t.Rules += s.Rules
		t.AllowAll += s.AllowAll
		t.DisallowAll += s.DisallowAll
		t.Unreachable += s.Unreachable
		t.NotModified += s.NotModified
		t.Errors += s.Errors
		t.Parses += s.Parses
		t.StoreErrors += s.StoreErrors
		t.Corrupt += s.Corrupt
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	counter(descHits, t.Hits)
	counter(descMisses, t.Misses)
	counter(descStale, t.Stale)
	counter(descFetches, t.Rules, "rules")
	counter(descFetches, t.AllowAll, "allow_all")
	counter(descFetches, t.DisallowAll, "disallow_all")
	counter(descFetches, t.Unreachable-t.Errors, "unreachable")
	counter(descFetches, t.Errors, "error")
	counter(descFetches, t.NotModified, "not_modified")
	counter(descParses, t.Parses)
	counter(descStoreErrors, t.StoreErrors, "io")
	counter(descStoreErrors, t.Corrupt, "corrupt")
	h := storeopen.Health(c.s.store)
	degraded := 0.0
	if h.Degraded {
		degraded = 1
	}
	ch <- prometheus.MustNewConstMetric(descDegraded, prometheus.GaugeValue, degraded, h.Name)
}
