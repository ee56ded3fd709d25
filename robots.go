package robotstxt

import (
	"slices"
	"strings"
	"sync"
)

// DefaultMaxBytes is how much of a robots.txt body is read: 500 KiB, the
// least RFC 9309 requires crawlers to parse and what Google reads.
const DefaultMaxBytes = 500 * 1024

// ParseOptions change how [ParseWith] reads a body. The zero value gives the
// defaults of [Parse].
type ParseOptions struct {
	// MaxBytes is how many bytes of the body are parsed; the rest is
	// ignored and Truncated reports it. Zero means DefaultMaxBytes; a
	// negative value means no limit.
	MaxBytes int
}

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use; parse a file once and ask it any number of questions.
type Robots struct {
	body      string // the parsed bytes (after the size cut)
	size      int    // the length of the body as given
	truncated bool

	google compiled // the google reading; bing and yandex share it

	rfcOnce  sync.Once
	rfc      *compiled
	origOnce sync.Once
	orig     *compiled

	report lineReport
}

// Parse parses a robots.txt body. It never fails: lines it cannot read are
// skipped, as RFC 9309 §2.3.1.5 asks, and the line report ([Robots.Lines])
// says what each line was. At most [DefaultMaxBytes] are read. The body is
// copied; the caller may reuse it.
func Parse(body []byte) *Robots {
	return ParseWith(body, nil)
}

// ParseString is Parse for a body held in a string.
func ParseString(body string) *Robots {
	return parseString(body, nil)
}

// ParseWith is Parse with options; nil options mean the defaults.
func ParseWith(body []byte, opts *ParseOptions) *Robots {
	limit := limitOf(opts)
	if limit >= 0 && len(body) > limit {
		r := parseString(string(body[:limit]), opts)
		r.size, r.truncated = len(body), true
		return r
	}
	return parseString(string(body), opts)
}

func limitOf(opts *ParseOptions) int {
	if opts == nil || opts.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return opts.MaxBytes
}

func parseString(body string, opts *ParseOptions) *Robots {
	r := &Robots{size: len(body)}
	if limit := limitOf(opts); limit >= 0 && len(body) > limit {
		body, r.truncated = body[:limit], true
	}
	r.body = body
	r.google.build(body, Google)
	return r
}

// Truncated reports whether the body was longer than the size limit and
// only its first part was parsed.
func (r *Robots) Truncated() bool { return r.truncated }

// Size returns the length in bytes of the body as it was given, before any cut.
func (r *Robots) Size() int { return r.size }

// Body returns the part of the body that was parsed.
func (r *Robots) Body() string { return r.body }

// compiledFor returns the compiled reading dialect d uses, building it on first use.
func (r *Robots) compiledFor(d Dialect) *compiled {
	switch d {
	case RFC9309:
		r.rfcOnce.Do(func() {
			r.rfc = new(compiled)
			r.rfc.build(r.body, RFC9309)
		})
		return r.rfc
	case Original:
		r.origOnce.Do(func() {
			r.orig = new(compiled)
			r.orig.build(r.body, Original)
		})
		return r.orig
	}
	return &r.google
}

// compiled is one dialect's reading of a file, ready for questions.
type compiled struct {
	dialect Dialect
	groups  []group
	tokens  map[string][]int32 // lower-case product token -> groups naming it, in file order
	global  []int32            // groups naming '*', in file order
	orphans []int32            // lines of rules that stand before any user-agent line
	ext     fileExt
}

// group is one group (record) of the file: its user-agent lines and rules.
type group struct {
	agents []agentLine
	rules  []crule // the first nmatch can match a URL, ordered for matching
	nmatch int
	ext    *groupExt
	global bool // one of its user-agent lines is '*'
	last   int32
}

// agentLine is one user-agent line of a group.
type agentLine struct {
	line   int32
	value  string // the value as written (trimmed)
	token  string // the product token read from it; "*" for the global group
	global bool
}

// crule is a compiled allow or disallow rule.
type crule struct {
	pat   string // the normalised pattern; its length is the rule's weight
	line  int32
	flags uint8
}

const (
	ruleAllow    uint8 = 1 << iota
	ruleWild           // the pattern holds a '*' wildcard
	ruleAnchored       // the pattern ends with the '$' anchor
	ruleIndex          // implied by an allow of .../index.htm (Google)
)

func (c *crule) allow() bool { return c.flags&ruleAllow != 0 }

// match reports whether the rule's pattern matches path.
func (c *crule) match(path string) bool {
	switch c.flags & (ruleWild | ruleAnchored) {
	case 0:
		return strings.HasPrefix(path, c.pat)
	case ruleAnchored:
		return path == c.pat[:len(c.pat)-1]
	}
	return globMatch(path, c.pat, c.flags&ruleAnchored != 0)
}

// better reports whether rule a beats rule b in longest-match order: the
// longer pattern, then allow over disallow, then the earlier line.
func better(a, b *crule) bool {
	if len(a.pat) != len(b.pat) {
		return len(a.pat) > len(b.pat)
	}
	if a.allow() != b.allow() {
		return a.allow()
	}
	return a.line < b.line
}

// build reads body in dialect d's reading and compiles its groups.
func (c *compiled) build(body string, d Dialect) {
	c.dialect = d
	c.tokens = make(map[string][]int32)
	var cur *group
	lex(body, d.reading(), func(ln *lexLine) {
		if d == Original && ln.flags&flagEmpty != 0 {
			// The draft separates records by blank lines.
			cur = nil
			return
		}
		switch ln.field {
		case FieldUserAgent:
			if cur == nil || len(cur.rules) > 0 {
				c.groups = append(c.groups, group{})
				cur = &c.groups[len(c.groups)-1]
			}
			a := agentLine{line: int32(ln.num), value: ln.value}
			if isGlobalAgent(ln.value) {
				a.global, a.token = true, "*"
				cur.global = true
			} else {
				a.token = ExtractToken(ln.value)
			}
			cur.agents = append(cur.agents, a)
			cur.last = int32(ln.num)
		case FieldAllow, FieldDisallow:
			if cur == nil {
				c.orphans = append(c.orphans, int32(ln.num))
				return
			}
			c.addRule(cur, ln)
			cur.last = int32(ln.num)
		case FieldSitemap:
			c.ext.addSitemap(ln)
		case FieldCrawlDelay, FieldRequestRate, FieldVisitTime:
			if cur == nil {
				c.ext.addOrphan(ln)
				return
			}
			if cur.ext == nil {
				cur.ext = new(groupExt)
			}
			cur.ext.add(ln)
			cur.last = int32(ln.num)
		case FieldCleanParam, FieldHost:
			c.ext.add(ln)
		}
	})
	for i := range c.groups {
		g := &c.groups[i]
		g.order(d)
		seen := false
		for _, a := range g.agents {
			if a.global {
				if !seen {
					c.global = append(c.global, int32(i))
					seen = true
				}
				continue
			}
			key := lowerASCII(a.token)
			list := c.tokens[key]
			if n := len(list); n > 0 && list[n-1] == int32(i) {
				continue
			}
			c.tokens[key] = append(list, int32(i))
		}
	}
}

// addRule compiles one allow or disallow line into g.
func (c *compiled) addRule(g *group, ln *lexLine) {
	var flags uint8
	if ln.field == FieldAllow {
		flags = ruleAllow
	}
	switch c.dialect {
	case Original:
		g.rules = append(g.rules, crule{pat: decodeOriginal(ln.value), line: int32(ln.num), flags: flags})
		return
	case RFC9309:
		pat := normalizeRFCPattern(ln.value)
		g.rules = append(g.rules, crule{pat: pat, line: int32(ln.num), flags: flags | wildFlags(pat)})
		return
	}
	pat := EscapePattern(ln.value)
	g.rules = append(g.rules, crule{pat: pat, line: int32(ln.num), flags: flags | wildFlags(pat)})
	if flags&ruleAllow != 0 {
		// Google: an allow of .../index.htm(l) also allows its directory,
		// as the pattern "dir/$", when the allow itself does not match.
		if i := strings.LastIndexByte(pat, '/'); i >= 0 && strings.HasPrefix(pat[i:], "/index.htm") {
			dir := pat[:i+1] + "$"
			g.rules = append(g.rules, crule{pat: dir, line: int32(ln.num), flags: flags | ruleIndex | wildFlags(dir)})
		}
	}
}

func wildFlags(pat string) uint8 {
	var f uint8
	body := pat
	if strings.HasSuffix(pat, "$") {
		f |= ruleAnchored
		body = pat[:len(pat)-1]
	}
	if strings.IndexByte(body, '*') >= 0 {
		f |= ruleWild
	}
	return f
}

// order sorts a group's rules for matching: rules that can match some URL
// first, longest first (file order for the original draft), then the rules
// no URL can match.
func (g *group) order(d Dialect) {
	matchable := func(c *crule) bool {
		if c.pat == "" {
			// An empty pattern matches everything with weight 0, except
			// in the draft, where an empty value blocks nothing.
			return d != Original
		}
		if d == Original {
			return c.pat[0] == '/'
		}
		return c.pat[0] == '/' || c.pat[0] == '*'
	}
	n := 0
	for i := range g.rules {
		if matchable(&g.rules[i]) {
			g.rules[n], g.rules[i] = g.rules[i], g.rules[n]
			n++
		}
	}
	g.nmatch = n
	// Rules were appended in line order; restore it after the partition,
	// then order the matchable ones by precedence.
	byLine := func(a, b crule) int { return int(a.line) - int(b.line) }
	slices.SortStableFunc(g.rules[:n], byLine)
	slices.SortStableFunc(g.rules[n:], byLine)
	if d != Original {
		slices.SortStableFunc(g.rules[:n], func(a, b crule) int {
			if len(a.pat) != len(b.pat) {
				return len(b.pat) - len(a.pat)
			}
			if a.allow() != b.allow() {
				if a.allow() {
					return -1
				}
				return 1
			}
			return 0
		})
	}
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// '*' alone or followed by white space (Google's reading).
func isGlobalAgent(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
