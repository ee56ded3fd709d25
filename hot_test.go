package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// TestHotBlocks checks that a hot block decides as trying every rule of the
// set in precedence order does, on random sets of every size up to hotMax:
// unbucketed, bucketed with a byte a bound and with two, with generic
// rules, wildcards, anchors, long literal prefixes, and paths that run
// past their end. Sets of over bigSet rules have a hot block only when no
// bucket is longer than bigSet slots, else an index (which must agree
// too).
func TestHotBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "b", "q", "/", "*", "$", "?", ".php", "x=1", "ab", "A", "%2F", "~", "é"}
	word := func() string {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	kinds := map[string]int{}
	for round := 0; round < 400; round++ {
		n := 1 + rng.IntN(hotMax)
		generic := rng.IntN(4)        // how likely a rule is to start with a wildcard
		oneBucket := rng.IntN(4) == 0 // every rule starts with "/a"
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		var paths []string
		for i := 0; i < n; i++ {
			var v string
			switch {
			case rng.IntN(8) < generic:
				v = "/*" + word()
			case rng.IntN(10) == 0:
				v = "/" + strings.Repeat(string(rune('a'+rng.IntN(3))), 10+rng.IntN(20)) + word()
			case oneBucket:
				v = "/a" + word()
			default:
				v = "/" + string(rune('a'+rng.IntN(26))) + word()
			}
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&body, "Allow: %s\n", v)
			} else {
				fmt.Fprintf(&body, "Disallow: %s\n", v)
			}
			p := strings.NewReplacer("*", word(), "$", "").Replace(v)
			paths = append(paths, p, p+word(), p[:len(p)/2], p+"#"+word(), p+"\x00x")
		}
		r := ParseString(body.String())
		r.Compile()
		s := r.google.set(r.google.global)
		if longest := hotLongestRun(s); s.nmatch > bigSet && longest > bigSet {
			t.Fatalf("round %d: a hot block of %d rules scans up to %d slots", round, n, longest)
		}
		switch {
		case s.hot == nil && s.big:
			kinds["indexed"]++
			if s.nmatch <= bigSet {
				t.Fatalf("round %d: a set of %d rules is indexed", round, s.nmatch)
			}
		case s.hot == nil:
			kinds["none"]++
		case s.nmatch > bigSet:
			kinds["large"]++
		}
		switch {
		case s.hot == nil:
		case s.hot[0]>>48&hotWide != 0:
			kinds["wide"]++
		case s.hot[0]>>48&hotBucketed != 0:
			kinds["narrow"]++
		default:
			kinds["flat"]++
		}
		for _, p := range paths {
			want := s.scan(p, 0)
			got := s.eval(p)
			if got != want {
				t.Fatalf("round %d, path %q: hot block decides %+v, the rules in order %+v\n%s", round, p, got, want, body.String())
			}
		}
	}
	t.Logf("blocks: %v", kinds)
	for _, k := range []string{"flat", "narrow", "wide", "large", "indexed"} {
		if kinds[k] == 0 {
			t.Errorf("no %s block was checked: %v", k, kinds)
		}
	}
}

// hotLongestRun returns the most slots a question scans in set s's hot
// block (0 without one): its longest bucket, or all its slots.
func hotLongestRun(s *ruleSet) int {
	if s.hot == nil {
		return 0
	}
	head := s.hot[0]
	slots := int(uint16(head >> 32))
	if head>>48&hotBucketed == 0 {
		return slots
	}
	longest := 0
	for b := range hotBuckets + 1 {
		var lo, hi int
		if head>>48&hotWide == 0 {
			bw := s.hot[1+b/4] >> (16 * (b & 3))
			lo, hi = int(uint8(bw)), int(uint8(bw>>8))
		} else {
			bw := s.hot[1+b/2] >> (32 * (b & 1))
			lo, hi = int(uint16(bw)), int(uint16(bw>>16))
		}
		longest = max(longest, hi-lo)
	}
	return longest
}

// TestStarSetShared checks that when '*' names one group that a token names
// too, the two share one compiled set, and that whichever question compiles
// it first, both find its hot block (and the answers do not change).
func TestStarSetShared(t *testing.T) {
	body := "User-agent: *\nUser-agent: FooBot\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: BarBot\nDisallow: /\n"
	for _, first := range []string{"FooBot", "OtherBot"} {
		r := ParseString(body)
		c := r.compiledFor(Google)
		if len(c.sets) != 2 {
			t.Fatalf("%d sets, want 2 (one a group; '*' shares FooBot's)", len(c.sets))
		}
		// Past the first answers read from the lines.
		for range 10 {
			r.Allowed(first, "http://h/private/x")
		}
		other := map[string]string{"FooBot": "OtherBot", "OtherBot": "FooBot"}[first]
		for _, q := range []struct {
			ua, url string
			want    bool
		}{
			{first, "http://h/private/x", false},
			{other, "http://h/private/x", false},
			{other, "http://h/private/ok", true},
			{"BarBot", "http://h/a", false},
		} {
			if got := r.Allowed(q.ua, q.url); got != q.want {
				t.Errorf("first %s: Allowed(%s, %s) = %v, want %v", first, q.ua, q.url, got, q.want)
			}
		}
		foo := c.findToken("FooBot")
		if c.starHot == nil || c.fast[foo].hot != c.starHot {
			t.Errorf("first %s: the '*' questions and FooBot's do not share the hot block (%p, %p)", first, c.starHot, c.fast[foo].hot)
		}
	}
}

// TestSmallSets checks sets of up to smallSet rule lines, which are
// compiled on the stack and kept with their hot block in one allocation:
// dead rules, empty values, index.htm allows (two rules a line), escaped
// patterns and long ones included. Each decides as trying its rules in
// order does, and its rules follow its block in the same array.
func TestSmallSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	values := []string{"/", "", "/a", "/a/index.html", "/b/index.htm", "/*.pdf$", "/x$", "foo", "$",
		"/%7euser", "/caf\xc3\xa9", "/" + strings.Repeat("long", 80), "/*/p*q", "/ab*", "/abcdefghijklmnopqrs", "*"}
	paths := []string{"/", "/a", "/a/", "/a/index.html", "/b/", "/b/index.htm", "/x", "/x.pdf", "/y/p1q",
		"/%7Euser", "/%7euser/x", "/caf%C3%A9", "/" + strings.Repeat("long", 81), "/abc", "/abcdefghijklmnopqrst#f"}
	blocks := 0
	for round := 0; round < 300; round++ {
		n := 1 + rng.IntN(smallSet)
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range n {
			kind := [2]string{"Allow", "Disallow"}[rng.IntN(2)]
			fmt.Fprintf(&body, "%s: %s\n", kind, values[rng.IntN(len(values))])
		}
		r := ParseString(body.String())
		r.Compile()
		s := r.google.set(r.google.global)
		if s.hot != nil {
			blocks++
			end := uintptr(unsafe.Pointer(unsafe.SliceData(s.hot))) + 8*uintptr(len(s.hot))
			if len(s.rules) > 0 && uintptr(unsafe.Pointer(&s.rules[0])) != end {
				t.Fatalf("round %d: the rules are not kept right after the block\n%s", round, body.String())
			}
		}
		for _, p := range paths {
			if got, want := s.eval(p), s.scan(p, 0); got != want {
				t.Fatalf("round %d, path %q: decides %+v, the rules in order %+v\n%s", round, p, got, want, body.String())
			}
		}
	}
	if blocks < 100 {
		t.Errorf("only %d of 300 small sets had a hot block", blocks)
	}
}

// TestCompileAllocs checks how often compiling a small file allocates:
// preparing its token table and sets four times at most (the tokens, the
// sets, their lists in one array, and the token entries when there are
// more than two), and each small set once.
func TestCompileAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates more: counted in the run without it")
	}
	body := "User-agent: Googlebot\nDisallow: /private/\nAllow: /private/ok\n\n" +
		"User-agent: Bingbot\nDisallow: /\n\nUser-agent: AhrefsBot\nDisallow: /\n\n" +
		"User-agent: *\nDisallow: /cgi-bin/\nDisallow: /*.pdf$\nAllow: /\n"
	parse := testing.AllocsPerRun(50, func() { ParseString(body) })
	prepare := testing.AllocsPerRun(50, func() { ParseString(body).google.prepare() }) - parse
	compile := testing.AllocsPerRun(50, func() { ParseString(body).Compile() }) - parse - prepare
	if prepare > 4 {
		t.Errorf("preparing the sets allocates %v times, want 4 at most", prepare)
	}
	if compile > 4 {
		t.Errorf("compiling four small sets allocates %v times, want 4", compile)
	}
}
