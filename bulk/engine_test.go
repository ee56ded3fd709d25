package bulk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/testweb"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
)

// readRows reads a run's JSON Lines.
func readRows(t *testing.T, out string) []Result {
	t.Helper()
	var rows []Result
	if err := ReadResults(strings.NewReader(out), func(r Result) error {
		rows = append(rows, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestBulkMemoryBounded runs bulk over hostile origins, each a ~500 KiB
// file of wildcard rules whose parse weighs several megabytes, and checks
// the heap in use at every write of results: the answers kept are bounded
// by weight (OriginBytes), not by count. They were kept by count (up to
// 16,384 origins): the heap grew with every origin.
func TestBulkMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 96 hostile files")
	}
	hw := testweb.NewHostile(t)
	u, _ := url.Parse(hw.URL)
	const origins = 96
	in := testweb.HostileInput(origins, 2)
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: NewTransport(4, 2, http.ProxyURL(u))}
	googlebot, _ := robotstxt.LookupCrawler("Googlebot")
	c, err := New(&Options{
		Subjects:    []Subject{{Label: googlebot.Name, Crawler: &googlebot}, {Label: "FooBot", Agents: []string{"FooBot"}}},
		Concurrency: 4, Window: 4096, StoreName: "memory",
		// The cache keeps no parsed file, the store nothing: what is held
		// is bulk's.
		Cache: cache.New(&cache.Options{Store: nullStore{}, Fetcher: f, ParsedBytes: 1,
			KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
	})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	hwr := &heapWriter{}
	sum, err := c.Run(context.Background(), strings.NewReader(in), hwr)
	if err != nil || sum.URLs != 2*origins || sum.Policies["rules"] != 2*2*origins {
		t.Fatalf("bulk: %v; summary %+v", err, sum)
	}
	// The table keeps up to 64 MiB by weight (an upper bound: less in
	// use), the 4 fetches under way a body and a parse each, the batch
	// being read up to 16 MiB of answers (OriginBytes/4) and one: about
	// 150 MB at worst, half what the answers kept by count took.
	grown := int64(hwr.peak) - int64(base)
	const limit = 224 << 20
	t.Logf("heap in use at the writes: at most %d MB over the %d MB before the run", grown>>20, base>>20)
	if grown > limit {
		t.Errorf("bulk held %d MB at once over %d hostile origins, want at most %d MB", grown>>20, origins, limit>>20)
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
	sw := testweb.NewSlow(t)
	const window = 512 // batches of 256: 3 queued, one with the writer, one being filled
	cfg := proxyConfig(sw.URL, 8, window)
	ci := &countingInput{n: 40_000}
	in := io.MultiReader(strings.NewReader("http://slow.test/private/a\n"), ci)
	var out testweb.LockedBuffer
	type result struct {
		sum Summary
		err error
	}
	res := make(chan result, 1)
	go func() {
		sum, err := run(context.Background(), cfg, in, &out)
		res <- result{sum, err}
	}()
	// The first batch holds the slow URL alone (the reader hands on what it
	// has when its buffer is empty); the writer waits on it, and the three
	// full batches queued behind it go to the workers too: their results
	// are known, the progress moves while nothing can be written.
	deadline := time.Now().Add(60 * time.Second)
	for cfg.done.Load() < 3*bulkBatchSize {
		if time.Now().After(deadline) {
			sw.Free()
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
	sw.Free()
	r := <-res
	if r.err != nil || r.sum.URLs != 40_001 {
		t.Fatalf("bulk: %v, %d URLs", r.err, r.sum.URLs)
	}
	rows := readRows(t, out.String())
	if len(rows) != 40_001 || rows[0].URL != "http://slow.test/private/a" {
		t.Fatalf("%d rows, the first %+v", len(rows), rows[0])
	}
	for i, r := range rows[1:] {
		if want := fmt.Sprintf("http://f%d.test/p%07d", i%20, i); r.URL != want {
			t.Fatalf("row %d is %s, want %s (input order)", i+1, r.URL, want)
		}
	}
}

// TestReadBulkSendsOnce: a batch the workers have, whose hand-over to the
// writer an interrupt stops, is not handed on again as the reader returns:
// formatted twice, the second time with its items' origins let go, it
// crashed the worker (seen once under SIGTERM). The reader's last send and
// the interrupt race, so the test runs it many times.
func TestReadBulkSendsOnce(t *testing.T) {
	cfg := memoryConfig(store.NewMemory(nil), false)
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

// TestBulkWritesLastResult checks that the last result is written when it
// filled the writer's batch exactly: a result of 64 KiB or more is handed to
// the buffered writer at once, and the end of the run must flush it (it was
// lost: the final flush returned early with nothing of its own to write).
func TestBulkWritesLastResult(t *testing.T) {
	for _, n := range []int{1, 2} {
		var in strings.Builder
		for i := range n {
			fmt.Fprintf(&in, "http://s1.test/%d/%s\n", i, strings.Repeat("a", 70_000))
		}
		var out bytes.Buffer
		sum, err := run(context.Background(), memoryConfig(store.NewMemory(nil), false), strings.NewReader(in.String()), &out)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(out.String(), "\n"); got != n || sum.Results != int64(n) {
			t.Errorf("%d URLs: %d lines written, %d results counted", n, got, sum.Results)
		}
	}
}

// memoryOptions are the options of a run over testweb.Memory.
func memoryOptions() *Options {
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: testweb.Memory{}}
	return &Options{Cache: cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: f})}
}

// TestRunAnswers: a run through the API answers each URL for each
// subject, in input order, with its origin's policy, and counts it all in
// the summary; JSON input's own members are copied.
func TestRunAnswers(t *testing.T) {
	o := memoryOptions()
	var err error
	if o.Subjects, err = Subjects([]string{"googlebot", "Googlebot", "bingbot"}, []string{"FooBot"}); err != nil {
		t.Fatal(err)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	in := "# frontier\n\nhttp://s1.test/private/x\n{\"url\":\"http://s3.test/a\",\"id\":7}\nhttp://s7.test/\nnot a url\n"
	var out bytes.Buffer
	sum, err := c.Run(context.Background(), strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, out.String())
	type want struct {
		url, who, policy string
		allowed          *bool
	}
	yes, no := new(bool), new(bool)
	*yes = true
	var wants []want
	for _, u := range []struct{ url, policy string }{{"http://s1.test/private/x", "rules"}, {"http://s3.test/a", "allow-all"}, {"http://s7.test/", "disallow-all"}, {"not a url", ""}} {
		for _, who := range []string{"Googlebot", "Bingbot", "FooBot"} {
			a := yes
			switch {
			case u.policy == "":
				a = nil
			case u.policy != "allow-all": // /private/x: disallowed for all three
				a = no
			}
			wants = append(wants, want{u.url, who, u.policy, a})
		}
	}
	if len(rows) != len(wants) {
		t.Fatalf("%d results, want %d:\n%s", len(rows), len(wants), out.String())
	}
	for i, w := range wants {
		r := rows[i]
		who := r.Crawler + r.Agent
		if r.URL != w.url || who != w.who || r.Policy != w.policy || (r.Allowed == nil) != (w.allowed == nil) ||
			r.Allowed != nil && *r.Allowed != *w.allowed {
			t.Errorf("result %d: %+v; want %+v", i, r, w)
		}
	}
	if !strings.Contains(out.String(), `"url":"http://s3.test/a","id":7,"crawler":"Googlebot"`) {
		t.Errorf("the input's id not copied:\n%s", out.String())
	}
	if rows[9].Error == "" || sum.URLs != 4 || sum.Results != 12 || sum.BadLines != 1 || sum.Origins != 3 || sum.Fetches.Made != 3 {
		t.Errorf("error %q; summary %+v", rows[9].Error, sum)
	}
}

// TestRunSummaryIsTheRuns: two runs on one cache: the second fetches
// nothing, and its summary says so (the cache's counts are the run's).
func TestRunSummaryIsTheRuns(t *testing.T) {
	c, err := New(memoryOptions())
	if err != nil {
		t.Fatal(err)
	}
	in := testweb.MemoryInput(2000, 100)
	for i, want := range []uint64{100, 0} {
		sum, err := c.Run(context.Background(), bytes.NewReader(in), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Fetches.Made != want || sum.URLs != 2000 || sum.Origins != 100 {
			t.Errorf("run %d: %d fetches (want %d), %d URLs, %d origins", i, sum.Fetches.Made, want, sum.URLs, sum.Origins)
		}
	}
}

// TestRunProgress: the progress callback is called at the end with Done,
// every URL counted, the input read and the fetches made.
func TestRunProgress(t *testing.T) {
	o := memoryOptions()
	var calls []Progress
	o.Progress = func(p Progress) { calls = append(calls, p) }
	o.ProgressInterval = time.Millisecond
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	in := testweb.MemoryInput(5000, 50)
	if _, err := c.Run(context.Background(), bytes.NewReader(in), io.Discard); err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 {
		t.Fatal("no progress reported")
	}
	last := calls[len(calls)-1]
	if !last.Done || last.URLs != 5000 || last.BytesRead != int64(len(in)) || last.Fetches != 50 {
		t.Errorf("last report %+v; want Done, 5000 URLs, %d bytes, 50 fetches", last, len(in))
	}
	for _, p := range calls[:len(calls)-1] {
		if p.Done || p.URLs > last.URLs {
			t.Errorf("report %+v before the last %+v", p, last)
		}
	}
}

// TestRunCancelled: a run whose context ends stops with ErrInterrupted,
// every line written whole, though its input goes on.
func TestRunCancelled(t *testing.T) {
	c, err := New(memoryOptions())
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(pw, "http://s%d.test/p\n", i%100); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	var out testweb.LockedBuffer
	done := make(chan error, 1)
	var sum Summary
	go func() {
		var err error
		sum, err = c.Run(ctx, pr, &out)
		done <- err
	}()
	for !strings.Contains(out.String(), "\n") {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not stop when its context ended")
	}
	if !errors.Is(err, ErrInterrupted) || !sum.Interrupted {
		t.Fatalf("error %v, interrupted %v", err, sum.Interrupted)
	}
	s := out.String()
	if !strings.HasSuffix(s, "\n") || int64(len(readRows(t, s))) != sum.Results {
		t.Errorf("%d results counted; output ends %q", sum.Results, s[max(0, len(s)-40):])
	}
}

// TestRunFunc: the results given to a function, in order; its error
// stops the run and is returned.
func TestRunFunc(t *testing.T) {
	o := memoryOptions()
	o.Format = CSV // not used by RunFunc
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	in := testweb.MemoryInput(3000, 30)
	var urls []string
	sum, err := c.RunFunc(context.Background(), bytes.NewReader(in), func(r Result) error {
		urls = append(urls, r.URL)
		return nil
	})
	lines := strings.Split(strings.TrimSpace(string(in)), "\n")
	if err != nil || sum.URLs != 3000 || strings.Join(urls, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("%v; %d results for %d URLs, in order: %v", err, len(urls), sum.URLs, strings.Join(urls, "\n") == strings.Join(lines, "\n"))
	}
	stop := errors.New("enough")
	n := 0
	_, err = c.RunFunc(context.Background(), bytes.NewReader(in), func(Result) error {
		if n++; n == 10 {
			return stop
		}
		return nil
	})
	if err != stop || n != 10 {
		t.Errorf("error %v after %d results, want %v after 10", err, n, stop)
	}
}

// TestNewRefuses: the options New refuses, each named.
func TestNewRefuses(t *testing.T) {
	ok := memoryOptions()
	for _, tc := range []struct {
		o    *Options
		want string
	}{
		{nil, "Options.Cache"},
		{&Options{}, "Options.Cache"},
		{&Options{Cache: ok.Cache, Format: 2}, "Options.Format"},
		{&Options{Cache: ok.Cache, Order: 5}, "Options.Order"},
		{&Options{Cache: ok.Cache, Concurrency: -1}, "Options.Concurrency"},
		{&Options{Cache: ok.Cache, Subjects: []Subject{{Label: "x"}}}, "Options.Subjects[0]"},
	} {
		if _, err := New(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v, want an error naming %s", tc.o, err, tc.want)
		}
	}
	if _, err := Subjects([]string{"Googlebott"}, nil); err == nil {
		t.Error("Subjects took an unknown crawler")
	}
}
