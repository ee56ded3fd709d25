package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// TestOriginCacheAgrees checks that bulk's remembered origins give what
// fetch.OriginOf gives, origin and error, for URLs that share starts with
// URLs seen before, whatever the order.
func TestOriginCacheAgrees(t *testing.T) {
	starts := []string{
		"http://example.com", "HTTP://Example.COM", "https://example.com:443", "http://example.com:8080",
		"http://example.com:0", "http://example.com:99999", "http://example.com:x", "ftp://example.com",
		"gopher://example.com", "http://", "http://user:pw@example.com", "http://[::1]:81", "http://[::1",
		"http://127.0.0.1", "http://0x7f.1", "http://ex%41mple.com", "http://ex%zzmple.com", "http://bücher.de",
		"http://xn--bcher-kva.de", "http://a b.com", "http:x://example.com", " http://example.com",
		"http://example.com\x00", "1http://example.com", "http://example.com.", "http://exa mple.com",
		"http://example.com:", "http://%E4%BE%8B.jp", "http://ex\\ample.com", "h%41ttp://example.com",
	}
	rests := []string{
		"", "/", "/a/b?c=d#e", "?q", "#f", "/%41%42", "/%4", "/%zz", "/%", "?%zz", "#%zz", "/a b", "/\x7f",
		"/\x01", "/ü", "/a:b", "//x", "/?#", "/%25", "#a#b", "??", "/;p=1", "/robots.txt",
	}
	var urls []string
	for _, s := range starts {
		for _, r := range rests {
			urls = append(urls, s+r)
		}
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	for round := range 20 {
		rnd.Shuffle(len(urls), func(i, j int) { urls[i], urls[j] = urls[j], urls[i] })
		c := originCache{m: map[string]fetch.Origin{}}
		for _, u := range urls {
			got, gerr := c.originOf(u)
			want, werr := fetch.OriginOf(u)
			if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("round %d: %q: got %v, %v; want %v, %v", round, u, got, gerr, want, werr)
			}
		}
	}
}

// TestOriginCacheBounded checks that the remembered origins stay bounded.
func TestOriginCacheBounded(t *testing.T) {
	c := originCache{m: map[string]fetch.Origin{}}
	for i := range originCacheMax + 10 {
		if _, err := c.originOf(fmt.Sprintf("http://s%d.test/", i)); err != nil {
			t.Fatal(err)
		}
		if len(c.m) > originCacheMax {
			t.Fatalf("%d origins remembered, want at most %d", len(c.m), originCacheMax)
		}
	}
}
