package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	hostilegen "github.com/seed53c283f5/robotstxt/internal/hostile"
	"github.com/seed53c283f5/robotstxt/tester"
)

// hostileWeb is an HTTP proxy that stands in for the web: host hN.test
// serves the hostile file of shape N mod 4 (internal/hostile: about 500
// KiB of wildcard rules each), with a first line of its own, so that
// every origin is a file of its own to fetch and parse.
type hostileWeb struct {
	*httptest.Server
	mu     sync.Mutex
	robots int // robots.txt requests answered
}

var (
	hostileShapesOnce sync.Once
	hostileShapes     []hostilegen.Shape
)

func shapes() []hostilegen.Shape {
	hostileShapesOnce.Do(func() { hostileShapes = hostilegen.Shapes() })
	return hostileShapes
}

func (hw *hostileWeb) serve(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Hostname()
	if host == "" {
		host, _, _ = strings.Cut(r.Host, ":")
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "h"), ".test"))
	if err != nil || r.URL.Path != "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	hw.mu.Lock()
	hw.robots++
	hw.mu.Unlock()
	s := shapes()[n%4]
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintf(w, "# %s\n", host)
	io.WriteString(w, s.Body)
}

func newHostileWeb(t testing.TB) *hostileWeb {
	hw := &hostileWeb{}
	hw.Server = httptest.NewServer(http.HandlerFunc(hw.serve))
	t.Cleanup(func() {
		hw.CloseClientConnections()
		hw.Close()
	})
	return hw
}

// hostileInput returns perOrigin URLs for each of origins hostile
// origins, origin by origin: 1 KiB URLs in the alphabet of the origin's
// shape (the ones the hostile benchmarks ask).
func hostileInput(origins, perOrigin int) string {
	var b strings.Builder
	for n := range origins {
		s := shapes()[n%4]
		for k := range perOrigin {
			u := hostilegen.URL(1<<10, s.Alphabet[k%len(s.Alphabet):]+s.Alphabet[:k%len(s.Alphabet)])
			b.WriteString(strings.Replace(u, "http://example.com/", fmt.Sprintf("http://h%d.test/", n), 1))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestBulkHostileWebServe is not a test: with ROBOTSTXT_HOSTILE_WEB=FILE
// set it serves the hostile web on loopback, writes its address to FILE
// and the input of ROBOTSTXT_HOSTILE_ORIGINS origins (default 500), four
// URLs each, to FILE.urls, and runs until SIGTERM. bench/bulk.sh --hostile
// measures robotstxt bulk's peak RSS against it.
func TestBulkHostileWebServe(t *testing.T) {
	file := os.Getenv("ROBOTSTXT_HOSTILE_WEB")
	if file == "" {
		t.Skip("set ROBOTSTXT_HOSTILE_WEB to serve the hostile web (bench/bulk.sh --hostile)")
	}
	origins := 500
	if s := os.Getenv("ROBOTSTXT_HOSTILE_ORIGINS"); s != "" {
		var err error
		if origins, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	hw := &hostileWeb{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(hw.serve)}
	go srv.Serve(l)
	defer srv.Close()
	if err := os.WriteFile(file+".urls", []byte(hostileInput(origins, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(l.Addr().String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	t.Logf("%d robots.txt requests answered", hw.robots)
}

// nullStore keeps nothing.
type nullStore struct{}

func (nullStore) Get(context.Context, string) ([]byte, bool, error)        { return nil, false, nil }
func (nullStore) Put(context.Context, string, []byte, time.Duration) error { return nil }
func (nullStore) Delete(context.Context, string) error                     { return nil }
func (nullStore) Close() error                                             { return nil }

// heapWriter discards what is written to it, and at each write, after a
// collection, records the most heap in use it has seen: what the run holds
// live at the moments it writes results.
type heapWriter struct {
	peak uint64
}

func (h *heapWriter) Write(p []byte) (int, error) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.peak = max(h.peak, ms.HeapAlloc)
	return len(p), nil
}

// TestBulkMemoryBounded runs bulk over hostile origins, each a ~500 KiB
// file of wildcard rules whose parse weighs several megabytes, and checks
// the heap in use at every write of results: the answers kept are bounded
// by weight (bulkOriginBytes), not by count. They were kept by count (up to
// 16,384 origins): the heap grew with every origin.
func TestBulkMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 96 hostile files")
	}
	hw := newHostileWeb(t)
	u, _ := url.Parse(hw.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() { bulkProxy = old })
	const origins = 96
	in := hostileInput(origins, 2)
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: newBulkTransport(4, 2)}
	googlebot, _ := robotstxt.LookupCrawler("Googlebot")
	cfg := bulkConfig{
		subjects:    []bulkSubject{{label: googlebot.Name, crawler: &googlebot}, {label: "FooBot", agents: []string{"FooBot"}}},
		concurrency: 4, perHost: 2, window: 4096, storeName: "memory",
		// The cache keeps no parsed file, the store nothing: what is held
		// is bulk's.
		cache: cache.New(&cache.Options{Store: nullStore{}, Fetcher: f, ParsedBytes: 1,
			KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	hwr := &heapWriter{}
	sum, err := bulk(context.Background(), cfg, strings.NewReader(in), hwr, io.Discard)
	if err != nil || sum.URLs != 2*origins || sum.Policies["rules"] != 2*2*origins {
		t.Fatalf("bulk: %v; summary %+v", err, sum)
	}
	// The table keeps up to 64 MiB by weight (an upper bound: less in
	// use), the 4 fetches under way a body and a parse each, the batch
	// being read up to 16 MiB of answers (bulkOriginBytes/4) and one: about
	// 150 MB at worst, half what the answers kept by count took.
	grown := int64(hwr.peak) - int64(base)
	const limit = 224 << 20
	t.Logf("heap in use at the writes: at most %d MB over the %d MB before the run", grown>>20, base>>20)
	if grown > limit {
		t.Errorf("bulk held %d MB at once over %d hostile origins, want at most %d MB", grown>>20, origins, limit>>20)
	}
}
