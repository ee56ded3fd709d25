package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

// TestMain runs the program itself when the test binary is started with
// ROBOTSTXT_RUN_MAIN=1 (see runMain). Otherwise it points the user's cache
// directory at a temporary one for the whole run, so that no test can write
// to the real one; tests that look at the default store set their own.
func TestMain(m *testing.M) {
	if os.Getenv("ROBOTSTXT_RUN_MAIN") == "1" {
		main()
		return
	}
	dir, err := os.MkdirTemp("", "robotstxt-cmd-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	os.Setenv("HOME", filepath.Join(dir, "home"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// useTempCache gives the test a user cache directory of its own, so that
// the default store starts empty and no test sees another's answers.
//
// The cache directory's path is as long as the docs' /home/me/.cache (15
// bytes: /tmp/XXXX/cache), so that text wrapped at 80 columns breaks its
// lines where it does in the docs.
func useTempCache(t *testing.T) string {
	t.Helper()
	var dir string
	for {
		dir = fmt.Sprintf("/tmp/%04x", rand.IntN(1<<16))
		if err := os.Mkdir(dir, 0o700); err == nil {
			break
		} else if !os.IsExist(err) {
			dir = t.TempDir() // no /tmp: the wrapping may differ
			break
		}
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	return filepath.Join(dir, "cache")
}

// site is a web site on loopback that answers /robots.txt with one status
// and body, and counts the requests.
type site struct {
	*httptest.Server
	hits atomic.Int32
}

func newSite(t *testing.T, status int, body string) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s.hits.Add(1)
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(s.Close)
	return s
}

const siteRules = "User-agent: *\nDisallow: /private/\n"

func TestCheckURL(t *testing.T) {
	useTempCache(t)
	s := newSite(t, 200, siteRules)
	code, out, stderr := runCmd(t, "", "check", "-u", s.URL+"/any/page", "-c", "Bingbot", "/private/a", "/public")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a URL is blocked): %s", code, stderr)
	}
	for _, want := range []string{
		"robots.txt: " + s.URL + "/robots.txt\n",
		"note: fetched now with the google fetch policy (store: bbolt ", "): 200 OK: 34 bytes of rules",
		"BLOCKED  Bingbot  bing  line 2: Disallow: /private/",
		"allowed  Bingbot  bing  no rule matches",
		"1 allowed, 1 blocked",
	} {
		if !containsWords(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}

	// The second run fetches the file again: a site owner checks it as
	// it is now. With --cached it is answered from the default cache.
	for i, c := range []struct {
		flags  []string
		source string
		hits   int32
	}{{nil, "network", 2}, {[]string{"--cached"}, "cache", 2}} {
		args := append([]string{"check", "--json", "-u", s.URL}, c.flags...)
		code, out, _ = runCmd(t, "", append(args, "/public")...)
		var rep checkReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
			t.Fatalf("run %d: exit %d, %v: %s", i+2, code, err, out)
		}
		if rep.Fetch == nil || rep.Fetch.Source != c.source || rep.Fetch.Policy != "rules" || rep.File != s.URL+"/robots.txt" || s.hits.Load() != c.hits {
			t.Errorf("run %d: fetch %+v, file %q, %d requests; want source %s, %d requests", i+2, rep.Fetch, rep.File, s.hits.Load(), c.source, c.hits)
		}
		if len(rep.Results) != 1 || !rep.Results[0].Allowed || rep.Results[0].Policy != "" {
			t.Errorf("run %d: results %+v", i+2, rep.Results)
		}
	}
}

// TestSiteOwnerSeesTheFileAsItIsNow: a site owner who changes robots.txt
// and runs check, lint or compare -u again sees the new file, not the copy
// cached a moment ago (the request is conditional: an unchanged file is a
// 304, and the copy is fetched now all the same); --cached shows the
// cache's copy and says when it was fetched.
func TestSiteOwnerSeesTheFileAsItIsNow(t *testing.T) {
	useTempCache(t)
	fixedClock(t)
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /old/\n")
	var hits, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		b := body.Load().(string)
		etag := fmt.Sprintf(`"%d"`, len(b))
		if r.Header.Get("If-None-Match") == etag {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		io.WriteString(w, b)
	}))
	t.Cleanup(srv.Close)
	code, out, stderr := runCmd(t, "", "check", "-u", srv.URL, "/old/a", "/new/a")
	if code != 1 || !containsWords(out, "BLOCKED  Googlebot  google  line 2: Disallow: /old/") {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	body.Store("User-agent: *\nDisallow: /newer/\n")
	for _, args := range [][]string{
		{"check", "-u", srv.URL, "/old/a", "/newer/a"},
		{"lint", "-u", srv.URL},
		{"compare", "-u", srv.URL, "/newer/a"},
	} {
		before := hits.Load()
		_, out, stderr := runCmd(t, "", args...)
		if hits.Load() != before+1 || !containsWords(out, "fetched now with the google fetch policy") || containsWords(out, "from the cache") {
			t.Errorf("%q: %d requests, want 1:\n%s%s", args, hits.Load()-before, out, stderr)
		}
		if args[0] == "check" && (!containsWords(out, "allowed  Googlebot  google  no rule matches") || !containsWords(out, "line 2: Disallow: /newer/")) {
			t.Errorf("check -u does not read the new file:\n%s", out)
		}
	}
	if notModified.Load() != 2 {
		t.Errorf("%d answers 304, want 2 (lint and compare revalidate the copy check fetched)", notModified.Load())
	}
	before := hits.Load()
	code, out, _ = runCmd(t, "", "check", "--cached", "-u", srv.URL, "/newer/a")
	if code != 1 || hits.Load() != before || !containsWords(out, "note: from the cache (fetched at 2026-03-01T12:00:00Z) with the google fetch policy") {
		t.Errorf("--cached: exit %d, %d requests:\n%s", code, hits.Load()-before, out)
	}
}

func TestCheckURLNotFoundAllowsAll(t *testing.T) {
	s := newSite(t, 404, "not here")
	code, out, stderr := runCmd(t, "", "check", "--store", "memory", "-u", s.URL, "/private/a")
	if code != 0 {
		t.Fatalf("exit %d, want 0: %s", code, stderr)
	}
	for _, want := range []string{
		"404 Not Found: no valid robots.txt, everything is allowed",
		"note: no robots.txt rules apply: everything is allowed",
		"allowed  Googlebot  google  allow all: the site's robots.txt gives no rules",
	} {
		if !containsWords(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if containsWords(out, "group:") {
		t.Errorf("a group is shown where none applies:\n%s", out)
	}
}

func TestCheckURLUnreachableDisallowsAll(t *testing.T) {
	fixedClock(t)
	s := newSite(t, 503, "down")
	code, out, stderr := runCmd(t, "", "check", "--store", "memory", "-u", s.URL, "/a", s.URL+"/robots.txt")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (everything but /robots.txt is blocked): %s", code, stderr)
	}
	golden(t, "check_url_503.txt", normalise(out, s.URL))
	for _, want := range []string{
		"503 Service Unavailable: the server cannot answer now: everything is disallowed",
		"note: no robots.txt rules apply: everything is disallowed",
		"BLOCKED  Googlebot  google  disallow all: the site's robots.txt gives no rules",
		"allowed  Googlebot  google  /robots.txt itself is always allowed",
		"1 allowed, 1 blocked",
	} {
		if !containsWords(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// No server at all: unreachable, with the network error as the reason.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, out, _ = runCmd(t, "", "check", "--json", "--store", "memory", "-u", "http://"+addr, "/a")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	r := rep.Results[0]
	if rep.Fetch.Policy != "disallow-all" || r.Allowed || r.Policy != "disallow-all" || !strings.Contains(r.Reason, "unreachable (dial") || r.Line != 0 || r.Group.Kind != "none" {
		t.Errorf("fetch %+v, result %+v", rep.Fetch, r)
	}
}

func TestCheckURLDialectPolicy(t *testing.T) {
	// Yandex reads a 503 as no restrictions: -d yandex fetches with its
	// policy, kept apart from Google's in the same store.
	useTempCache(t)
	s := newSite(t, 503, "down")
	code, out, _ := runCmd(t, "", "check", "--json", "-u", s.URL, "-d", "yandex", "/a")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if rep.Fetch.Dialect != "yandex" || rep.Fetch.Policy != "allow-all" || !rep.Results[0].Allowed {
		t.Errorf("yandex: %+v %+v", rep.Fetch, rep.Results)
	}
	code, out, _ = runCmd(t, "", "check", "--json", "-u", s.URL, "/a")
	rep = checkReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if rep.Fetch.Dialect != "google" || rep.Fetch.Policy != "disallow-all" || rep.Fetch.Source != "network" {
		t.Errorf("google after yandex: %+v", rep.Fetch)
	}
}

func TestLintURL(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /\n")
	code, out, stderr := runCmd(t, "", "lint", "--store", "memory", "-u", s.URL)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	name := s.URL + "/robots.txt"
	for _, want := range []string{name + ":2:1: ", "[disallow-all]", name + ": note: fetched now with the google fetch policy (store: memory): 200 OK", "1 file: "} {
		if !containsWords(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCmd(t, "", "lint", "--sarif", "--store", "memory", "-u", s.URL)
	if code != 0 && code != 1 || !containsWords(out, `"uri": "`+name+`"`) {
		t.Errorf("--sarif: exit %d, the artifact is not %s:\n%s", code, name, out)
	}

	missing := newSite(t, 404, "")
	code, out, stderr = runCmd(t, "", "lint", "--json", "--store", "memory", "-u", missing.URL)
	var rep lintReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("404: exit %d, %v: %s %s", code, err, out, stderr)
	}
	if rep.Fetch == nil || rep.Fetch.Policy != "allow-all" || len(rep.Findings) != 0 || len(rep.Files) != 1 ||
		len(rep.Notes) != 2 || rep.Notes[1].Note != "no robots.txt rules apply: everything is allowed" {
		t.Errorf("404: %+v", rep)
	}

	down := newSite(t, 503, "")
	code, out, stderr = runCmd(t, "", "lint", "--store", "memory", "-u", down.URL)
	if code != 2 {
		t.Errorf("503: exit %d, want 2 (the file cannot be read)", code)
	}
	if want := "robotstxt lint: " + down.URL + "/robots.txt: cannot be read, nothing to lint: 503 Service Unavailable"; !strings.HasPrefix(stderr, want) {
		t.Errorf("503: stderr %q, want %q...", stderr, want)
	}
	if !containsWords(out, "note: no robots.txt rules apply: everything is disallowed") || containsWords(out, "1 file") {
		t.Errorf("503: output:\n%s", out)
	}
}

func TestCompareURL(t *testing.T) {
	s := newSite(t, 200, siteRules)
	code, out, stderr := runCmd(t, "", "compare", "--store", "memory", "-u", s.URL, "-c", "Googlebot", "/private/a", "/b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	flat := strings.Join(strings.Fields(out), " ") // notes wrap at 80 columns
	for _, want := range []string{"robots.txt: " + s.URL + "/robots.txt\n", "200 OK: 34 bytes of rules", "Googlebot  google   BLOCK:2", "All dialects agree"} {
		if !containsWords(out, want) && !strings.Contains(flat, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// 503: unreachable for Google's policy, no restrictions for Yandex's
	// (issue 8.3): each row reads the answer with its crawler's policy.
	down := newSite(t, 503, "")
	code, out, _ = runCmd(t, "", "compare", "--json", "--store", "memory", "-u", down.URL, "/a")
	var cmp comparison
	if err := json.Unmarshal([]byte(out), &cmp); err != nil || code != 0 {
		t.Fatalf("503: exit %d, %v: %s", code, err, out)
	}
	if cmp.Fetch == nil || cmp.Fetch.Policy != "disallow-all" || cmp.File != down.URL+"/robots.txt" {
		t.Errorf("503: %+v", cmp)
	}
	for _, r := range cmp.Rows {
		if want := r.Crawler == "YandexBot"; r.Cells[0].Allowed != want {
			t.Errorf("503: %s allowed %v, want %v", r.Crawler, r.Cells[0].Allowed, want)
		}
	}
	if len(cmp.Rows) == 0 || len(cmp.Disagreements) == 0 || !strings.Contains(cmp.Disagreements[0].Explanation, "allowed by yandex (fetch policy: allow all)") {
		t.Errorf("503: rows %d, disagreements %+v", len(cmp.Rows), cmp.Disagreements)
	}
	// 404: every engine reads it as no restrictions: nothing to compare.
	gone := newSite(t, 404, "")
	code, out, _ = runCmd(t, "", "compare", "--store", "memory", "-u", gone.URL)
	if code != 0 || !containsWords(out, "note: no robots.txt rules apply: everything is allowed") ||
		!containsWords(out, "nothing to compare") || containsWords(out, "URLs:") || containsWords(out, "agree") {
		t.Errorf("404: exit %d:\n%s", code, out)
	}
}

func TestSourceUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-u", "http://127.0.0.1:1", "-f", "x", "/a"}, "-u and -f are exclusive"},
		{[]string{"compare", "-f", "x", "-u", "http://127.0.0.1:1"}, "-u and -f are exclusive"},
		{[]string{"lint", "-u", "http://127.0.0.1:1", "robots.txt"}, "-u and a file argument are exclusive"},
		{[]string{"check", "--store", "memory", "-f", "x", "/a"}, "--store applies only with -u"},
		{[]string{"lint", "--store", "memory", "robots.txt"}, "--store applies only with -u"},
		{[]string{"check", "--cached", "-f", "x", "/a"}, "--cached applies only with -u"},
		{[]string{"compare", "--cached"}, "--cached applies only with -u"},
		{[]string{"check", "-u", "mailto:a@example.com", "/a"}, "-u mailto:a@example.com: "},
		{[]string{"lint", "-u", "http://127.0.0.1:1", "--store", "ftp://x"}, `unknown store "ftp://..."`},
		{[]string{"check", "/a"}, "-f FILE or -u URL is required"},
	} {
		code, out, stderr := runCmd(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, stderr, c.want)
		}
	}
}

func TestDefaultStoreIsUserCacheFile(t *testing.T) {
	cacheDir := useTempCache(t)
	s := newSite(t, 200, siteRules)
	file := filepath.Join(cacheDir, "robotstxt", "cache.db")
	for i, wantSource := range []string{"network", "cache"} {
		code, out, stderr := runCmd(t, "", "fetch", "--json", s.URL)
		var info fetchInfo
		if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
			t.Fatalf("run %d: exit %d, %v: %s", i+1, code, err, stderr)
		}
		if info.Source != wantSource || info.Store != "bbolt "+file || info.Policy != "rules" {
			t.Errorf("run %d: source %q, store %q, policy %q; want %q from bbolt %s", i+1, info.Source, info.Store, info.Policy, wantSource, file)
		}
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("no default cache file: %v", err)
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("%d requests, want 1: the second run should be answered by the cache file", n)
	}
	// The other commands share the file.
	code, out, _ := runCmd(t, "", "lint", "--cached", "-u", s.URL)
	if code != 0 || !containsWords(out, "note: from the cache (fetched at ") || !containsWords(out, "Z) with the google fetch policy (store: bbolt "+file+")") || s.hits.Load() != 1 {
		t.Errorf("lint --cached -u: exit %d, %d requests:\n%s", code, s.hits.Load(), out)
	}
}

func TestStoreFileAndMemory(t *testing.T) {
	useTempCache(t)
	s := newSite(t, 200, siteRules)
	file := filepath.Join(t.TempDir(), "sub", "robots.db")
	sources := func(args ...string) []string {
		var got []string
		for range 2 {
			code, out, stderr := runCmd(t, "", append(args, s.URL)...)
			var info fetchInfo
			if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
				t.Fatalf("%q: exit %d, %v: %s", args, code, err, stderr)
			}
			got = append(got, info.Source+" "+info.Store)
		}
		return got
	}
	if got := sources("fetch", "--json", "--store", file); got[0] != "network bbolt "+file || got[1] != "cache bbolt "+file {
		t.Errorf("--store %s: %q", file, got)
	}
	if got := sources("fetch", "--json", "--store", "memory"); got[0] != "network memory" || got[1] != "network memory" {
		t.Errorf("--store memory: %q", got)
	}
	if n := s.hits.Load(); n != 3 {
		t.Errorf("%d requests, want 3 (1 for the file, 2 for memory)", n)
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "robotstxt")); !os.IsNotExist(err) {
		t.Errorf("--store given, yet the default cache directory was touched: %v", err)
	}
}

func TestStoreLockedFileRunsOnMemory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cache.db")
	held, err := boltstore.Open(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	storeOptions.LockTimeout = -1 // one try: the file is held
	t.Cleanup(func() { storeOptions.LockTimeout = 0 })
	s := newSite(t, 200, siteRules)
	code, out, stderr := runCmd(t, "", "check", "-u", s.URL, "--store", file, "/private/x")
	if code != 1 || !containsWords(out, "BLOCKED") || !containsWords(out, "(store: memory)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if want := "robotstxt: cache file " + file + " is in use by another process; using memory for this run\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// runMain runs the program as a process: the test binary, through TestMain.
func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ROBOTSTXT_RUN_MAIN=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

func TestRedisDownIsOneLine(t *testing.T) {
	// A Redis server that does not answer: the command runs on memory and
	// says so in one line; go-redis's own log lines are silenced by main.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := newSite(t, 200, siteRules)
	code, out, stderr := runMain(t, "check", "-u", s.URL, "--store", "redis://"+addr+"/0", "/public")
	if code != 0 || !containsWords(out, "allowed  Googlebot") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.HasPrefix(stderr, "robotstxt: redis "+addr+" unreachable since ") || !strings.HasSuffix(stderr, "; answering from memory\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr is not the store's one line:\n%s", stderr)
	}
}

// With Redis down, the report says the answer came from memory, as the
// note on stderr does.
func TestRedisDownReportSaysMemory(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := newSite(t, 200, siteRules)
	code, out, stderr := runMain(t, "fetch", "--json", "--store", "redis://"+addr+"/0", s.URL)
	var info fetchInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if info.Store != "memory, in place of redis "+addr || !strings.HasSuffix(stderr, "; answering from memory\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("store %q, stderr %q", info.Store, stderr)
	}
	code, out, _ = runMain(t, "check", "-u", s.URL, "--store", "redis://"+addr+"/0", "/public")
	if code != 0 || !containsWords(out, "(store: memory, in place of redis "+addr+")") {
		t.Errorf("check: exit %d:\n%s", code, out)
	}
}

func TestVersionIsTheUserAgents(t *testing.T) {
	code, out, _ := runCmd(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "robotstxt "+fetch.Version+"\n") {
		t.Fatalf("exit %d, %q", code, out)
	}
	printed := strings.Fields(out)[1]
	var ua atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		w.Write([]byte(siteRules))
	}))
	defer srv.Close()
	if code, _, stderr := runCmd(t, "", "fetch", "--store", "memory", srv.URL); code != 0 {
		t.Fatalf("fetch: exit %d: %s", code, stderr)
	}
	if got, _ := ua.Load().(string); !strings.HasPrefix(got, "robotstxt/"+printed+" ") {
		t.Errorf("User-Agent %q does not carry the version printed, %s", got, printed)
	}
}

func TestNoCacheDirRunsOnMemory(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	s := newSite(t, 200, siteRules)
	code, out, stderr := runCmd(t, "", "fetch", s.URL)
	if code != 0 || !containsWords(out, "source:   network (store: memory)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.HasPrefix(stderr, "robotstxt: ") || !strings.Contains(stderr, "no user cache directory") ||
		!strings.HasSuffix(stderr, "; using memory for this run\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q", stderr)
	}
}
