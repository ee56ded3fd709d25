package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

// issue25File is the smallest file of issue 25's regression: a '*' group of
// 64 wildcard rules with a segment after a '*' (ids 0 to 63 in file order,
// not in longest-match order: line 4's "/02**02" is longer than line 3's
// "/01*01") and over 128 rules in all, so that the set is indexed with a
// wildIndex whose first and last rules are the ends of a run of ids.
func issue25File(lastLine string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /00**00**\nDisallow: /01*01\nDisallow: /02**02\n")
	for i := 3; i <= 62; i++ {
		fmt.Fprintf(&b, "Disallow: /%02d*%02d\n", i, i)
	}
	b.WriteString("Disallow: /63*6\n")
	for i := 0; i < 129; i++ {
		b.WriteString("Disallow: /x\n")
	}
	b.WriteString(lastLine)
	return b.String()
}

// TestWildRulesOutOfOrder is issue 25's regression: the wildcard rules of
// a large set found through a wildIndex were taken as a run of ids when
// the first and last were the run's ends, though they were not in order.
// Google: line 4 decides /02x02 (disallowed); and when a later rule
// ("/0", the last line) also matches, line 4 still decides, being longer.
func TestWildRulesOutOfOrder(t *testing.T) {
	for _, tc := range []struct {
		name, last string
		line       int
	}{
		{"verdict", "", 4},
		{"line", "Disallow: /0\n", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := issue25File(tc.last)
			const url = "http://example.com/02x02"
			want, wantLine := slowGoogle([]byte(body), []string{"FooBot"}, url)
			if want || wantLine != tc.line {
				t.Fatalf("reference: allowed %v line %d; want disallowed by line %d", want, wantLine, tc.line)
			}
			r := ParseString(body)
			r.Compile()
			for i := 0; i < 2*coldScans+2; i++ { // past the cold scans: the index answers
				dec := r.Decide(Query{URL: url, Agents: []string{"FooBot"}, Dialect: Google})
				if dec.Allowed != want || dec.Line() != wantLine || r.Allowed("FooBot", url) != want {
					t.Fatalf("question %d: Decide %v line %d, Allowed %v; Google: %v line %d",
						i, dec.Allowed, dec.Line(), r.Allowed("FooBot", url), want, wantLine)
				}
			}
			s := r.google.set(r.google.global)
			if s.idx == nil || s.idx.aut == nil {
				t.Fatal("the set was not answered through a wildIndex: the test no longer reaches the case")
			}
		})
	}
}
