package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/hostile"
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
	for file := 0; file < 40/shortStep(8); file++ {
		body := wildGroups(uint64(file), hotMax+50+rng.IntN(200))
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
// key segment occurs in the path and that can still win, in longest-match
// order (google) as in file order (baidu; original has no wildcards and
// finds its literal rules by a binary search). It also checks that
// choosing the groups takes one rule set per name asked about, however
// many groups the names have. The numbers are the work, not time.
func TestHostileWork(t *testing.T) {
	// The most rules examined per question, per shape and dialect.
	limits := map[string]int{"shortfail": 0, "groups": 0, "stars": 1, "dollars": 0}
	for _, sh := range hostile.Shapes() {
		r := ParseString(sh.Body)
		for _, d := range []Dialect{Google, Baidu, Original} {
			c := r.compiledFor(d)
			choice, ids := c.choose(Query{Agents: []string{sh.Agent}}, d)
			if len(ids) != 1 {
				t.Fatalf("%s, %s: %d rule sets for one name (%d groups)", sh.Name, d, len(ids), len(choice.Groups))
			}
			s := c.set(ids[0])
			if d.DraftRecords() && sh.Name == "groups" {
				// The draft: the first record naming the crawler alone.
				if len(choice.Groups) != 1 || s.nmatch != 1 {
					t.Errorf("%s, %s: %d groups, %d rules chosen; want the first record", sh.Name, d, len(choice.Groups), s.nmatch)
				}
				continue
			}
			if !s.big || s.idx == nil || s.first != d.FirstMatch() {
				t.Fatalf("%s, %s: the set of %d rules is not indexed in its precedence order", sh.Name, d, s.nmatch)
			}
			if d != Original && s.idx.aut == nil {
				t.Fatalf("%s, %s: the set of %d rules has no wildIndex", sh.Name, d, s.nmatch)
			}
			if s.idx.aut != nil {
				// Its memory, against the file's size (issue 9: under 4x).
				ratio := float64(s.idx.aut.footprint()) / float64(len(sh.Body))
				t.Logf("%s, %s: the automaton keeps %.2fx the file", sh.Name, d, ratio)
				if ratio >= 4 {
					t.Errorf("%s, %s: the automaton keeps %.2fx the file's size, want under 4x", sh.Name, d, ratio)
				}
			}
			sizes := []int{1 << 10, 16 << 10}
			if testing.Short() {
				sizes = sizes[:1] // the 16 KiB references are checked without -short
			}
			for _, n := range sizes {
				path := PathParamsQuery(hostile.URL(n, sh.Alphabet))
				if s.idx.aut != nil {
					_, examined := s.idx.aut.best(s, path, nil, 0)
					t.Logf("%s, %s, %d KiB: %d of %d rules examined", sh.Name, d, n>>10, examined, s.nmatch)
					if examined > limits[sh.Name] {
						t.Errorf("%s, %s, %d KiB URL: %d rules examined, want at most %d", sh.Name, d, n>>10, examined, limits[sh.Name])
					}
				}
				if got, want := s.decide(path, 0), s.scan(path, 0); got != want {
					t.Errorf("%s, %s, %d KiB URL: %+v, scan %+v", sh.Name, d, n>>10, got, want)
				}
				// The matches listed for Explain are those of the reference.
				if n == 1<<10 {
					checkEachMatch(t, s, path, 0)
					if d == Google {
						_, all := wildBrute(s, path)
						got := 0
						s.eachMatch(path, 0, func(*crule) { got++ })
						if got != len(all) {
							t.Errorf("%s: %d matches listed, reference %d", sh.Name, got, len(all))
						}
					}
				}
			}
		}
		// Several names, one naming every group of the shape: a set
		// per name, not per group.
		c := r.compiledFor(Google)
		choice, ids := c.choose(Query{Agents: []string{sh.Agent, "OtherBot", "*"}}, Google)
		if len(ids) > 2 {
			t.Errorf("%s: %d rule sets for %d groups named by 3 names", sh.Name, len(ids), len(choice.Groups))
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

// firstMatchFiles builds large '*' groups for the draft's dialects: for
// baidu, wildGroups' wildcard rules; for original, literal rules from a
// small alphabet with %xx escapes, so that prefixes, repeats and decoded
// escapes are frequent.
func firstMatchFiles(seed uint64, d Dialect) string {
	if d == Baidu {
		return wildGroups(seed, hotMax+50+int(seed%7)*40)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := hotMax + 20 + rng.IntN(200); i > 0; i-- {
		kind := "Disallow"
		if rng.IntN(2) == 0 {
			kind = "Allow"
		}
		var p strings.Builder
		p.WriteByte('/')
		for k := rng.IntN(7); k > 0; k-- {
			p.WriteString([]string{"a", "b", "/", "%61", "%2F", "*", "$"}[rng.IntN(7)])
		}
		fmt.Fprintf(&body, "%s: %s\n", kind, p.String())
	}
	return body.String()
}

// firstMatchPaths makes paths from the rules of body and random ones.
func firstMatchPaths(rng *rand.Rand, body string) []string {
	var paths []string
	for _, l := range strings.Split(body, "\n")[1:] {
		if _, v, ok := strings.Cut(l, ": "); ok {
			fill := []string{"", "a", "ab/", "$$b"}[rng.IntN(4)]
			p := strings.ReplaceAll(strings.TrimSuffix(v, "$"), "*", fill)
			paths = append(paths, p, p+"b", strings.TrimSuffix(p, "/"))
		}
	}
	for i := 0; i < 100; i++ {
		var b strings.Builder
		b.WriteByte('/')
		for k := rng.IntN(12); k > 0; k-- {
			b.WriteByte("ab/$*"[rng.IntN(5)])
		}
		paths = append(paths, b.String())
	}
	return paths
}

// TestFirstMatchIndex checks that the large sets of the draft's dialects
// (original, baidu: the first match in file order wins) are indexed, and
// that the index gives the rule a scan of every rule gives, and lists the
// same matches.
func TestFirstMatchIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []Dialect{Original, Baidu} {
		for file := 0; file < 30/shortStep(5); file++ {
			body := firstMatchFiles(uint64(file), d)
			c := ParseString(body).compiledFor(d)
			s := c.set(c.global)
			if !s.big || s.idx == nil || !s.first {
				t.Fatalf("%s, file %d: the set of %d rules is not indexed in file order", d, file, s.nmatch)
			}
			for _, p := range firstMatchPaths(rng, body) {
				if d == Original {
					p = decodeOriginal(p)
				} else {
					p = decodeBaidu(p, true)
				}
				if got, want := s.decide(p, 0), s.scan(p, 0); got != want {
					t.Fatalf("%s, file %d, path %q: index %+v, scan %+v\n%s", d, file, p, got, want, clip(body))
				}
				checkEachMatch(t, s, p, 0)
			}
		}
	}
}

// checkEachMatch checks that eachMatch lists the rules scanEach finds, once
// each.
func checkEachMatch(t *testing.T, s *ruleSet, path string, skip uint8) {
	t.Helper()
	want := map[*crule]bool{}
	s.scanEach(path, skip, func(r *crule) { want[r] = true })
	got := map[*crule]bool{}
	s.eachMatch(path, skip, func(r *crule) {
		if got[r] {
			t.Fatalf("path %q: rule %q listed twice", path, s.pat(r))
		}
		got[r] = true
	})
	for r := range want {
		if !got[r] {
			t.Fatalf("path %q: rule %q (line %d) not listed", path, s.pat(r), r.line)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("path %q: %d rules listed, %d match", path, len(got), len(want))
	}
}

// TestIndexSkip checks Yandex's reading of a large Google set: Google's
// index.htm rules passed over, through the index as by a scan, among
// anchored rules with the same pattern.
func TestIndexSkip(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := 0; i < bigSet; i++ {
		d := hostile.Letters(i, 2)
		fmt.Fprintf(&body, "Allow: /%s/index.html\nDisallow: /%s/$\nDisallow: /%s\n", d, d, d[:1])
	}
	c := ParseString(body.String()).compiledFor(Google)
	s := c.set(c.global)
	if !s.big {
		t.Fatal("the set is not indexed")
	}
	for i := 0; i < bigSet; i++ {
		d := hostile.Letters(i, 2)
		for _, p := range []string{"/" + d + "/", "/" + d + "/index.html", "/" + d, "/" + d + "/x"} {
			for _, skip := range []uint8{0, ruleIndexHTM} {
				if got, want := s.decide(p, skip), s.scan(p, skip); got != want {
					t.Fatalf("path %q, skip %d: index %+v, scan %+v", p, skip, got, want)
				}
				checkEachMatch(t, s, p, skip)
			}
		}
	}
	r := ParseString(body.String())
	if dec := r.Decide(Query{URL: "/ab/", Agents: []string{"YandexBot"}, Dialect: Yandex}); dec.Allowed || dec.Line() != 3*1+3 {
		t.Errorf("yandex /ab/: %v line %d, want disallowed by line 6", dec.Allowed, dec.Line())
	}
}

// slowGroupsNaming is groupsNaming reading every group's user-agent lines,
// as it did before the indexes: the reference for them.
func slowGroupsNaming(c *compiled, tok string, d Dialect, loose bool) (groups, lines []int) {
	if d.DraftRecords() {
		name := looseToken(strings.TrimSpace(tok))
		if loose {
			name = agentName(tok)
		}
		lt := strings.ToLower(name)
		if lt == "" {
			return nil, nil
		}
		for gi := range c.groups {
			g := &c.groups[gi]
			for _, a := range c.agents[g.alo:g.ahi] {
				if !a.global() && strings.Contains(strings.ToLower(c.agentValue(a)), lt) {
					lines = append(lines, int(a.line))
				}
			}
			if lines != nil {
				return []int{gi}, lines
			}
		}
		return nil, nil
	}
	for gi := range c.groups {
		g := &c.groups[gi]
		found := false
		for _, a := range c.agents[g.alo:g.ahi] {
			if a.global() {
				continue
			}
			var ok bool
			if v := c.agentValue(a); loose && !ValidToken(tok) {
				ok = strings.EqualFold(looseToken(v), tok) || strings.EqualFold(agentName(v), agentName(tok))
			} else {
				ok = refASCIIFold(c.agentToken(a), tok) // tokens compare ignoring ASCII case only
			}
			if ok {
				lines = append(lines, int(a.line))
				found = true
			}
		}
		if found {
			groups = append(groups, gi)
		}
	}
	return groups, lines
}

// TestGroupsNamingIndexes checks the indexes group choice uses (token
// lines, draft records, loose names) against reading every group, on files
// of names that differ in case, version, spacing and Unicode folding.
func TestGroupsNamingIndexes(t *testing.T) {
	names := []string{"FooBot", "foobot/2.1", "Yahoo! Slurp", "yahoo!  slurp/3.0", "360Spider", "360spider-x",
		"Sogou web spider", "SOGOU WEB SPIDER/4.0", "sogou", "archive.org_bot", "Archive.ORG_bot v2",
		"\u212aelvinBot", "kelvinbot", "KELVINBOT", "\xff\xfebot", "\ufffd\ufffdbot", "*", "Baiduspider-image", "baiduspider"}
	asked := []string{"FooBot", "Yahoo! Slurp", "360Spider", "Sogou web spider", "archive.org_bot", "kelvinbot",
		"\u212aelvinbot", "\ufffd\ufffdbot", "spider", "Baiduspider", "nobody", "x y"}
	rng := rand.New(rand.NewPCG(8, 9))
	for file := 0; file < 40; file++ {
		var body strings.Builder
		for g := rng.IntN(30); g >= 0; g-- {
			for k := rng.IntN(3); k >= 0; k-- {
				fmt.Fprintf(&body, "User-agent: %s\n", names[rng.IntN(len(names))])
			}
			fmt.Fprintf(&body, "Disallow: /%d\n", g)
			if rng.IntN(3) == 0 {
				body.WriteString("\n")
			}
		}
		for _, d := range []Dialect{Google, RFC9309, Original, Baidu} {
			c := ParseString(body.String()).compiledFor(d)
			for _, tok := range asked {
				for _, loose := range []bool{false, true} {
					wg, wl := slowGroupsNaming(c, tok, d, loose)
					gg, gl, _ := c.groupsNaming(tok, d, loose)
					if !slices.Equal(gg, wg) || !slices.Equal(gl, wl) {
						t.Fatalf("%s, %q (loose %v): groups %v lines %v, reading every group %v %v\n%s",
							d, tok, loose, gg, gl, wg, wl, body.String())
					}
				}
			}
		}
	}
}

// TestChooseSets checks that the rule sets a choice names hold exactly its
// groups between them, one set per name asked about that has a token set.
func TestChooseSets(t *testing.T) {
	body := "User-agent: a\nUser-agent: b\nDisallow: /ab\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: c\nAllow: /\n\nUser-agent: a\nDisallow: /a\n"
	c := ParseString(body).compiledFor(Google)
	for _, agents := range [][]string{{"a"}, {"a", "b"}, {"b", "c"}, {"a", "b", "c"}, {"c", "zz"}} {
		choice, ids := c.choose(Query{Agents: agents}, Google)
		var held []int
		for _, id := range ids {
			for _, g := range c.set(id).groups {
				held = append(held, int(g))
			}
		}
		slices.Sort(held)
		if held = slices.Compact(held); !slices.Equal(held, choice.Groups) {
			t.Errorf("%v: the sets hold groups %v, the choice is %v", agents, held, choice.Groups)
		}
		if len(ids) > len(agents) {
			t.Errorf("%v: %d sets for %d names", agents, len(ids), len(agents))
		}
	}
}
