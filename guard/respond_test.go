package guard

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/verify"
)

// TestRespondAllocs: answering a refusal (403, 402 with the policy's
// price, 429 with Retry-After) allocates nothing: header values built
// once, the body built in a pooled buffer. The answers are the same as
// answerText and the policy say.
func TestRespondAllocs(t *testing.T) {
	p, err := ParsePolicy("t.toml", []byte("mode = \"enforce\"\nprice = \"USD 0.01\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/private/x", nil)
	for _, d := range []Decision{
		{Outcome: OutcomeDisallowedVerified, Reason: "the longest matching rule, line 3, disallowed", Line: 3, LineText: "Disallow: /private/", Action: Action403},
		{Outcome: OutcomePreferenceRefused, Reason: "train-ai=n", Action: Action402, Price: p.Price},
		{Outcome: OutcomeOverCrawlDelay, Reason: "back sooner", Line: 7, LineText: "Crawl-delay: 2", Action: Action429, RetryAfter: 2},
	} {
		w := &discardWriter{h: http.Header{}}
		if n := testing.AllocsPerRun(100, func() { clear(w.h); g.Respond(w, r, &d) }); n != 0 {
			t.Errorf("%s: %v allocations, want 0", d.Action, n)
		}
		rec := httptest.NewRecorder()
		g.Respond(rec, r, &d)
		if rec.Body.String() != answerText(&d) || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" || rec.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %q %v", d.Action, rec.Body.String(), rec.Header())
		}
		// The shared values are not written into by a later Add.
		rec.Header().Add("Cache-Control", "private")
		rec.Header().Add("Retry-After", "9")
		if textPlain[0] != "text/plain; charset=utf-8" || len(noStore) != 1 || len(secondsValue(2)) != 1 || noStore[0] != "no-store" {
			t.Errorf("a shared header value changed: %q %q %q", textPlain, noStore, secondsValue(2))
		}
	}
	if got := answerText(&Decision{Outcome: OutcomeSpoofed, Reason: "not it", Line: 12, LineText: "Disallow: /"}); got != "spoofed: not it (robots.txt line 12: Disallow: /)\n" {
		t.Errorf("answerText: %q", got)
	}
	if v := secondsValue(3600); len(v) != 1 || v[0] != "3600" {
		t.Errorf("secondsValue(3600) = %q", v)
	}
}

// TestFileSinkLinesAreMarshalJSON: each line the FileSink writes is byte
// for byte Decision.MarshalJSON's (HTML characters escaped as
// json.Marshal does, the identity only when a crawler was claimed, the
// address unmapped), though the sink encodes without MarshalJSON's
// second pass.
func TestFileSinkLinesAreMarshalJSON(t *testing.T) {
	at := time.Date(2026, 11, 28, 3, 0, 0, 5, time.FixedZone("x", 3600))
	ds := []Decision{
		{Time: at, Addr: netip.MustParseAddr("::ffff:192.0.2.1"), Method: "GET", Host: "a.example", Path: "/x?<b>&c",
			UserAgent: "Mozilla/5.0 <script>\u2028 \"GPTBot\"", Claimed: "GPTBot",
			Identity: verify.Evidence{Crawler: "GPTBot", IP: "192.0.2.1", Outcome: "spoofed", Method: verify.MethodRanges, Reason: "not in <its> ranges & more", Checked: at},
			Outcome:  OutcomeSpoofed, Line: 3, LineText: "Disallow: /x<y>", Reason: "the identity check says", Version: "sha256:ab",
			Action: Action403, Would: Action403, Mode: ModeEnforce, Status: 403},
		{Time: at, Path: "/", UserAgent: "curl/8", Outcome: OutcomeNotCrawler, Allowed: true, Action: ActionAllow, Would: ActionAllow},
		{Time: at, Addr: netip.MustParseAddr("2001:db8::1"), Claimed: "CCBot", Identity: verify.Evidence{Crawler: "CCBot", Outcome: "unverified"},
			Outcome: OutcomePreferenceRefused, Action: Action402, Would: Action402, Status: 402, Price: "USD 0.01"},
		{Time: at, Claimed: "Bingbot", Identity: verify.Evidence{Outcome: "verified"}, Outcome: OutcomeOverCrawlDelay, Action: Action429, Would: Action429, Status: 429, RetryAfter: 2},
	}
	var buf bytes.Buffer
	s := NewWriterSink(&buf, 16)
	var want bytes.Buffer
	for _, d := range ds {
		s.Record(d)
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		want.Write(b)
		want.WriteByte('\n')
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want.String() {
		t.Errorf("the sink wrote\n%s\nMarshalJSON gives\n%s", buf.String(), want.String())
	}
}
