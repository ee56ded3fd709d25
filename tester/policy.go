package tester

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// The policy writer: stances towards crawlers ("no AI training, keep
// search, allow user-triggered fetches"), per purpose of the catalogue or
// per crawler, made into robots.txt lines and merged into a file.
//
// A denied crawler gets a group of its own with "Disallow: /": one group
// names every denied crawler, in the place of the first group that named
// one of them (existing groups of denied crawlers are replaced; a group
// that also names others keeps them and loses only the denied crawlers'
// user-agent lines). An allowed crawler keeps the rules it has unless they
// close the site to it: a crawler blocked at "/" by a group that names it
// leaves that group, and a crawler still blocked at "/" (by the * group,
// or by a fallback's group) gets a group with "Allow: /". The stances on
// ai-training, search and ai-search become Content-Usage (train-ai,
// search) and Content-Signal (ai-train, search, ai-input) lines of every *
// group, of the groups allowed crawlers read (each in its own reading, the
// groups compared by line numbers through Robots.GroupOf), which do not
// read the * group's, and of the crawlers that never read the * group
// (their groups, or one of their own): an existing unpathed line (or one
// whose path every URL has) is amended key by key, a missing one added
// after the group's last line, before a blank line that would end the
// group in Baidu's reading. Every other line is kept byte for byte,
// comments too. Applying the same policy to its own result changes
// nothing (TestPolicyProperties).

// PolicyRequest asks for the lines that state stances towards crawlers,
// merged into a robots.txt file.
type PolicyRequest struct {
	// Source is the file to merge into; nil, or a fetch that gave no
	// rules (a 404), starts from an empty file named "robots.txt".
	Source *Source
	// Deny and Allow are purposes of the catalogue: their crawlers are
	// denied or allowed. A crawler with a denied purpose and an allowed
	// one is denied (a note names it).
	Deny, Allow robotstxt.Purpose
	// DenyCrawlers and AllowCrawlers are crawlers named one by one (names
	// from the catalogue, or product tokens it does not know); they win
	// over the purposes.
	DenyCrawlers, AllowCrawlers []string
}

// PolicyReport is the answer of Policy: the file with the policy merged
// in, the unified diff from the old file, and the verdicts that change.
// Its JSON form is what "robotstxt policy --json" prints (docs/ai.md
// documents it).
type PolicyReport struct {
	File  string     `json:"file"`
	Fetch *FetchInfo `json:"fetch,omitempty"`
	Notes []string   `json:"notes,omitempty"`
	// Deny and Allow are the purposes' names, in the catalogue's order.
	Deny  []string `json:"deny"`
	Allow []string `json:"allow"`
	// Crawlers are the crawlers the stances concern, in the catalogue's
	// order, then the tokens it does not know.
	Crawlers []PolicyCrawler `json:"crawlers"`
	// ContentUsage and ContentSignal are the preferences the * group
	// states once the policy is merged ("train-ai=n, search=y"); ""
	// when the stances name none of their uses.
	ContentUsage  string `json:"content_usage"`
	ContentSignal string `json:"content_signal"`
	// Changed says whether the file changes.
	Changed bool `json:"changed"`
	// Body is the new file. (JSON holds it as a string: bytes that are
	// not UTF-8 are replaced there.)
	Body string `json:"body"`
	// Diff is the unified diff from the old file to Body; "" when
	// nothing changes.
	Diff string `json:"diff"`
	// Verdicts are the (crawler, URL) verdicts that change, for "*" and
	// every crawler of Crawlers, on URLs derived from both files' rules.
	Verdicts *DiffReport `json:"verdicts"`
}

// PolicyCrawler is one crawler and its stance.
type PolicyCrawler struct {
	Name     string   `json:"name"`
	Token    string   `json:"token"` // what its user-agent line says
	Purposes []string `json:"purposes"`
	Known    bool     `json:"known"` // in the catalogue
	Allow    bool     `json:"allow"`
	// By is why: the purpose that gave the stance, or "crawler" when
	// it was named.
	By string `json:"by"`
}

// policyStance is one crawler's stance.
type policyStance struct {
	c     robotstxt.Crawler
	known bool
	allow bool
	by    string
}

// Policy merges the stances of req into its file. Its error, for bad
// input, is an *Error naming the field at fault: "stances" (none given, or
// a purpose both denied and allowed), "crawlers" (a name that is neither
// a known crawler nor a product token, or one both denied and allowed),
// "robots" (a file over the size limit, which cannot be rewritten whole).
func Policy(req *PolicyRequest) (*PolicyReport, error) {
	stances, notes, err := policyStances(req)
	if err != nil {
		return nil, err
	}
	src := req.Source
	if src == nil {
		src = NewSource("robots.txt", nil)
	}
	if src.Truncated() {
		return nil, &Error{Field: "robots", Msg: fmt.Sprintf("the file is over %d bytes: crawlers read only the start of it, and the policy cannot rewrite what was not read", robotstxt.DefaultMaxBytes)}
	}
	rep := &PolicyReport{File: src.Name, Fetch: src.Fetched, Deny: req.Deny.Names(), Allow: req.Allow.Names(), Crawlers: []PolicyCrawler{}}
	body := string(src.Body)
	r := src.Robots
	if src.Policy() != "rules" {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the site's robots.txt gives no rules (%s): the policy starts from an empty file", src.Fetched.Reason))
		body, r = "", robotstxt.ParseString("")
	}
	rep.Notes = append(rep.Notes, notes...)
	for _, s := range stances {
		rep.Crawlers = append(rep.Crawlers, PolicyCrawler{Name: s.c.Name, Token: s.c.Token, Purposes: s.c.Purposes.Names(), Known: s.known, Allow: s.allow, By: s.by})
	}
	w := &policyWriter{r: r, ed: newEditor(r, body), stances: stances, usage: usageKeys(req), signal: signalKeys(req)}
	w.write()
	rep.Notes = append(rep.Notes, w.notes...)
	newBody := w.ed.render()
	rep.Body = newBody
	rep.Changed = newBody != body
	rep.ContentUsage, rep.ContentSignal = w.starStatements(robotstxt.ParseString(newBody))
	if rep.Changed {
		rep.Diff = w.ed.unified(src.Name)
	}
	rep.Notes = append(rep.Notes, verifyStances(robotstxt.ParseString(newBody), stances)...)
	// The verdicts that change, for * and the crawlers of the stances.
	old := src
	if src.Policy() != "rules" {
		old = NewSource(src.Name, nil)
	}
	subs := Subjects{Crawlers: []string{"*"}}
	for _, s := range stances {
		if s.known {
			subs.Crawlers = append(subs.Crawlers, s.c.Name)
		} else {
			subs.Agents = append(subs.Agents, s.c.Token)
		}
	}
	rep.Verdicts, err = Diff(&DiffRequest{Old: old, New: NewSource(src.Name, []byte(newBody)), Subjects: subs})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// policyStances resolves the stances of req, crawler by crawler, in the
// catalogue's order, then the tokens it does not know; notes say which
// crawlers had a denied and an allowed purpose, and which denied ones may
// not obey.
func policyStances(req *PolicyRequest) ([]policyStance, []string, error) {
	if both := req.Deny & req.Allow; both != 0 {
		return nil, nil, &Error{Field: "stances", Value: both.String(), Msg: fmt.Sprintf("%s is both denied and allowed", both)}
	}
	if req.Deny|req.Allow == 0 && len(req.DenyCrawlers)+len(req.AllowCrawlers) == 0 {
		return nil, nil, &Error{Field: "stances", Msg: "no stance: deny or allow a purpose or a crawler"}
	}
	named := map[string]bool{} // lower-case name: allow
	var custom []policyStance
	for _, list := range []struct {
		names []string
		allow bool
	}{{req.DenyCrawlers, false}, {req.AllowCrawlers, true}} {
		for i, n := range list.names {
			n = strings.TrimSpace(n)
			c, ok := robotstxt.LookupCrawler(n)
			if !ok {
				if !robotstxt.ValidToken(n) {
					return nil, nil, &Error{Field: "crawlers", Index: i, Value: n, Msg: fmt.Sprintf("unknown crawler %q, and not a product token (letters, '-' and '_')", n)}
				}
				c = robotstxt.Crawler{Name: n, Token: n, Dialect: robotstxt.Google}
			}
			key := strings.ToLower(c.Name)
			if prev, seen := named[key]; seen {
				if prev != list.allow {
					return nil, nil, &Error{Field: "crawlers", Index: i, Value: n, Msg: fmt.Sprintf("%s is both denied and allowed", c.Name)}
				}
				continue
			}
			named[key] = list.allow
			if !ok {
				custom = append(custom, policyStance{c: c, allow: list.allow, by: "crawler"})
			}
		}
	}
	var out []policyStance
	var mixed, unruly, spaced []string
	for _, c := range robotstxt.Crawlers() {
		s := policyStance{c: c, known: true}
		if allow, ok := named[strings.ToLower(c.Name)]; ok {
			s.allow, s.by = allow, "crawler"
		} else if d := c.Purposes & req.Deny; d != 0 {
			s.by = d.Names()[0]
			if c.Purposes.Any(req.Allow) {
				mixed = append(mixed, c.Name)
			}
		} else if a := c.Purposes & req.Allow; a != 0 {
			s.allow, s.by = true, a.Names()[0]
		} else {
			continue
		}
		if strings.ContainsAny(c.Token, " \t") {
			// Google's reading takes the first word of "Kangaroo Bot"
			// for the token: the line would name another crawler.
			spaced = append(spaced, c.Name)
			continue
		}
		if !s.allow && c.ObeysRobots != robotstxt.ObeysYes && c.ObeysRobots != robotstxt.ObeysUnknown {
			unruly = append(unruly, c.Name)
		}
		out = append(out, s)
	}
	var notes []string
	if len(mixed) > 0 {
		notes = append(notes, fmt.Sprintf("%s %s for a denied purpose and an allowed one: denied (--allow-crawler NAME allows one)",
			listNames(mixed, 8), pick(len(mixed) == 1, "fetches", "fetch")))
	}
	if len(unruly) > 0 {
		notes = append(notes, fmt.Sprintf("%d of the denied crawlers may not obey these lines (their operators say they ignore robots.txt, or some of it, such as fetches a person asks for): %s",
			len(unruly), listNames(unruly, 8)))
	}
	if len(spaced) > 0 {
		notes = append(notes, fmt.Sprintf("%s: %s a space, and crawlers read a user-agent line only up to it (\"Kangaroo Bot\" names Kangaroo), so no line names %s; not written",
			listNames(spaced, 8), pick(len(spaced) == 1, "its name holds", "their names hold"), pick(len(spaced) == 1, "it", "them")))
	}
	for _, s := range custom {
		notes = append(notes, fmt.Sprintf("%s is not in the catalogue: its user-agent line names the token as given", s.c.Token))
	}
	return append(out, custom...), notes, nil
}

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

// starStatements returns what the * group of r states for the policy's
// keys at "/" (whatever it allows), as the core decides it
// (Decider.Preferences: the Content-Usage rules that apply, combined; the
// first Content-Signal line); "" when the policy names none of their
// keys.
func (w *policyWriter) starStatements(r *robotstxt.Robots) (usage, signal string) {
	// What the * group says at "/", as the core reads it for any crawler
	// no group names (the AI report asks the same decider), whether or
	// not that crawler may fetch "/".
	prefs, sig := r.Decider(robotstxt.Query{Agents: []string{probeToken}, Dialect: robotstxt.Google}).Preferences("/")
	var us, ss []prefKey
	for _, k := range w.usage {
		us = append(us, prefKey{k.key, prefs.Get(k.key).String()})
	}
	for _, k := range w.signal {
		v := map[string]robotstxt.Signal{"search": sig.Search, "ai-input": sig.AIInput, "ai-train": sig.AITrain}[k.key]
		word := v.String()
		if word == "" {
			word = "unset"
		}
		ss = append(ss, prefKey{k.key, word})
	}
	return joinKeys(us), joinKeys(ss)
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
