package tester

import (
	"fmt"
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
