package audit

import (
	"bytes"
	"context"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/internal/loggen"
	"github.com/seed53c283f5/robotstxt/verify"
)

const (
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaChrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
)

func line(ip, when, path, ua string) string {
	return ip + ` - - [` + when + `] "GET ` + path + ` HTTP/1.1" 200 512 "-" "` + ua + `"`
}

func newAuditor(t testing.TB, o Options) *Auditor {
	t.Helper()
	a, err := New(&o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

func find(r *Report, name string) *CrawlerReport {
	for i := range r.Crawlers {
		if r.Crawlers[i].Crawler == name {
			return &r.Crawlers[i]
		}
	}
	return nil
}

// TestVersionInForce: a request before an edit is judged by the old
// file, one after by the new, each with its deciding line.
func TestVersionInForce(t *testing.T) {
	edit := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
	old := robotstxt.ParseString("User-agent: *\nDisallow: /old/\n")
	cur := robotstxt.ParseString("User-agent: *\nAllow: /old/\n\nUser-agent: Googlebot\nDisallow: /new/\n")
	a := newAuditor(t, Options{Versions: []Version{
		{From: edit, Source: "new.txt", Robots: cur},
		{From: edit.Add(-30 * 24 * time.Hour), Source: "old.txt", Robots: old},
	}})
	for _, l := range []string{
		line("66.249.66.1", "10/Nov/2026:11:59:59 +0000", "/old/a", uaGooglebot), // old: disallowed
		line("66.249.66.1", "10/Nov/2026:11:59:59 +0000", "/new/a", uaGooglebot), // old: allowed
		line("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/old/a", uaGooglebot), // new: allowed
		line("66.249.66.1", "10/Nov/2026:13:00:00 +0100", "/new/b", uaGooglebot), // 12:00 UTC, new: disallowed
		line("66.249.66.1", "01/Jan/2026:00:00:00 +0000", "/old/z", uaGooglebot), // before both: the oldest
		line("66.249.66.1", "10/Nov/2026:14:00:00 +0000", "/robots.txt", uaGooglebot),
		line("198.51.100.1", "10/Nov/2026:14:00:00 +0000", "/old/a", uaChrome),
	} {
		a.AddLine([]byte(l))
	}
	r := a.Report()
	gb := find(r, "Googlebot")
	if gb == nil || gb.Requests != 6 || gb.Disallowed != 3 || gb.RobotsTxt != 1 {
		t.Fatalf("Googlebot: %+v", gb)
	}
	got := map[string]PathReport{}
	for _, p := range gb.TopDisallowed {
		got[p.Path] = p
	}
	if p := got["/old/a"]; p.Source != "old.txt" || p.Line != 2 || p.Rule != "Disallow: /old/" || p.Count != 1 {
		t.Errorf("/old/a: %+v", p)
	}
	if p := got["/new/b"]; p.Source != "new.txt" || p.Line != 5 || p.Version != 1 {
		t.Errorf("/new/b: %+v", p)
	}
	if _, ok := got["/new/a"]; ok {
		t.Error("/new/a before the edit was judged by the new file")
	}
	if r.Versions[0].Judged != 3 || r.Versions[1].Judged != 2 || r.Versions[0].Source != "old.txt" {
		t.Errorf("versions: %+v", r.Versions)
	}
	if r.Requests != 7 || r.CrawlerRequests != 6 || r.Disallowed != 3 {
		t.Errorf("totals: %+v", r)
	}
}

// TestDialectAndFallback: each crawler is judged in its own dialect with
// its fallbacks: Googlebot-Image falls back to Googlebot's group.
func TestDialectAndFallback(t *testing.T) {
	r := robotstxt.ParseString("User-agent: Googlebot\nDisallow: /img/\n\nUser-agent: *\nDisallow: /\n")
	a := newAuditor(t, Options{Versions: []Version{{Source: "robots.txt", Robots: r}}})
	a.AddLine([]byte(line("66.249.66.2", "10/Nov/2026:12:00:00 +0000", "/img/a.png", "Googlebot-Image/1.0")))
	a.AddLine([]byte(line("66.249.66.2", "10/Nov/2026:12:00:00 +0000", "/page", "Googlebot-Image/1.0")))
	a.AddLine([]byte(line("20.171.1.1", "10/Nov/2026:12:00:00 +0000", "/page", uaGPTBot)))
	rep := a.Report()
	if c := find(rep, "Googlebot-Image"); c == nil || c.Disallowed != 1 || c.TopDisallowed[0].Line != 2 {
		t.Errorf("Googlebot-Image: %+v", c)
	}
	if c := find(rep, "GPTBot"); c == nil || c.Disallowed != 1 || c.TopDisallowed[0].Line != 5 {
		t.Errorf("GPTBot: %+v", c)
	}
}

func TestIdentify(t *testing.T) {
	cat := NewCatalogue(nil)
	for ua, want := range map[string]string{
		uaGooglebot: "Googlebot",
		"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": "Googlebot",
		"Googlebot-Image/1.0": "Googlebot-Image",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)": "Bingbot",
		uaGPTBot: "GPTBot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot":                                                                 "ChatGPT-User",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)": "Applebot",
		uaChrome:               "",
		"python-requests/2.32": "",
		"Google-Extended":      "", // a control token fetches nothing
	} {
		got := ""
		if i := cat.Identify(ua); i >= 0 {
			got = cat.Crawler(i).Name
		}
		if got != want {
			t.Errorf("Identify(%.50q) = %q, want %q", ua, got, want)
		}
	}
	for ua, want := range map[string]bool{"python-requests/2.32": true, "": true, uaChrome: false, "Mozilla/5.0 (compatible; FooBot/1.0)": true} {
		if BotLike(ua) != want {
			t.Errorf("BotLike(%q) = %v", ua, !want)
		}
	}
}

// TestIdentity: each outcome, from published ranges (no DNS).
func TestIdentity(t *testing.T) {
	v := verify.New(&verify.Options{NoDNS: true})
	v.AddRanges("Googlebot", verify.NewRanges([]netip.Prefix{netip.MustParsePrefix("66.249.64.0/19")}))
	a := newAuditor(t, Options{Versions: []Version{{Robots: robotstxt.ParseString("User-agent: *\nDisallow: /p/\n")}}, Verifier: v, UnknownBots: true})
	for _, l := range []string{
		line("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/p/1", uaGooglebot),   // verified
		line("66.249.66.1", "10/Nov/2026:12:00:01 +0000", "/a", uaGooglebot),     // verified
		line("203.0.113.9", "10/Nov/2026:12:00:02 +0000", "/p/2", uaGooglebot),   // spoofed
		line("20.171.1.1", "10/Nov/2026:12:00:03 +0000", "/p/3", uaGPTBot),       // unverified: no ranges
		line("not-an-ip", "10/Nov/2026:12:00:04 +0000", "/a", uaGooglebot),       // unverified
		line("198.51.100.1", "10/Nov/2026:12:00:05 +0000", "/p/1", "curl/8.5.0"), // unknown bot
	} {
		a.AddLine([]byte(l))
	}
	r := a.Report()
	gb := find(r, "Googlebot")
	if gb.Verified != 2 || gb.Spoofed != 1 || gb.Unverified != 1 || gb.DisallowedVerified != 1 || gb.DisallowedSpoofed != 1 {
		t.Errorf("Googlebot: %+v", gb)
	}
	if g := find(r, "GPTBot"); g.Unverified != 1 || g.DisallowedUnverified != 1 {
		t.Errorf("GPTBot: %+v", g)
	}
	if len(r.Spoofers) != 1 || r.Spoofers[0].IP != "203.0.113.9" || r.Spoofers[0].Disallowed != 1 || r.Spoofers[0].Method != "ip-ranges" {
		t.Errorf("spoofers: %+v", r.Spoofers)
	}
	if len(r.UnknownBots) != 1 || r.UnknownBots[0].Agent != "curl/8.5.0" {
		t.Errorf("unknown bots: %+v", r.UnknownBots)
	}
}

func TestMalformedAndFormats(t *testing.T) {
	rb := robotstxt.ParseString("User-agent: *\nDisallow: /x\n")
	logs := map[string]string{
		"combined":   line("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/x", uaGooglebot) + "\nnot a log line\n\n",
		"json":       `{"ip":"66.249.66.1","time":"2026-11-10T12:00:00Z","path":"/x","user_agent":"Googlebot/2.1"}` + "\n{broken\n",
		"cloudflare": `{"ClientIP":"66.249.66.1","ClientRequestURI":"/x","ClientRequestUserAgent":"Googlebot/2.1","EdgeStartTimestamp":"2026-11-10T12:00:00Z"}` + "\n[]\n",
	}
	for name, log := range logs {
		a := newAuditor(t, Options{Versions: []Version{{Robots: rb}}})
		if err := a.Scan(context.Background(), accesslog.NewScanner(strings.NewReader(log), 0)); err != nil {
			t.Fatal(err)
		}
		r := a.Report()
		if r.Format != name || r.Lines != 2 || r.Unparsed != 1 || r.Disallowed != 1 || len(r.UnparsedSamples) != 1 || r.UnparsedSamples[0].Line != 2 {
			t.Errorf("%s: format %s lines %d unparsed %d disallowed %d samples %+v", name, r.Format, r.Lines, r.Unparsed, r.Disallowed, r.UnparsedSamples)
		}
	}
}

func TestTopKBounded(t *testing.T) {
	k := newTopK(10)
	for i := range 100000 {
		key := []byte("/p/" + string(rune('a'+i%26)) + strings.Repeat("x", i%1000))
		if i%3 == 0 {
			key = []byte("/hot")
		}
		k.add(key)
	}
	if len(k.m) > 10 || len(k.h) > 10 {
		t.Fatalf("%d counters kept, bound 10", len(k.m))
	}
	top := k.top(1)
	if top[0].key != "/hot" || top[0].count-top[0].err > 33334 || top[0].count < 33334 {
		t.Errorf("top: %+v", top[0])
	}
}

// TestBoundedState: many distinct agents, paths and addresses stay
// within the limits.
func TestBoundedState(t *testing.T) {
	a := newAuditor(t, Options{Versions: []Version{{Robots: robotstxt.ParseString("User-agent: *\nDisallow: /\n")}}, MaxAgents: 64, MaxPaths: 32, MaxIPs: 50, TopCounters: 16, UnknownBots: true})
	var b bytes.Buffer
	for i := range 5000 {
		b.Reset()
		b.WriteString(line("10.0."+itoa(i/250)+"."+itoa(i%250), "10/Nov/2026:12:00:00 +0000", "/p/"+itoa(i), uaGooglebot))
		a.AddLine(b.Bytes())
		b.Reset()
		b.WriteString(line("10.1.0.1", "10/Nov/2026:12:00:00 +0000", "/", "Bot"+itoa(i)+"/1.0"))
		a.AddLine(b.Bytes())
	}
	cs := a.crawlers[a.cat.Identify(uaGooglebot)]
	if len(a.agents)+len(a.agentsOld) > 64 || len(cs.verdicts[0])+len(cs.oldVerd[0]) > 32 || len(a.ips) > 50 || len(cs.top.m) > 16 || len(a.unknown.m) > 16 {
		t.Errorf("state past its bounds: agents %d+%d verdicts %d+%d ips %d top %d unknown %d", len(a.agents), len(a.agentsOld), len(cs.verdicts[0]), len(cs.oldVerd[0]), len(a.ips), len(cs.top.m), len(a.unknown.m))
	}
	r := a.Report()
	if r.Verification.UntrackedRequests != 5000-50 || find(r, "Googlebot").Unverified != 5000 || r.Disallowed != 5000 {
		t.Errorf("untracked %d, %+v", r.Verification.UntrackedRequests, find(r, "Googlebot"))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestGenerated: the generated log's crawlers are found and judged.
func TestGenerated(t *testing.T) {
	var b bytes.Buffer
	n, _ := loggen.Write(&b, 2<<20, 1)
	a := newAuditor(t, Options{Versions: []Version{{Robots: robotstxt.ParseString(loggen.Robots)}}})
	if err := a.Scan(context.Background(), accesslog.NewScanner(&b, 0)); err != nil {
		t.Fatal(err)
	}
	r := a.Report()
	if r.Lines != n || r.Unparsed != 0 || r.Format != "combined" {
		t.Fatalf("lines %d of %d, unparsed %d, format %s", r.Lines, n, r.Unparsed, r.Format)
	}
	for _, name := range []string{"Googlebot", "Bingbot", "GPTBot", "ClaudeBot", "AhrefsBot", "Applebot", "CCBot", "Googlebot-Image"} {
		c := find(r, name)
		if c == nil || c.Requests == 0 {
			t.Errorf("%s not found", name)
		}
	}
	if g := find(r, "GPTBot"); g.Disallowed != g.Requests-g.RobotsTxt {
		t.Errorf("GPTBot: %d of %d disallowed (all but robots.txt should be)", g.Disallowed, g.Requests)
	}
}

// FuzzAddLine: no line crashes the auditor, in any format, and every
// line is counted once.
func FuzzAddLine(f *testing.F) {
	f.Add(line("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/p/1", uaGooglebot))
	f.Add(`{"ip":"::1","time":1794315336,"path":"http://x/robots.txt?a","ua":"GPTBot"}`)
	f.Add(`{"ClientIP":"1.2.3.4","ClientRequestURI":"*","ClientRequestUserAgent":"Mozilla/5.0 (compatible; bingbot/2.0)"}`)
	rb := robotstxt.ParseString("User-agent: *\nDisallow: /p/\nAllow: /p/$\n\nUser-agent: Googlebot\nDisallow: /*.pdf$\n")
	f.Fuzz(func(t *testing.T, l string) {
		for _, fm := range []accesslog.Format{accesslog.Auto, accesslog.Combined, accesslog.JSON, accesslog.Cloudflare} {
			a, err := New(&Options{Versions: []Version{{Robots: rb}, {From: time.Unix(1794315336, 0), Robots: rb}}, Format: fm, UnknownBots: true})
			if err != nil {
				t.Fatal(err)
			}
			a.AddLine([]byte(l))
			a.AddLine([]byte(l))
			r := a.Report()
			a.Close()
			if blank := strings.TrimSpace(l) == ""; !blank && r.Lines != 2 {
				t.Fatalf("%v: %d lines counted of 2", fm, r.Lines)
			}
			if r.Disallowed > r.Judged || r.CrawlerRequests > r.Requests || r.Requests+r.Unparsed != r.Lines {
				t.Fatalf("%v: inconsistent counts %+v", fm, r)
			}
		}
	})
}

// TestAnswerOf: a 402 is priced (a price, not a refusal), decided as
// fetch.PaymentOf decides it; 401, 403, 407 and 451 are refused; 1xx to 3xx
// served; the rest counted in none.
func TestAnswerOf(t *testing.T) {
	for code, want := range map[int]Answer{
		0: Unanswered, 200: Served, 204: Served, 301: Served, 304: Served, 101: Served,
		402: Priced, 401: Refused, 403: Refused, 407: Refused, 451: Refused,
		400: Unanswered, 404: Unanswered, 429: Unanswered, 500: Unanswered, 503: Unanswered, 999: Unanswered,
	} {
		if got := AnswerOf(code); got != want {
			t.Errorf("AnswerOf(%d) = %v, want %v", code, got, want)
		}
	}
}
