package bulk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	hostilegen "github.com/seed53c283f5/robotstxt/internal/hostile"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The webs the tests fetch from: in memory (memoryWeb), or HTTP servers on
// loopback that the run's transport reaches as its proxy, whatever host a
// URL names.

// memoryWeb answers robots.txt requests in memory as bench/fakeweb does: one
// host in ten answers 404, one in fifty 503, the others a small file.
type memoryWeb struct{}

func (memoryWeb) RoundTrip(r *http.Request) (*http.Response, error) {
	host := r.URL.Hostname()
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "s"), ".test"))
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	body := ""
	switch {
	case n%50 == 7:
		resp.StatusCode = http.StatusServiceUnavailable
	case n%10 == 3:
		resp.StatusCode = http.StatusNotFound
	default:
		resp.Header.Set("Content-Type", "text/plain")
		body = "User-agent: *\nDisallow: /private\nDisallow: /tmp/*.php$\nAllow: /private/ok\n\nUser-agent: Bingbot\nDisallow: /\n\nSitemap: http://" + host + "/sitemap.xml\n"
	}
	resp.Body = io.NopCloser(strings.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// memoryConfig is a run's configuration over memoryWeb and st, as the
// benchmarks of robotstxt bulk make it.
func memoryConfig(st store.Store, csv bool) config {
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: memoryWeb{}}
	return config{
		subjects: defaultSubjects(), csv: csv, concurrency: 256, window: 16 * 256, storeName: "bench",
		cache: cache.New(&cache.Options{Store: st, Fetcher: f, KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
		every: 200 * time.Millisecond,
	}
}

// memoryInput is urls URLs over origins origins of memoryWeb.
func memoryInput(urls, origins int) []byte {
	paths := [...]string{"/", "/private/a", "/private/ok/b", "/tmp/x.php", "/blog/post?id="}
	rnd := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := range urls {
		fmt.Fprintf(&b, "http://s%d.test%s%d\n", rnd.IntN(origins), paths[i%5], i)
	}
	return b.Bytes()
}

// proxyConfig is a run's configuration as robotstxt bulk makes it, on a
// memory store, through the HTTP server at proxy.
func proxyConfig(proxy string, concurrency, window int) config {
	u, _ := url.Parse(proxy)
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: NewTransport(concurrency, 2, http.ProxyURL(u))}
	return config{
		subjects: defaultSubjects(), concurrency: concurrency, window: window, storeName: "memory",
		done: new(atomic.Int64), every: 200 * time.Millisecond,
		cache: cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: f, KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
	}
}

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
	t.Cleanup(func() {
		sw.free()
		sw.CloseClientConnections()
		sw.Close()
	})
	return sw
}

// free lets slow.test answer.
func (sw *slowWeb) free() { sw.once.Do(func() { close(sw.release) }) }

// hostileWeb is an HTTP proxy that stands in for the web: host hN.test
// serves the hostile file of shape N mod 4 (internal/hostile: about 500
// KiB of wildcard rules each), with a first line of its own, so that
// every origin is a file of its own to fetch and parse.
type hostileWeb struct {
	*httptest.Server
}

var (
	hostileShapesOnce sync.Once
	hostileShapes     []hostilegen.Shape
)

func shapes() []hostilegen.Shape {
	hostileShapesOnce.Do(func() { hostileShapes = hostilegen.Shapes() })
	return hostileShapes
}

func newHostileWeb(t testing.TB) *hostileWeb {
	hw := &hostileWeb{}
	hw.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Hostname()
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "h"), ".test"))
		if err != nil || r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s := shapes()[n%4]
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "# %s\n", host)
		io.WriteString(w, s.Body)
	}))
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

// lockedBuffer is a bytes.Buffer safe to read while a run writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
