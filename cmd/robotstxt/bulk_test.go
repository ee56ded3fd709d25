package main

import (
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt/bulk"

	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeWeb is an HTTP proxy that stands in for the web: every host name
// sNNN.test is a site whose robots.txt behaves by NNN (see kind). It counts
// the robots.txt requests per host.
type fakeWeb struct {
	*httptest.Server
	mu     sync.Mutex
	robots map[string]int
	delay  time.Duration // before each robots.txt answer
}

// The kinds of sites, by host number modulo 50.
func siteKind(n int) string {
	switch n % 50 {
	case 1:
		return "404"
	case 2:
		return "503"
	case 3:
		return "redirects" // a chain longer than crawlers follow
	case 4:
		return "timeout"
	case 5:
		return "huge"
	case 6:
		return "endless"
	case 7:
		return "redirect-ok" // one hop to a good file
	}
	return "rules"
}

func newFakeWeb(t testing.TB) *fakeWeb {
	w := &fakeWeb{robots: map[string]int{}}
	w.Server = httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(func() {
		w.CloseClientConnections()
		w.Close()
	})
	return w
}

func (fw *fakeWeb) count(host string) int {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return fw.robots[host]
}

func (fw *fakeWeb) serve(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Hostname()
	if host == "" {
		host = r.Host
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "s"), ".test"))
	if err != nil {
		http.Error(w, "no such site", http.StatusBadGateway)
		return
	}
	if r.URL.Path == "/robots.txt" {
		fw.mu.Lock()
		fw.robots[host]++
		fw.mu.Unlock()
		time.Sleep(fw.delay)
	}
	rules := "User-agent: *\nDisallow: /private\n"
	switch siteKind(n) {
	case "404":
		http.NotFound(w, r)
	case "503":
		w.WriteHeader(http.StatusServiceUnavailable)
	case "redirects":
		hop, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop"))
		http.Redirect(w, r, fmt.Sprintf("/hop%d", hop+1), http.StatusFound)
	case "timeout":
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second): // the client gives up first
		}
	case "huge":
		// 1 MB: crawlers read the first 500 KiB, whose rules apply.
		io.WriteString(w, rules)
		line := "# " + strings.Repeat("x", 1000) + "\n"
		for range 1000 {
			io.WriteString(w, line)
		}
	case "endless":
		io.WriteString(w, rules)
		line := []byte("# " + strings.Repeat("y", 4000) + "\n")
		for r.Context().Err() == nil {
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	case "redirect-ok":
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/real-robots.txt", http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, rules)
	default:
		io.WriteString(w, rules)
	}
}

// want is the verdict a site of kind gives a path: policy and allowed.
func wantVerdict(kind, path string) (string, bool) {
	switch kind {
	case "404", "redirects":
		return "allow-all", true
	case "503", "timeout":
		return "disallow-all", false
	}
	return "rules", !strings.HasPrefix(path, "/private")
}

// useFakeWeb routes the bulk fetcher through fw as its proxy for the test.
func useFakeWeb(t *testing.T, fw *fakeWeb) {
	u, _ := url.Parse(fw.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() { bulkProxy = old })
}

type bulkRow struct {
	URL     string `json:"url"`
	ID      *int   `json:"id"`
	Crawler string `json:"crawler"`
	Agent   string `json:"agent"`
	Allowed *bool  `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Origin  string `json:"origin"`
	Policy  string `json:"policy"`
	Reason  string `json:"reason"`
	Source  string `json:"source"`
	Error   string `json:"error"`
}

func parseRows(t *testing.T, out string) []bulkRow {
	t.Helper()
	var rows []bulkRow
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var r bulkRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("output line %d is not JSON: %v: %q", len(rows)+1, err, sc.Text())
		}
		rows = append(rows, r)
	}
	return rows
}

func runBulkArgs(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"bulk"}, args...), stdin, &out, &errb)
	return out.String(), errb.String(), code
}

// TestBulkFakeWeb checks a frontier over 2,000 origins, some misbehaving
// (404, 503, long redirect chains, timeouts, huge and endless bodies): every
// URL gets its origin's answer, in input order, and every origin is fetched
// once.
func TestBulkFakeWeb(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	const sites = 2000
	var in strings.Builder
	type q struct {
		host, path string
	}
	var qs []q
	for n := range sites {
		for _, p := range []string{"/private/a", "/public/b", "/x"} {
			qs = append(qs, q{fmt.Sprintf("s%d.test", n), p})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	in.WriteString("# a frontier\n\n")
	for i, x := range qs {
		if i%2 == 0 {
			fmt.Fprintf(&in, "http://%s%s\n", x.host, x.path)
		} else {
			fmt.Fprintf(&in, "{\"id\":%d,\"url\":\"http://%s%s\"}\n", i, x.host, x.path)
		}
	}
	sumFile := filepath.Join(t.TempDir(), "summary.json")
	out, stderr, code := runBulkArgs(t, strings.NewReader(in.String()), "--store", "memory", "--timeout", "10s",
		"--concurrency", "200", "--summary", sumFile)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	rows := parseRows(t, out)
	if len(rows) != len(qs) {
		t.Fatalf("%d results for %d URLs", len(rows), len(qs))
	}
	for i, r := range rows {
		x := qs[i]
		wantURL := "http://" + x.host + x.path
		if r.URL != wantURL {
			t.Fatalf("result %d is for %s, want %s (input order)", i, r.URL, wantURL)
		}
		if i%2 == 1 && (r.ID == nil || *r.ID != i) {
			t.Errorf("result %d: id %v not passed through", i, r.ID)
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(x.host, "s"), ".test"))
		kind := siteKind(n)
		policy, allowed := wantVerdict(kind, x.path)
		if r.Policy != policy || r.Allowed == nil || *r.Allowed != allowed || r.Crawler != "Googlebot" || r.Origin != "http://"+x.host {
			t.Errorf("%s (%s site): %+v; want policy %s, allowed %v", wantURL, kind, r, policy, allowed)
		}
		if policy == "rules" && !allowed && (r.Line != 2 || r.Rule != "Disallow: /private") {
			t.Errorf("%s: line %d rule %q", wantURL, r.Line, r.Rule)
		}
	}
	// The first result of each origin, in output order, says the answer
	// came from the network; the others, from the cache.
	seen := map[string]bool{}
	for i, r := range rows {
		want := "cache"
		if !seen[r.Origin] {
			want = "network"
			seen[r.Origin] = true
		}
		if r.Source != want {
			t.Errorf("result %d (%s): source %q, want %q", i, r.URL, r.Source, want)
		}
	}
	for n := range sites {
		host := fmt.Sprintf("s%d.test", n)
		if c := fw.count(host); c != 1 {
			t.Errorf("%s (%s) fetched %d times, want 1", host, siteKind(n), c)
		}
	}
	var sum bulk.Summary
	b, err := os.ReadFile(sumFile)
	if err != nil || json.Unmarshal(b, &sum) != nil {
		t.Fatalf("summary file: %v: %s", err, b)
	}
	if sum.URLs != int64(len(qs)) || sum.Origins != sites || sum.Fetches.Made != sites || sum.Sources["network"] != sites {
		t.Errorf("summary %+v", sum)
	}
	if !strings.Contains(stderr, fmt.Sprintf("%d URLs, %d results", len(qs), len(qs))) {
		t.Errorf("stderr summary:\n%s", stderr)
	}
}

// hugeLine reads as one line of n bytes, then "\n" and tail, without
// holding the line.
type hugeLine struct {
	n    int
	tail string
}

func (h *hugeLine) Read(p []byte) (int, error) {
	if h.n > 0 {
		k := min(len(p), h.n)
		for i := range k {
			p[i] = 'a'
		}
		h.n -= k
		return k, nil
	}
	if h.tail == "" {
		return 0, io.EOF
	}
	k := copy(p, h.tail)
	h.tail = h.tail[k:]
	return k, nil
}

// TestBulkBadInput: binary data, a 100 MB line, invalid UTF-8, URLs without
// scheme or host each get an error result, in order, and the run goes on.
func TestBulkBadInput(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	head := "http://s0.test/private\n" +
		"\x00\x01\x02\xff\xfe binary\n" +
		"http://s0.test/\xff\xfe\n" +
		"example.com/no-scheme\n" +
		"http:///no-host\n" +
		"{\"url\": 5}\n" +
		"{not json\n"
	in := io.MultiReader(strings.NewReader(head), &hugeLine{n: 100 << 20, tail: "\nhttp://s0.test/public\n"})
	out, stderr, code := runBulkArgs(t, in, "--store", "memory", "-a", "MyBot")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (some lines not checked); stderr:\n%s", code, stderr)
	}
	rows := parseRows(t, out)
	if len(rows) != 9 {
		t.Fatalf("%d results, want 9:\n%s", len(rows), out)
	}
	if r := rows[0]; r.Allowed == nil || *r.Allowed || r.Agent != "MyBot" {
		t.Errorf("first: %+v", r)
	}
	wantErr := []string{"line 2:", "line 3: the URL is not valid UTF-8", "line 4:", "line 5:", "line 6: the JSON object has no \"url\"", "line 7: not a JSON object", "line 8: longer than"}
	for i, w := range wantErr {
		r := rows[i+1]
		if r.Allowed != nil || !strings.HasPrefix(r.Error, w) {
			t.Errorf("result %d: %+v; want an error starting %q", i+2, r, w)
		}
	}
	if r := rows[8]; r.Allowed == nil || !*r.Allowed || r.URL != "http://s0.test/public" || r.Source != "cache" {
		t.Errorf("last: %+v", r)
	}
	if !strings.Contains(stderr, "7 lines not checked") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestBulkCSV writes a header and one row per (URL, crawler).
func TestBulkCSV(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	out, stderr, code := runBulkArgs(t, strings.NewReader("http://s0.test/private\nhttp://s1.test/a,b\n"),
		"--store", "memory", "--format", "csv", "-c", "Googlebot", "-c", "Bingbot", "--quiet")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 || lines[0] != "url,crawler,allowed,line,rule,origin,policy,reason,source,error,payment" {
		t.Fatalf("output:\n%s", out)
	}
	if !strings.HasPrefix(lines[1], "http://s0.test/private,Googlebot,false,2,Disallow: /private,http://s0.test,rules,") ||
		!strings.HasPrefix(lines[4], `"http://s1.test/a,b",Bingbot,true,,,http://s1.test,allow-all,`) {
		t.Errorf("rows:\n%s", out)
	}
}

// TestBulkProgress draws the bar on a terminal only, never with --quiet.
func TestBulkProgress(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	old := bulkIsTerminal
	t.Cleanup(func() { bulkIsTerminal = old })
	for _, tc := range []struct {
		terminal, quiet, bar bool
	}{{true, false, true}, {true, true, false}, {false, false, false}} {
		bulkIsTerminal = func(io.Writer) bool { return tc.terminal }
		args := []string{"--store", "memory"}
		if tc.quiet {
			args = append(args, "--quiet")
		}
		_, stderr, code := runBulkArgs(t, strings.NewReader("http://s0.test/a\n"), args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if got := strings.Contains(stderr, "URLs/s, ") && strings.Contains(stderr, "origin fetched"); got != tc.bar {
			t.Errorf("terminal %v quiet %v: bar drawn %v; stderr:\n%q", tc.terminal, tc.quiet, got, stderr)
		}
		if tc.quiet && stderr != "" {
			t.Errorf("--quiet wrote %q", stderr)
		}
	}
}

// blockingInput gives its lines, then blocks until closed.
type blockingInput struct {
	r      io.Reader
	closed chan struct{}
}

func (b *blockingInput) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		<-b.closed
	}
	return n, err
}

// TestBulkInterrupt: an interrupt stops the run with every line written
// complete, and exit status 130.
func TestBulkInterrupt(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	old := bulkInterrupt
	var cancel atomic.Pointer[context.CancelFunc]
	bulkInterrupt = func(ctx context.Context) (context.Context, context.CancelFunc) {
		ctx, c := context.WithCancel(ctx)
		cancel.Store(&c)
		return ctx, c
	}
	t.Cleanup(func() { bulkInterrupt = old })
	var lines strings.Builder
	for i := range 500 {
		fmt.Fprintf(&lines, "http://s%d.test/p\n", i%100)
	}
	in := &blockingInput{r: strings.NewReader(lines.String()), closed: make(chan struct{})}
	defer close(in.closed)
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	codeCh := make(chan int, 1)
	go func() {
		codeCh <- run([]string{"bulk", "--store", "memory"}, in, pw, &errb)
		pw.Close()
	}()
	var out bytes.Buffer
	buf := make([]byte, 1)
	for strings.Count(out.String(), "\n") < 1 { // results are flowing
		if _, err := pr.Read(buf); err != nil {
			t.Fatal(err)
		}
		out.Write(buf)
	}
	(*cancel.Load())()
	rest, _ := io.ReadAll(pr)
	out.Write(rest)
	select {
	case code := <-codeCh:
		if code != 130 {
			t.Errorf("exit %d, want 130; stderr:\n%s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("bulk did not stop after the interrupt")
	}
	rows := parseRows(t, out.String())
	if len(rows) == 0 || len(rows) > 500 || !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("%d rows; output ends %q", len(rows), out.String()[max(0, out.Len()-40):])
	}
	if !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("stderr:\n%s", errb.String())
	}
}

// TestBulkRerunUsesStore: a second run on the same bbolt file fetches
// nothing: every origin is fresh in the cache.
func TestBulkRerunUsesStore(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	file := filepath.Join(t.TempDir(), "cache.db")
	in := "http://s0.test/a\nhttp://s8.test/private/b\nhttp://s1.test/c\n"
	sums := make([]bulk.Summary, 2)
	for i := range sums {
		sumFile := filepath.Join(t.TempDir(), "sum.json")
		out, stderr, code := runBulkArgs(t, strings.NewReader(in), "--store", file, "--quiet", "--summary", sumFile)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr)
		}
		b, _ := os.ReadFile(sumFile)
		if err := json.Unmarshal(b, &sums[i]); err != nil {
			t.Fatal(err)
		}
		rows := parseRows(t, out)
		if len(rows) != 3 || *rows[1].Allowed || !*rows[2].Allowed {
			t.Fatalf("run %d:\n%s", i, out)
		}
	}
	if sums[0].Fetches.Made != 3 || sums[1].Fetches.Made != 0 || sums[1].Sources["cache"] != 3 {
		t.Errorf("fetches %d then %d, sources of the rerun %v", sums[0].Fetches.Made, sums[1].Fetches.Made, sums[1].Sources)
	}
	for _, h := range []string{"s0.test", "s8.test", "s1.test"} {
		if c := fw.count(h); c != 1 {
			t.Errorf("%s fetched %d times over two runs", h, c)
		}
	}
}

// TestBulkSummaryFits: the summary on stderr fits 80 columns, with large
// counts, the fleet's line and a degraded store's note, and says every
// count.
func TestBulkSummaryFits(t *testing.T) {
	s := bulk.Summary{URLs: 123_456_789, Results: 987_654_321, BadLines: 12_345, Allowed: 555_555_555, Disallowed: 444_444_444,
		Policies: map[string]int64{"rules": 900_000_000, "allow-all": 80_000_000, "disallow-all": 7_654_321},
		Sources:  map[string]int64{"network": 1_000_000, "cache": 2_000_000, "stale-cache": 3_000},
		Origins:  3_003_000, Seconds: 12345.6, URLsPerSec: 10000.4, Interrupted: true, Store: "redis://cache.internal:6379/0",
		Fetches:  bulk.Fetches{Made: 1_000_000, Rules: 800_000, AllowAll: 150_000, DisallowAll: 10_000, Unreachable: 40_000, NotModified: 123_456},
		Fleet:    bulk.Fleet{Leases: 999_999, Waits: 888_888, Shared: 777_777, Expired: 66_666, LocalFetches: 5_555},
		Degraded: true, StoreNote: "redis: connection refused; answering from memory until it is back\x1b[2J"}
	var b bytes.Buffer
	writeBulkSummary(&b, s)
	out := b.String()
	t.Logf("the summary:\n%s", out)
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"123456789 URLs, 987654321 results in 12345.6s (10000 URLs/s), interrupted",
		"555555555 allowed, 444444444 disallowed, 12345 lines not checked", "900000000 rules, 80000000 allow-all, 7654321 disallow-all",
		"origins: 3003000 (1000000 network, 2000000 cache, 3000 stale-cache)",
		"fetches: 1000000 (800000 rules, 150000 allow-all, 10000 disallow-all, 40000 unreachable, 123456 not modified)",
		"fleet: 999999 leases, 888888 waits (777777 answered by another process, 66666 after the lease expired), 5555 fetched alone (store unreachable)",
		`store: redis://cache.internal:6379/0 (degraded: redis: connection refused; answering from memory until it is back\x1b[2J)`} {
		if !strings.Contains(flat, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
}

// TestBulkBarCountsAnswers: the progress bar counts the URLs answered out
// of the URLs the file holds, not the input's bytes read (issue 35 item 6:
// it showed 100% while 40% of the URLs waited, the reader being ahead).
func TestBulkBarCountsAnswers(t *testing.T) {
	var out bytes.Buffer
	total := make(chan int64, 1)
	total <- 10
	close(total)
	bar := bulkBar(&out, total)
	bar(bulk.Progress{URLs: 6, BytesRead: 1 << 20, Elapsed: time.Second})
	text := out.String()
	if !strings.Contains(text, "60%") || strings.Contains(text, "100%") || !strings.Contains(text, "6 of 10 URLs answered") {
		t.Errorf("6 of 10 URLs answered, the whole input read: %q", text)
	}
	out.Reset()
	bar(bulk.Progress{URLs: 10, BytesRead: 1 << 20, Elapsed: 2 * time.Second, Done: true})
	if text := out.String(); !strings.Contains(text, "100%") {
		t.Errorf("all answered: %q", text)
	}
}

// TestCountBulkLines: the bar's total counts the lines bulk answers,
// neither blank nor comments.
func TestCountBulkLines(t *testing.T) {
	in := "https://a.example/\n\n   \n# a comment\n  # another\n/x\r\n{\"url\":\"https://b.example/\"}\nnot a url\nlast without newline"
	n, err := countBulkLines(strings.NewReader(in))
	if err != nil || n != 5 {
		t.Errorf("countBulkLines = %d, %v; want 5", n, err)
	}
	big := strings.Repeat("https://example.com/a\n", 100000)
	if n, _ := countBulkLines(strings.NewReader(big)); n != 100000 {
		t.Errorf("%d lines, want 100000", n)
	}
}

// TestBulkQuotesWhatWasWritten: a line that is not a URL gets an error
// that quotes it as written, not as normalised (issue 35 item 8: it
// quoted "not%20a%20url").
func TestBulkQuotesWhatWasWritten(t *testing.T) {
	out, stderr, code := runBulkArgs(t, strings.NewReader("not a url\n{\"url\":\"a b\"}\n"), "--store", "memory", "--quiet")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`line 1: fetch: \"not a url\" is not an absolute URL`, `line 2: fetch: \"a b\" is not`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "%20") {
		t.Errorf("an error quotes the normalised form:\n%s", out)
	}
}
