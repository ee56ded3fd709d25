package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
)

// slowWeb is an HTTP proxy that stands in for the web: slow.test answers
// its robots.txt once release is closed, every other host at once.
type slowWeb struct {
	*httptest.Server
	release chan struct{}
	once    sync.Once
}

func newSlowWeb(t *testing.T) *slowWeb {
	sw := &slowWeb{release: make(chan struct{})}
	sw.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Hostname() == "slow.test" {
			select {
			case <-sw.release:
			case <-r.Context().Done():
				return
			}
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private\n")
	}))
	u, _ := url.Parse(sw.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() {
		bulkProxy = old
		sw.free()
		sw.CloseClientConnections()
		sw.Close()
	})
	return sw
}

// free lets slow.test answer.
func (sw *slowWeb) free() { sw.once.Do(func() { close(sw.release) }) }

// TestBulkOrderAny: with --order any, one slow origin first does not hold
// back the results of the URLs after it: they are all written while it
// has not answered, each with its input line, and its own come last.
func TestBulkOrderAny(t *testing.T) {
	sw := newSlowWeb(t)
	const fast = 600
	var in strings.Builder
	in.WriteString("http://slow.test/private/a\n# a comment\n")
	want := map[int]string{1: "http://slow.test/private/a"}
	for i := range fast {
		u := fmt.Sprintf("http://f%d.test/p%d", i%30, i)
		in.WriteString(u + "\n")
		want[i+3] = u
	}
	pr, pw := io.Pipe()
	codeCh := make(chan int, 1)
	var errb strings.Builder
	go func() {
		codeCh <- run([]string{"bulk", "--store", "memory", "--quiet", "--order", "any"}, strings.NewReader(in.String()), pw, &errb)
		pw.Close()
	}()
	// A watchdog: should the fast results wait for the slow one, the test
	// fails instead of hanging.
	held := atomic.Bool{}
	watchdog := time.AfterFunc(60*time.Second, func() { held.Store(true); sw.free() })
	defer watchdog.Stop()
	sc := bufio.NewScanner(pr)
	seen := map[int]bool{}
	check := func(line string) bulkAnyRow {
		var r bulkAnyRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON: %v: %q", err, line)
		}
		if r.InputLine == nil || want[*r.InputLine] != r.URL || seen[*r.InputLine] {
			t.Fatalf("result %s says input line %v, want a line of its own", r.URL, r.InputLine)
		}
		seen[*r.InputLine] = true
		return r
	}
	for range fast {
		if !sc.Scan() {
			t.Fatalf("the output ended after %d results: %v; stderr:\n%s", len(seen), sc.Err(), errb.String())
		}
		if r := check(sc.Text()); r.URL == want[1] {
			t.Fatal("the slow origin's result came before it answered")
		}
	}
	if held.Load() {
		t.Fatal("the fast origins' results were held back until the slow one answered")
	}
	sw.free()
	if !sc.Scan() {
		t.Fatalf("no result for the slow origin: %v", sc.Err())
	}
	if r := check(sc.Text()); r.URL != want[1] || r.Allowed == nil || *r.Allowed {
		t.Errorf("last: %+v", r)
	}
	if sc.Scan() {
		t.Errorf("more output: %q", sc.Text())
	}
	if code := <-codeCh; code != 0 {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

type bulkAnyRow struct {
	bulkRow
	InputLine *int `json:"input_line"`
}

// TestBulkOrderAnyCSV: the input line is the first column.
func TestBulkOrderAnyCSV(t *testing.T) {
	newSlowWeb(t)
	out, stderr, code := runBulkArgs(t, strings.NewReader("http://a.test/private\n\nhttp://b.test/x\n"),
		"--store", "memory", "--quiet", "--order", "any", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "input_line,url,crawler,allowed,line,rule,origin,policy,reason,source,error" {
		t.Fatalf("output:\n%s", out)
	}
	got := strings.Join(lines[1:], "\n")
	if !strings.Contains(got, "1,http://a.test/private,Googlebot,false,") || !strings.Contains(got, "3,http://b.test/x,Googlebot,true,") {
		t.Errorf("rows:\n%s", out)
	}
}

// proxyBulkConfig is a run's configuration as runBulk makes it, on a
// memory store, through bulkProxy.
func proxyBulkConfig(concurrency, window int) bulkConfig {
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: newBulkTransport(concurrency, 2)}
	c, _ := robotstxt.LookupCrawler("Googlebot")
	return bulkConfig{
		subjects: []bulkSubject{{label: c.Name, crawler: &c}}, concurrency: concurrency, perHost: 2,
		window: window, storeName: "memory", done: new(atomic.Int64),
		cache: cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: f, KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
	}
}

// countingInput gives n lines "http://fK.test/pI\n", counting the bytes
// read from it.
type countingInput struct {
	n, i int
	buf  []byte
	read atomic.Int64
}

func (c *countingInput) Read(p []byte) (int, error) {
	for len(c.buf) < len(p) && c.i < c.n {
		c.buf = fmt.Appendf(c.buf, "http://f%d.test/p%07d\n", c.i%20, c.i)
		c.i++
	}
	if len(c.buf) == 0 {
		return 0, io.EOF
	}
	k := copy(p, c.buf)
	c.buf = c.buf[k:]
	c.read.Add(int64(k))
	return k, nil
}

// TestBulkOrderInputBounded: in input order, one slow origin first holds
// back every result after it; the progress counts the URLs whose results
// are known all the same, and the reader stops once the window is full:
// what waits to be written stays bounded however long the input.
func TestBulkOrderInputBounded(t *testing.T) {
	sw := newSlowWeb(t)
	const window = 512 // batches of 256: 3 queued, one with the writer, one being filled
	cfg := proxyBulkConfig(8, window)
	ci := &countingInput{n: 40_000}
	in := io.MultiReader(strings.NewReader("http://slow.test/private/a\n"), ci)
	var out lockedBuffer // serve_test.go's
	type result struct {
		sum bulkSummary
		err error
	}
	res := make(chan result, 1)
	go func() {
		sum, err := bulk(context.Background(), cfg, in, &out, io.Discard)
		res <- result{sum, err}
	}()
	// The first batch holds the slow URL alone (the reader hands on what it
	// has when its buffer is empty); the writer waits on it, and the three
	// full batches queued behind it go to the workers too: their results
	// are known, the progress moves while nothing can be written.
	deadline := time.Now().Add(60 * time.Second)
	for cfg.done.Load() < 3*bulkBatchSize {
		if time.Now().After(deadline) {
			sw.free()
			t.Fatalf("progress at %d URLs while the slow origin holds the output: it counts the URLs written, not those known", cfg.done.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// At most 5 batches of 256 lines of 26 bytes read, and the reader's
	// 64 KiB buffer: far from the input's 1 MB.
	if n := ci.read.Load(); n > 5*bulkBatchSize*26+64<<10+4096 {
		t.Errorf("%d bytes of input read while the first URL waits: the window is not bounded", n)
	}
	if out.String() != "" {
		t.Errorf("results written before the first URL's")
	}
	sw.free()
	r := <-res
	if r.err != nil || r.sum.URLs != 40_001 {
		t.Fatalf("bulk: %v, %d URLs", r.err, r.sum.URLs)
	}
	rows := parseRows(t, out.String())
	if len(rows) != 40_001 || rows[0].URL != "http://slow.test/private/a" {
		t.Fatalf("%d rows, the first %+v", len(rows), rows[0])
	}
	for i, r := range rows[1:] {
		if want := fmt.Sprintf("http://f%d.test/p%07d", i%20, i); r.URL != want {
			t.Fatalf("row %d is %s, want %s (input order)", i+1, r.URL, want)
		}
	}
}

// TestBulkOrderFlag: --order is input or any.
func TestBulkOrderFlag(t *testing.T) {
	_, stderr, code := runBulkArgs(t, strings.NewReader(""), "--store", "memory", "--order", "random")
	if code != 2 || !strings.Contains(stderr, `--order "random": want input or any`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestReadBulkSendsOnce: a batch the workers have, whose hand-over to the
// writer an interrupt stops, is not handed on again as the reader returns:
// formatted twice, the second time with its items' origins let go, it
// crashed the worker (seen once under SIGTERM). The reader's last send and
// the interrupt race, so the test runs it many times.
func TestReadBulkSendsOnce(t *testing.T) {
	cfg := benchBulkConfig(store.NewMemory(nil), false)
	for range 50 {
		ctx, cancel := context.WithCancel(context.Background())
		org := newOrigins(ctx, &cfg, 16, 1<<30)
		order := make(chan *bulkBatch) // no writer
		work := make(chan *bulkBatch, 4)
		var read atomic.Int64
		done := make(chan error, 1)
		go func() { done <- readBulk(ctx, in1(), org, order, work, &read) }()
		<-work // handed to the workers; the writer never takes it
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := len(work); n != 0 {
			t.Fatalf("the batch was handed to the workers %d more times", n)
		}
	}
}

// in1 is an input of one URL.
func in1() io.Reader { return strings.NewReader("http://s1.test/a\n") }
