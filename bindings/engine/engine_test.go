package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

const file = `User-agent: Googlebot
Disallow: /private/
Allow: /private/press/

User-agent: *
Disallow: /tmp/
Crawl-delay: 5
Request-rate: 1/10s
Visit-time: 0600-0845
Content-Usage: train-ai=n
Content-Signal: search=yes, ai-train=no

Host: example.com
Sitemap: https://example.com/sitemap.xml
`

func mustParse(t testing.TB, body string) int64 {
	t.Helper()
	h, err := Parse([]byte(body))
	if err != nil || h <= 0 {
		t.Fatalf("Parse: %d, %v", h, err)
	}
	t.Cleanup(func() { Free(h) })
	return h
}

func TestAsk(t *testing.T) {
	h := mustParse(t, file)
	for _, c := range []struct {
		agent   string
		kind    int
		url     string
		allowed bool
		line    int
	}{
		{"Googlebot", AgentToken, "https://example.com/private/x", false, 2},
		{"Googlebot", AgentToken, "https://example.com/private/press/1", true, 3},
		{"Googlebot", AgentToken, "https://example.com/tmp/x", true, 0},
		{"GPTBot", AgentToken, "https://example.com/tmp/x", false, 6},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", AgentHeader, "/private/x", false, 2},
		{"Googlebot/2.1", AgentHeader, "/private/x", false, 2},
		// Googlebot-Image falls back to Googlebot's group.
		{"Googlebot-Image", AgentCrawler, "/private/x", false, 2},
		// As a bare token, it has no group of its own: the '*' group.
		{"Googlebot-Image", AgentToken, "/private/x", true, 0},
	} {
		allowed, line, err := Ask(h, c.agent, c.kind, c.url, 0)
		if err != nil || allowed != c.allowed || line != c.line {
			t.Errorf("Ask(%q, kind %d, %q) = %v line %d (%v), want %v line %d", c.agent, c.kind, c.url, allowed, line, err, c.allowed, c.line)
		}
		if allowed, err := Allowed(h, c.agent, c.kind, c.url, 0); err != nil || allowed != c.allowed {
			t.Errorf("Allowed(%q, kind %d, %q) = %v (%v), want %v", c.agent, c.kind, c.url, allowed, err, c.allowed)
		}
	}
}

func TestErrors(t *testing.T) {
	h := mustParse(t, file)
	if _, _, err := Ask(h+1000, "a", 0, "/", 0); err != ErrHandle {
		t.Errorf("unknown handle: %v", err)
	}
	if _, _, err := Ask(h, "NoSuchCrawlerAtAll", AgentCrawler, "/", 0); err == nil || !strings.Contains(err.Error(), "unknown crawler") {
		t.Errorf("unknown crawler: %v", err)
	}
	if _, _, err := Ask(h, "a", 7, "/", 0); err == nil {
		t.Error("agent kind 7 accepted")
	}
	if _, _, err := Ask(h, "a", 0, "/", 99); err == nil {
		t.Error("dialect 99 accepted")
	}
	if _, _, err := ForStatus(-1, "", nil, 0); err == nil {
		t.Error("status -1 accepted")
	}
	if d, err := Dialect("bing"); d != 3 || err != nil {
		t.Errorf("Dialect(bing) = %d, %v", d, err)
	}
	if _, err := Dialect("klingon"); err == nil {
		t.Error("dialect klingon accepted")
	}
	Free(h)
	if _, err := Info(h); err != ErrHandle {
		t.Errorf("freed handle: %v", err)
	}
	Free(h) // a second free does nothing
}

func decode(t *testing.T, b []byte, err error, v any) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

func TestDecideJSON(t *testing.T) {
	h := mustParse(t, file)
	var d DecisionJSON
	b, err := Decide(h, "Googlebot", AgentToken, "https://example.com/private/press/a", 0)
	decode(t, b, err, &d)
	if !d.Allowed || d.Line != 3 || d.Rule == nil || d.Rule.Text != "Allow: /private/press/" || d.Group.Kind != "specific" || d.Dialect != "google" {
		t.Errorf("%s", b)
	}
	b, err = Decide(h, "bingbot", AgentCrawler, "/tmp/a", 0)
	decode(t, b, err, &d)
	if d.Allowed || d.Line != 6 || d.Dialect != "bing" || d.CrawlDelay == nil || *d.CrawlDelay != 5 {
		t.Errorf("bingbot: %s", b)
	}
	b, err = Decide(h, "x", AgentToken, "/free", 0)
	decode(t, b, err, &d)
	if !d.Allowed || d.Rule != nil || d.Line != 0 {
		t.Errorf("no rule: %s", b)
	}
}

func TestPaceInfoUsage(t *testing.T) {
	h := mustParse(t, file)
	var p PaceJSON
	b, err := Pace(h, "ExampleBot", AgentToken, 0)
	decode(t, b, err, &p)
	if p.CrawlDelay == nil || *p.CrawlDelay != 5 || p.CrawlDelayLine != 7 || p.RequestRate == nil || p.RequestRate.Seconds != 10 ||
		p.VisitTime == nil || p.VisitTime.From != "0600" || p.VisitTime.To != "0845" || p.VisitTime.Line != 9 {
		t.Errorf("pace: %s", b)
	}
	b, err = Pace(h, "Googlebot", AgentCrawler, 0)
	decode(t, b, err, &p)
	if !p.Ignored || p.IntervalSeconds != 0 {
		t.Errorf("Googlebot pace: %s", b)
	}
	var in InfoJSON
	b, err = Info(h)
	decode(t, b, err, &in)
	if in.Policy != "rules" || len(in.Sitemaps) != 1 || in.Sitemaps[0].Line != 14 || len(in.Hosts) != 1 || in.Hosts[0].Value != "example.com" {
		t.Errorf("info: %s", b)
	}
	b, err = Usage(h, "ExampleBot", AgentToken, "/a", 0)
	if err != nil || string(b) != `{"allowed":true,"line":0,"usage":{"lines":[10],"search":"unknown","train-ai":"n"},"signals":{"ai-input":null,"ai-train":"no","line":11,"search":"yes"}}` {
		t.Errorf("usage: %s %v", b, err)
	}
	b, err = Usage(h, "ExampleBot", AgentToken, "/tmp/a", 0)
	if err != nil || !strings.Contains(string(b), `"allowed":false,"line":6,"usage":null`) {
		t.Errorf("usage of a disallowed URL: %s %v", b, err)
	}
}

func TestForStatus(t *testing.T) {
	for _, c := range []struct {
		status  int
		dialect int
		policy  string
		allowed bool
	}{
		{200, 0, "rules", false},
		{404, 0, "allow-all", true},
		{503, 0, "disallow-all", false},
		{0, 0, "disallow-all", false},
		{429, 0, "disallow-all", false},
		{429, 2, "allow-all", true}, // RFC 9309 reads 429 as a 4xx
		{403, 0, "allow-all", true},
		{403, 6, "disallow-all", false}, // Baidu reads refused access as disallow all
		{503, 4, "allow-all", true},     // Yandex: any answer but 200 means no restrictions
	} {
		h, n, err := ForStatus(c.status, "text/plain", []byte("User-agent: *\nDisallow: /x\n"), c.dialect)
		policy := []string{"", "rules", "allow-all", "disallow-all"}[n]
		if err != nil || policy != c.policy {
			t.Errorf("%d dialect %d: %q %v, want %q", c.status, c.dialect, policy, err, c.policy)
			continue
		}
		allowed, _, err := Ask(h, "AnyBot", AgentToken, "https://example.com/x", 0)
		if err != nil || allowed != c.allowed {
			t.Errorf("%d dialect %d: allowed %v %v, want %v", c.status, c.dialect, allowed, err, c.allowed)
		}
		if allowed, err := Allowed(h, "AnyBot", AgentHeader, "https://example.com/x", 0); err != nil || allowed != c.allowed {
			t.Errorf("%d dialect %d: Allowed %v %v, want %v", c.status, c.dialect, allowed, err, c.allowed)
		}
		// A crawler that fetches /robots.txt may always fetch it.
		if allowed, _, _ := Ask(h, "AnyBot", AgentToken, "https://example.com/robots.txt", 0); !allowed && c.policy != "rules" {
			t.Errorf("%d: /robots.txt disallowed", c.status)
		}
		var in InfoJSON
		b, err := Info(h)
		decode(t, b, err, &in)
		if in.Policy != c.policy || in.Reason == "" {
			t.Errorf("%d info: %s", c.status, b)
		}
		if _, err := Usage(h, "AnyBot", AgentToken, "/x", 0); err != nil {
			t.Error(err)
		}
		if _, err := Pace(h, "AnyBot", AgentToken, 0); err != nil {
			t.Error(err)
		}
		Free(h)
	}
}

func TestParseConcurrent(t *testing.T) {
	h := mustParse(t, file)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			ok := true
			for i := 0; i < 500; i++ {
				a, l, err := Ask(h, []string{"Googlebot", "GPTBot", "x"}[i%3], 0, "/private/x", 0)
				ok = ok && err == nil && (a == (i%3 != 0)) && (l == 2) == (i%3 == 0)
				h2, _ := Parse([]byte("User-agent: *\nDisallow: /\n"))
				Free(h2)
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		if !<-done {
			t.Error("a concurrent answer was wrong")
		}
	}
}

// FuzzEngine drives every function of the bindings' Go side with arbitrary
// bytes: none may panic (guard would turn a panic into an error, which the
// fuzzer reports too), every JSON answer must decode, and a handle must
// answer until it is freed.
func FuzzEngine(f *testing.F) {
	f.Add([]byte(file), "Googlebot", "/private/x", 0, 0, 200, "text/plain")
	f.Add([]byte("User-agent: *\nDisallow: /*.pdf$\n"), "Mozilla/5.0 (compatible; x/1)", "/a.pdf", 1, 2, 503, "")
	f.Add([]byte("\xef\xbb\xbfuser-agent bingbot\ndisallow /\x00"), "bingbot", "", 2, 3, 0, "text/html")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string, kind, dialect, status int, ct string) {
		before := Alive()
		h, err := Parse(body)
		if err != nil {
			t.Fatal(err)
		}
		check := func(h int64) {
			a1, _, err := Ask(h, agent, kind, url, dialect)
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			a2, err2 := Allowed(h, agent, kind, url, dialect)
			if (err == nil) != (err2 == nil) || err == nil && a1 != a2 {
				t.Fatalf("Ask %v (%v), Allowed %v (%v)", a1, err, a2, err2)
			}
			for _, f := range []func() ([]byte, error){
				func() ([]byte, error) { return Decide(h, agent, kind, url, dialect) },
				func() ([]byte, error) { return Pace(h, agent, kind, dialect) },
				func() ([]byte, error) { return Usage(h, agent, kind, url, dialect) },
				func() ([]byte, error) { return Info(h) },
				func() ([]byte, error) { return Sitemaps(h) },
			} {
				b, err := f()
				if err != nil {
					if strings.Contains(err.Error(), "internal error") {
						t.Fatal(err)
					}
					continue
				}
				if !json.Valid(b) {
					t.Fatalf("invalid JSON %q", b)
				}
			}
		}
		check(h)
		Free(h)
		h, _, err = ForStatus(status, ct, body, dialect)
		if err == nil {
			check(h)
			Free(h)
		} else if strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
		if Alive() != before {
			t.Fatalf("%d handles alive, %d before", Alive(), before)
		}
	})
}
