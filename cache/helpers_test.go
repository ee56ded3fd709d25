package cache

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// clock is the injected time: tests move it, never sleep.
type clock = storetest.Clock

var epoch = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

type harness struct {
	t     *testing.T
	clk   *clock
	store *store.Memory
	c     *Cache
}

// newHarness returns a cache on a memory store with an injected clock; f,
// when not nil, is the fetcher (its clock is set to the harness's).
func newHarness(t *testing.T, f *fetch.Fetcher) *harness {
	t.Helper()
	clk := storetest.NewClock(epoch)
	mem := store.NewMemory(&store.MemoryOptions{Now: clk.Now})
	if f == nil {
		f = &fetch.Fetcher{}
	}
	f.Now = clk.Now
	if f.Timeout == 0 {
		f.Timeout = 5 * time.Second
	}
	return &harness{t: t, clk: clk, store: mem, c: New(&Options{Store: mem, Now: clk.Now, Fetcher: f})}
}

// get asks about a URL and fails the test on an error.
func (h *harness) get(rawURL string) *Answer {
	h.t.Helper()
	a, err := h.c.Get(context.Background(), rawURL)
	if err != nil {
		h.t.Fatalf("Get(%s): %v", rawURL, err)
	}
	return a
}

// entry returns what the store holds for the origin of rawURL, nil if none.
func (h *harness) entry(rawURL string) *entry {
	h.t.Helper()
	o, err := fetch.OriginOf(rawURL)
	if err != nil {
		h.t.Fatal(err)
	}
	b, ok, err := h.store.Get(context.Background(), o.String())
	if err != nil {
		h.t.Fatal(err)
	}
	if !ok {
		return nil
	}
	e, err := decodeEntry(b)
	if err != nil {
		h.t.Fatalf("stored entry: %v", err)
	}
	return e
}

// server is an httptest server that counts the requests for /robots.txt.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.hits.Add(1)
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func reply(code int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(code)
		w.Write([]byte(body))
	}
}

var errUnexpectedEOF = io.ErrUnexpectedEOF
