package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// probeFile is the robots.txt the test sites serve their crawlers.
const probeFile = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"

// probeCrawlerSet are the crawlers the tests ask as.
const probeCrawlerSet = "Googlebot,Googlebot-Image,Bingbot,GPTBot,ClaudeBot,CCBot,Bytespider,PerplexityBot,DuckDuckBot,Applebot"

// runProbeJSON runs probe with --json and reads the report.
func runProbeJSON(t *testing.T, args ...string) (int, probeReport, string) {
	t.Helper()
	code, out, stderr := runCmd(t, "", append([]string{"probe", "--json"}, args...)...)
	var rep probeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("probe %q: exit %d, %v\n%s\n%s", args, code, err, out, stderr)
	}
	return code, rep, stderr
}

// findingsOf returns the findings of kind, by crawler set.
func findingsOf(s probeSite, kind string) []probeFinding {
	var out []probeFinding
	for _, f := range s.Findings {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

func checkFits(t *testing.T, what, out string) {
	t.Helper()
	for _, l := range lines(out) {
		if displayWidth(l) > termWidth && !strings.Contains(l, "://") {
			t.Errorf("%s: a line of %d columns: %q", what, displayWidth(l), l)
		}
	}
}

// TestProbeAgree: a site that serves every crawler the same file: exit 0,
// one answer, no finding.
func TestProbeAgree(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(probeFile))
	}))
	defer srv.Close()
	code, out, stderr := runCmd(t, "", "probe", "-c", probeCrawlerSet, srv.URL+"/some/page")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, %s\n%s", code, stderr, out)
	}
	if !strings.Contains(out, "/robots.txt: 10 crawlers asked, 1 answer\n") || !strings.Contains(out, "Every crawler got the same file of rules.\n") ||
		!strings.Contains(out, fmt.Sprintf("answer A (10): 200 OK, rules, %d bytes", len(probeFile))) {
		t.Errorf("report:\n%s", out)
	}
	checkFits(t, "agree", out)
	if n := hits.Load(); n != 10 {
		t.Errorf("%d requests for 10 crawlers: one each, for robots.txt alone", n)
	}
	code, rep, _ := runProbeJSON(t, "-c", probeCrawlerSet, srv.URL)
	s := rep.Sites[0]
	if code != 0 || !s.Agree || len(s.Answers) != 1 || len(s.Findings) != 0 || s.Asked != 10 || len(s.Fetches) != 10 {
		t.Errorf("exit %d, %+v", code, s)
	}
	if g := s.Answers[0].Groups; !slices.Equal(g, []string{"*", "GPTBot"}) {
		t.Errorf("groups %q", g)
	}
	for _, f := range s.Fetches {
		if !strings.HasPrefix(f.UserAgent, "Mozilla/5.0 (compatible; ") || f.Answer != "A" || f.Policy != "rules" {
			t.Errorf("%+v", f)
		}
	}
}

// misbehaving is a site that treats crawlers differently on purpose: a
// Cloudflare challenge for ClaudeBot (gzip-compressed, as a CDN sends
// it), an Anubis page served 200 to CCBot, 403 for GPTBot, 429 for
// Bytespider, and a group injected into the file Google's crawlers get.
func misbehaving() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua := r.Header.Get("User-Agent")
		switch {
		case strings.Contains(ua, "ClaudeBot"):
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(http.StatusForbidden)
			zw := gzip.NewWriter(w)
			zw.Write([]byte(`<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`))
			zw.Close()
		case strings.Contains(ua, "CCBot"):
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!doctype html><html><head><title>Making sure you're not a bot!</title></head><body><div id="anubis_challenge"></div></body></html>`))
		case strings.Contains(ua, "GPTBot"):
			http.Error(w, "forbidden", http.StatusForbidden)
		case strings.Contains(ua, "Bytespider"):
			w.Header().Set("Retry-After", "60")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case strings.Contains(ua, "Googlebot"):
			w.Write([]byte(probeFile + "\nUser-agent: Google-Extended\nDisallow: /\n"))
		default:
			w.Write([]byte(probeFile))
		}
	}))
}

// TestProbeMisbehaving: each misbehaviour is found, for the crawlers it
// hit and for no other.
func TestProbeMisbehaving(t *testing.T) {
	srv := misbehaving()
	defer srv.Close()
	code, rep, _ := runProbeJSON(t, "-c", probeCrawlerSet, srv.URL)
	if code != 1 || len(rep.Sites) != 1 {
		t.Fatalf("exit %d, %+v", code, rep)
	}
	s := rep.Sites[0]
	if s.Agree || s.Answers[0].Kind != kindRules || len(s.Answers[0].Crawlers) != 4 {
		t.Errorf("the answer most crawlers got: %+v", s.Answers[0])
	}
	for _, tt := range []struct {
		kind     string
		crawlers []string
		detail   string
	}{
		{"challenge", []string{"ClaudeBot"}, "a challenge page (Cloudflare, 403 Forbidden)"},
		{"challenge", []string{"CCBot"}, "a challenge page (Anubis, 200 OK)"},
		{"refused", []string{"GPTBot"}, "403 Forbidden for robots.txt; 4 other crawlers got answer A"},
		{"rate-limited", []string{"Bytespider"}, "429 Too Many Requests"},
		{"body-differs", []string{"Googlebot", "Googlebot-Image"}, "a different file"},
		{"injected-group", []string{"Googlebot", "Googlebot-Image"}, `a group for "Google-Extended" in the file these crawlers got`},
	} {
		found := false
		for _, f := range findingsOf(s, tt.kind) {
			if slices.Equal(f.Crawlers, tt.crawlers) && strings.Contains(f.Detail, tt.detail) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s finding for %q with %q: %+v", tt.kind, tt.crawlers, tt.detail, s.Findings)
		}
	}
	for i, f := range s.Findings {
		if findingRank(f.Kind) < 0 || i > 0 && findingRank(f.Kind) < findingRank(s.Findings[i-1].Kind) {
			t.Errorf("finding %d, %s: an unknown kind or out of order", i, f.Kind)
		}
	}
	if len(s.Findings) != 6 {
		t.Errorf("%d findings, want 6: %+v", len(s.Findings), s.Findings)
	}
	for _, f := range s.Fetches {
		if f.Crawler == "ClaudeBot" && (f.Challenge != "Cloudflare" || f.Status != 403) {
			t.Errorf("ClaudeBot: %+v", f)
		}
	}
	code, out, _ := runCmd(t, "", "probe", "-c", probeCrawlerSet, srv.URL)
	if code != 1 || !strings.Contains(out, "\n6 findings:\n") || !strings.Contains(out, "\n  challenge: a challenge page (Cloudflare, 403 Forbidden) instead of robots.txt;") ||
		!strings.Contains(out, "answer C (1): 403 Forbidden, read as allow-all\n    GPTBot\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	checkFits(t, "misbehaving", out)
}

// TestProbeEveryoneRefused: a site that refuses robots.txt to every
// crawler agrees with itself, and still no crawler can read its rules.
func TestProbeEveryoneRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	code, rep, _ := runProbeJSON(t, "-c", "Googlebot,Bingbot", srv.URL)
	s := rep.Sites[0]
	if code != 1 || len(s.Answers) != 1 || len(s.Findings) != 1 || s.Findings[0].Kind != "refused" ||
		!strings.Contains(s.Findings[0].Detail, "every crawler asked got it") {
		t.Errorf("exit %d, %+v", code, s)
	}
	// Refused to most, served to one: both are said.
	most := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("User-Agent"), "Googlebot/") {
			w.Write([]byte(probeFile))
			return
		}
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer most.Close()
	code, rep, _ = runProbeJSON(t, "-c", "Googlebot,Bingbot,GPTBot", most.URL)
	s = rep.Sites[0]
	if code != 1 || len(s.Findings) != 2 || s.Findings[0].Kind != "refused" || !slices.Equal(s.Findings[0].Crawlers, []string{"Bingbot", "GPTBot"}) ||
		!strings.HasSuffix(s.Findings[0].Detail, "; the answer most crawlers got") ||
		s.Findings[1].Kind != "status" || !strings.HasPrefix(s.Findings[1].Detail, "a different answer: 200 OK, rules, ") {
		t.Errorf("refused to most: exit %d, %+v", code, s.Findings)
	}
	// A site with no robots.txt (404 for all) is no finding: everything
	// is allowed, for every crawler alike.
	srv404 := httptest.NewServer(http.NotFoundHandler())
	defer srv404.Close()
	if code, rep, _ := runProbeJSON(t, "-c", "Googlebot,Bingbot", srv404.URL); code != 0 || !rep.Sites[0].Agree {
		t.Errorf("404 for all: exit %d, %+v", code, rep.Sites[0])
	}
	if code, out, _ := runCmd(t, "", "probe", "-c", "Googlebot,Bingbot", srv404.URL); code != 0 ||
		!strings.HasSuffix(out, "\nEvery crawler got the same answer: 404 Not Found, read as allow-all.\n") {
		t.Errorf("404 for all: exit %d\n%s", code, out)
	}
}

// TestProbeOriginFile: --origin-file compares each file with the owner's:
// a group the CDN added is named; the owner's own file (CRLF line ends
// aside) matches.
func TestProbeOriginFile(t *testing.T) {
	served := probeFile + "\n# added by the CDN\nUser-agent: Amazonbot\nDisallow: /\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(served))
	}))
	defer srv.Close()
	dir := t.TempDir()
	origin := filepath.Join(dir, "robots.txt")
	os.WriteFile(origin, []byte(strings.ReplaceAll(probeFile, "\n", "\r\n")), 0o644)
	code, rep, _ := runProbeJSON(t, "-c", "Googlebot,GPTBot", "--origin-file", origin, srv.URL)
	s := rep.Sites[0]
	if code != 1 || len(s.Findings) != 1 || s.Findings[0].Kind != "not-origin" ||
		!strings.Contains(s.Findings[0].Detail, "4 lines added, 0 lines removed; groups added: Amazonbot") ||
		s.OriginFile == nil || len(s.OriginFile.Matches) != 0 {
		t.Errorf("exit %d, %+v %+v", code, s.Findings, s.OriginFile)
	}
	same := filepath.Join(dir, "same.txt")
	os.WriteFile(same, []byte(served+"\n\n"), 0o644)
	code, rep, _ = runProbeJSON(t, "-c", "Googlebot,GPTBot", "--origin-file", same, srv.URL)
	if s := rep.Sites[0]; code != 0 || !s.Agree || !slices.Equal(s.OriginFile.Matches, []string{"A"}) {
		t.Errorf("the origin's own file: exit %d, %+v", code, s)
	}
	code, out, _ := runCmd(t, "", "probe", "-c", "Googlebot,GPTBot", "--origin-file", origin, srv.URL)
	if code != 1 || !strings.Contains(out, "origin file "+origin) || !strings.Contains(out, "): none\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	checkFits(t, "origin", out)
}

// TestProbeSlow: a site slow for one crawler costs that crawler its fetch
// (--timeout), not the run; one slow for all is cut at --site-timeout,
// the crawlers not asked are said, and the exit status is 2.
func TestProbeSlow(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("User-Agent"), "PerplexityBot") {
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
			}
			return
		}
		w.Write([]byte(probeFile))
	}))
	defer srv.Close()
	start := time.Now()
	code, rep, _ := runProbeJSON(t, "-c", probeCrawlerSet, "--timeout", "300ms", srv.URL)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the probe took %v with a 300ms timeout", d)
	}
	s := rep.Sites[0]
	f := findingsOf(s, "no-answer")
	if code != 1 || len(f) != 1 || !slices.Equal(f[0].Crawlers, []string{"PerplexityBot"}) || !strings.Contains(f[0].Detail, "timed out") {
		t.Errorf("exit %d, %+v", code, s.Findings)
	}

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(400 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.Write([]byte(probeFile))
	}))
	defer slow.Close()
	start = time.Now()
	code, rep, stderr := runProbeJSON(t, "-c", probeCrawlerSet, "--concurrency", "1", "--site-timeout", "1s", slow.URL)
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("the probe took %v with a 1s site timeout", d)
	}
	s = rep.Sites[0]
	if code != 2 || s.NotAsked < 5 || s.Asked+s.NotAsked != 10 || len(findingsOf(s, "not-asked")) != 1 {
		t.Errorf("exit %d, asked %d, not asked %d, %+v\n%s", code, s.Asked, s.NotAsked, s.Findings, stderr)
	}
	// --max-time bounds every site together: the second is not asked.
	start = time.Now()
	code, rep, _ = runProbeJSON(t, "-c", probeCrawlerSet, "--concurrency", "1", "--max-time", "1s", slow.URL, slow.URL+"/again")
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("the probe took %v with a 1s run time", d)
	}
	if code != 2 || len(rep.Sites) != 2 || rep.Sites[0].NotAsked < 5 || rep.Sites[1].Asked != 0 || rep.Sites[1].NotAsked != 10 {
		t.Errorf("--max-time: exit %d, %+v", code, rep.Sites)
	}
}

// TestProbeConcurrencyBound: never more requests at once than
// --concurrency.
func TestProbeConcurrencyBound(t *testing.T) {
	var now, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(50 * time.Millisecond)
		w.Write([]byte(probeFile))
	}))
	defer srv.Close()
	code, _, _ := runProbeJSON(t, "-c", probeCrawlerSet, "--concurrency", "3", srv.URL)
	if code != 0 || most.Load() > 3 || most.Load() < 2 {
		t.Errorf("exit %d, %d requests at once with --concurrency 3", code, most.Load())
	}
}

// TestProbeUnreachable: a site that gives no crawler an answer could not
// be probed: exit 2, and stderr says why.
func TestProbeUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	code, out, stderr := runCmd(t, "", "probe", "-c", "Googlebot,GPTBot", "http://"+addr+"/")
	if code != 2 || !strings.Contains(stderr, "no crawler got an answer") || !strings.Contains(out, "could not probe: ") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestProbeEveryCrawler: without -c, every crawler but the control tokens
// is asked, each with its own User-Agent; --behaviour narrows them.
func TestProbeEveryCrawler(t *testing.T) {
	seen := map[string]bool{}
	var mu = make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu <- struct{}{}
		seen[r.Header.Get("User-Agent")] = true
		<-mu
		w.Write([]byte(probeFile))
	}))
	defer srv.Close()
	code, rep, _ := runProbeJSON(t, "--concurrency", "16", srv.URL)
	s := rep.Sites[0]
	if code != 0 || s.Asked < 200 || len(seen) != s.Asked {
		t.Errorf("exit %d, %d asked, %d user agents", code, s.Asked, len(seen))
	}
	for _, f := range s.Fetches {
		if f.Crawler == "Google-Extended" || f.Crawler == "Applebot-Extended" {
			t.Errorf("a control token was asked: %s", f.Crawler)
		}
	}
	code, rep, _ = runProbeJSON(t, "--behaviour", "transact", srv.URL)
	if code != 0 || rep.Sites[0].Asked != 1 || rep.Sites[0].Fetches[0].Crawler != "AmazonBuyForMe" {
		t.Errorf("transact: exit %d, %+v", code, rep.Sites[0].Fetches)
	}
}

func TestProbeErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "robotstxt probe: give a URL (robotstxt probe -h for help)\n"},
		{[]string{"--concurrency", "0", "example.com"}, "robotstxt probe: --concurrency must be 1 to 32\n"},
		{[]string{"--concurrency", "99", "example.com"}, "robotstxt probe: --concurrency must be 1 to 32\n"},
		{[]string{"--timeout", "0s", "example.com"}, "robotstxt probe: --timeout, --site-timeout and --max-time must be positive\n"},
		{[]string{"-c", "Gooblebot", "example.com"}, `robotstxt probe: -c: unknown crawler "Gooblebot"; did you mean -c Googlebot?`},
		{[]string{"-c", "Google-Extended", "example.com"}, "robotstxt probe: -c: Google-Extended is a control token: it fetches nothing\n"},
		{[]string{"-c", ",", "example.com"}, "robotstxt probe: -c needs a crawler\n"},
		{[]string{"--behaviour", "trainig", "example.com"}, `robotstxt probe: --behaviour: unknown behaviour "trainig"`},
		{[]string{"-c", "GPTBot", "--behaviour", "search", "example.com"}, "robotstxt probe: no crawler asked is in search\n"},
		{[]string{"--origin-file", filepath.Join(dir, "none.txt"), "example.com"}, "robotstxt probe: --origin-file: open "},
		{[]string{"ftp://example.com/"}, "robotstxt probe: ftp://example.com/: not an http or https URL\n"},
		{[]string{"--nosuch", "example.com"}, "robotstxt probe: unknown flag --nosuch (robotstxt probe -h lists the flags)\n"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"probe"}, tt.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, stderr, tt.want)
		}
	}
}

// TestChallengeOf checks the signatures, and that a file of rules that
// names them in a comment is no challenge.
func TestChallengeOf(t *testing.T) {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	for _, tt := range []struct {
		header http.Header
		body   string
		want   string
	}{
		{h("Cf-Mitigated", "challenge"), "", "Cloudflare"},
		{h("Content-Type", "text/html"), `<html><script src="/cdn-cgi/challenge-platform/x"></script>`, "Cloudflare"},
		{h(), `<!DOCTYPE html><div id="anubis_challenge">`, "Anubis"},
		{h("Content-Type", "text/html"), `<script src="https://geo.captcha-delivery.com/captcha/"></script>`, "DataDome"},
		{h("X-Vercel-Mitigated", "challenge"), "", "Vercel"},
		{h("X-Amzn-Waf-Action", "captcha"), "", "AWS WAF"},
		{h("Content-Type", "text/html"), `<html>Incapsula incident ID: 1</html>`, "Imperva"},
		{h("Content-Type", "text/html"), `<html><title>Checking your browser before accessing example.com</title>`, "a JavaScript check"},
		{h("Content-Type", "text/plain"), "# we fight /cdn-cgi/challenge-platform/ bots\nUser-agent: *\nDisallow:\n", ""},
		{h("Content-Type", "text/html"), "<html><body>Hello</body></html>", ""},
		{h("Cf-Mitigated", "none"), "User-agent: *\n", ""},
	} {
		if got := challengeOf(tt.header, []byte(tt.body)); got != tt.want {
			t.Errorf("%v %q: %q, want %q", tt.header, tt.body, got, tt.want)
		}
	}
	for _, tt := range []struct {
		ct, body string
		want     bool
	}{
		{"text/html; charset=utf-8", "", true},
		{"application/xhtml+xml", "", true},
		{"text/plain", "User-agent: *", false},
		{"", "\ufeff  \n<!DOCTYPE HTML>", true},
		{"", "<HTML>", true},
		{"text/plain", "<html>", true},
		{"", "User-agent: <html>", false},
	} {
		if got := looksLikeHTML(tt.ct, []byte(tt.body)); got != tt.want {
			t.Errorf("looksLikeHTML(%q, %q) = %v", tt.ct, tt.body, got)
		}
	}
}

// TestProbeGzipPeek: the recording transport decodes a gzip error page to
// read its markers, and leaves the fetcher a whole body.
func TestProbeGzipPeek(t *testing.T) {
	var page bytes.Buffer
	zw := gzip.NewWriter(&page)
	zw.Write([]byte(`<html><script>window._cf_chl_opt={}</script></html>`))
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write(page.Bytes())
	}))
	defer srv.Close()
	code, rep, _ := runProbeJSON(t, "-c", "Googlebot", srv.URL)
	s := rep.Sites[0]
	if code != 1 || s.Fetches[0].Challenge != "Cloudflare" || s.Fetches[0].Status != 503 || s.Findings[0].Kind != "challenge" {
		t.Errorf("exit %d, %+v", code, s)
	}
}

// TestProbeManyBodies: a site that serves each crawler another file is
// reported answer by answer, while at most probeMaxBodies files are kept.
func TestProbeManyBodies(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: Bot%d\nDisallow: /%d\n", n.Add(1), n.Load())
	}))
	defer srv.Close()
	origin := filepath.Join(t.TempDir(), "robots.txt")
	os.WriteFile(origin, []byte(probeFile), 0o644)
	code, rep, _ := runProbeJSON(t, "--behaviour", "training", "--concurrency", "8", "--origin-file", origin, srv.URL)
	s := rep.Sites[0]
	if code != 1 || s.Asked < 20 || len(s.Answers) != s.Asked {
		t.Fatalf("exit %d, %d asked, %d answers", code, s.Asked, len(s.Answers))
	}
	kept, notCompared := 0, 0
	for _, a := range s.Answers {
		if len(a.Groups) > 0 {
			kept++
		}
	}
	for _, f := range findingsOf(s, "not-origin") {
		if strings.Contains(f.Detail, "is not compared with") {
			notCompared++
		}
	}
	if kept != probeMaxBodies || notCompared != s.Asked-probeMaxBodies || len(findingsOf(s, "body-differs")) != s.Asked-1 {
		t.Errorf("%d answers with groups, %d not compared, %d body-differs, of %d", kept, notCompared, len(findingsOf(s, "body-differs")), s.Asked)
	}
}

// TestProbeHostile: an endless error page costs probe its first 32 KiB,
// an endless robots.txt the fetcher's 500 KiB, a redirect loop the
// fetcher's five redirects; each is an answer, and the run ends. (What
// the server writes past that fills the kernel's socket buffers, megabytes
// on loopback, until the closed connection stops it: not probe's to
// bound.)
func TestProbeHostile(t *testing.T) {
	chunk := bytes.Repeat([]byte("<html>"), 1024)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua := r.Header.Get("User-Agent")
		switch {
		case strings.Contains(ua, "GPTBot"), strings.Contains(ua, "Googlebot/"):
			if strings.Contains(ua, "GPTBot") {
				w.WriteHeader(http.StatusForbidden)
			}
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case strings.Contains(ua, "bingbot"):
			http.Redirect(w, r, "/robots.txt?again="+r.URL.Query().Get("again")+"x", http.StatusFound)
		default:
			w.Write([]byte(probeFile))
		}
	}))
	defer srv.Close()
	start := time.Now()
	code, rep, _ := runProbeJSON(t, "-c", "GPTBot,Googlebot,Bingbot,ClaudeBot", "--timeout", "5s", srv.URL)
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the probe took %v", d)
	}
	s := rep.Sites[0]
	byCrawler := map[string]probeFetch{}
	for _, f := range s.Fetches {
		byCrawler[f.Crawler] = f
	}
	if f := byCrawler["GPTBot"]; f.Status != 403 || f.Error != "" {
		t.Errorf("GPTBot: %+v", f)
	}
	if f := byCrawler["Googlebot"]; f.Status != 200 || f.Bytes != 500<<10 || f.Challenge != "" {
		t.Errorf("Googlebot: %+v", f)
	}
	if f := byCrawler["Bingbot"]; f.Redirects != 6 || !strings.Contains(f.Reason, "at most 5 are followed") {
		t.Errorf("Bingbot: %+v", f)
	}
	if code != 1 || len(findingsOf(s, "refused")) != 1 || len(findingsOf(s, "html")) != 1 {
		t.Errorf("exit %d, %+v", code, s.Findings)
	}
}
