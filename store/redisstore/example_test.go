package redisstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/redisstore"
)

// A fleet of crawlers shares a cache in Redis; the lease makes one of them
// fetch an origin's robots.txt while the others wait. (Not run: it needs a
// Redis server.)
func ExampleOpen() {
	s, err := redisstore.Open("redis://127.0.0.1:6379/0?prefix=crawl:", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Keep answering from memory if the server goes away.
	f := store.NewFallback(s, nil)
	defer f.Close()

	ctx := context.Background()
	const origin = "https://example.com"
	if ok, err := f.Lease(ctx, origin, "crawler-7", 30*time.Second); err == nil && ok {
		// This process fetches, stores the result, and lets go.
		_ = f.Put(ctx, origin, []byte("an encoded cache entry"), 24*time.Hour)
		_ = f.Release(ctx, origin, "crawler-7")
	}
	if h := f.Health(); h.Degraded {
		fmt.Println("warning:", h.Message)
	}
}
