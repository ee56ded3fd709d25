package robotstxt

import (
	"slices"
	"strconv"
)

// Explaining a decision (Decide and Decider): the rules of the chosen
// groups that match the path, as RuleMatch values, and why each but the
// winner lost.

// hit is a rule and the set it was compiled in.
type hit struct {
	s *ruleSet
	r *crule
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allows"
	}
	return "disallows"
}

// ruleMatch describes a compiled rule.
func (r *Robots) ruleMatch(h hit) RuleMatch {
	cr := h.r
	return RuleMatch{Line: int(cr.line), Allow: cr.allow(), Pattern: h.s.pat(cr), Implicit: cr.flags&ruleIndexHTM != 0, Text: r.lineText(int(cr.line))}
}

// matchHits returns every rule of the sets that matches path, each once
// (sets may share rules), in the sets' order.
func matchHits(sets []*ruleSet, path string, skip uint8) []hit {
	var hits []hit
	type ruleKey struct {
		line, n int32
		flags   uint8
	}
	var seen map[ruleKey]bool // with several sets, the rules they share
	if len(sets) > 1 {
		seen = map[ruleKey]bool{}
	}
	for _, s := range sets {
		s.eachMatch(path, skip, func(cr *crule) {
			if seen != nil {
				k := ruleKey{cr.line, int32(cr.n), cr.flags & (ruleAllow | ruleIndexHTM)}
				if seen[k] {
					return
				}
				seen[k] = true
			}
			hits = append(hits, hit{s, cr})
		})
	}
	return hits
}

// explain lists the rules of hits, the winner first.
func (r *Robots) explain(hits []hit, win *crule, d Dialect) []RuleMatch {
	slices.SortStableFunc(hits, func(a, b hit) int {
		if d.FirstMatch() {
			return int(a.r.line) - int(b.r.line)
		}
		if better(a.r, b.r) {
			return -1
		}
		if better(b.r, a.r) {
			return 1
		}
		return 0
	})
	out := make([]RuleMatch, 0, len(hits))
	for _, h := range hits {
		m := r.ruleMatch(h)
		if win != nil && (h.r.line != win.line || h.r.n != win.n) {
			m.Lost = lostReason(h.r, win, d)
		}
		out = append(out, m)
	}
	return out
}

func lostReason(h, win *crule, d Dialect) string {
	switch {
	case d.FirstMatch():
		return intText("line ", int(win.line), " matched first (the first match wins in the ", d.String()+" dialect)")
	case h.n == 0:
		return "an empty pattern matches with weight 0"
	case h.n < win.n:
		unit := " bytes against "
		if h.n == 1 {
			unit = " byte against "
		}
		return intText("shorter: ", int(h.n), unit, intText("", int(win.n), " (the longest match wins)", ""))
	case h.allow() != win.allow():
		return "same length: allow wins a tie"
	}
	return intText("same length and kind: line ", int(win.line), " comes first", "")
}

// allows reports whether the deciding rule h (none when h.r is nil) allows,
// in dialect d: an allow, or Google's empty disallow of weight 0.
func (h hit) allows(d Dialect) bool {
	return h.r == nil || h.r.allow() || h.r.n == 0 && !d.FirstMatch()
}

// intText returns a, n in decimal, b and c, built without fmt.
func intText(a string, n int, b, c string) string {
	var buf [128]byte
	s := append(buf[:0], a...)
	s = strconv.AppendInt(s, int64(n), 10)
	s = append(s, b...)
	return string(append(s, c...))
}
