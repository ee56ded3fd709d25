package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/bulk"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
)

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

// bulkBenchInput is the input of bench/bulk.sh, smaller: urls URLs over
// origins origins.
func bulkBenchInput(urls, origins int) []byte {
	paths := [...]string{"/", "/private/a", "/private/ok/b", "/tmp/x.php", "/blog/post?id="}
	rnd := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := range urls {
		fmt.Fprintf(&b, "http://s%d.test%s%d\n", rnd.IntN(origins), paths[i%5], i)
	}
	return b.Bytes()
}

func benchBulkConfig(st store.Store, csv bool) *bulk.Checker {
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: memoryWeb{}}
	c, _ := robotstxt.LookupCrawler("Googlebot")
	o := &bulk.Options{
		Subjects: []bulk.Subject{{Label: c.Name, Crawler: &c}}, Concurrency: 256, Window: 16 * 256, StoreName: "bench",
		Cache: cache.New(&cache.Options{Store: st, Fetcher: f, KeyPrefix: tester.CacheKeyPrefix(robotstxt.Google)}),
	}
	if csv {
		o.Format = bulk.CSV
	}
	checker, err := bulk.New(o)
	if err != nil {
		panic(err)
	}
	return checker
}

// BenchmarkBulkWarm runs bulk over 100,000 URLs of 1,000 origins whose
// answers the store holds: "memory" reuses one cache (its parsed files
// too); "bbolt" opens a new cache over a bbolt file each time, as a warm
// rerun of the command does.
func BenchmarkBulkWarm(b *testing.B) {
	in := bulkBenchInput(100_000, 1_000)
	run := func(b *testing.B, c *bulk.Checker) {
		sum, err := c.Run(context.Background(), bytes.NewReader(in), io.Discard)
		if err != nil || sum.URLs != 100_000 {
			b.Fatalf("bulk: %v, %d URLs", err, sum.URLs)
		}
	}
	for _, format := range []string{"jsonl", "csv"} {
		b.Run("memory/"+format, func(b *testing.B) {
			cfg := benchBulkConfig(store.NewMemory(nil), format == "csv")
			run(b, cfg)
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			b.ResetTimer()
			for b.Loop() {
				run(b, cfg)
			}
			b.ReportMetric(float64(b.N)*100_000/b.Elapsed().Seconds(), "URLs/s")
		})
	}
	b.Run("bbolt/jsonl", func(b *testing.B) {
		st, err := storeopen.Open(filepath.Join(b.TempDir(), "cache.db"), &storeopen.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		run(b, benchBulkConfig(st, false))
		b.ReportAllocs()
		b.SetBytes(int64(len(in)))
		b.ResetTimer()
		for b.Loop() {
			run(b, benchBulkConfig(st, false))
		}
		b.ReportMetric(float64(b.N)*100_000/b.Elapsed().Seconds(), "URLs/s")
	})
}
