package bulk

import (
	"context"
	"net/http"
	"net/url"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/testweb"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The webs the tests fetch from are internal/testweb's: in memory
// (testweb.Memory), or HTTP servers on loopback that the run's transport
// reaches as its proxy, whatever host a URL names.

// memoryConfig is a run's configuration over testweb.Memory and st, as the
// benchmarks of robotstxt bulk make it.
func memoryConfig(st store.Store, csv bool) config {
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: testweb.Memory{}}
	return config{
		subjects: defaultSubjects(), csv: csv, concurrency: 256, window: 16 * 256, storeName: "bench",
		cache: cache.New(&cache.Options{Store: st, Fetcher: f, KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
		every: 200 * time.Millisecond,
	}
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
