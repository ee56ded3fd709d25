package robotstxt

import "strings"

// Matching one path against one compiled rule: the probe's quick looks
// (the first bytes of the literal prefix, the byte classes a wildcard
// pattern needs), then the rest of the literal prefix, the anchor and the
// wildcards (globMatch). The rule sets' evaluation (answer.go) and their
// indexes (index.go, wild.go) all match a rule this way.

// probe is a path being matched, with what quick checks need of it. The
// path may run past its end: Allowed hands over the rest of the URL without
// looking for the fragment ('#') or a NUL byte, which end the path, since
// most questions are settled by literal prefixes and no pattern holds either
// byte (see clean). Other callers give paths already cut.
type probe struct {
	path  string
	pw    uint64 // word8(path)
	bits  uint32 // byteClasses(path), once known
	state uint8  // probeNoClasses, probeClassesLater or probeClassesKnown
	cut   bool   // path has been cut at its end
}

const (
	probeNoClasses    = iota // the byte-class check is not used
	probeClassesLater        // used; bits not computed yet
	probeClassesKnown
)

func newProbe(path string, classes bool) probe {
	p := probe{path: path, pw: word8(path)}
	if classes {
		p.state = probeClassesLater
	}
	return p
}

// reject reports whether rule r cannot match the path, by looks that need
// neither the pattern nor, mostly, the path: the first bytes of the literal
// prefix, then, for a wildcard rule, the byte classes its pattern needs
// (computed on the first such rule).
func (p *probe) reject(r *crule) bool {
	if p.pw&wordMask[r.wlen] != r.word {
		return true
	}
	return r.need != 0 && p.state != probeNoClasses && p.rejectClasses(r)
}

// The byte classes may be those of the uncut path: a superset, so a rule
// is never wrongly rejected.
func (p *probe) rejectClasses(r *crule) bool {
	if p.state == probeClassesLater {
		p.bits, p.state = byteClasses(p.path), probeClassesKnown
	}
	return r.need&^p.bits != 0
}

// pathFor returns the path to match rule r against: the path cut at its
// first '#' or NUL byte, where Google's library ends it, or for a literal
// pattern (no '*', no '$') maybe the uncut path. A literal pattern matches
// the uncut path exactly when it matches the cut one: its bytes are neither
// '#' nor NUL, so a path that starts with them has no end within them. Only
// wildcard and anchored rules read the path to its end. (It must be called
// where p lives, not through a pointer handed to another function, so that
// the path does not escape.)
func (p *probe) pathFor(r *crule) string {
	if r.flags&(ruleWild|ruleAnchored) != 0 && !p.cut {
		p.cutEnd()
	}
	return p.path
}

// clean returns the path cut at its end.
func (p *probe) clean() string {
	if !p.cut {
		p.cutEnd()
	}
	return p.path
}

// cutEnd cuts the path at its first '#' or NUL byte. (Not inlined, so that
// pathFor is; the self-assignments do not make the path escape.)
//
//go:noinline
func (p *probe) cutEnd() {
	p.path = p.path[:pathEnd(p.path)]
	p.cut = true
}

// matchRest reports whether rule r matches path once the probe has not
// rejected it: the path's first
// wlen bytes then equal those of the literal prefix, so once the path is
// known to be long enough, a rule whose literal prefix is that short is
// decided without reading its pattern.
func (s *ruleSet) matchRest(r *crule, path string) bool {
	lit := int(r.lit)
	if len(path) < lit {
		return false
	}
	if lit > int(r.wlen) {
		off := r.off + uint32(r.wlen)
		if path[r.wlen:lit] != s.base(r)[off:r.off+r.lit] {
			return false
		}
	}
	switch r.flags & (ruleWild | ruleAnchored) {
	case 0:
		return true
	case ruleAnchored:
		return len(path) == lit
	}
	return globMatch(path[lit:], s.base(r)[r.off+r.lit:r.off+r.n], r.flags&ruleAnchored != 0)
}

// globMatch reports whether pat matches path. In pat, '*' matches any run of
// bytes (including none); when anchored, pat ends with a '$' that ties the
// match to the end of path. Every other byte is literal, '$' included.
//
// The pattern is split at its '*'s into literal segments. The first segment
// must start path; every later segment is found at its leftmost place after
// the previous one (taking the leftmost place never loses a match, since it
// leaves the most room for what follows); an anchored last segment must end
// path. Each segment is searched once, left to right, so the time is linear
// in len(path)+len(pat): no backtracking.
func globMatch(path, pat string, anchored bool) bool {
	if anchored {
		pat = pat[:len(pat)-1]
	}
	return globMatchBody(path, pat, anchored)
}

// globMatchBody is globMatch for a pattern given without its final '$':
// anchored ties the match to the end of path.
func globMatchBody(path, pat string, anchored bool) bool {
	star := strings.IndexByte(pat, '*')
	if star < 0 {
		if anchored {
			return path == pat
		}
		return strings.HasPrefix(path, pat)
	}
	if !strings.HasPrefix(path, pat[:star]) {
		return false
	}
	path, pat = path[star:], pat[star+1:]
	for {
		star = strings.IndexByte(pat, '*')
		if star < 0 {
			// The last segment.
			if anchored {
				return strings.HasSuffix(path, pat)
			}
			return strings.Contains(path, pat)
		}
		if seg := pat[:star]; seg != "" {
			i := strings.Index(path, seg)
			if i < 0 {
				return false
			}
			path = path[i+len(seg):]
		}
		pat = pat[star+1:]
	}
}
