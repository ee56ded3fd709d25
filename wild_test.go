package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// wildGroups builds files whose '*' group holds enough wildcard rules with
// segments to be found through a wildIndex: segments from a small
// alphabet, so that they overlap, nest and repeat, some anchored, some
// ending in '*', with literal '$'s, among literal and anchored rules.
func wildGroups(seed uint64, rules int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	word := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte("aab/$"[rng.IntN(5)])
		}
		return b.String()
	}
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := 0; i < rules; i++ {
		kind := "Disallow"
		if rng.IntN(2) == 0 {
			kind = "Allow"
		}
		var p strings.Builder
		p.WriteString("/" + word(rng.IntN(3)))
		for k := rng.IntN(4); k >= 0; k-- {
			p.WriteString(strings.Repeat("*", 1+rng.IntN(2)) + word(rng.IntN(4)))
		}
		switch rng.IntN(6) {
		case 0:
			p.WriteString("$")
		case 1:
			p.WriteString("*$")
		case 2:
			p.Reset()
			p.WriteString("/" + word(rng.IntN(5)))
		}
		fmt.Fprintf(&body, "%s: %s\n", kind, p.String())
	}
	return body.String()
}

// wildSet returns the compiled '*' set of body (Google), which must have a
// wildIndex.
func wildSet(t *testing.T, body string) *ruleSet {
	t.Helper()
	c := ParseString(body).compiledFor(Google)
	c.prepare()
	s := c.set(c.global)
	if s.idx == nil || s.idx.aut == nil {
		t.Fatalf("the set has no wildIndex:\n%s", clip(body))
	}
	return s
}

// wildBrute is the deciding rule and every matching rule of set s for
// path, by the reference matcher over every rule.
func wildBrute(s *ruleSet, path string) (best *crule, all map[*crule]bool) {
	all = map[*crule]bool{}
	path = cutPath(path)
	for i := range s.rules[:s.nmatch] {
		r := &s.rules[i]
		if refMatch(path, s.pat(r)) {
			all[r] = true
			if best == nil || better(r, best) {
				best = r
			}
		}
	}
	return best, all
}

// TestWildAgreesWithReference checks the sets found through a wildIndex
// against the reference matcher over every rule: the deciding rule and
// every matching one, on paths made from the rules and random ones.
func TestWildAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for file := 0; file < 40; file++ {
		body := wildGroups(uint64(file), bigSet+50+rng.IntN(200))
		s := wildSet(t, body)
		var paths []string
		for _, l := range strings.Split(body, "\n")[1:] {
			if _, v, ok := strings.Cut(l, ": "); ok {
				fill := []string{"", "a", "ab/", "$$b"}[rng.IntN(4)]
				paths = append(paths, strings.ReplaceAll(strings.TrimSuffix(v, "$"), "*", fill))
			}
		}
		for i := 0; i < 100; i++ {
			var b strings.Builder
			b.WriteByte('/')
			for k := rng.IntN(40); k > 0; k-- {
				b.WriteByte("ab/$#"[rng.IntN(5)])
			}
			paths = append(paths, b.String())
		}
		for _, p := range paths {
			want, all := wildBrute(s, p)
			if got := s.eval(p); got != want {
				t.Fatalf("file %d, path %q: eval %+v, reference %+v\n%s", file, p, got, want, clip(body))
			}
			got := map[*crule]bool{}
			s.eachMatch(p, 0, func(r *crule) {
				if got[r] {
					t.Fatalf("file %d, path %q: rule %+v listed twice", file, p, r)
				}
				got[r] = true
			})
			if len(got) != len(all) {
				t.Fatalf("file %d, path %q: %d rules match, reference %d\n%s", file, p, len(got), len(all), clip(body))
			}
			for r := range all {
				if !got[r] {
					t.Fatalf("file %d, path %q: rule %q not listed", file, p, s.pat(r))
				}
			}
		}
		// The public answers, against the reference reading of the file.
		r := ParseString(body)
		for _, p := range paths[:20] {
			checkAllowed(t, r, body, "FooBot", "http://example.com"+p)
		}
	}
}

// TestWildNested checks words that nest and repeat (a, aa, aaa, ...) over
// paths of one letter, where every word ends almost everywhere.
func TestWildNested(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for k := 1; k <= 80; k++ {
		fmt.Fprintf(&body, "Disallow: /*%s*b\n", strings.Repeat("a", k))
		fmt.Fprintf(&body, "Allow: /*%s$\n", strings.Repeat("a", k))
		fmt.Fprintf(&body, "Disallow: /*%s*%s\n", strings.Repeat("a", k), strings.Repeat("a", 81-k))
	}
	s := wildSet(t, body.String())
	for _, p := range []string{"/" + strings.Repeat("a", 300), "/" + strings.Repeat("a", 100), "/" + strings.Repeat("a", 300) + "b",
		"/" + strings.Repeat("ab", 150), "/b" + strings.Repeat("a", 80) + "b"} {
		want, all := wildBrute(s, p)
		if got := s.eval(p); got != want {
			t.Fatalf("path %q: eval %+v, reference %+v", clip(p), got, want)
		}
		n := 0
		s.eachMatch(p, 0, func(*crule) { n++ })
		if n != len(all) {
			t.Fatalf("path %q: %d rules match, reference %d", clip(p), n, len(all))
		}
	}
}

// TestHostileWork counts the wildcard rules a question examines on the
// hostile shapes (see hostile_test.go): a question looks only at rules whose
// key segment occurs in the path and that can still win. The numbers are
// the work, not time.
func TestHostileWork(t *testing.T) {
	// The most rules examined per question, per shape.
	limits := map[string]int{"shortfail": 0, "groups": 0, "stars": 1, "dollars": 0}
	for _, sh := range hostileShapes() {
		r := ParseString(sh.body)
		c := r.compiledFor(Google)
		c.prepare()
		set := c.global
		if t := c.findToken(sh.agent); t >= 0 {
			set = c.fast[t].set
		}
		s := c.set(set)
		if s.idx == nil || s.idx.aut == nil {
			t.Fatalf("%s: the set of %d rules has no wildIndex", sh.name, s.nmatch)
		}
		for _, n := range []int{1 << 10, 16 << 10} {
			path := PathParamsQuery(benchLongURL(n, sh.alphabet))
			_, examined := s.idx.aut.best(s, path, nil)
			t.Logf("%s, %d KiB: %d of %d rules examined", sh.name, n>>10, examined, s.nmatch)
			if examined > limits[sh.name] {
				t.Errorf("%s, %d KiB URL: %d rules examined, want at most %d", sh.name, n>>10, examined, limits[sh.name])
			}
			// The matches listed for Explain are those of the reference.
			if n == 1<<10 {
				_, all := wildBrute(s, path)
				got := 0
				s.eachMatch(path, 0, func(*crule) { got++ })
				if got != len(all) {
					t.Errorf("%s: %d matches listed, reference %d", sh.name, got, len(all))
				}
			}
		}
	}
}

// TestWildConcurrent asks a set with a wildIndex from several goroutines at
// once: each takes its own scratch (the kept one or a pooled one) and the
// answers are those of one goroutine alone.
func TestWildConcurrent(t *testing.T) {
	body := wildGroups(9, 3*bigSet)
	r := ParseString(body)
	var urls []string
	for i := 0; i < 64; i++ {
		urls = append(urls, "http://example.com/"+strings.Repeat("ab/$"[i%4:], 1+i%7)+strings.Repeat("a", i))
	}
	want := make([]bool, len(urls))
	for i, u := range urls {
		want[i] = r.Allowed("FooBot", u)
	}
	done := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for n := 0; n < 200; n++ {
				i := (n*7 + g) % len(urls)
				if got := r.Allowed("FooBot", urls[i]); got != want[i] {
					done <- fmt.Sprintf("%s: %v, alone %v", urls[i], got, want[i])
					return
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
