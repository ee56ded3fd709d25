package watch

import (
	"strings"
	"testing"
)

// FuzzReadLocs: any bytes read as a sitemap give at most max URLs or an
// error, never a crash nor a hang.
func FuzzReadLocs(f *testing.F) {
	f.Add(`<urlset><url><loc>https://e.com/a</loc></url></urlset>`)
	f.Add(`<sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>`)
	f.Add(`<urlset><loc><loc>a</loc></loc>`)
	f.Add(`<!DOCTYPE html><html>`)
	f.Fuzz(func(t *testing.T, s string) {
		res, err := readLocs(strings.NewReader(s), 3)
		if err == nil && len(res.locs) > 3 {
			t.Fatalf("%d URLs, more than 3", len(res.locs))
		}
	})
}

// FuzzParseSpecs: any file of watches parses or is an error.
func FuzzParseSpecs(f *testing.F) {
	f.Add(`[{"origin": "example.com", "urls": ["/"]}]`)
	f.Add(`{"watches": [{"origin": "x", "every": "1h"}]}`)
	f.Add(`{"watches": 1}`)
	f.Fuzz(func(t *testing.T, s string) {
		specs, err := ParseSpecs([]byte(s))
		if err != nil && specs != nil {
			t.Fatalf("specs and an error: %v", err)
		}
	})
}
