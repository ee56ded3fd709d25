package robotstxt

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/rulegen"
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

// largeSets sets how many generated files TestLargeSets reads: 0 for the
// bounded sample make test runs (largeSetSample, a quarter with -short),
// more for a longer run: go test -run TestLargeSets -largesets 2000 .
var largeSets = flag.Int("largesets", 0, "generated files TestLargeSets reads (0: the bounded sample)")

// largeSetSample is how many generated files TestLargeSets reads by
// default: enough that every speed structure is reached several times.
const largeSetSample = 48

// largeSetPaths is how many paths each generated file is asked about.
const largeSetPaths = 160

// reached counts, over a run of TestLargeSets, how often each speed
// structure answered or was built: the run must reach every one, or the
// differential proves nothing about it.
type reached struct {
	firstAnswers int // Allowed answered from the parsed lines (first.go)
	hotFlat      int // sets with a hot block of one run of slots
	hotBucketed  int // ... bucketed by the path's second byte
	hotWide      int // ... with over 255 slots
	smallScan    int // small sets with no hot block: each rule tried
	coldScan     int // questions a large set answered by a scan, before its index
	indexed      int // large sets whose index was built on a question
	firstIndex   int // ... in file order (the draft's dialects): the chain
	exact        int // indexes with anchored literals
	litRuns      int // indexes with a literal pattern held by several rules
	wildBuckets  int // indexes whose wildcard rules are bucketed
	wildGeneric  int // indexes with wildcard rules that match any second byte
	aut          int // indexes with a wildcard automaton (wildIndex)
	autRow       int // ... whose rules are a run of ids
	autPermuted  int // ... whose rules are not (issue 25's regression)
	autMultiSeg  int // ... with a rule of several segments
	autDense     int // ... with a dense transition table
	perDialect   map[Dialect]int
}

// TestLargeSets is the differential of the fast matcher against the slow
// reference on generated files of large sets (internal/rulegen): 130 to
// 3,000 rules, hundreds of wildcard rules, anchors, escapes, several groups
// and agents, file order unrelated to length. For Google's reading, every
// public answer (Allowed from the lines, then compiled; Decide; a Decider;
// two agents; Bing) against slowGoogle, verdict and line; for every
// dialect, every rule set's answer and matches against every rule tried
// by the reference matcher. It then checks that every speed structure was
// reached.
func TestLargeSets(t *testing.T) {
	n := *largeSets
	if n == 0 {
		n = largeSetSample / shortStep(4)
	}
	seeds := make([]uint64, 0, n+1)
	for seed := uint64(0); seed < uint64(n); seed++ {
		seeds = append(seeds, seed)
	}
	for _, s := range []uint64{20, 31, 42} {
		if s >= uint64(n) {
			// Files of issue 25's shape (seeds 9 mod 11), in the short
			// sample too.
			seeds = append(seeds, s)
		}
	}
	rc := reached{perDialect: map[Dialect]int{}}
	for _, seed := range seeds {
		f := rulegen.Generate(seed, largeSetPaths)
		if !largeSetGoogle(t, &f, &rc) || !largeSetDialects(t, &f, &rc) {
			return
		}
	}
	t.Logf("%d files: %+v", len(seeds), rc)
	checkReached(t, rc)
}

// checkReached fails t for each speed structure the run did not reach.
func checkReached(t *testing.T, rc reached) {
	t.Helper()
	for name, n := range map[string]int{
		"first answers": rc.firstAnswers, "flat hot blocks": rc.hotFlat, "bucketed hot blocks": rc.hotBucketed,
		"wide hot blocks": rc.hotWide, "scanned small sets": rc.smallScan, "cold scans": rc.coldScan,
		"lazily built indexes": rc.indexed, "file-order indexes": rc.firstIndex, "anchored literals": rc.exact,
		"repeated literals": rc.litRuns, "bucketed wildcards": rc.wildBuckets, "generic wildcards": rc.wildGeneric,
		"wildcard automata": rc.aut, "automata of a run of rules": rc.autRow,
		"automata of rules out of order": rc.autPermuted, "multi-segment automata": rc.autMultiSeg,
		"dense automata": rc.autDense,
	} {
		if n == 0 {
			t.Errorf("the generated files never reached %s: the differential does not cover it", name)
		}
	}
	for _, d := range []Dialect{Google, RFC9309, Baidu, Original} {
		if rc.perDialect[d] == 0 {
			t.Errorf("no large set was indexed in %v's reading", d)
		}
	}
}

// largeSetGoogle asks f's questions through every public Google answer and
// compares them with slowGoogle.
func largeSetGoogle(t *testing.T, f *rulegen.File, rc *reached) bool {
	t.Helper()
	groups := refGroups(refReadAll([]byte(f.Body)))
	lazy := ParseString(f.Body)
	eager := ParseString(f.Body)
	eager.Compile()
	deciders := map[string]*Decider{}
	fail := func(format string, args ...any) bool {
		t.Errorf("seed %d (%d rules): "+format, append([]any{f.Seed, f.Rules}, args...)...)
		return false
	}
	for i, q := range f.Questions(2 * largeSetPaths) {
		ua, url := q[0], q[1]
		want, line := slowGoogleGroups(groups, []string{ua}, url)
		raw := !lazy.google.prepared.Load()
		if got := lazy.Allowed(ua, url); got != want {
			return fail("question %d: Allowed(%q, %q) = %v (from the lines: %v); reference %v line %d", i, ua, url, got, raw, want, line)
		}
		if raw && !lazy.google.prepared.Load() {
			rc.firstAnswers++
		}
		if got := eager.Allowed(ua, url); got != want {
			return fail("question %d: compiled Allowed(%q, %q) = %v; reference %v line %d", i, ua, url, got, want, line)
		}
		for _, d := range []Dialect{Google, Bing} {
			dec := lazy.Decide(Query{URL: url, Agents: []string{ua}, Dialect: d, Explain: i%7 == 0})
			if dec.Allowed != want || dec.Line() != line {
				return fail("question %d: %v Decide(%q, %q) = %v line %d; reference %v line %d", i, d, ua, url, dec.Allowed, dec.Line(), want, line)
			}
		}
		dr := deciders[ua]
		if dr == nil {
			dr = eager.Decider(Query{Agents: []string{ua}, Dialect: Google})
			deciders[ua] = dr
		}
		if dec := dr.Decide(url); dec.Allowed != want || dec.Line() != line {
			return fail("question %d: Decider(%q).Decide(%q) = %v line %d; reference %v line %d", i, ua, url, dec.Allowed, dec.Line(), want, line)
		}
		if i%5 == 0 {
			agents := []string{ua, f.Agents[i%len(f.Agents)]}
			want2, line2 := slowGoogleGroups(groups, agents, url)
			dec := eager.Decide(Query{URL: url, Agents: agents, Dialect: Google})
			if dec.Allowed != want2 || dec.Line() != line2 || eager.AllowedAgents(agents, url) != want2 {
				return fail("question %d: agents %q, %q: Decide %v line %d; reference %v line %d", i, agents, url, dec.Allowed, dec.Line(), want2, line2)
			}
		}
	}
	return true
}

// largeSetDialects compiles every rule set of f in every dialect and asks
// each about f's paths, comparing the deciding rule (with and without
// Yandex's skip of Google's index.htm rules) and every matching rule with
// the reference matcher trying every rule.
func largeSetDialects(t *testing.T, f *rulegen.File, rc *reached) bool {
	t.Helper()
	r := ParseString(f.Body)
	// Bing and Yandex read the file as Google does (Yandex passing over
	// the index.htm rules: the skip): one compiled reading serves them.
	for _, d := range []Dialect{Google, RFC9309, Baidu, Original} {
		c := r.compiledFor(d)
		for si := range c.sets {
			s := c.coldSet(int32(si)) // a large set is indexed on its questions
			for pi, p := range f.Paths {
				all := setMatches(s, p)
				for _, skip := range []uint8{0, ruleIndexHTM} {
					cold := s.big && !s.indexed.Load()
					got := s.decide(p, skip)
					if cold && !s.indexed.Load() {
						rc.coldScan++
					}
					want := setBest(s, all, skip)
					if got != want {
						t.Errorf("seed %d, %v, set %d (%d rules), path %q, skip %d: decided by %s; reference %s",
							f.Seed, d, si, s.nmatch, p, skip, ruleText(s, got), ruleText(s, want))
						return false
					}
					if (pi+int(skip))%3 != 0 {
						continue
					}
					seen := map[*crule]bool{}
					s.eachMatch(p, skip, func(r *crule) { seen[r] = true })
					n := 0
					for _, r := range all {
						if r.flags&skip == 0 {
							n++
							if !seen[r] {
								t.Errorf("seed %d, %v, set %d, path %q: %s matches but is not listed", f.Seed, d, si, p, ruleText(s, r))
								return false
							}
						}
					}
					if len(seen) != n {
						t.Errorf("seed %d, %v, set %d, path %q, skip %d: %d rules match; reference %d",
							f.Seed, d, si, p, skip, len(seen), n)
						return false
					}
				}
			}
			rc.noteSet(s, d)
		}
	}
	return true
}

// noteSet counts the structures set s (asked its questions) was answered by.
func (rc *reached) noteSet(s *ruleSet, d Dialect) {
	switch {
	case s.hot != nil:
		flags := s.hot[0] >> 48
		switch {
		case flags&hotWide != 0:
			rc.hotWide++
		case flags&hotBucketed != 0:
			rc.hotBucketed++
		default:
			rc.hotFlat++
		}
	case !s.big:
		rc.smallScan++
	}
	if !s.big || !s.indexed.Load() {
		return
	}
	rc.indexed++
	rc.perDialect[d]++
	ix := s.idx
	if ix.chain != nil {
		rc.firstIndex++
	}
	if len(ix.exact) > 0 {
		rc.exact++
	}
	if ix.litAll != nil {
		rc.litRuns++
	}
	if len(ix.wbucket) > 0 {
		rc.wildBuckets++
	}
	if len(ix.wgeneric) > 0 {
		rc.wildGeneric++
	}
	if w := ix.aut; w != nil {
		rc.aut++
		if w.rules == nil {
			rc.autRow++
		} else {
			rc.autPermuted++
		}
		if w.start != nil {
			rc.autMultiSeg++
		}
		if w.ndense > 0 {
			rc.autDense++
		}
	}
}

// setMatches is every rule of set s that matches path, by trying every
// rule with the reference matcher.
func setMatches(s *ruleSet, path string) []*crule {
	var all []*crule
	path = cutPath(path)
	for i := range s.rules[:s.nmatch] {
		if r := &s.rules[i]; refRuleMatch(s, r, path) {
			all = append(all, r)
		}
	}
	return all
}

// setBest is the deciding rule, in set s's precedence order, among the
// matching rules all that have no flag in skip.
func setBest(s *ruleSet, all []*crule, skip uint8) *crule {
	var best *crule
	for _, r := range all {
		if r.flags&skip == 0 && (best == nil || s.before(r, best)) {
			best = r
		}
	}
	return best
}

// refRuleMatch reports whether compiled rule r of s matches path, read
// from its pattern and flags alone: a literal prefixes the path, an
// anchored literal equals it, a wildcard pattern matches as refMatch says
// (the draft's dialects compile every pattern as a literal).
func refRuleMatch(s *ruleSet, r *crule, path string) bool {
	if r.flags&ruleDead != 0 {
		return false
	}
	pat := s.pat(r)
	switch r.flags & (ruleWild | ruleAnchored) {
	case 0:
		return strings.HasPrefix(path, pat)
	case ruleAnchored:
		return path == pat[:len(pat)-1]
	}
	return refMatch(path, pat)
}

// ruleText describes compiled rule r of s for a failure message.
func ruleText(s *ruleSet, r *crule) string {
	if r == nil {
		return "no rule"
	}
	verb := "disallow"
	if r.allow() {
		verb = "allow"
	}
	return fmt.Sprintf("line %d (%s %q)", r.line, verb, s.pat(r))
}

// TestYandexSkipsIndexHTMInLargeSets: Yandex passes over the rule Google
// implies from an allow of .../index.htm (here "/*b*/$", from line 2's
// "/*b*/index.htm"), also when a large set answers through its index, in
// its wildcard buckets and in its wildcard automaton. Found by
// TestLargeSets: the index tried the implied rule whatever the skip.
func TestYandexSkipsIndexHTMInLargeSets(t *testing.T) {
	for _, tc := range []struct {
		name string
		aut  bool
	}{{"buckets", false}, {"automaton", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("User-agent: *\nAllow: /*b*/index.htm\nDisallow: /*b\n")
			for i := 0; i < 300; i++ {
				fmt.Fprintf(&b, "Disallow: /zz%d\n", i)
			}
			if tc.aut {
				for i := 0; i < 2*wildMin; i++ {
					fmt.Fprintf(&b, "Disallow: /q*%d*z\n", i)
				}
			}
			r := ParseString(b.String())
			for _, d := range []Dialect{Google, Yandex} {
				want, line := d == Google, 2
				if d == Yandex {
					line = 3
				}
				dr := r.Decider(Query{Agents: []string{"YandexBot"}, Dialect: d})
				for i := 0; i < 4*coldScans; i++ { // past the cold scans
					if dec := dr.Decide("http://example.com/xb/"); dec.Allowed != want || dec.Line() != line {
						t.Fatalf("%v, question %d: %v line %d; want %v line %d", d, i, dec.Allowed, dec.Line(), want, line)
					}
				}
			}
			s := r.google.set(r.google.global)
			if !s.indexed.Load() || (s.idx.aut != nil) != tc.aut {
				t.Fatalf("the set is not answered as the case needs: indexed %v, automaton %v", s.indexed.Load(), s.idx != nil && s.idx.aut != nil)
			}
		})
	}
}
