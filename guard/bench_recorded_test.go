package guard

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed53c283f5/robotstxt/internal/cputime"
	"github.com/seed53c283f5/robotstxt/verify"
)

// BenchmarkGuardRecorded is BenchmarkGuard's refused request with what a
// deployment adds: the Prometheus metrics and the decision log (a
// FileSink writing to io.Discard, its queue large enough to drop
// nothing while the writer keeps up). The writer's encoding runs on its
// own goroutine and counts in cpu-ns/op, not in the request's path.
func BenchmarkGuardRecorded(b *testing.B) {
	ip := netip.MustParseAddr("66.249.66.1")
	id := cachedIdentity{ip: {Crawler: "Googlebot", IP: ip.String(), Outcome: "verified", Method: verify.MethodRanges, Reason: "in its ranges"}}
	p, err := ParsePolicy("bench.toml", []byte("mode = \"enforce\"\n"))
	if err != nil {
		b.Fatal(err)
	}
	sink := NewWriterSink(io.Discard, 1<<16)
	defer sink.Close()
	g, err := Build(Options{Robots: NewStatic([]byte(benchRobots), ""), Identity: id, Policy: p,
		Metrics: prometheus.NewRegistry(), Decisions: sink})
	if err != nil {
		b.Fatal(err)
	}
	h := g.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r := httptest.NewRequest("GET", "http://example.com/search?q=shoes", nil)
	r.RequestURI = "/search?q=shoes"
	r.RemoteAddr = ip.String() + ":41234"
	r.Header.Set("User-Agent", uaGooglebot)
	w := &discardWriter{h: http.Header{}}
	h.ServeHTTP(w, r)
	b.ReportAllocs()
	cpu := cputime.Process()
	for b.Loop() {
		clear(w.h)
		h.ServeHTTP(w, r)
	}
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(sink.Dropped()), "dropped")
}

// BenchmarkDecisionLogLine is the decision log writer's work per line:
// "marshaler" encodes the Decision through its MarshalJSON, as the
// FileSink did (json.Marshal, then the encoder checks and copies the
// result); "direct" encodes its logged form, as the FileSink does now.
// The lines are the same bytes (TestFileSinkLinesAreMarshalJSON).
func BenchmarkDecisionLogLine(b *testing.B) {
	at := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	d := Decision{Time: at, Addr: netip.MustParseAddr("66.249.66.1"), Method: "GET", Host: "example.com", Path: "/search?q=shoes",
		UserAgent: uaGooglebot, Claimed: "Googlebot",
		Identity: verify.Evidence{Crawler: "Googlebot", IP: "66.249.66.1", Outcome: "verified", Method: verify.MethodRanges, Reason: "in its ranges", Checked: at},
		Outcome:  OutcomeDisallowedVerified, Line: 9, LineText: "Disallow: /search", Reason: "the longest matching rule, line 9, disallowed",
		Version: "sha256:0123456789abcdef", Action: Action403, Would: Action403, Mode: ModeEnforce, Status: 403}
	b.Run("marshaler", func(b *testing.B) {
		enc := json.NewEncoder(io.Discard)
		enc.SetEscapeHTML(false)
		b.ReportAllocs()
		for b.Loop() {
			if err := enc.Encode(d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		enc := json.NewEncoder(io.Discard)
		b.ReportAllocs()
		for b.Loop() {
			if err := enc.Encode(d.logged()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
