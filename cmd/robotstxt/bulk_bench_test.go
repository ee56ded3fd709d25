package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/bulk"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/testweb"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
)

func benchBulkConfig(st store.Store, csv bool) *bulk.Checker {
	f := &fetch.Fetcher{Dialect: robotstxt.Google, Transport: testweb.Memory{}}
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
	in := testweb.MemoryInput(100_000, 1_000)
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
