package guard

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the guard's Prometheus metrics. The crawler label takes
// the catalogue's names and "other" (a client that claims none): its
// values are bounded by the catalogue.
type metrics struct {
	decisions  *prometheus.CounterVec
	tarpitFull prometheus.Counter
	names      []string
	// counters caches each label triple's counter, made on first use.
	counters []atomic.Pointer[counterBox]
}

type counterBox struct{ c prometheus.Counter }

func newMetrics(reg prometheus.Registerer, g *Guard) (*metrics, error) {
	m := &metrics{
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "robotstxt_guard_decisions_total",
			Help: "Requests decided by the guard, by claimed crawler (catalogue name, or other), outcome and action.",
		}, []string{"crawler", "outcome", "action"}),
		tarpitFull: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "robotstxt_guard_tarpit_full_total",
			Help: "Tarpit answers given at once because the tarpit held its cap of connections.",
		}),
		names: make([]string, len(g.crawlers)+1),
	}
	m.names[0] = "other"
	for i := range g.crawlers {
		m.names[i+1] = g.crawlers[i].Name
	}
	m.counters = make([]atomic.Pointer[counterBox], len(m.names)*int(numOutcomes)*int(actionEnd))
	cs := []prometheus.Collector{
		m.decisions, m.tarpitFull,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "robotstxt_guard_tarpit_connections",
			Help: "Connections held in the tarpit now.",
		}, func() float64 { return float64(g.tarpits.Load()) }),
	}
	if s, ok := g.sink.(interface{ Dropped() int64 }); ok {
		cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "robotstxt_guard_decision_log_dropped_total",
			Help: "Decisions the decision log dropped because its writer was behind.",
		}, func() float64 { return float64(s.Dropped()) }))
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// count counts one decision; ci is the crawler's index, -1 for none.
func (m *metrics) count(ci int, o Outcome, a Action) {
	i := ((ci+1)*int(numOutcomes)+int(o))*int(actionEnd) + int(a)
	b := m.counters[i].Load()
	if b == nil {
		b = &counterBox{m.decisions.WithLabelValues(m.names[ci+1], o.String(), a.String())}
		m.counters[i].Store(b)
	}
	b.c.Inc()
}
