package audit_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/verify"
)

const (
	gptUA    = "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	robotsV1 = "User-agent: GPTBot\nDisallow: /private\n"
	robotsV2 = "User-agent: GPTBot\nDisallow: /open\n"
)

// fakeIdentity verifies 192.0.2.1 and calls 203.0.113.9 a spoofer.
type fakeIdentity struct{}

func (fakeIdentity) Identify(_ context.Context, _ *http.Request, ip netip.Addr, c *robotstxt.Crawler) verify.Evidence {
	if ip == netip.MustParseAddr("203.0.113.9") {
		return verify.Evidence{Crawler: c.Name, IP: ip.String(), Outcome: "spoofed", Method: verify.MethodRanges,
			Lists: []verify.ListEvidence{{URL: "https://openai.com/gptbot.json"}}, Reason: "outside GPTBot's published address ranges"}
	}
	return verify.Evidence{Crawler: c.Name, IP: ip.String(), Outcome: "verified", Method: verify.MethodRanges, Reason: "in its ranges"}
}

var guardT0 = time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)

// guardLog is a decision log a real guard wrote: version v1 in enforce
// mode, then v2 in log mode.
func guardLog(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	sink := guard.NewWriterSink(&buf, 0)
	p, err := guard.ParsePolicy("p.toml", []byte("mode = \"enforce\"\nrecord = \"all\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	now := guardT0
	src := guard.NewStatic([]byte(robotsV1), "v1")
	g, err := guard.Build(guard.Options{Robots: src, Decisions: sink, Policy: p, Identity: fakeIdentity{}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(ip, ua, path string) {
		now = now.Add(time.Minute)
		r := httptest.NewRequest("GET", "http://example.com"+path, nil)
		r.RemoteAddr = ip + ":5555"
		r.Header.Set("User-Agent", ua)
		g.Decide(r)
	}
	ask("192.0.2.1", gptUA, "/private/a")   // disallowed-verified, 403
	ask("192.0.2.1", gptUA, "/open")        // pass
	ask("203.0.113.9", gptUA, "/private/b") // spoofed, 403
	ask("192.0.2.2", "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0", "/")
	ask("192.0.2.1", gptUA, "/robots.txt") // rules-path
	src.Set([]byte(robotsV2), "v2")
	lp, err := guard.ParsePolicy("p.toml", []byte("mode = \"log\"\nrecord = \"all\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	g.SetPolicy(lp)
	ask("192.0.2.1", gptUA, "/open")      // disallowed-verified, log (would 403)
	ask("192.0.2.1", gptUA, "/private/c") // pass
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func scan(t *testing.T, o *audit.Options, log []byte) *audit.Report {
	t.Helper()
	a, err := audit.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Scan(context.Background(), accesslog.NewScanner(bytes.NewReader(log), 0)); err != nil {
		t.Fatal(err)
	}
	return a.Report()
}

// TestRecordedGuardLog: a guard's decision log audited with no robots.txt
// is judged by the verdicts, versions and identities the guard recorded.
func TestRecordedGuardLog(t *testing.T) {
	log := guardLog(t)
	r := scan(t, &audit.Options{Recorded: true}, log)
	if r.Format != "guard" || r.Lines != 7 || r.Requests != 7 || r.CrawlerRequests != 6 || r.Judged != 5 || r.Disallowed != 3 || r.RobotsTxtRequests != 1 {
		t.Errorf("totals: format %s lines %d requests %d crawler %d judged %d disallowed %d robots %d",
			r.Format, r.Lines, r.Requests, r.CrawlerRequests, r.Judged, r.Disallowed, r.RobotsTxtRequests)
	}
	if len(r.Versions) != 2 {
		t.Fatalf("versions: %+v", r.Versions)
	}
	v1, v2 := r.Versions[0], r.Versions[1]
	if v1.Source != "v1" || v1.Judged != 3 || v1.Disallowed != 2 || v1.FirstSeen != "2026-11-28T03:01:00Z" || v1.LastSeen != "2026-11-28T03:03:00Z" || v1.From != v1.FirstSeen {
		t.Errorf("version 0: %+v", v1)
	}
	if v2.Source != "v2" || v2.Judged != 2 || v2.Disallowed != 1 || v2.FirstSeen != "2026-11-28T03:06:00Z" || v2.LastSeen != "2026-11-28T03:07:00Z" {
		t.Errorf("version 1: %+v", v2)
	}
	if len(r.Crawlers) != 1 {
		t.Fatalf("crawlers: %+v", r.Crawlers)
	}
	c := r.Crawlers[0]
	if c.Crawler != "GPTBot" || c.Requests != 6 || c.Disallowed != 3 || c.Verified != 5 || c.Spoofed != 1 || c.Unverified != 0 ||
		c.DisallowedVerified != 2 || c.DisallowedSpoofed != 1 || c.RobotsTxt != 1 || c.IPs != 2 {
		t.Errorf("GPTBot: %+v", c)
	}
	// The deciding lines are the guard's, each with its version.
	want := map[string]string{"/private/a": "v1 2 Disallow: /private", "/private/b": "v1 2 Disallow: /private", "/open": "v2 2 Disallow: /open"}
	for _, p := range c.TopDisallowed {
		if got := p.Source + " " + itoa(p.Line) + " " + p.Rule; got != want[p.Path] {
			t.Errorf("top path %s: %q, want %q", p.Path, got, want[p.Path])
		}
		delete(want, p.Path)
	}
	if len(want) > 0 {
		t.Errorf("top paths missing: %v", want)
	}
	if len(r.Spoofers) != 1 || r.Spoofers[0].IP != "203.0.113.9" || r.Spoofers[0].Requests != 1 || r.Spoofers[0].Disallowed != 1 ||
		r.Spoofers[0].Method != verify.MethodRanges || len(r.Spoofers[0].Evidence.Lists) != 1 || r.Spoofers[0].Reason != "outside GPTBot's published address ranges" {
		t.Errorf("spoofers: %+v", r.Spoofers)
	}
	if !r.Verification.Recorded || r.Verification.Enabled {
		t.Errorf("verification: %+v", r.Verification)
	}
	g := r.Guard
	if g == nil {
		t.Fatal("no guard figures")
	}
	if !g.Recorded || g.Decisions != 7 || g.Blocked != 2 || g.WouldBlock != 1 || g.Compared != 0 {
		t.Errorf("guard: %+v", g)
	}
	if g.Outcomes["disallowed-verified"] != 2 || g.Outcomes["pass"] != 2 || g.Outcomes["spoofed"] != 1 || g.Outcomes["not-crawler"] != 1 || g.Outcomes["rules-path"] != 1 {
		t.Errorf("outcomes: %v", g.Outcomes)
	}
	if g.Actions["403"] != 2 || g.Actions["log"] != 1 || g.Actions["allow"] != 4 || g.Would["403"] != 3 || g.Modes["enforce"] != 5 || g.Modes["log"] != 2 {
		t.Errorf("actions %v would %v modes %v", g.Actions, g.Would, g.Modes)
	}
	if len(g.Crawlers) != 1 || g.Crawlers[0] != (audit.GuardCrawler{Crawler: "GPTBot", Requests: 6, Blocked: 2, WouldBlock: 1}) {
		t.Errorf("guard crawlers: %+v", g.Crawlers)
	}
}

// TestGuardLogJudgedAgain: with a robots.txt given, a guard's log is
// judged again by it, as any log, and the verdicts that differ from the
// recorded ones are counted.
func TestGuardLogJudgedAgain(t *testing.T) {
	log := guardLog(t)
	r := scan(t, &audit.Options{Versions: []audit.Version{{Source: "robots.txt", Robots: robotstxt.ParseString(robotsV2)}}}, log)
	if r.Judged != 5 || r.Disallowed != 2 || r.Versions[0].FirstSeen != "" || r.Verification.Recorded {
		t.Errorf("judged %d disallowed %d versions %+v verification %+v", r.Judged, r.Disallowed, r.Versions, r.Verification)
	}
	g := r.Guard
	if g == nil || g.Recorded || g.Decisions != 7 || g.Blocked != 2 || g.WouldBlock != 1 {
		t.Fatalf("guard: %+v", g)
	}
	// /private/a and /private/b were disallowed by v1, allowed by v2;
	// the first /open the reverse; the last two agree.
	if g.Compared != 5 || g.Differs != 3 || g.NowAllowed != 2 || g.NowDisallowed != 1 {
		t.Errorf("compared %d differs %d now allowed %d now disallowed %d", g.Compared, g.Differs, g.NowAllowed, g.NowDisallowed)
	}
	// Judged by the file the guard enforced last, only the requests made
	// under v1 differ.
	r = scan(t, &audit.Options{Versions: []audit.Version{{Source: "v1", Robots: robotstxt.ParseString(robotsV1)}, {From: guardT0.Add(6 * time.Minute), Source: "v2", Robots: robotstxt.ParseString(robotsV2)}}}, log)
	if r.Guard.Compared != 5 || r.Guard.Differs != 0 || r.Disallowed != 3 {
		t.Errorf("with both versions: compared %d differs %d disallowed %d", r.Guard.Compared, r.Guard.Differs, r.Disallowed)
	}
}

// TestRecordedNeedsGuardLog: an audit of recorded verdicts refuses a log
// that records none, and another format named.
func TestRecordedNeedsGuardLog(t *testing.T) {
	a, err := audit.New(&audit.Options{Recorded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	combined := `192.0.2.1 - - [28/Nov/2026:03:00:00 +0000] "GET /x HTTP/1.1" 200 5 "-" "` + gptUA + `"` + "\n"
	err = a.Scan(context.Background(), accesslog.NewScanner(bytes.NewReader([]byte(combined)), 0))
	if !errors.Is(err, audit.ErrNoVerdicts) {
		t.Errorf("a combined log: %v", err)
	}
	if _, err := audit.New(&audit.Options{Recorded: true, Format: accesslog.Combined}); !errors.Is(err, audit.ErrNoVerdicts) {
		t.Errorf("--format combined: %v", err)
	}
	if _, err := audit.New(&audit.Options{Recorded: true, Versions: []audit.Version{{Robots: robotstxt.ParseString("")}}}); err == nil {
		t.Error("versions and Recorded both given: no error")
	}
	// AddLine alone counts the lines unparsed.
	b, _ := audit.New(&audit.Options{Recorded: true})
	defer b.Close()
	b.AddLine([]byte(combined[:len(combined)-1]))
	if r := b.Report(); r.Unparsed != 1 || r.Judged != 0 {
		t.Errorf("AddLine of a combined line: %d unparsed, %d judged", r.Unparsed, r.Judged)
	}
}

// TestRecordedVersionsBounded: a log naming ever new versions is told
// apart up to MaxRecordedVersions, the rest counted as one.
func TestRecordedVersionsBounded(t *testing.T) {
	var log bytes.Buffer
	n := audit.MaxRecordedVersions + 50
	for i := range n {
		log.WriteString(`{"time":"2026-11-28T03:00:00Z","ip":"192.0.2.1","host":"example.com","path":"/p","user_agent":"GPTBot/1.2","claimed":"GPTBot","outcome":"disallowed-unverified","allowed":false,"line":2,"line_text":"Disallow: /","version":"v` + itoa(i) + `","action":"log","would":"403","mode":"log"}` + "\n")
	}
	r := scan(t, &audit.Options{Recorded: true}, log.Bytes())
	if len(r.Versions) != audit.MaxRecordedVersions || r.Judged != int64(n) || r.Disallowed != int64(n) {
		t.Fatalf("%d versions, %d judged, %d disallowed", len(r.Versions), r.Judged, r.Disallowed)
	}
	if last := r.Versions[len(r.Versions)-1]; last.Judged != 51 {
		t.Errorf("the other versions: %+v", last)
	}
	if r.Guard.WouldBlock != int64(n) || r.Crawlers[0].Unverified != int64(n) {
		t.Errorf("would block %d, unverified %d", r.Guard.WouldBlock, r.Crawlers[0].Unverified)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// BenchmarkRecorded audits a guard's decision log by its records: 4,096
// decisions of 64 addresses, a third of them disallowed, a few spoofed.
func BenchmarkRecorded(b *testing.B) {
	var log bytes.Buffer
	outcomes := []string{`"outcome":"pass","allowed":true,"line":0`, `"outcome":"disallowed-verified","allowed":false,"line":2,"line_text":"Disallow: /private"`, `"outcome":"pass","allowed":true,"line":3,"line_text":"Allow: /"`}
	for i := range 4096 {
		id := "verified"
		if i%97 == 0 {
			id = "spoofed"
		}
		log.WriteString(`{"time":"2026-11-28T03:00:` + itoa(10+i%50) + `Z","ip":"192.0.2.` + itoa(i%64) + `","method":"GET","host":"example.com","path":"/private/` + itoa(i%500) + `","user_agent":"` + gptUA + `","claimed":"GPTBot","identity":{"crawler":"GPTBot","ip":"192.0.2.1","outcome":"` + id + `","method":"ip-ranges","reason":"r","checked":"2026-11-28T03:00:00Z"},` + outcomes[i%3] + `,"reason":"x","version":"sha256:3f5c0a9e1d27b4c8","action":"log","would":"403","mode":"log"}` + "\n")
	}
	b.SetBytes(int64(log.Len()))
	b.ReportAllocs()
	for b.Loop() {
		a, err := audit.New(&audit.Options{Recorded: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := a.Scan(context.Background(), accesslog.NewScanner(bytes.NewReader(log.Bytes()), 0)); err != nil {
			b.Fatal(err)
		}
		if r := a.Report(); r.Judged != 4096 {
			b.Fatalf("%d judged", r.Judged)
		}
		a.Close()
	}
	b.ReportMetric(float64(4096*b.N)/b.Elapsed().Seconds(), "lines/s")
}
