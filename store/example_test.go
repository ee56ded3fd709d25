package store_test

import (
	"context"
	"fmt"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

func ExampleNewMemory() {
	ctx := context.Background()
	s := store.NewMemory(&store.MemoryOptions{MaxEntries: 1000})
	defer s.Close()

	_ = s.Put(ctx, "https://example.com", []byte("an encoded cache entry"), 24*time.Hour)
	v, ok, err := s.Get(ctx, "https://example.com")
	fmt.Printf("%q %v %v\n", v, ok, err)
	_, ok, _ = s.Get(ctx, "https://example.org")
	fmt.Println(ok)
	// Output:
	// "an encoded cache entry" true <nil>
	// false
}

func ExampleNewFallback() {
	ctx := context.Background()
	// In a program the primary is a Redis store (storeopen.Open does
	// this); here it is another memory store.
	f := store.NewFallback(store.NewMemory(nil), &store.FallbackOptions{RetryAfter: 5 * time.Second})
	defer f.Close()

	_ = f.Put(ctx, "https://example.com", []byte("entry"), time.Hour)
	if h := f.Health(); h.Degraded {
		fmt.Println("warning:", h.Message)
	} else {
		fmt.Println("using", h.Name)
	}
	// Output:
	// using memory
}
