package robotstxt

// Worst-case inputs for matching (issue 9): files of about 500 KiB built so
// that a question has to consider many wildcard rules, asked about 1 KiB and
// 16 KiB URLs. Package internal/hostile generates them, for these tests and
// for the side-by-side benchmark in bench/ (BenchmarkHostile there). The
// benchmarks assert nothing about time; the work tests (wild_test.go) count
// the rules a question examines.
//
//	go test -run '^$' -bench Hostile -benchmem .

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/hostile"
)

// TestHostileSize checks that the generated files are just under what
// Parse reads: hostile.Size cannot name DefaultMaxBytes itself.
func TestHostileSize(t *testing.T) {
	if hostile.Size != DefaultMaxBytes-1024 {
		t.Errorf("hostile.Size = %d, want DefaultMaxBytes-1024 = %d", hostile.Size, DefaultMaxBytes-1024)
	}
}

// BenchmarkHostile asks about 1 KiB and 16 KiB URLs against each hostile
// shape: Allowed, then Decide with Explain in every dialect.
func BenchmarkHostile(b *testing.B) {
	for _, sh := range hostile.Shapes() {
		r := ParseString(sh.Body)
		r.Compile()
		for _, n := range []int{1 << 10, 16 << 10} {
			url := hostile.URL(n, sh.Alphabet)
			prefix := fmt.Sprintf("shape=%s/url=%dKiB", sh.Name, n>>10)
			b.Run(prefix+"/q=Allowed", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					benchSinkBool = r.Allowed(sh.Agent, url)
				}
			})
			queries := map[string]Query{}
			for _, d := range Dialects() {
				queries["Explain-"+d.String()] = Query{URL: url, Agents: []string{sh.Agent}, Dialect: d, Explain: true}
			}
			// Several names (AllowedAgents), one naming every group of
			// the shape; a known crawler whose other name is not a
			// product token (looked up among every user-agent line).
			queries["Agents"] = Query{URL: url, Agents: []string{sh.Agent, "OtherBot", "Googlebot-News"}, Dialect: Google, Explain: true}
			slurp, _ := LookupCrawler("Slurp")
			queries["Crawler-Slurp"] = Query{URL: url, Crawler: &slurp, Explain: true}
			for _, name := range slices.Sorted(maps.Keys(queries)) {
				q := queries[name]
				r.Decide(q) // compile the dialect's rules outside the timing
				b.Run(prefix+"/q="+name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						benchSinkBool = r.Decide(q).Allowed
					}
				})
			}
		}
	}
}
