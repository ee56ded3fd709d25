package robotstxt

import (
	"slices"
	"strings"
)

// Reading a body into groups: the builder takes its lines one at a time,
// from readFast (the google reading of a body without a NUL byte, most
// files) or from the lexer (lex.go), and gathers them into the lists of
// the compiled file (see buildWith).

// builder gathers the groups of a reading while its lines are read.
type builder struct {
	c     *compiled
	draft bool // records end at blank lines (the draft's dialects)
	cur   int  // the group being read, -1 when none
	// usageRule: the group being read has a Content-Usage line, which
	// RFC 9309 as draft-ietf-aipref-attach updates it counts as a rule.
	usageRule bool
	raws      []rawRule
	agents    []agentLine
	groups    []group
	global    []int32      // the groups naming '*'
	counts    *groupCounts // what a first reading counts, once a list needs it
}

// The lists whose bound growBy asks for.
const (
	boundAgents = iota
	boundGroups
	boundExts
)

// bound returns the most elements list (boundAgents, ...) needs: the
// number a first reading of the whole body counts.
//
//go:noinline
func (b *builder) bound(list int) int {
	if b.counts == nil {
		b.counts = b.c.countGroups(b.c.body)
	}
	switch list {
	case boundAgents:
		return b.counts.agents
	case boundGroups:
		return b.counts.groups
	}
	return b.counts.exts
}

// growBy is grow for a list whose bound b counts.
func growBy[T any](s []T, b *builder, list int) []T {
	switch {
	case len(s) < cap(s):
		return s
	case cap(s) < 256:
		return slices.Grow(s, max(len(s), 4))
	}
	return slices.Grow(s, max(b.bound(list)-len(s), len(s)/4, 1))
}

// line adds one line of any kind.
func (b *builder) line(ln *lexLine) {
	c := b.c
	if endsRecord(b.draft, ln) {
		b.cur = -1
		return
	}
	c.extensions.classify(ln)
	switch ln.field {
	case FieldUserAgent:
		b.agent(int32(ln.num), ln.start+ln.valOff, ln.value)
	case FieldAllow, FieldDisallow:
		b.rule(int32(ln.num), ln.start+ln.valOff, len(ln.value), ln.field == FieldAllow)
	case FieldSitemap:
		c.ext.addSitemap(ln)
	case FieldCrawlDelay, FieldRequestRate, FieldVisitTime:
		if b.cur < 0 {
			return
		}
		g := &b.groups[b.cur]
		if g.ext == 0 {
			c.exts = append(growBy(c.exts, b, boundExts), groupExt{})
			g.ext = int32(len(c.exts))
			c.groupExts = true
		}
		c.exts[g.ext-1].add(ln)
		g.last = int32(ln.num)
	case FieldCleanParam, FieldHost:
		c.ext.add(ln)
	case FieldContentUsage, FieldContentSignal, FieldSignatureAgent, FieldMaxCrawlRate:
		b.addAI(ln)
	}
}

// agent adds a user-agent line whose value, as written and trimmed, is
// value, at off in the body.
func (b *builder) agent(num int32, off int, value string) {
	if b.cur < 0 || b.groups[b.cur].hi > b.groups[b.cur].lo || b.usageRule {
		b.usageRule = false
		n := int32(len(b.raws))
		b.groups = append(growBy(b.groups, b, boundGroups), group{alo: int32(len(b.agents)), ahi: int32(len(b.agents)), lo: n, hi: n})
		b.cur = len(b.groups) - 1
	}
	a := agentLine{line: num, off: uint32(off), n: uint32(len(value))}
	if isGlobalAgent(value) {
		a.tlen = agentGlobal
		if k := len(b.global); k == 0 || b.global[k-1] != int32(b.cur) {
			b.global = append(growBy(b.global, b, boundGroups), int32(b.cur))
		}
	} else {
		a.tlen = uint32(len(ExtractToken(value)))
	}
	b.agents = append(growBy(b.agents, b, boundAgents), a)
	g := &b.groups[b.cur]
	g.ahi++
	g.last = num
}

// rule adds an allow or disallow line whose value is n bytes at off in
// the body.
func (b *builder) rule(num int32, off, n int, allow bool) {
	if b.cur < 0 || len(b.raws) == cap(b.raws) {
		b.ruleSlow(num, off, n, allow)
		return
	}
	line := uint32(num)
	if allow {
		line |= rawAllow
	}
	b.raws = append(b.raws, rawRule{off: uint32(off), n: uint32(n), line: line})
	g := &b.groups[b.cur]
	g.hi = int32(len(b.raws))
	g.last = num
}

// ruleSlow is rule for a rule before any group, or when the list is full.
func (b *builder) ruleSlow(num int32, off, n int, allow bool) {
	if b.cur < 0 {
		b.c.orphans = append(grow(b.c.orphans, b.c.ext.linesBound), num)
		return
	}
	b.raws = grow(b.raws, b.c.ext.linesBound)
	b.rule(num, off, n, allow)
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// '*' alone or followed by white space (Google's reading).
func isGlobalAgent(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}

// groupCounts are the numbers of user-agent lines, groups and groups with
// extension fields a reading finds.
type groupCounts struct{ agents, groups, exts int }

// countGroups reads body as build does, only counting.
func (c *compiled) countGroups(body string) *groupCounts {
	var n groupCounts
	open, rules, ext := false, false, false // the state of the current group
	draft := c.dialect.DraftRecords()
	lex(body, c.mode, func(ln *lexLine) {
		if endsRecord(draft, ln) {
			open = false
			return
		}
		switch ln.field {
		case FieldUserAgent:
			if !open || rules {
				n.groups++
				open, rules, ext = true, false, false
			}
			n.agents++
		case FieldAllow, FieldDisallow:
			rules = rules || open
		case FieldContentUsage:
			rules = rules || open && usageIsRule(c.dialect, ln)
		case FieldCrawlDelay, FieldRequestRate, FieldVisitTime:
			if open && !ext {
				ext = true
				n.exts++
			}
		}
	})
	return &n
}

// addAI records a Content-Usage or Content-Signal line of the current
// group, or (with ExtWebBotAuth) a Signature-Agent or Max-Crawl-Rate
// line: a line outside any group is not kept (lint reports it), nor one
// without its colon (the grammars require it).
func (b *builder) addAI(ln *lexLine) {
	if b.cur < 0 || ln.flags&flagMissingColon != 0 {
		return
	}
	c := b.c
	if c.ai == nil {
		c.ai = new(aiLines)
	}
	c.ai.lines = append(c.ai.lines, aiLine{
		group: int32(b.cur), line: int32(ln.num),
		off: uint32(ln.start + ln.valOff), n: uint32(len(ln.value)),
		kind: aiKindOf(ln.field),
	})
	b.groups[b.cur].last = int32(ln.num)
	if usageIsRule(c.dialect, ln) {
		b.usageRule = true
	}
}

// Where groups end, decided once for the builder and for countGroups, the
// first reading that bounds its lists: a user-agent line after a rule
// starts a group (see builder.agent), and so does one after these.

// endsRecord reports whether line ln ends the group being read: a blank
// line, in the readings of the draft's records (draft: Original, Baidu).
func endsRecord(draft bool, ln *lexLine) bool { return draft && ln.flags&flagEmpty != 0 }

// usageIsRule reports whether a Content-Usage line of a group counts as a
// rule, so that a user-agent line after it starts a new group: in RFC 9309
// as draft-ietf-aipref-attach updates it (a line whose key lacks its
// colon is no line of that reading).
func usageIsRule(d Dialect, ln *lexLine) bool {
	return d == RFC9309 && ln.field == FieldContentUsage && ln.flags&flagMissingColon == 0
}

// lineSpace marks the white space a line can hold (isSpace without the
// line endings).
var lineSpace = [256]bool{' ': true, '\t': true, '\v': true, '\f': true}

// The words readFast recognises keys by: the folded first eight bytes of a
// line's key, masked to the name's length.
const (
	mask5 = 1<<40 - 1
	mask7 = 1<<56 - 1
)

// readFast reads a body in the google reading, for a body with no NUL
// byte: the same lines as the lexer, with the same results, in one pass
// that looks at most bytes once. The lines most files are made of
// (user-agent, allow, disallow and sitemap lines written the usual way,
// empty lines and comments) are read here; any other line (a typo, a key
// without its colon, an extension field, an over-long line) is handed to
// classifyHash, as the lexer does with every line.
func (b *builder) readFast(body string) {
	n := len(body)
	pos := 0
	const bom = "\xEF\xBB\xBF"
	for pos < len(bom) && pos < n && body[pos] == bom[pos] {
		pos++
	}
	num := int32(0)
	for {
		num++
		start := pos
		i := pos
		for i < n && lineSpace[body[i]] {
			i++
		}
		j := i // the end of the line, once known
		switch {
		case i == n || body[i] == '\n' || body[i] == '\r':
			// An empty line.
			if b.draft {
				b.cur = -1
			}
			goto next
		case body[i] == '#':
			// A comment: nothing to read.
			j = indexLineEnd(body, j)
			goto next
		}
		if i+8 <= n {
			w := fold8(le64At(body, i))
			var field Field
			k := 0
			switch {
			case w == wordDisallow:
				field, k = FieldDisallow, 8
			case w&mask5 == wordAllow:
				field, k = FieldAllow, 5
			case w == wordUserAge && i+10 <= n && body[i+8]|0x20 == 'n' && body[i+9]|0x20 == 't':
				field, k = FieldUserAgent, 10
			case w&mask7 == wordSitemap:
				field, k = FieldSitemap, 7
			}
			if k > 0 {
				j = i + k
				for j < n && lineSpace[body[j]] {
					j++
				}
				if j < n && body[j] == ':' {
					j++
					colon := j
					for j < n && lineSpace[body[j]] {
						j++
					}
					vs := j
					j = indexValueEnd(body, j)
					ve := j
					if j < n && body[j] == '#' {
						j = indexLineEnd(body, j)
					}
					if j-start <= maxLineLen {
						for ve > vs && lineSpace[body[ve-1]] {
							ve--
						}
						if ve == vs {
							vs, ve = colon, colon // where the lexer places an empty value
						}
						switch field {
						case FieldDisallow, FieldAllow:
							b.rule(num, vs, ve-vs, field == FieldAllow)
						case FieldUserAgent:
							b.agent(num, vs, body[vs:ve])
						default:
							b.c.ext.addSitemapAt(num, vs, ve-vs)
						}
						goto next
					}
				}
			}
		}
		// Any other line: read it as the lexer does.
		j = indexLineEnd(body, j)
		{
			raw := body[start:j]
			ln := classifyHash(raw, readGoogleNoNUL, strings.IndexByte(raw, '#'))
			ln.num, ln.start, ln.end = int(num), start, j
			b.line(&ln)
		}
	next:
		if j == n {
			return
		}
		pos = j + 1
		if body[j] == '\r' && pos < n && body[pos] == '\n' {
			pos++
		}
	}
}
