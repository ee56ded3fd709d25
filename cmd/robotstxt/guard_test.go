package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/server"
)

// gptbotRanges is GPTBot's address list in the guard's tests: a client
// at 192.0.2.7 is GPTBot, one at 203.0.113.7 claiming it is not.
const gptbotRanges = `{"creationTime": "2026-11-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]}`

const (
	gptbotUA    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"
	browserUA   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	verifiedXFF = "X-Forwarded-For: 192.0.2.7"
	spoofedXFF  = "X-Forwarded-For: 203.0.113.7"
)

// readDecisions reads a decision log.
func readDecisions(t *testing.T, path string) []guard.Decision {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []guard.Decision
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var d guard.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("decision log line %q: %v", l, err)
		}
		out = append(out, d)
	}
	return out
}

// waitDecisions waits until the log holds n decisions (the log is written
// in the background) and returns them.
func waitDecisions(t *testing.T, path string, n int) []guard.Decision {
	t.Helper()
	var ds []guard.Decision
	eventually(t, 10*time.Second, func() string {
		ds = readDecisions(t, path)
		if len(ds) < n {
			return "the decision log holds " + strings.Repeat("I", len(ds)) + ", want " + strings.Repeat("I", n)
		}
		return ""
	})
	return ds
}

// TestGuardProxyEnforce: in enforce mode, in front of a real site on
// loopback, a verified crawler on a path its group disallows gets the
// policy's answer (here 402 with its price) and the site never sees the
// request; the same crawler on an allowed path passes, with the
// forwarding headers; a spoofed claim gets 403 on every path but the
// rules; a browser passes everywhere; /robots.txt is always served. Each
// decision names the deciding line and the version of the file: the hash
// of the upstream's own robots.txt.
func TestGuardProxyEnforce(t *testing.T) {
	site := newUpstreamSite(t, testRobots)
	dir := t.TempDir()
	ranges := writeFile(t, dir, "gptbot.json", gptbotRanges)
	policy := writeFile(t, dir, "guard.toml", "price = \"USD 0.01\"\n\n[crawler.GPTBot]\ndisallowed-verified = \"402\"\n")
	log := filepath.Join(dir, "decisions.jsonl")
	g := startGuard(t, "--upstream", site.URL, "--mode", "enforce", "--policy", policy,
		"--ip-ranges", "GPTBot="+ranges, "--dns=false", "--decisions", log)
	if !strings.Contains(g.stdout.String(), "(mode enforce,") {
		t.Errorf("the start line does not say the mode: %q", g.stdout.String())
	}

	code, h, body := ask(t, "GET", g.proxy+"/private/report.pdf", "User-Agent: "+gptbotUA, verifiedXFF)
	if code != 402 || h.Get("crawler-price") != "USD 0.01" || !strings.Contains(body, "line 3: Disallow: /") {
		t.Errorf("verified GPTBot on a disallowed path: %d, price %q, %q; want 402, USD 0.01, the deciding line", code, h.Get("crawler-price"), body)
	}
	if slices.Contains(site.paths(), "/private/report.pdf") {
		t.Errorf("the site saw the refused request: %v", site.paths())
	}

	code, _, body = ask(t, "GET", g.proxy+"/public/a?x=1", "User-Agent: "+gptbotUA, "X-Forwarded-For: 198.51.100.1, 192.0.2.7")
	if code != 200 || body != "page /public/a\n" {
		t.Errorf("verified GPTBot on an allowed path: %d %q, want the page", code, body)
	}
	if r := site.last(); r == nil || r.URL.Path != "/public/a" {
		t.Errorf("the site did not get the allowed request")
	} else {
		// The test's loopback address is a trusted proxy: its chain is
		// kept (the client is its right-most address), and the guard's
		// peer added.
		if got := r.Header.Get("X-Forwarded-For"); got != "198.51.100.1, 192.0.2.7, 127.0.0.1" {
			t.Errorf("X-Forwarded-For at the site: %q", got)
		}
		if r.Host != strings.TrimPrefix(g.proxy, "http://") || r.Header.Get("X-Forwarded-Proto") != "http" {
			t.Errorf("Host %q, X-Forwarded-Proto %q at the site", r.Host, r.Header.Get("X-Forwarded-Proto"))
		}
	}

	for _, p := range []string{"/public/a", "/private/x"} {
		if code, _, _ := ask(t, "GET", g.proxy+p, "User-Agent: "+gptbotUA, spoofedXFF); code != 403 {
			t.Errorf("spoofed GPTBot on %s: %d, want 403", p, code)
		}
	}
	if code, _, body := ask(t, "GET", g.proxy+"/robots.txt", "User-Agent: "+gptbotUA, spoofedXFF); code != 200 || body != testRobots {
		t.Errorf("spoofed GPTBot on /robots.txt: %d %q, want the file", code, body)
	}
	if code, _, body := ask(t, "GET", g.proxy+"/private/x", "User-Agent: "+browserUA); code != 200 || body != "page /private/x\n" {
		t.Errorf("a browser on /private/x: %d %q, want the page", code, body)
	}
	if n := strings.Count(strings.Join(site.paths(), " "), "/public/a"); n != 1 {
		t.Errorf("the site saw /public/a %d times, want once (the spoofed claim refused): %v", n, site.paths())
	}

	want := versionName([]byte(testRobots))
	ds := waitDecisions(t, log, 5)
	first := ds[0]
	if first.Outcome != guard.OutcomeDisallowedVerified || first.Action != guard.Action402 || first.Line != 3 ||
		first.Version != want || first.Addr.String() != "192.0.2.7" || first.Identity.Outcome != "verified" {
		t.Errorf("the first decision: %+v\nwant disallowed-verified, 402, line 3, version %s, 192.0.2.7, verified", first, want)
	}
	var spoofed int
	for _, d := range ds {
		if d.Outcome == guard.OutcomeSpoofed && d.Addr.String() == "203.0.113.7" {
			spoofed++
		}
	}
	if spoofed != 2 {
		t.Errorf("%d spoofed decisions from 203.0.113.7, want 2: %+v", spoofed, ds)
	}
}

// TestGuardProxyLogMode: in log mode nothing is refused, and every
// request is recorded (record = "all"), with what enforce would have done.
func TestGuardProxyLogMode(t *testing.T) {
	site := newUpstreamSite(t, testRobots)
	dir := t.TempDir()
	policy := writeFile(t, dir, "guard.toml", "record = \"all\"\n")
	log := filepath.Join(dir, "decisions.jsonl")
	g := startGuard(t, "--upstream", site.URL, "--policy", policy, "--dns=false", "--decisions", log)
	reqs := []struct{ path, ua, xff string }{
		{"/private/a", gptbotUA, verifiedXFF},
		{"/b", gptbotUA, spoofedXFF},
		{"/private/c", browserUA, ""},
		{"/robots.txt", gptbotUA, ""},
	}
	for _, q := range reqs {
		hdr := []string{"User-Agent: " + q.ua}
		if q.xff != "" {
			hdr = append(hdr, q.xff)
		}
		if code, _, _ := ask(t, "GET", g.proxy+q.path, hdr...); code != 200 {
			t.Errorf("log mode: %s for %.20s: %d, want 200", q.path, q.ua, code)
		}
	}
	if got := site.paths(); !slices.Equal(got, []string{"/private/a", "/b", "/private/c"}) {
		t.Errorf("the site saw %v, want every request", got)
	}
	ds := waitDecisions(t, log, len(reqs))
	if len(ds) != len(reqs) {
		t.Fatalf("%d decisions, want %d", len(ds), len(reqs))
	}
	if ds[0].Action != guard.ActionLog || ds[0].Would != guard.Action403 || ds[0].Mode != guard.ModeLog || ds[0].Status != 0 {
		t.Errorf("log mode, a disallowed claim: %+v; want action log, would 403, no status", ds[0])
	}
	if ds[2].Outcome != guard.OutcomeNotCrawler || ds[3].Outcome != guard.OutcomeRulesPath {
		t.Errorf("outcomes %v, %v; want not-crawler, rules-path", ds[2].Outcome, ds[3].Outcome)
	}
}

// TestGuardRobotsFileChange: a change of --robots FILE takes effect
// without a restart, and the decisions name the new version; so does a
// change of the policy file.
func TestGuardRobotsFileChange(t *testing.T) {
	old := guardPollEvery
	guardPollEvery = 20 * time.Millisecond
	defer func() { guardPollEvery = old }()
	site := newUpstreamSite(t, "User-agent: *\nDisallow: /\n") // not the file enforced
	dir := t.TempDir()
	robots := writeFile(t, dir, "robots.txt", "User-agent: *\nDisallow: /a/\n")
	policy := writeFile(t, dir, "guard.toml", "mode = \"enforce\"\n")
	g := startGuard(t, "--upstream", site.URL, "--robots", robots, "--policy", policy, "--dns=false")
	if code, _, _ := ask(t, "GET", g.proxy+"/b/x", "User-Agent: "+gptbotUA); code != 200 {
		t.Fatalf("/b/x before the change: %d, want 200", code)
	}
	if code, _, _ := ask(t, "GET", g.proxy+"/a/x", "User-Agent: "+gptbotUA); code != 403 {
		t.Fatalf("/a/x before the change: %d, want 403", code)
	}
	writeFile(t, dir, "robots.txt", "User-agent: *\nDisallow: /b/\n")
	eventually(t, 10*time.Second, func() string {
		if code, _, _ := ask(t, "GET", g.proxy+"/b/x", "User-Agent: "+gptbotUA); code != 403 {
			return "/b/x is not refused after the file changed"
		}
		return ""
	})
	if code, _, _ := ask(t, "GET", g.proxy+"/a/x", "User-Agent: "+gptbotUA); code != 200 {
		t.Errorf("/a/x after the change: %d, want 200", code)
	}
	// The policy back to log: nothing refused.
	writeFile(t, dir, "guard.toml", "mode = \"log\"\n")
	eventually(t, 10*time.Second, func() string {
		if code, _, _ := ask(t, "GET", g.proxy+"/b/x", "User-Agent: "+gptbotUA); code != 200 {
			return "/b/x is still refused after the policy went to log"
		}
		return ""
	})
	// A policy that does not parse keeps the last good one.
	writeFile(t, dir, "guard.toml", "mode = \"enforce\"\nbogus = 1\n")
	time.Sleep(100 * time.Millisecond)
	if code, _, _ := ask(t, "GET", g.proxy+"/b/x", "User-Agent: "+gptbotUA); code != 200 {
		t.Errorf("a broken policy file changed the policy: %d", code)
	}
	eventually(t, 5*time.Second, func() string {
		if !strings.Contains(g.stderr.String(), "guard.toml:2") {
			return "no warning names the broken policy's line: " + g.stderr.String()
		}
		return ""
	})
	if !slices.Contains(site.paths(), "/b/x") {
		t.Errorf("the site saw %v", site.paths())
	}
}

// TestGuardUpstreamRobotsHistory: the upstream's robots.txt is fetched
// again every --robots-every; a new version takes effect and goes into
// the history in the store, and decisions name it.
func TestGuardUpstreamRobotsHistory(t *testing.T) {
	site := newUpstreamSite(t, "User-agent: *\nDisallow: /a/\n")
	dir := t.TempDir()
	log := filepath.Join(dir, "decisions.jsonl")
	g := startGuard(t, "--upstream", site.URL, "--mode", "enforce", "--robots-every", "50ms", "--dns=false",
		"--decisions", log, "--store", filepath.Join(dir, "cache.db"))
	if code, _, _ := ask(t, "GET", g.proxy+"/b/x", "User-Agent: "+gptbotUA); code != 200 {
		t.Fatalf("/b/x before the change: %d", code)
	}
	site.setRobots("User-agent: *\nDisallow: /b/\n")
	eventually(t, 10*time.Second, func() string {
		if code, _, _ := ask(t, "GET", g.proxy+"/b/x", "User-Agent: "+gptbotUA); code != 403 {
			return "/b/x is not refused after the upstream's file changed"
		}
		return ""
	})
	ds := readDecisions(t, log)
	eventually(t, 10*time.Second, func() string {
		ds = readDecisions(t, log)
		if len(ds) == 0 || ds[len(ds)-1].Version != versionName([]byte("User-agent: *\nDisallow: /b/\n")) {
			return "the last decision does not name the new version"
		}
		return ""
	})
	if ds[0].Version != versionName([]byte("User-agent: *\nDisallow: /a/\n")) {
		t.Errorf("the first decision names %q", ds[0].Version)
	}
	// Both versions are in the history in the store, named as the
	// decisions name them, where serve's /v1/history reads them.
	g.shutdown(t)
	st, err := openStore(filepath.Join(dir, "cache.db"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	o, _ := fetch.OriginOf(site.URL)
	b, ok, err := st.Get(context.Background(), "history "+o.String())
	if err != nil || !ok {
		t.Fatalf("no history of %s in the store: %v", o, err)
	}
	var versions []server.Version
	if err := json.Unmarshal(b, &versions); err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for _, v := range versions {
		hashes = append(hashes, "sha256:"+v.Hash)
	}
	if len(hashes) != 2 || hashes[0] != ds[0].Version || hashes[1] != ds[len(ds)-1].Version {
		t.Errorf("the history holds %v; want the two versions the decisions name", hashes)
	}
}

// TestGuardThirdPartyFetchesGuarded: an address list given as a URL is a
// third party's file, fetched through the service's address guard: one on
// loopback is refused (the upstream, on loopback too, is read).
func TestGuardThirdPartyFetchesGuarded(t *testing.T) {
	site := newUpstreamSite(t, testRobots)
	code, _, stderr := runCmd(t, "", "guard", "--upstream", site.URL, "--addr", "127.0.0.1:0", "--dns=false",
		"--ip-ranges", "GPTBot="+site.URL+"/gptbot.json")
	if code != 2 || !strings.Contains(stderr, "--ip-ranges:") || !strings.Contains(stderr, "loopback") {
		t.Errorf("an address list on loopback: exit %d, %q; want 2 and the guard's refusal", code, stderr)
	}
	if slices.Contains(site.paths(), "/gptbot.json") {
		t.Errorf("the list was fetched from loopback")
	}
}

// TestGuardProxyLimits: a body past --max-body-bytes is refused with 413,
// declared or streamed (chunked), a header past --max-header-bytes with
// 431, and a site that does not answer is a 502 that says so.
func TestGuardProxyLimits(t *testing.T) {
	site := newUpstreamSite(t, testRobots)
	g := startGuard(t, "--upstream", site.URL, "--dns=false", "--max-body-bytes", "1KiB", "--max-header-bytes", "4KiB")
	post := func(body io.Reader, length int64) int {
		req, _ := http.NewRequest("POST", g.proxy+"/form", body)
		req.ContentLength = length
		resp, err := guardClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(strings.NewReader(strings.Repeat("a", 500)), 500); code != 200 {
		t.Errorf("a 500-byte body: %d, want 200", code)
	}
	if code := post(strings.NewReader(strings.Repeat("a", 2000)), 2000); code != 413 {
		t.Errorf("a declared 2000-byte body: %d, want 413", code)
	}
	if code := post(io.MultiReader(strings.NewReader(strings.Repeat("a", 2000))), -1); code != 413 {
		t.Errorf("a chunked 2000-byte body: %d, want 413", code)
	}
	if code, _, _ := ask(t, "GET", g.proxy+"/", "X-Big: "+strings.Repeat("b", 20000)); code != 431 {
		t.Errorf("a 20 KB header: %d, want 431", code)
	}
	site.Close()
	if code, _, body := ask(t, "GET", g.proxy+"/x"); code != 502 || !strings.Contains(body, "did not answer") {
		t.Errorf("the site down: %d %q, want 502", code, body)
	}
}

// TestGuardConnsPerClient: one client holds at most --max-conns-per-client
// connections to the proxy; the next is closed at once, and another
// request is served when one closes.
func TestGuardConnsPerClient(t *testing.T) {
	site := newUpstreamSite(t, testRobots)
	g := startGuard(t, "--upstream", site.URL, "--dns=false", "--trusted-proxy", "none", "--max-conns-per-client", "2")
	addr := strings.TrimPrefix(g.proxy, "http://")
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	third, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := third.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a third connection of one client was not closed at once: %v", err)
	}
	held[0].Close()
	// The server sees the close when it reads the connection; until then
	// the client's new connection may still be refused.
	eventually(t, 5*time.Second, func() string {
		tr := &http.Transport{DisableKeepAlives: true}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr, Timeout: 2 * time.Second}).Get(g.proxy + "/public/page")
		if err != nil {
			return "after one closed: " + err.Error()
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Sprintf("after one closed: %d", resp.StatusCode)
		}
		return ""
	})
}
