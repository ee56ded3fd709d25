package guard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestDistinctClientsLeaveMemoryBounded sends 100,000 requests from
// 100,000 distinct addresses, each with a User-Agent and a Host of its
// own, and checks that the guard's tables stay within their stated
// bounds and the heap does not grow with the clients.
func TestDistinctClientsLeaveMemoryBounded(t *testing.T) {
	const clients = 100_000
	sink := NewWriterSink(io.Discard, 0)
	defer sink.Close()
	reg := prometheus.NewRegistry()
	g, err := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), Decisions: sink, Metrics: reg, Policy: enforcePolicy(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	uas := []string{uaClaude, uaGPTBot, uaBrowser, uaCCBot}
	send := func(from, to int) {
		for i := from; i < to; i++ {
			r := httptest.NewRequest("GET", "/page", nil)
			a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
			r.RemoteAddr = netip.AddrPortFrom(a, 1234).String()
			r.Host = fmt.Sprintf("h%d.example.com", i)
			r.Header.Set("User-Agent", fmt.Sprintf("%s r%d", uas[i%len(uas)], i))
			g.Decide(r)
		}
	}
	send(0, 10_000) // the tables fill up to their bounds
	before := heapInUse()
	send(10_000, clients)
	after := heapInUse()
	if n := g.pace.len(); n > DefaultMaxPaced {
		t.Errorf("pace table holds %d pairs, bound %d", n, DefaultMaxPaced)
	}
	if n := g.ua.len(); n > maxAgents {
		t.Errorf("User-Agent cache holds %d headers, bound %d", n, maxAgents)
	}
	// The bounds' worst case: a full pace table (a key and a time, host
	// strings of ~20 bytes: ~100 bytes each) and a full User-Agent
	// cache (headers of ~130 bytes): about 2 MiB together, plus the
	// sink's queue of decisions.
	const slack = 8 << 20
	if after > before+slack {
		t.Errorf("heap grew from %d to %d bytes over %d more clients", before, after, clients-10_000)
	}
	t.Logf("heap %d -> %d bytes; pace %d pairs, agents %d, sink dropped %d", before, after, g.pace.len(), g.ua.len(), sink.Dropped())
}

func TestMetricsLabelsBounded(t *testing.T) {
	reg := prometheus.NewRegistry()
	g, err := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), Metrics: reg, Policy: enforcePolicy(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		r := httptest.NewRequest("GET", "/private/x", nil)
		r.RemoteAddr = addrVerified.String() + ":1"
		ua := fmt.Sprintf("RandomBot%d/1.0", i)
		if i%2 == 0 {
			ua = uaGPTBot
		}
		r.Header.Set("User-Agent", ua)
		g.Decide(r)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var found *dto.MetricFamily
	for _, mf := range mfs {
		if mf.GetName() == "robotstxt_guard_decisions_total" {
			found = mf
		}
	}
	if found == nil {
		t.Fatal("no robotstxt_guard_decisions_total")
	}
	got := map[string]float64{}
	for _, m := range found.Metric {
		var labels []string
		for _, l := range m.Label {
			labels = append(labels, l.GetName()+"="+l.GetValue())
		}
		got[strings.Join(labels, ",")] = m.Counter.GetValue()
	}
	want := map[string]float64{
		"action=403,crawler=GPTBot,outcome=disallowed-verified": 1000,
		"action=allow,crawler=other,outcome=not-crawler":        1000,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("series %v, want %v", got, want)
	}
}

// blockingWriter blocks every write until released.
type blockingWriter struct {
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (w *blockingWriter) Write(b []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(b)
}

func TestFileSinkNeverBlocks(t *testing.T) {
	w := &blockingWriter{release: make(chan struct{})}
	s := NewWriterSink(w, 4)
	d := Decision{Time: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC), Addr: addrVerified, Host: "example.com", Path: "/x", Claimed: "GPTBot"}
	done := make(chan struct{})
	go func() {
		for range 1000 {
			s.Record(d)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Record blocked on a stuck writer")
	}
	// What a stuck writer holds is bounded: the queue (4), and the lines
	// its 64 KiB buffer took before its first write blocked (it takes the
	// queue's decisions into the buffer while more arrive), one more half
	// written. The rest is dropped, and Record never waited.
	line, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	held := int64(4 + (64<<10)/(len(line)+1) + 1)
	if s.Dropped() < 1000-held {
		t.Errorf("dropped %d of 1000 with a queue of 4 and a 64 KiB buffer (%d at most held)", s.Dropped(), held)
	}
	close(w.release)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(w.buf.String()), "\n")
	if int64(len(lines)) != s.Written() || s.Written()+s.Dropped() != 1000 {
		t.Errorf("%d lines, written %d, dropped %d", len(lines), s.Written(), s.Dropped())
	}
	var back Decision
	if err := json.Unmarshal([]byte(lines[0]), &back); err != nil || back.Addr != d.Addr || back.Claimed != "GPTBot" || !back.Time.Equal(d.Time) {
		t.Errorf("line %q read back as %+v (%v)", lines[0], back, err)
	}
	s.Record(d) // after Close: dropped, no panic
	if s.Written()+s.Dropped() != 1001 {
		t.Errorf("a decision after Close was neither written nor dropped")
	}
}

func TestDecisionLogLine(t *testing.T) {
	var buf bytes.Buffer
	s := NewWriterSink(&buf, 0)
	front, _, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), "sha256:abc"), Identity: newFake(), TrustedProxies: loopback, Decisions: s, Policy: enforcePolicy(t, "")})
	get(t, front, uaGPTBot, addrVerified.String(), "/private/x?y=1")
	get(t, front, uaBrowser, addrVerified.String(), "/")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	line := strings.TrimSpace(buf.String())
	if strings.Count(line, "\n") != 0 {
		t.Fatalf("want one line (the browser's is not recorded by default), got %q", line)
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	id, _ := m["identity"].(map[string]any)
	for k, want := range map[string]any{
		"ip": "192.0.2.10", "host": "example.com", "path": "/private/x?y=1", "method": "GET",
		"user_agent": uaGPTBot, "claimed": "GPTBot", "outcome": "disallowed-verified",
		"allowed": false, "line": 2.0, "line_text": "Disallow: /private", "version": "sha256:abc",
		"action": "403", "would": "403", "mode": "enforce", "status": 403.0,
	} {
		if m[k] != want {
			t.Errorf("%s: %v, want %v", k, m[k], want)
		}
	}
	if id["outcome"] != "verified" || id["method"] != "ip-ranges" || id["reason"] == "" {
		t.Errorf("identity %v", id)
	}
	if _, ok := m["time"].(string); !ok {
		t.Errorf("time %v", m["time"])
	}
}

func TestRecordedFieldsClipped(t *testing.T) {
	sink := &memSink{}
	g, _ := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Decisions: sink})
	long := strings.Repeat("a", 100_000)
	r := httptest.NewRequest("GET", "/p?"+long, nil)
	r.Host = "h" + long
	r.Header.Set("User-Agent", uaGPTBot+" "+long)
	d := g.Decide(r)
	if len(d.Path) < 100_000 {
		t.Fatal("the decision itself is cut")
	}
	ds := sink.all()
	if len(ds) != 1 || len(ds[0].Path) != MaxLoggedField || len(ds[0].UserAgent) != MaxLoggedField || len(ds[0].Host) != MaxLoggedField {
		t.Fatalf("recorded %d decisions, fields %d %d %d bytes", len(ds), len(ds[0].Path), len(ds[0].UserAgent), len(ds[0].Host))
	}
}
