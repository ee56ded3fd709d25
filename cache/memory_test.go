package cache

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// hostileBody is a robots.txt of n bytes made of the smallest groups there
// are: parsed and asked about, it keeps about twenty bytes per byte.
func hostileBody(n int) string {
	return strings.Repeat("useragent:\nallow:\n", n/18)
}

// newLoopbackCache returns a cache whose fetcher reaches srv whatever the
// host asked for, so that any number of origins can be served by one
// loopback server.
func newLoopbackCache(t *testing.T, srv *server, opts Options) *Cache {
	t.Helper()
	addr := srv.Listener.Addr().String()
	clk := storetest.NewClock(epoch)
	opts.Now = clk.Now
	opts.Store = store.NewMemory(&store.MemoryOptions{Now: clk.Now})
	opts.Fetcher = &fetch.Fetcher{Now: clk.Now, DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
	return New(&opts)
}

// TestParsedMemoryBoundedByBytes asks about many origins that all serve a
// hostile file: the parsed files kept weigh no more than ParsedBytes, and
// what they weigh is at least what they really keep on the heap.
func TestParsedMemoryBoundedByBytes(t *testing.T) {
	const budget = 16 << 20
	const origins = 24
	srv := newServer(t, reply(200, hostileBody(128<<10)))
	c := newLoopbackCache(t, srv, Options{ParsedBytes: budget})
	ctx := context.Background()
	ask := func(u string) {
		a, err := c.Get(ctx, u)
		if err != nil || a.Robots == nil {
			t.Fatalf("Get(%s) = %+v, %v", u, a, err)
		}
		if !a.Allowed("FooBot", u) {
			t.Fatalf("%s disallowed", u)
		}
		a.Decide(robotstxt.Query{URL: u, Agents: []string{"FooBot"}, Dialect: robotstxt.RFC9309, Explain: true})
	}
	for i := 0; i < origins; i++ {
		u := fmt.Sprintf("http://origin%d.test/x", i)
		ask(u)
		ask(u) // found again, the parse is weighed with the reading the RFC question built
	}
	n, weight := c.parsed.usage()
	if weight > budget {
		t.Errorf("%d parsed files kept weigh %d bytes, more than ParsedBytes %d", n, weight, budget)
	}
	if n == 0 || n == origins {
		t.Errorf("%d of %d parsed files kept within %d bytes", n, origins, budget)
	}
	// What the kept parses really hold: the heap freed when they are dropped.
	var held, freed runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&held)
	c.parsed.mu.Lock()
	c.parsed.max = 0
	c.parsed.evict()
	c.parsed.mu.Unlock()
	runtime.GC()
	runtime.ReadMemStats(&freed)
	real := int64(held.HeapAlloc) - int64(freed.HeapAlloc)
	t.Logf("%d parsed files kept, weighing %d bytes, holding %d", n, weight, real)
	if real > weight {
		t.Errorf("the %d parsed files kept hold %d bytes, more than their weight %d", n, real, weight)
	}
	if st := c.Stats(); st.Fetches != origins {
		t.Errorf("%d fetches for %d origins", st.Fetches, origins)
	}
}

// TestParsedTooHeavyIsNotKept: a file that weighs more than the whole
// bound is parsed for each question, and answered right.
func TestParsedTooHeavyIsNotKept(t *testing.T) {
	srv := newServer(t, reply(200, "user-agent: *\ndisallow: /private\n"+hostileBody(64<<10)))
	c := newLoopbackCache(t, srv, Options{ParsedBytes: 64 << 10})
	for i := 0; i < 3; i++ {
		ok, err := c.Allowed(context.Background(), "FooBot", "http://heavy.test/private/x")
		if err != nil || ok {
			t.Fatalf("Allowed = %v, %v", ok, err)
		}
	}
	if n, w := c.parsed.usage(); n != 0 || w != 0 {
		t.Errorf("%d parsed files kept, weighing %d", n, w)
	}
	if st := c.Stats(); st.Parses != 3 || st.Fetches != 1 {
		t.Errorf("stats %+v, want 3 parses and 1 fetch", st)
	}
}

// TestParsedDefaults: the zero options bound the parsed files by
// DefaultParsedBytes.
func TestParsedDefaults(t *testing.T) {
	c := New(nil)
	if c.parsed.maxBytes != DefaultParsedBytes || c.parsed.max != DefaultParsedMax {
		t.Errorf("bounds %d files, %d bytes", c.parsed.max, c.parsed.maxBytes)
	}
}
