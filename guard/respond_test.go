package guard

import (
	"net/http"
	"net/http/httptest"
	"testing"
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
