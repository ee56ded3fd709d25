package robotstxt

import (
	"strings"
	"unsafe"
)

// A reading answers its first questions from the parsed lines themselves,
// without laying out the token table or compiling a rule set: a crawler
// meeting a new site, the CLI and an inline check ask a file one question
// or a few, and then the work is reading the lines of the groups that
// apply once each, with no sorting, copying or allocation. After
// firstAnswers questions so answered (a few times less work, on real files,
// than laying out and compiling), the reading is prepared and the sets
// compiled, as for any later question.

// firstAnswers is how many of a reading's questions are answered from its
// lines.
const firstAnswers = coldScans

// rawMaxPath is the longest path answered from the lines: a longer one
// among many wildcard rules could cost far more than compiling, whose
// index reads it once (see coldScan).
const rawMaxPath = 256

// allowedRaw answers Allowed's question from the parsed lines, for the
// google reading not prepared yet; ok is false when it does not (the
// first answers are spent, the path is long, or a pattern the question
// reads is too long to escape on the stack), and then nothing is answered.
func (c *compiled) allowedRaw(ua, path string) (allowed, ok bool) {
	if len(path) > rawMaxPath {
		return false, false
	}
	if c.rawAsked.Load() >= firstAnswers || c.rawAsked.Add(1) > firstAnswers {
		return false, false
	}
	// The groups that apply: those naming ua (all of them, merged), else
	// those naming '*'.
	first := -1
	for gi := range c.groups {
		if c.groupNames(gi, ua) {
			first = gi
			break
		}
	}
	m := rawMatcher{c: c, path: path, cutLen: -1, best: -1}
	if first >= 0 {
		for gi := first; gi < len(c.groups) && m.ok(); gi++ {
			if gi == first || c.groupNames(gi, ua) {
				m.group(gi)
			}
		}
	} else {
		for _, gi := range c.globalGroups {
			if !m.ok() {
				break
			}
			m.group(int(gi))
		}
	}
	if !m.ok() {
		return false, false
	}
	return m.best <= 0 || m.bestAllow, true
}

// groupNames reports whether a user-agent line of group gi names the
// product token ua, ignoring ASCII case (as findToken looks it up).
func (c *compiled) groupNames(gi int, ua string) bool {
	g := &c.groups[gi]
	for _, a := range c.agents[g.alo:g.ahi] {
		if a.tlen == uint32(len(ua)) && equalFoldASCII(c.body[a.off:a.off+a.tlen], ua) {
			return true
		}
	}
	return false
}

// rawMatcher finds the longest rule matching a path among rule lines as
// parsed: what a compiled set's eval finds, without compiling.
type rawMatcher struct {
	c         *compiled
	path      string // as Allowed has it: it may run past its end
	cutLen    int    // the length of the path cut at its end, -1 until needed (an int, so that the path does not escape)
	best      int    // the weight of the best match so far, -1 when none
	bestAllow bool
	escaped   bool // a pattern is too long to escape on the stack: give up
}

func (m *rawMatcher) ok() bool { return !m.escaped }

// beats reports whether a match of weight n beats the best so far.
func (m *rawMatcher) beats(n int, allow bool) bool {
	return n > m.best || n == m.best && allow && !m.bestAllow
}

// group tries the rules of group gi.
func (m *rawMatcher) group(gi int) {
	c := m.c
	g := &c.groups[gi]
	raws := c.raws[g.lo:g.hi]
	for _, raw := range raws {
		v := c.body[raw.off : raw.off+raw.n]
		if v == "" {
			continue // weight 0: it never decides Allowed's verdict
		}
		if c.escape != 0 && (!raw.allow() || c.dialect != Google) && m.differs(v) {
			// Not escaped: escaping cannot make it match. (An allow of
			// Google's is, as the shorter "dir/$" it may imply could.)
			continue
		}
		if c.mayEscape(v) {
			// Google's escaping (see addRule), into a buffer on the
			// stack.
			if i := escapeFrom(v); i < len(v) {
				var buf [escapeRoom]byte
				if 3*len(v) > len(buf) {
					m.escaped = true
					return
				}
				e := appendPercentEncoded(append(buf[:0], v[:i]...), v[i:], isHighByte)
				v = unsafe.String(&e[0], len(e))
			}
		}
		allow := raw.allow()
		if !m.beats(len(v), allow) {
			continue // nor can the shorter rule an allow may imply
		}
		if m.matches(v, false) {
			m.best, m.bestAllow = len(v), allow
			continue
		}
		if allow && c.dialect == Google {
			// The directory an allow of .../index.htm(l) implies, as
			// the anchored pattern "dir/$" (see addRule).
			if i := strings.LastIndexByte(v, '/'); i >= 0 && strings.HasPrefix(v[i:], "/index.htm") &&
				m.beats(i+2, true) && m.matches(v[:i+1], true) {
				m.best, m.bestAllow = i+2, true
			}
		}
	}
}

// differs reports whether pattern v, escaped or not, matches nothing
// because it differs from the path before any '*' or '$', at a byte
// escaping keeps (as most rules differ from a path in their first bytes):
// then the pattern is not escaped.
func (m *rawMatcher) differs(v string) bool {
	path := m.path
	j := 0
	// Eight bytes at a time while they are the path's and hold no '*'
	// or '$' (patterns often share a long start with the path), then a
	// byte at a time.
	for j+8 <= len(v) && j+8 <= len(path) {
		w := le64At(v, j)
		if w != le64At(path, j) || zeroBytes(w^'*'*ones8)|zeroBytes(w^'$'*ones8) != 0 {
			break
		}
		j += 8
	}
	for j < len(v) && j < len(path) && v[j] == path[j] && v[j] != '*' && v[j] != '$' {
		j++
	}
	if j == len(v) || v[j] == '*' || v[j] == '$' {
		return false
	}
	// v[j] differs from the path (or the path ends): that settles it
	// unless escaping changes v at or before j (an escape's hex digits
	// are at most two bytes on).
	return escapeFrom(v[:min(j+3, len(v))]) > j
}

// matches reports whether pattern v (anchored: followed by an implied
// '$') matches the path, as a compiled rule of that pattern would.
func (m *rawMatcher) matches(v string, anchored bool) bool {
	// A pattern starting with neither '/' nor '*', or "$" alone, matches
	// no URL (see classifyRule).
	if v[0] != '/' && v[0] != '*' || v == "$" {
		return false
	}
	// The literal prefix, against the path as given: a literal pattern
	// holds neither '#' nor NUL, so the path's end does not matter to it.
	path := m.path
	for i := 0; i < len(v); i++ {
		ch := v[i]
		if ch == '*' || ch == '$' {
			if anchored {
				return globMatchBody(m.cut(), v, true)
			}
			return globMatch(m.cut(), v, v[len(v)-1] == '$')
		}
		if i >= len(path) || path[i] != ch {
			return false
		}
	}
	if anchored {
		return len(m.cut()) == len(v)
	}
	return true
}

// cut returns the path cut at its end (its first '#' or NUL byte).
func (m *rawMatcher) cut() string {
	if m.cutLen < 0 {
		m.cutLen = len(cutPath(m.path))
	}
	return m.path[:m.cutLen]
}

// escapeRoom is the room on the stack for a pattern escaped while
// answering from the lines: a longer one (which escaping may triple) is
// left to the compiled set.
const escapeRoom = 768
