package watch

import (
	"sort"

	"github.com/prometheus/client_golang/prometheus"
)

// MaxWatchSeries bounds the series of robotstxt_watch_last_check_timestamp_seconds:
// one per watch, for the first MaxWatchSeries watches by id.
const MaxWatchSeries = 100

// Metrics are the engine's Prometheus metrics. Register them in a registry
// with Engine.Collectors.
type Metrics struct {
	checks  prometheus.Counter
	fetches prometheus.Counter
	changes *prometheus.CounterVec
	alerts  *prometheus.CounterVec
	retries prometheus.Counter
	e       *Engine
}

func newMetrics(e *Engine) *Metrics {
	m := &Metrics{e: e}
	m.checks = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_watch_checks_total",
		Help: "Checks of a watch made by this server (one fetch of an origin checks each of its watches).",
	})
	m.fetches = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_watch_fetches_total",
		Help: "Fetches of an origin's robots.txt for its watches.",
	})
	m.changes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robotstxt_watch_changes_total",
		Help: "Checks that found a change, by the change's severity (info, warning, critical).",
	}, []string{"severity"})
	for _, s := range Severities {
		m.changes.WithLabelValues(s)
	}
	m.alerts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robotstxt_watch_alerts_total",
		Help: "Webhook alerts, by result: sent, failed (after its tries, or refused), or deferred (its host's queue was full: it waits in the outbox).",
	}, []string{"result"})
	for _, r := range []string{"sent", "failed", "deferred"} {
		m.alerts.WithLabelValues(r)
	}
	m.retries = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_watch_alert_retries_total",
		Help: "Webhook posts tried again after a failure.",
	})
	return m
}

var (
	lastCheckDesc = prometheus.NewDesc("robotstxt_watch_last_check_timestamp_seconds",
		"When this server last checked each watch (Unix time), for the first 100 watches by id.", []string{"watch"}, nil)
	watchesDesc = prometheus.NewDesc("robotstxt_watch_watches",
		"Watches this server knows.", nil, nil)
	queueDesc = prometheus.NewDesc("robotstxt_watch_alert_queue",
		"Alerts of the outbox queued in this server's memory to be sent, all hosts together.", nil, nil)
)

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.checks.Describe(ch)
	m.fetches.Describe(ch)
	m.changes.Describe(ch)
	m.alerts.Describe(ch)
	m.retries.Describe(ch)
	ch <- lastCheckDesc
	ch <- watchesDesc
	ch <- queueDesc
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.checks.Collect(ch)
	m.fetches.Collect(ch)
	m.changes.Collect(ch)
	m.alerts.Collect(ch)
	m.retries.Collect(ch)
	e := m.e
	e.mu.Lock()
	ids := make([]string, 0, len(e.last))
	for id := range e.last {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	ids = ids[:min(len(ids), MaxWatchSeries)]
	last := make([]float64, len(ids))
	for i, id := range ids {
		last[i] = float64(e.last[id].UnixMilli()) / 1000
	}
	n := len(e.watches)
	e.mu.Unlock()
	e.out.mu.Lock()
	queued := len(e.out.known)
	e.out.mu.Unlock()
	for i, id := range ids {
		ch <- prometheus.MustNewConstMetric(lastCheckDesc, prometheus.GaugeValue, last[i], id)
	}
	ch <- prometheus.MustNewConstMetric(watchesDesc, prometheus.GaugeValue, float64(n))
	ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(queued))
}

// Collector returns the engine's metrics, to register in a Prometheus
// registry.
func (e *Engine) Collector() prometheus.Collector { return e.metrics }
