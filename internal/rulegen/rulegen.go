// Package rulegen makes robots.txt files of large and varied rule sets, and
// questions about them, for differential tests of the matcher: the fast
// matcher against the slow reference in the root package's tests, and this
// module's library against Google's C++ library (bench/cmd/google-diff).
//
// The real corpus rarely reaches the shapes where a speed structure can go
// wrong: sets of hundreds or thousands of rules, hundreds of wildcard rules
// with text after a '*', file order unrelated to a rule's length. A file
// made here draws its shape from its seed: one large group of 130 to 3,000
// rules (or, for some seeds, none), small groups of 1 to 260 rules, several
// user-agent lines and groups naming the same crawler, wildcard rules in
// share from a few to nearly all, '$' anchors, %xx escapes and UTF-8 bytes,
// Google's index.htm allows, empty and unusual values, blank lines inside
// groups (where the draft's dialects end a record), and rules in shuffled,
// longest-first, shortest-first or nearly sorted file order. The same seed
// always makes the same file and questions.
package rulegen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// File is a generated robots.txt and the questions to ask about it.
type File struct {
	Seed uint64
	Body string
	// Agents are the product tokens to ask about: those the file names
	// (some in another case), and one it does not name.
	Agents []string
	// Paths are the paths to ask about, each starting with '/': made from
	// the file's rules (wildcards filled, anchors dropped or kept, bytes
	// added or cut, escapes decoded or encoded) and at random.
	Paths []string
	// Rules is the number of allow and disallow lines in the file.
	Rules int
}

// Questions returns n (agent, URL) questions about f, drawn from its agents
// and paths with a generator seeded from f.Seed; URLs are absolute
// (http://example.com + path) or, now and then, the path alone.
func (f *File) Questions(n int) [][2]string {
	rng := rand.New(rand.NewPCG(f.Seed, 0x9e37))
	out := make([][2]string, 0, n)
	for i := 0; i < n; i++ {
		p := f.Paths[i%len(f.Paths)]
		if i >= len(f.Paths) {
			p = f.Paths[rng.IntN(len(f.Paths))]
		}
		u := "http://example.com" + p
		if rng.IntN(8) == 0 {
			u = p
		}
		out = append(out, [2]string{f.Agents[rng.IntN(len(f.Agents))], u})
	}
	return out
}

// pieces are the bytes rules and paths are made of: few, so that patterns
// overlap, nest and repeat; with escapes of reserved and unreserved bytes,
// UTF-8 (raw and escaped, in both cases of hex), a literal '$' and '%'.
var pieces = []string{
	"a", "b", "ab", "ba", "/", "/", "-", ".", "x", "1",
	"%2F", "%41", "%e4%b8%ad", "%E4%B8%AD", "中", "é", "%7e", "~",
	"$", "?", "=", "&", ";", "%", "index.htm", ".php", "a/b",
}

// agentPool are the product tokens groups name, with '*'.
var agentPool = []string{"*", "FooBot", "BarBot", "Googlebot", "Baz-Bot", "Googlebot-Image", "quux"}

// gen is one file's generator.
type gen struct {
	rng *rand.Rand
	// The shape.
	wildShare int  // percent of generated rules that hold a '*'
	segShare  int  // percent of wildcard rules with text after their first '*'
	anchor    int  // percent of rules ending in '$'
	order     int  // file order of a group's rules: see group
	plain     bool // no special values or repeats, plainPieces only
	patterns  []string
}

// plainPieces are pieces that normalise to themselves: with them, a
// pattern's length in the file is its length as matched, so a group sorted
// by length in the file is in longest-match order.
var plainPieces = []string{"a", "b", "ab", "ba", "/", "-", ".", "x", "1"}

func (g *gen) piece() string {
	if g.plain {
		return plainPieces[g.rng.IntN(len(plainPieces))]
	}
	return pieces[g.rng.IntN(len(pieces))]
}

func (g *gen) text(lo, hi int) string {
	var b strings.Builder
	for k := lo + g.rng.IntN(hi-lo+1); k > 0; k-- {
		b.WriteString(g.piece())
	}
	return b.String()
}

// prefix starts a pattern: a directory-like start shared by many rules, or
// a short random one.
func (g *gen) prefix() string {
	switch g.rng.IntN(4) {
	case 0:
		return fmt.Sprintf("/d%d/", g.rng.IntN(6))
	case 1:
		return "/" + g.text(0, 1)
	}
	return "/" + g.text(0, 3)
}

// pattern makes one rule's value.
func (g *gen) pattern() string {
	if !g.plain && g.rng.IntN(40) == 0 {
		// Values few files hold, each reaching a corner.
		specials := []string{
			"", "/", "*", "/*", "/*$", "$", "/$", "*.php$", "a/b", "*a*b", "/**",
			"/index.htm", "/d1/index.html", "/d2/x/index.htm", "/*b*/index.htm", "/a*/index.html",
			"/%2a", "/a%24",
			"/" + strings.Repeat("ab", 40+g.rng.IntN(300)),
			"/" + strings.Repeat("a*", 5+g.rng.IntN(20)) + "b",
		}
		return specials[g.rng.IntN(len(specials))]
	}
	if !g.plain && len(g.patterns) > 0 && g.rng.IntN(25) == 0 {
		return g.patterns[g.rng.IntN(len(g.patterns))] // a value again
	}
	var b strings.Builder
	b.WriteString(g.prefix())
	if g.rng.IntN(100) < g.wildShare {
		segs := 1
		if g.rng.IntN(100) < g.segShare {
			segs = 2 + g.rng.IntN(3)
		}
		for k := 1; k < segs; k++ {
			b.WriteString(strings.Repeat("*", 1+g.rng.IntN(2)*g.rng.IntN(2)))
			b.WriteString(g.text(1, 2))
		}
		if segs == 1 || g.rng.IntN(5) == 0 {
			b.WriteString("*") // a '*' with nothing after it
		}
	} else {
		b.WriteString(g.text(0, 4))
	}
	if g.rng.IntN(100) < g.anchor {
		b.WriteString("$")
	}
	return b.String()
}

// rule makes one allow or disallow line, its verb in one of the spellings
// Google reads.
func (g *gen) rule() (line, pat string) {
	pat = g.pattern()
	g.patterns = append(g.patterns, pat)
	verbs := []string{"Disallow", "Allow", "disallow", "ALLOW", "Disallow"}
	verb := verbs[g.rng.IntN(len(verbs))]
	if strings.HasSuffix(pat, "index.htm") || strings.HasSuffix(pat, "index.html") {
		verb = "Allow"
	}
	sep := []string{": ", ":", " : ", ":\t"}[g.rng.IntN(4)]
	line = verb + sep + pat
	if g.rng.IntN(30) == 0 {
		line += " # a comment"
	}
	return line, pat
}

// group writes one group of n rules, in the file order the shape says.
func (g *gen) group(b *strings.Builder, agents []string, n int) {
	for _, a := range agents {
		fmt.Fprintf(b, "User-agent: %s\n", a)
	}
	type ln struct{ line, pat string }
	rules := make([]ln, n)
	for i := range rules {
		rules[i].line, rules[i].pat = g.rule()
	}
	byLen := func(a, b ln) int { return len(b.pat) - len(a.pat) }
	switch g.order {
	case 1: // longest first: precedence order is file order
		slices.SortStableFunc(rules, byLen)
	case 2: // shortest first
		slices.SortStableFunc(rules, func(a, b ln) int { return -byLen(a, b) })
	case 3: // longest first, a few neighbours swapped
		slices.SortStableFunc(rules, byLen)
		for k := 1 + n/50; k > 0; k-- {
			i := g.rng.IntN(max(1, n-1))
			if i+1 < n {
				rules[i], rules[i+1] = rules[i+1], rules[i]
			}
		}
	}
	// (order 0: as made, unrelated to length)
	for i, r := range rules {
		b.WriteString(r.line)
		b.WriteByte('\n')
		switch k := g.rng.IntN(200); {
		case k == 0 && i > 0:
			b.WriteString("\n") // a blank line inside the group
		case k == 1:
			b.WriteString("# comment\n")
		case k == 2:
			b.WriteString("Crawl-delay: 2\n")
		case k == 3:
			b.WriteString("Sitemap: https://example.com/s.xml\n")
		}
	}
	b.WriteString("\n")
}

// agents picks the user-agent lines of one group.
func (g *gen) agents(first bool) []string {
	n := 1 + g.rng.IntN(2)*g.rng.IntN(3)
	var out []string
	for len(out) < n {
		a := agentPool[g.rng.IntN(len(agentPool))]
		if first && len(out) == 0 && g.rng.IntN(2) == 0 {
			a = "*"
		}
		if g.rng.IntN(6) == 0 {
			a = strings.ToLower(a)
		}
		if g.rng.IntN(10) == 0 {
			a += "/2.1" // a version: Google reads the token before it
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// Generate makes the file of seed s, with about paths questions' worth of
// distinct paths.
func Generate(s uint64, paths int) File {
	g := &gen{rng: rand.New(rand.NewPCG(s, 0x2525))}
	g.wildShare = []int{5, 30, 60, 90}[g.rng.IntN(4)]
	g.segShare = []int{20, 60, 95}[g.rng.IntN(3)]
	g.anchor = []int{3, 15, 40}[g.rng.IntN(3)]
	g.order = g.rng.IntN(4)
	switch s % 11 {
	case 5:
		// Wildcard rules with segments only, longest first: the set's
		// automaton then holds a run of rules in file order.
		g.wildShare, g.segShare, g.order, g.plain = 100, 100, 1, true
	case 9:
		// The same nearly in order: a run of rules whose ends are the
		// longest and the shortest, the rest out of order (issue 25).
		g.wildShare, g.segShare, g.order, g.plain = 100, 100, 3, true
	}

	ngroups := 1 + g.rng.IntN(4)
	big := g.rng.IntN(ngroups)
	if s%7 == 6 {
		big = -1 // small groups only
	}
	var b strings.Builder
	if g.rng.IntN(4) == 0 {
		b.WriteString("# generated\nSitemap: https://example.com/sitemap.xml\n\n")
	}
	if g.rng.IntN(8) == 0 {
		b.WriteString("Disallow: /before-any-agent\n\n") // no group: ignored
	}
	for i := 0; i < ngroups; i++ {
		n := 1 + g.rng.IntN(260)
		if i == big {
			switch k := g.rng.IntN(10); {
			case k < 5:
				n = 130 + g.rng.IntN(170)
			case k < 8:
				n = 300 + g.rng.IntN(700)
			default:
				n = 1000 + g.rng.IntN(2001)
			}
		}
		g.group(&b, g.agents(i == 0), n)
	}
	f := File{Seed: s, Body: b.String(), Rules: len(g.patterns)}

	// The agents to ask about.
	seen := map[string]bool{}
	for _, a := range agentPool[1:] {
		if strings.Contains(f.Body, a) || strings.Contains(f.Body, strings.ToLower(a)) {
			for _, v := range []string{a, strings.ToLower(a)} {
				if !seen[v] {
					seen[v] = true
					f.Agents = append(f.Agents, v)
				}
			}
		}
	}
	f.Agents = append(f.Agents, "UnnamedBot")

	// The paths.
	for len(f.Paths) < paths {
		f.Paths = append(f.Paths, g.path())
	}
	return f
}

// path makes one path to ask about.
func (g *gen) path() string {
	var p string
	switch k := g.rng.IntN(10); {
	case k < 6 && len(g.patterns) > 0:
		p = g.fromRule(g.patterns[g.rng.IntN(len(g.patterns))])
	case k < 8:
		p = g.prefix() + g.text(0, 8)
	case k == 8:
		// Long paths: past the first answers' 256 bytes, and what makes a
		// large set build its index early.
		var b strings.Builder
		b.WriteString(g.prefix())
		for b.Len() < 200+g.rng.IntN(500) {
			b.WriteString(g.piece())
		}
		p = b.String()
	default:
		p = "/" + g.text(0, 2)
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// fromRule makes a path a pattern matches or nearly matches.
func (g *gen) fromRule(pat string) string {
	p := pat
	anchored := strings.HasSuffix(p, "$")
	if anchored && g.rng.IntN(3) > 0 {
		p = p[:len(p)-1]
	}
	for strings.Contains(p, "*") {
		p = strings.Replace(p, "*", g.text(0, 2), 1)
	}
	switch g.rng.IntN(8) {
	case 0:
		p += g.text(1, 3)
	case 1:
		if len(p) > 1 {
			p = p[:len(p)-1]
		}
	case 2:
		p += "?q=" + g.text(0, 2)
	case 3:
		p += "#frag"
	case 4:
		p = strings.ReplaceAll(p, "%e4%b8%ad", "中")
	case 5:
		p = strings.ReplaceAll(strings.ReplaceAll(p, "中", "%E4%B8%AD"), "~", "%7E")
	case 6:
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			p = p[:i+1] // the directory, as an index.htm allow reads it
		}
	}
	return p
}
