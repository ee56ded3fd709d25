package accesslog_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/guard"
)

const guardRobots = "User-agent: GPTBot\nDisallow: /private\n"

// decisionLog is a decision log the guard wrote: a GPTBot on a
// disallowed path and an allowed one, and a browser (RecordAll).
func decisionLog(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	sink := guard.NewWriterSink(&buf, 0)
	p, err := guard.ParsePolicy("p.toml", []byte("mode = \"enforce\"\nrecord = \"all\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 28, 3, 4, 5, 0, time.UTC)
	g, err := guard.Build(guard.Options{Robots: guard.NewStatic([]byte(guardRobots), "v7"), Decisions: sink, Policy: p, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	for _, rq := range []struct{ ua, path string }{
		{"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/private/a?b=1"},
		{"Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/open"},
		{"Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0", "/"},
	} {
		r := httptest.NewRequest("GET", "http://Example.com:8080"+rq.path, nil)
		r.RemoteAddr = "192.0.2.1:5555"
		r.Header.Set("User-Agent", rq.ua)
		g.Decide(r)
	}
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGuardDecisionLog(t *testing.T) {
	log := decisionLog(t)
	lines := bytes.Split(bytes.TrimSpace(log), []byte("\n"))
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), log)
	}
	// Detected from its first line alone.
	if f := accesslog.Detect(lines[:1]); f != accesslog.Guard {
		t.Fatalf("detected %v from %s", f, lines[0])
	}
	if f, err := accesslog.ParseFormat("decisions"); err != nil || f != accesslog.Guard || f.String() != "guard" {
		t.Fatalf("ParseFormat(decisions): %v %v", f, err)
	}
	p, err := accesslog.NewParser(accesslog.Guard, nil)
	if err != nil {
		t.Fatal(err)
	}
	var e accesslog.Entry
	if err := p.Parse(lines[0], &e); err != nil {
		t.Fatal(err)
	}
	if string(e.IP) != "192.0.2.1" || string(e.Target) != "/private/a?b=1" || string(e.Host) != "example.com" ||
		string(e.Method) != "GET" || !strings.Contains(string(e.UserAgent), "GPTBot/1.2") || e.Status != 403 ||
		!e.Time.Equal(time.Date(2026, 11, 28, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("entry ip %s target %s host %s method %s ua %s status %d time %v", e.IP, e.Target, e.Host, e.Method, e.UserAgent, e.Status, e.Time)
	}
	// The other JSON formats still read their own logs, not this one.
	if f := accesslog.Detect([][]byte{[]byte(`{"ip":"192.0.2.1","time":"2026-11-28T03:04:05Z","path":"/","user_agent":"x","status":200}`)}); f != accesslog.JSON {
		t.Errorf("a plain JSON log is detected as %v", f)
	}
}

// TestAuditReadsDecisionLog: robotstxt audit reads the guard's decision
// log as any other log, detecting it from its first line.
func TestAuditReadsDecisionLog(t *testing.T) {
	log := decisionLog(t)
	a, err := audit.New(&audit.Options{Versions: []audit.Version{{Source: "robots.txt", Robots: robotstxt.ParseString(guardRobots)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Scan(context.Background(), accesslog.NewScanner(bytes.NewReader(log), 0)); err != nil {
		t.Fatal(err)
	}
	r := a.Report()
	if r.Format != "guard" || r.Lines != 3 || r.Unparsed != 0 || r.Requests != 3 || r.CrawlerRequests != 2 || r.Disallowed != 1 {
		t.Errorf("report: format %s, %d lines, %d unparsed, %d requests, %d by crawlers, %d disallowed", r.Format, r.Lines, r.Unparsed, r.Requests, r.CrawlerRequests, r.Disallowed)
	}
}

// TestParseLeavesLineIntact: reading a nested object's fields (Caddy's
// "request": {"uri": ...}, the guard's "identity") must not write into
// the line: Detect parses the lines a Scanner peeks at, in its buffer.
// The nested names were built by appending to a slice of the line.
func TestParseLeavesLineIntact(t *testing.T) {
	for _, c := range []struct {
		f    accesslog.Format
		line string
	}{
		{accesslog.JSON, `{"request":{"remote_ip":"192.0.2.1","method":"GET","uri":"/a?b=1","headers":{"User-Agent":["GPTBot/1.2"]}},"status":200,"ts":1764298800.5}`},
		{accesslog.Guard, `{"time":"2026-11-28T03:01:00Z","ip":"192.0.2.1","path":"/p","user_agent":"GPTBot/1.2","claimed":"GPTBot","identity":{"crawler":"GPTBot","ip":"192.0.2.1","outcome":"verified","method":"ip-ranges","reason":"in its ranges"},"outcome":"disallowed-verified","allowed":false,"line":2,"line_text":"Disallow: /","version":"v1","action":"403","would":"403","mode":"enforce","status":403}`},
	} {
		p, err := accesslog.NewParser(c.f, nil)
		if err != nil {
			t.Fatal(err)
		}
		line := []byte(c.line)
		var e accesslog.Entry
		if err := p.Parse(line, &e); err != nil {
			t.Fatalf("%v: %v", c.f, err)
		}
		if string(line) != c.line {
			t.Errorf("%v: the line was written to:\n%s\nwas\n%s", c.f, line, c.line)
		}
		if c.f == accesslog.JSON && (string(e.Target) != "/a?b=1" || string(e.IP) != "192.0.2.1") {
			t.Errorf("nested fields: target %q ip %q", e.Target, e.IP)
		}
		if d := e.Decision; c.f == accesslog.Guard && (d == nil || string(d.IdentityOutcome) != "verified" || string(d.Outcome) != "disallowed-verified" ||
			!d.HasVerdict || d.Allowed || d.Line != 2 || string(d.LineText) != "Disallow: /" || string(d.Version) != "v1" ||
			string(d.Action) != "403" || string(d.Would) != "403" || string(d.Mode) != "enforce" || string(d.Claimed) != "GPTBot" ||
			!strings.HasPrefix(string(d.Identity), `{"crawler":"GPTBot"`) || !strings.HasSuffix(string(d.Identity), `"reason":"in its ranges"}`)) {
			t.Errorf("decision: %+v", d)
		}
	}
}
