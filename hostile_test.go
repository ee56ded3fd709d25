package robotstxt

// Worst-case inputs for matching (issue 9): files of about 500 KiB built so
// that a question has to consider many wildcard rules, asked about 1 KiB and
// 16 KiB URLs. The benchmarks assert nothing about time; the work tests
// (wild_test.go) count the rules a question examines.
//
//	go test -run '^$' -bench Hostile -benchmem .

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// hostileSize is how big the generated files are: just under what Parse
// reads (DefaultMaxBytes).
const hostileSize = DefaultMaxBytes - 1024

// hostileLetters spells combination i of k letters, all distinct for
// i < 26^k.
func hostileLetters(i, k int) string {
	b := make([]byte, k)
	for j := k - 1; j >= 0; j-- {
		b[j] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

// hostileShape is one generated file and the alphabet of the URLs asked
// about it.
type hostileShape struct {
	name     string
	body     string
	agent    string // the crawler asked about
	alphabet string // the URLs' paths cycle through it
}

// hostileFile fills a file of hostileSize with a header and lines made by
// line(i), i = 0, 1, ...
func hostileFile(header string, line func(i int) string) string {
	var sb strings.Builder
	sb.WriteString(header)
	for i := 0; ; i++ {
		l := line(i)
		if sb.Len()+len(l) > hostileSize {
			break
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// hostileShapes returns the worst cases:
//   - shortfail: ~28,000 rules "Disallow: /*abcd." whose letters the URL
//     holds but whose segments never occur in it;
//   - stars: rules "/*a*a*...*a*xy" with 4 to 40 one-letter segments that
//     occur everywhere and a last one that mostly does not;
//   - dollars: rules full of literal '$' and anchored by a final '$',
//     "/*$abc*$de$", against a URL full of '$';
//   - groups: ~12,000 groups "User-agent: FooBot / Disallow: /*abcd.",
//     which FooBot's set merges.
func hostileShapes() []hostileShape {
	const urlLetters = "abcdefghijklmnopqrstuvwxyz/"
	shortfail := hostileFile("User-agent: *\n", func(i int) string {
		return "Disallow: /*" + hostileLetters(i, 4) + ".\n"
	})
	stars := hostileFile("User-agent: *\n", func(i int) string {
		var b strings.Builder
		b.WriteString("Disallow: /")
		for k := 0; k < 4+i%37; k++ {
			b.WriteString("*a")
		}
		b.WriteString("*" + hostileLetters(i, 2) + "\n")
		return b.String()
	})
	dollars := hostileFile("User-agent: *\n", func(i int) string {
		return "Disallow: /*$" + hostileLetters(i, 3) + "*$" + hostileLetters(i*7+3, 2) + "$\n"
	})
	groups := hostileFile("", func(i int) string {
		return "User-agent: FooBot\nDisallow: /*" + hostileLetters(i, 4) + ".\n\n"
	})
	return []hostileShape{
		{"shortfail", shortfail, "Googlebot", urlLetters},
		{"stars", stars, "Googlebot", "aaaaaaab/"},
		{"dollars", dollars, "Googlebot", "$ab$cde$fgh/"},
		{"groups", groups, "FooBot", urlLetters},
	}
}

// BenchmarkHostile asks about 1 KiB and 16 KiB URLs against each hostile
// shape: Allowed, then Decide with Explain in every dialect.
func BenchmarkHostile(b *testing.B) {
	for _, sh := range hostileShapes() {
		r := ParseString(sh.body)
		r.Compile()
		for _, n := range []int{1 << 10, 16 << 10} {
			url := benchLongURL(n, sh.alphabet)
			prefix := fmt.Sprintf("shape=%s/url=%dKiB", sh.name, n>>10)
			b.Run(prefix+"/q=Allowed", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					benchSinkBool = r.Allowed(sh.agent, url)
				}
			})
			queries := map[string]Query{}
			for _, d := range Dialects() {
				queries["Explain-"+d.String()] = Query{URL: url, Agents: []string{sh.agent}, Dialect: d, Explain: true}
			}
			// Several names (AllowedAgents), one naming every group of
			// the shape; a known crawler whose other name is not a
			// product token (looked up among every user-agent line).
			queries["Agents"] = Query{URL: url, Agents: []string{sh.agent, "OtherBot", "Googlebot-News"}, Dialect: Google, Explain: true}
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
