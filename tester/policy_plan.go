package tester

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// The policy writer's plan: which user-agent lines go, where the group of
// the denied crawlers goes, which allowed crawlers get a group of their
// own, and which groups get the preference lines (write); every edit
// planned in the line editor (editor), in the old file's line numbers.

// policyWriter merges stances into one file.
type policyWriter struct {
	r       *robotstxt.Robots
	ed      *editor
	stances []policyStance
	usage   []prefKey
	signal  []prefKey
	notes   []string
}

// stanceOf returns the stance of the crawler user-agent line a names, nil
// when it has none.
func (w *policyWriter) stanceOf(a robotstxt.Agent) *policyStance {
	if a.Global {
		return nil
	}
	c, ok := robotstxt.CrawlerNamed(a.Value)
	if !ok && a.Token == "" {
		return nil
	}
	for i := range w.stances {
		s := &w.stances[i]
		if ok && s.known && s.c.Name == c.Name || !ok && !s.known && strings.EqualFold(s.c.Token, a.Token) {
			return s
		}
	}
	return nil
}

// query is the question "may s's crawler fetch url?" in its own dialect.
func (s *policyStance) query(url string) robotstxt.Query {
	if !s.known {
		return robotstxt.Query{URL: url, Agents: []string{s.c.Token}, Dialect: robotstxt.Google}
	}
	return robotstxt.Query{URL: url, Crawler: &s.c}
}

// write plans the edits.
func (w *policyWriter) write() {
	groups := w.r.Groups()
	gone := map[int]bool{} // user-agent lines that go
	var denied, allowed []*policyStance
	for i := range w.stances {
		if w.stances[i].allow {
			allowed = append(allowed, &w.stances[i])
		} else {
			denied = append(denied, &w.stances[i])
		}
	}
	// Denied crawlers leave every group that names them.
	for _, g := range groups {
		for _, a := range g.Agents {
			if s := w.stanceOf(a); s != nil && !s.allow {
				gone[a.Line] = true
			}
		}
	}
	// Allowed crawlers leave the groups that name them and close the
	// site to them.
	for _, s := range allowed {
		d := w.r.Decide(s.query("/"))
		if d.Allowed || d.Group.Kind != robotstxt.GroupSpecific {
			continue
		}
		var lines []int
		self := false
		for _, g := range groups {
			for _, a := range g.Agents {
				if w.stanceOf(a) == s {
					lines = append(lines, a.Line)
					self = self || slices.Contains(d.Group.Lines, a.Line)
				}
			}
		}
		if self {
			for _, n := range lines {
				gone[n] = true
			}
		}
	}
	// Groups left with no user-agent line go whole (but their comments);
	// the first of them, or else of the groups that lose a line, is
	// where the denied crawlers' group goes.
	at, replace := 0, false
	for gi := range groups {
		g := &groups[gi]
		left, lost := 0, 0
		for _, a := range g.Agents {
			if gone[a.Line] {
				lost++
			} else {
				left++
			}
		}
		if lost == 0 {
			continue
		}
		if left > 0 {
			for _, a := range g.Agents {
				if gone[a.Line] {
					w.ed.del[a.Line] = true
				}
			}
			w.keepMembers(g, gone)
			if at == 0 {
				at = w.ed.above(g.StartLine)
			}
			continue
		}
		for n := g.StartLine; n <= g.EndLine; n++ {
			if l, ok := w.r.Line(n); ok && (l.Empty || groupField(l.Field)) {
				w.ed.del[n] = true
			}
		}
		if !replace {
			at, replace = g.StartLine, true
		}
	}
	// Appended after a last group with no rule, new groups would join
	// it (a user-agent line ends a group only after a rule): they go
	// before it instead.
	tail := 0
	if len(groups) > 0 {
		if g := &groups[len(groups)-1]; len(g.Rules) == 0 && slices.ContainsFunc(g.Agents, func(a robotstxt.Agent) bool { return !gone[a.Line] }) {
			tail = w.ed.above(g.StartLine)
		}
	}
	if at == 0 {
		at = tail
	}
	var block []string
	if len(denied) > 0 {
		for _, s := range denied {
			block = append(block, "User-agent: "+s.c.Token)
		}
		block = append(block, "Disallow: /")
	}
	// Allowed crawlers the * group or a fallback's group still block get
	// a group of their own.
	midText, oldOf := w.ed.renderMap(block, at, replace)
	mid := robotstxt.ParseString(midText)
	var open, ignoring []string
	// The old file's groups (Google's reading, as the writer edits them)
	// that allowed crawlers read, each in its own reading: groups are
	// compared by the line numbers of their user-agent lines, the same
	// in every reading (Baidu's reading gives Baiduspider the record of
	// "User-agent: Baiduspider-image"), and Robots.GroupOf says which
	// group a line is in.
	read := map[int]bool{}
	reads := func(d robotstxt.Decision) {
		for _, l := range d.Group.Lines {
			if o, ok := oldOf[l]; ok {
				if gi, ok := w.r.GroupOf(robotstxt.Google, o); ok {
					read[gi] = true
				}
			}
		}
	}
	stanced := map[string]bool{}
	for _, s := range w.stances {
		stanced[s.c.Name] = true
	}
	prefs := len(w.usage)+len(w.signal) > 0
	for _, s := range allowed {
		d := mid.Decide(s.query("/"))
		switch {
		case !d.Allowed:
			open = append(open, "User-agent: "+s.c.Token)
		case d.Group.Kind == robotstxt.GroupSpecific:
			reads(d)
		case d.Group.Kind == robotstxt.GroupNone && prefs && s.c.IgnoresGlobal:
			// It ignores the * group, and no group names it.
			ignoring = append(ignoring, "User-agent: "+s.c.Token)
		}
	}
	if prefs {
		// Crawlers that never read the * group (AdsBot-Google...) get
		// the preferences in their groups, or in one of their own.
		for _, c := range robotstxt.Crawlers() {
			if !c.IgnoresGlobal || stanced[c.Name] || strings.ContainsAny(c.Token, " \t") {
				continue
			}
			switch d := mid.Decide(c.Query("/")); d.Group.Kind {
			case robotstxt.GroupSpecific:
				reads(d)
			case robotstxt.GroupNone:
				ignoring = append(ignoring, "User-agent: "+c.Token)
			}
		}
	}
	if len(open) > 0 {
		open = append(open, "Allow: /")
		open = append(open, w.aiLines(nil)...)
		denied := block
		block = open
		if len(denied) > 0 {
			// Which group comes first matters where the first record
			// that holds a crawler's name wins (Baidu's reading:
			// "Baiduspider-cpro" holds Baiduspider): the order whose
			// file follows more stances, the denied group first on a
			// tie.
			denyFirst := append(append(slices.Clone(denied), ""), open...)
			allowFirst := append(append(slices.Clone(open), ""), denied...)
			block = denyFirst
			if w.unfollowed(allowFirst, at, replace) < w.unfollowed(denyFirst, at, replace) {
				block = allowFirst
			}
		}
	}
	if len(ignoring) > 0 {
		// "Disallow:" allows everything, as no group did: a rule, so
		// that a user-agent line after it starts a group of its own.
		ignoring = append(append(ignoring, "Disallow:"), w.aiLines(nil)...)
		if len(block) > 0 {
			block = append(block, "")
		}
		block = append(block, ignoring...)
	}
	if len(block) > 0 {
		switch {
		case replace:
			w.ed.before[at] = append(w.ed.before[at], block...)
		case at > 0:
			w.ed.before[at] = append(w.ed.before[at], append(block, "")...)
		default:
			w.ed.end = append(w.ed.end, block)
		}
	}
	// The usage lines: in the * group, and in the groups allowed
	// crawlers read (their own, or a fallback's), which do not read the
	// * group's.
	if len(w.usage)+len(w.signal) == 0 {
		return
	}
	// Every * group: crawlers read them merged, and a line of the one
	// (a path every URL has) decides for the other's.
	stars := map[int]bool{}
	for gi := range groups {
		if slices.ContainsFunc(groups[gi].Agents, func(a robotstxt.Agent) bool { return a.Global }) {
			stars[gi] = true
		}
	}
	if len(stars) == 0 {
		if tail > 0 {
			// Before a group: a rule ends its user-agent lines
			// ("Disallow:" with no path allows everything, as the
			// group did not say otherwise).
			lines := append([]string{"User-agent: *", "Disallow:"}, w.aiLines(nil)...)
			w.ed.before[tail] = append(w.ed.before[tail], append(lines, "")...)
		} else {
			w.ed.end = append(w.ed.end, append([]string{"User-agent: *"}, w.aiLines(nil)...))
		}
	}
	for gi := range groups {
		g := &groups[gi]
		if stars[gi] || read[gi] {
			end := w.groupEnd(g)
			w.ed.after[end] = append(w.ed.after[end], w.aiLines(g)...)
		}
	}
}

// groupEnd returns the line after which lines added to group g belong to
// it in every reading: its last line, or, when a blank line comes after
// its last user-agent line, the line before that blank line (the draft's
// readings, Baidu's, end a record there: what follows belongs to no
// group). Never above its last user-agent line, where a Content-Usage
// line would split the group in RFC 9309's reading.
func (w *policyWriter) groupEnd(g *robotstxt.Group) int {
	last := g.StartLine
	for _, a := range g.Agents {
		last = max(last, a.Line)
	}
	for n := last + 1; n <= g.EndLine; n++ {
		if l, ok := w.r.Line(n); ok && l.Empty {
			return n - 1
		}
	}
	return g.EndLine
}

// keepMembers keeps the lines of group g with the user-agent lines it
// keeps: when every user-agent line above one of its other lines goes
// (gone), the kept user-agent lines move up to where its first line was,
// so that the lines between do not fall to the group above.
func (w *policyWriter) keepMembers(g *robotstxt.Group, gone map[int]bool) {
	var moved []string
	member := false // a line of the group, with no kept user-agent line above it
	kept := false
	for n := g.StartLine; n <= g.EndLine; n++ {
		l, ok := w.r.Line(n)
		if !ok {
			continue
		}
		switch {
		case l.Field == robotstxt.FieldUserAgent && l.HasDirective:
			if gone[n] {
				continue
			}
			if member && !kept {
				moved = append(moved, w.ed.text[n])
				w.ed.del[n] = true
				continue
			}
			kept = true
		case !l.Empty && !l.Comment && groupField(l.Field):
			member = true
		}
	}
	if len(moved) > 0 {
		// In the place of the first line (which goes): the new file's
		// line there is still a line of the group's (renderMap).
		delete(w.ed.del, g.StartLine)
		w.ed.repl[g.StartLine] = moved[0]
		w.ed.after[g.StartLine] = append(moved[1:], w.ed.after[g.StartLine]...)
	}
}

// unfollowed counts the stances a file with block inserted (at, replace:
// as write inserts it) does not follow.
func (w *policyWriter) unfollowed(block []string, at int, replace bool) int {
	return len(verifyStances(robotstxt.ParseString(w.ed.renderWith(block, at, replace)), w.stances))
}

// groupField reports whether lines of field f belong to the group they
// are in (and go with it): not comments, sitemaps, Yandex's host and
// clean-param, nor keys no crawler reads.
func groupField(f robotstxt.Field) bool {
	switch f {
	case robotstxt.FieldUserAgent, robotstxt.FieldAllow, robotstxt.FieldDisallow, robotstxt.FieldCrawlDelay,
		robotstxt.FieldRequestRate, robotstxt.FieldVisitTime, robotstxt.FieldNoindex, robotstxt.FieldNofollow,
		robotstxt.FieldNoarchive, robotstxt.FieldContentUsage, robotstxt.FieldContentSignal:
		return true
	}
	return false
}

// aiLines amends the Content-Usage and Content-Signal lines of group g to
// the policy's, and returns the lines to add after its last line (every
// line for a new group, g nil).
func (w *policyWriter) aiLines(g *robotstxt.Group) []string {
	var usage, signal []int // unpathed Content-Usage lines; Content-Signal lines
	var sitePaths []int     // Content-Usage lines whose path every URL has ("/")
	if g != nil {
		for n := g.StartLine; n <= g.EndLine; n++ {
			l, ok := w.r.Line(n)
			if !ok {
				continue
			}
			switch l.Field {
			case robotstxt.FieldContentUsage:
				path, st := "", l.Value
				if strings.HasPrefix(l.Value, "/") {
					path, st = splitPathValue(l.Value)
				}
				switch {
				case path == "":
					usage = append(usage, n)
				case isSite(path):
					// A path every URL has beats the lines without
					// one everywhere: it states the policy too.
					sitePaths = append(sitePaths, n)
				case w.pathContradicts(l.Value):
					w.notes = append(w.notes, fmt.Sprintf("line %d (%s) keeps its own preferences for its paths: the longest matching path decides", n, strings.TrimSpace(l.Text)))
				default:
					if _, ok := robotstxt.ParseUsagePreference(st); !ok && len(w.usage) > 0 {
						w.notes = append(w.notes, fmt.Sprintf("line %d (%s) does not parse: for its paths every preference is unknown, the policy's too (the longest matching path decides); fix or remove it", n, strings.TrimSpace(l.Text)))
					}
				}
			case robotstxt.FieldContentSignal:
				signal = append(signal, n)
			}
		}
	}
	var add []string
	if len(w.usage) > 0 {
		if len(usage) == 0 {
			add = append(add, "Content-Usage: "+joinKeys(w.usage))
		}
		for i, n := range usage {
			l, _ := w.r.Line(n)
			v, ok := setUsage(l.Value, w.usage, i == 0)
			if !ok {
				w.notes = append(w.notes, fmt.Sprintf("line %d (%s) does not parse and expresses nothing: %s", n, strings.TrimSpace(l.Text),
					pick(i == 0, "rewritten", "left as it is")))
			}
			if v != l.Value {
				w.ed.repl[n] = replaceValue(w.ed.text[n], l, v)
			}
		}
		for _, n := range sitePaths {
			l, _ := w.r.Line(n)
			_, st := splitPathValue(l.Value)
			nst, ok := setUsage(st, w.usage, true)
			if !ok {
				w.notes = append(w.notes, fmt.Sprintf("line %d (%s) does not parse and, for every path, beat the policy's line: its statement rewritten", n, strings.TrimSpace(l.Text)))
			}
			if nst != st {
				v := strings.TrimRight(strings.TrimSuffix(l.Value, st), " \t") + " " + nst
				if strings.HasSuffix(l.Value, st) && st != "" {
					v = strings.TrimSuffix(l.Value, st) + nst
				}
				w.ed.repl[n] = replaceValue(w.ed.text[n], l, v)
			}
		}
	}
	if len(w.signal) > 0 {
		if len(signal) == 0 {
			add = append(add, "Content-Signal: "+joinKeys(w.signal))
		} else {
			// The first line counts; lint reports the others.
			l, _ := w.r.Line(signal[0])
			if v := setSignal(l.Value, w.signal); v != l.Value {
				w.ed.repl[signal[0]] = replaceValue(w.ed.text[signal[0]], l, v)
			}
		}
	}
	return add
}

// pathContradicts reports whether a path-scoped Content-Usage value states
// for one of the policy's keys another preference than the policy's.
func (w *policyWriter) pathContradicts(v string) bool {
	_, st := splitPathValue(v)
	prefs, ok := robotstxt.ParseUsagePreference(st)
	if !ok {
		return false
	}
	for _, k := range w.usage {
		for _, p := range prefs {
			if p.Key == k.key && p.Pref != robotstxt.PrefUnknown && p.Pref.String() != k.value {
				return true
			}
		}
	}
	return false
}

// verifyStances asks r whether each crawler may fetch "/" as its stance
// says, and returns a note for each that may not: the merge failed for it.
func verifyStances(r *robotstxt.Robots, stances []policyStance) []string {
	var notes []string
	for i := range stances {
		s := &stances[i]
		d := r.Decide(s.query("/"))
		if d.Allowed != s.allow {
			notes = append(notes, fmt.Sprintf("%s: the new file does not follow the stance (%s at /: %s)", s.c.Name, pick(d.Allowed, "allowed", "blocked"), d.Reason))
		}
	}
	return notes
}
