package guard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/cputime"
	"github.com/seed53c283f5/robotstxt/verify"
)

// cachedIdentity answers from a map filled in advance: an identity
// checker whose answers are all cached, as verify.Identifier's are for an
// address it has seen.
type cachedIdentity map[netip.Addr]verify.Evidence

func (c cachedIdentity) Identify(_ context.Context, _ *http.Request, ip netip.Addr, _ *robotstxt.Crawler) verify.Evidence {
	return c[ip]
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// benchRobots is a robots.txt of a common shape.
const benchRobots = `User-agent: GPTBot
User-agent: CCBot
Disallow: /private/
Disallow: /search
Allow: /private/public-*.html$

User-agent: Googlebot
Disallow: /search
Disallow: /*?sessionid=

User-agent: *
Disallow: /admin/
Disallow: /cart
Content-Usage: train-ai=n
Crawl-delay: 2

Sitemap: https://example.com/sitemap.xml
`

// BenchmarkGuard measures the middleware alone in front of a bare
// handler, with the identity answers cached: "bare" is the handler
// without the guard; the others go through the guard in enforce mode.
// cpu-ns/op is the process's CPU time per request, which the other
// processes of a shared machine do not inflate as they do the wall time.
func BenchmarkGuard(b *testing.B) {
	ip := netip.MustParseAddr("66.249.66.1")
	id := cachedIdentity{ip: {Crawler: "Googlebot", IP: ip.String(), Outcome: "verified", Method: verify.MethodRanges, Reason: "in its ranges"}}
	p, err := ParsePolicy("bench.toml", []byte("mode = \"enforce\"\n"))
	if err != nil {
		b.Fatal(err)
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	cases := []struct {
		name, ua, path string
		guarded        bool
	}{
		{"bare", uaGooglebot, "/products/item-1234?color=red", false},
		{"browser", uaBrowser, "/products/item-1234?color=red", true},
		{"crawler-allowed", uaGooglebot, "/products/item-1234?color=red", true},
		{"crawler-disallowed", uaGooglebot, "/search?q=shoes", true},
		{"training-crawler-allowed", uaGPTBot, "/products/item-1234", true},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			h := http.Handler(bare)
			if tc.guarded {
				g, err := Build(Options{Robots: NewStatic([]byte(benchRobots), ""), Identity: id, Policy: p})
				if err != nil {
					b.Fatal(err)
				}
				h = g.Handler(bare)
			}
			r := httptest.NewRequest("GET", "http://example.com"+tc.path, nil)
			r.RequestURI = tc.path // as a server reads it (the origin form)
			r.RemoteAddr = ip.String() + ":41234"
			r.Header.Set("User-Agent", tc.ua)
			w := &discardWriter{h: http.Header{}}
			h.ServeHTTP(w, r) // the first request prepares the crawler's reading
			b.ReportAllocs()
			cpu := cputime.Process()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
