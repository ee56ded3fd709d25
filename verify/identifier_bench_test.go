package verify

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/cputime"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// BenchmarkIdentifyCached: a request whose answer is kept (a Googlebot
// address verified by reverse DNS, an unsigned request): the cost the
// guard adds for an identity already known.
func BenchmarkIdentifyCached(b *testing.B) {
	f := startDNS(b, map[string]string{"66.249.66.1": "crawl-66-249-66-1.googlebot.com."},
		map[string][]string{"crawl-66-249-66-1.googlebot.com.": {"66.249.66.1"}})
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), Deadline: 5 * time.Second})
	gb, _ := robotstxt.LookupCrawler("Googlebot")
	ip := netip.MustParseAddr("66.249.66.1")
	r := httptest.NewRequest("GET", "https://site.example/page", nil)
	r.Header.Set("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	ctx := context.Background()
	if ev := id.Identify(ctx, r, ip, &gb); ev.Outcome != "verified" {
		b.Fatalf("%+v", ev)
	}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if id.Identify(ctx, r, ip, &gb).Outcome != "verified" {
			b.Fatal("not verified")
		}
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkIdentifySigned: a request signed by Google's agent, its key
// directory's copy cached (fetched once from a loopback server): parsing
// the three fields, the base, Ed25519, and the agent's check.
func BenchmarkIdentifySigned(b *testing.B) {
	s := newIDSigner(b)
	dir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", webbotauth.DirectoryMediaType)
		w.Header().Set("Cache-Control", "max-age=86400")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []webbotauth.JWK{s.keys.Find(s.tp).JWK}})
	}))
	defer dir.Close()
	sv := webbotauth.New(webbotauth.Options{Directories: webbotauth.NewDirectories(webbotauth.DirectoryOptions{AllowHTTP: true}), AllowHTTP: true, Scheme: "https"})
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{NoDNS: true}), Signatures: sv, Deadline: 5 * time.Second,
		SigningAgents: map[string][]string{"Google-Agent": {"127.0.0.1"}}})
	ga, _ := robotstxt.LookupCrawler("Google-Agent")
	ip := netip.MustParseAddr("203.0.113.9")
	r := signedRequest(b, s, dir.URL)
	ctx := context.Background()
	if ev := id.Identify(ctx, r, ip, &ga); ev.Outcome != "verified" {
		b.Fatalf("%+v", ev)
	}
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		if id.Identify(ctx, r, ip, &ga).Outcome != "verified" {
			b.Fatal("not verified")
		}
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkIdentifyCachedParallel: the cached answer with every P asking
// at once (one mutex guards the cache).
func BenchmarkIdentifyCachedParallel(b *testing.B) {
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{NoDNS: true}), NoSignatures: true})
	cb, _ := robotstxt.LookupCrawler("ClaudeBot")
	ctx := context.Background()
	ips := make([]netip.Addr, 1024)
	for i := range ips {
		ips[i] = netip.AddrFrom4([4]byte{198, 51, byte(i >> 8), byte(i)})
		id.Identify(ctx, nil, ips[i], &cb)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			id.Identify(ctx, nil, ips[i&1023], &cb)
			i++
		}
	})
}
