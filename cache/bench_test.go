package cache

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

// benchListeners is how many loopback addresses the benchmark's server
// listens on (127.77.0.1, 127.77.0.2, ...): connections to distinct origins
// are spread over them so that ephemeral ports do not run out.
const benchListeners = 64

// benchServer serves a small robots.txt on benchListeners loopback
// addresses and returns their addresses.
func benchServer(b *testing.B) []string {
	b.Helper()
	body := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n")
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}),
		ErrorLog: log.New(io.Discard, "", 0),
	}
	var addrs []string
	for i := 1; i <= benchListeners; i++ {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.77.0.%d:0", i))
		if err != nil {
			b.Skipf("cannot listen on 127.77.0.%d (is 127.0.0.0/8 routed to loopback?): %v", i, err)
		}
		addrs = append(addrs, ln.Addr().String())
		go srv.Serve(ln)
	}
	b.Cleanup(func() { srv.Close() })
	return addrs
}

// openBolt opens a bbolt store in a temporary directory, with or without
// an fsync after each write.
func openBolt(b *testing.B, noSync bool) store.Store {
	s, err := boltstore.Open(filepath.Join(b.TempDir(), "cache.db"), &boltstore.Options{NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// peakRSSKiB returns the process's peak resident memory (VmHWM) in KiB, or
// 0 where /proc does not tell it.
func peakRSSKiB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}

// BenchmarkCacheOrigins fetches distinct origins through the cache: each
// iteration asks about a new origin ("http://o123.bench.test"), which the
// injected dialer sends to one of the server's loopback addresses, so every
// question is a miss, a fetch over a new connection, a parse and a store
// write. It reports origins/s and the heap in use at the end.
func BenchmarkCacheOrigins(b *testing.B) {
	addrs := benchServer(b)
	stores := []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"memory", func(*testing.B) store.Store { return store.NewMemory(nil) }},
		{"bbolt", func(b *testing.B) store.Store { return openBolt(b, false) }},
		{"bbolt-nosync", func(b *testing.B) store.Store { return openBolt(b, true) }},
	}
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			s := st.open(b)
			defer s.Close()
			dial := (&net.Dialer{Timeout: 5 * time.Second}).DialContext
			tr := &http.Transport{
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					host, _, _ := net.SplitHostPort(addr)
					n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "o"), ".bench.test"))
					return dial(ctx, network, addrs[n%len(addrs)])
				},
				DisableKeepAlives:  true, // each origin is asked about once
				DisableCompression: true,
			}
			defer tr.CloseIdleConnections()
			c := New(&Options{Store: s, Fetcher: &fetch.Fetcher{Transport: tr}})
			var next atomic.Int64
			var failed atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					i := next.Add(1)
					a, err := c.Get(ctx, "http://o"+strconv.FormatInt(i, 10)+".bench.test/page")
					if err != nil || a.Policy != fetch.Rules {
						failed.Add(1)
					}
				}
			})
			elapsed := time.Since(start)
			b.StopTimer()
			if n := failed.Load(); n > 0 {
				b.Fatalf("%d of %d origins not fetched (stats %+v)", n, b.N, c.Stats())
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "origins/s")
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
			if kb := peakRSSKiB(); kb > 0 {
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
			}
		})
	}
}
