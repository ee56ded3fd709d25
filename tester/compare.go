package tester

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// defaultCrawlers are the rows of a comparison (and of a diff) when none
// are named, before the crawlers the file names.
var defaultCrawlers = []string{"Googlebot", "Googlebot-Image", "AdsBot-Google", "Bingbot", "YandexBot", "Baiduspider", "GPTBot", "CCBot"}

// DefaultCrawlers returns the names of the crawlers compare and diff ask
// about when none are named (before the crawlers the files name).
func DefaultCrawlers() []string { return append([]string{}, defaultCrawlers...) }

// CompareRequest asks how crawlers and their dialects read one robots.txt,
// URL by URL.
type CompareRequest struct {
	Source *Source
	// URLs are absolute URLs or paths; none: derived from the file's
	// rules, "/" and one URL per rule, Probe of them in all.
	URLs []string
	// Probe is how many URLs to derive when URLs is empty: 0 means
	// MaxDerivedURLs; at most MaxProbeURLs.
	Probe int
	// Subjects are the rows, where the crawler "*" is any crawler no
	// group names; none: "*", DefaultCrawlers and every crawler the file
	// names (at most MaxFileRows of those).
	Subjects
	// Dialects are the readings whose disagreement a cell marks and a
	// footnote explains, and whose verdicts each cell holds; none:
	// robotstxt.DefaultDialects, every dialect but the original draft
	// (Dialects(false)).
	Dialects []robotstxt.Dialect
}

// Comparison is the answer to a CompareRequest: a row per subject, a cell
// per URL, and one footnote per cause of disagreement. Its JSON form is
// what "robotstxt compare --json" prints.
type Comparison struct {
	File  string     `json:"file"`
	Fetch *FetchInfo `json:"fetch,omitempty"` // with -u
	URLs  []string   `json:"urls"`
	// Dialects are the dialects compared (CompareRequest.Dialects): each
	// cell holds their verdicts, and marks where they disagree.
	Dialects []string `json:"dialects"`
	// RulesProbed and Rules are set when the URLs were derived: how many
	// of the file's rules that can match (allow and disallow rules whose
	// pattern starts with / or *) the URLs probe, of how many. Fewer
	// probed than there are: ask for more (CompareRequest.Probe), or
	// give the URLs.
	RulesProbed   int            `json:"rules_probed,omitempty"`
	Rules         int            `json:"rules,omitempty"`
	Notes         []string       `json:"notes,omitempty"`
	Rows          []CompareRow   `json:"rows"`
	Disagreements []Disagreement `json:"disagreements"`
}

// CompareRow is one subject of a comparison: its cells, URL by URL.
type CompareRow struct {
	Crawler string   `json:"crawler"`
	Token   string   `json:"token"`
	Agents  []string `json:"agents,omitempty"` // with -a or --agents: the tokens asked about
	Dialect string   `json:"dialect"`
	Known   bool     `json:"known"`
	// Line is the user-agent line that put the row in the default set,
	// for a crawler the file names; 0 for the others.
	Line  int           `json:"line,omitempty"`
	Cells []CompareCell `json:"cells"`
}

// CompareCell is one URL for one subject: the verdict in the subject's own
// dialect (and fetch policy), and each dialect's.
type CompareCell struct {
	URL      string                    `json:"url"`
	Allowed  bool                      `json:"allowed"`
	Line     int                       `json:"line"`
	Rule     string                    `json:"rule"`
	Group    string                    `json:"group"`
	Disagree bool                      `json:"disagree"`
	Note     int                       `json:"note,omitempty"`
	Dialects map[string]DialectVerdict `json:"dialects"`
}

// DialectVerdict is one dialect's answer in a cell.
type DialectVerdict struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	// Policy is set when the dialect's fetch policy, not rules, decided
	// (-u): "allow-all" or "disallow-all".
	Policy string `json:"policy,omitempty"`
}

// Disagreement is one footnote: a cause of disagreement between the
// dialects, and every cell it explains.
type Disagreement struct {
	Note        int       `json:"note"`
	Explanation string    `json:"explanation"`
	Cells       []CellRef `json:"cells"`
}

// CellRef names a cell of the table: its row's crawler and its URL.
type CellRef struct {
	Crawler string `json:"crawler"`
	URL     string `json:"url"`
}

// MaxFileRows bounds the rows compare adds for the crawlers a file
// names, so that a file of thousands of user-agent lines stays a table; a
// note says how many were left out.
const MaxFileRows = 32

// MaxDerivedURLs is how many URLs Compare derives from a file's rules when
// given none ("/" first), unless CompareRequest.Probe asks for another
// number.
const MaxDerivedURLs = 12

// MaxProbeURLs bounds CompareRequest.Probe: a table of that many columns
// is already more than anyone reads, and the work is rows times URLs
// times six dialects.
const MaxProbeURLs = 1000

// Compare answers req. Its error, for bad input, is an *Error naming the
// field at fault.
func Compare(req *CompareRequest) (*Comparison, error) {
	f := req.Source
	if f == nil {
		return nil, &Error{Field: "robots", Msg: "no robots.txt to compare"}
	}
	if err := checkURLs(req.URLs); err != nil {
		return nil, err
	}
	probe := req.Probe
	switch {
	case probe == 0:
		probe = MaxDerivedURLs
	case probe < 1 || probe > MaxProbeURLs:
		return nil, &Error{Field: "probe", Value: fmt.Sprint(req.Probe), Msg: fmt.Sprintf("probe %d: derive from 1 to %d URLs", req.Probe, MaxProbeURLs)}
	}
	subjects, left, err := compareSubjects(f.Robots, &req.Subjects, MaxFileRows)
	if err != nil {
		return nil, err
	}
	dialects := req.Dialects
	if len(dialects) == 0 {
		dialects = Dialects(false)
	}
	ds := slices.Clone(dialects)
	for i := range subjects {
		q := subjects[i].query("/", robotstxt.DefaultDialect)
		ds = append(ds, q.ReadsIn())
	}
	cmp := &Comparison{File: f.Name, Fetch: f.Fetched, Notes: f.fetchNotes(ds...)}
	for _, d := range dialects {
		cmp.Dialects = append(cmp.Dialects, d.String())
	}
	if left > 0 {
		cmp.Notes = append(cmp.Notes, fmt.Sprintf("the file names %d more %s than the table shows (at most %d rows come from the file): pick them with -c or -a", left, plural(left, "crawler"), MaxFileRows))
	}
	cmp.Notes = append(cmp.Notes, f.fileNotes()...)
	if f.Policy() != "rules" && !f.mixed(ds) {
		// No rules: every crawler gets the policy's answer for every
		// URL, and there is no reading of rules to compare.
		cmp.Notes = append(cmp.Notes, "nothing to compare: the dialects read rules differently, but no rules apply")
		cmp.URLs, cmp.Rows, cmp.Disagreements = []string{}, []CompareRow{}, []Disagreement{}
		return cmp, nil
	}
	urls := req.URLs
	if len(urls) == 0 {
		urls, cmp.RulesProbed, cmp.Rules = deriveURLs(f.Robots, probe)
		switch {
		case cmp.Rules == 0:
			cmp.Notes = append(cmp.Notes, "no URL given, and no rule that can match to derive one from: only / is asked about")
		case cmp.RulesProbed == cmp.Rules:
			cmp.Notes = append(cmp.Notes, fmt.Sprintf("URLs derived from the file's rules (/ and one per pattern): all %d %s probed", cmp.Rules, plural(cmp.Rules, "rule")))
		default:
			cmp.Notes = append(cmp.Notes, fmt.Sprintf("URLs derived from the file's rules (/ and one per pattern): %d of %d %s probed, the first in file order", cmp.RulesProbed, cmp.Rules, plural(cmp.Rules, "rule")))
		}
	}
	for _, u := range urls {
		n := robotstxt.NormalizeURL(u)
		if n != u {
			cmp.Notes = append(cmp.Notes, fmt.Sprintf("%s normalised to %s", u, n))
		}
		cmp.URLs = append(cmp.URLs, n)
	}
	compare(f, subjects, dialects, cmp)
	return cmp, nil
}

// compareSubjects returns the rows named in subs, or, with none named,
// the default set plus the crawlers the file names, at most max of those;
// left counts the ones left out.
func compareSubjects(r *robotstxt.Robots, subs *Subjects, max int) (out []subject, left int, err error) {
	if !subs.empty() {
		out, err := subs.resolveWithStar()
		return out, 0, err
	}
	crawlers, lines, left := pickCrawlers(max, r)
	out = []subject{starSubject()}
	for i := range crawlers {
		out = append(out, subject{label: crawlers[i].Name, crawler: &crawlers[i], line: lines[i]})
	}
	return out, left, nil
}

// pickCrawlers returns the default set plus the crawlers the files name,
// at most max of those, each with the user-agent line that names it (0 for
// the default set); left counts the named crawlers left out.
func pickCrawlers(max int, files ...*robotstxt.Robots) (out []robotstxt.Crawler, lines []int, left int) {
	seen := map[string]bool{}
	add := func(c robotstxt.Crawler, line int) {
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			if line > 0 && len(out) >= len(defaultCrawlers)+max {
				left++
				return
			}
			out = append(out, c)
			lines = append(lines, line)
		}
	}
	for _, n := range defaultCrawlers {
		c, _ := robotstxt.LookupCrawler(n)
		add(c, 0)
	}
	for _, r := range files {
		for _, g := range r.Groups() {
			for _, a := range g.Agents {
				if a.Global || a.Value == "" {
					continue
				}
				if c, ok := robotstxt.CrawlerNamed(a.Value); ok {
					add(c, a.Line)
				} else if a.Token != "" {
					add(robotstxt.Crawler{Name: a.Token, Token: a.Token, Dialect: robotstxt.Google}, a.Line)
				}
			}
		}
	}
	return out, lines, left
}

// deriveURLs makes one URL path from each rule of the file ('*' becomes
// "x", a final '$' is dropped), "/" first, at most max. It counts the
// rules that can match (a pattern starting with / or *) and those the
// URLs probe: the rules whose path is among them.
func deriveURLs(r *robotstxt.Robots, max int) (urls []string, probed, rules int) {
	urls = []string{"/"}
	seen := map[string]bool{"/": true}
	for _, g := range r.Groups() {
		for _, ru := range g.Rules {
			p := ru.Value
			if p == "" || p[0] != '/' && p[0] != '*' {
				continue
			}
			rules++
			p = strings.TrimSuffix(p, "$")
			p = strings.ReplaceAll(p, "*", "x")
			if p[0] != '/' {
				p = "/" + p
			}
			if !seen[p] && len(urls) < max {
				seen[p] = true
				urls = append(urls, p)
			}
			if seen[p] {
				probed++
			}
		}
	}
	return urls, probed, rules
}

// compare fills the table: a row per subject, a cell per URL, each cell as
// the subject's own engine answers (its dialect, and with -u its fetch
// policy), each dialect's answer to mark where they disagree, and one
// footnote per distinct explanation, listing the cells it explains.
func compare(f *Source, subjects []subject, dialects []robotstxt.Dialect, cmp *Comparison) {
	notes := map[string]int{} // explanation -> index in cmp.Disagreements
	for i := range subjects {
		s := &subjects[i]
		row := CompareRow{Crawler: s.label, Agents: s.agents, Line: s.line}
		if c := s.crawler; c != nil && c.Token == probeToken {
			row.Token = "*"
		} else if c != nil {
			_, isKnown := robotstxt.LookupCrawler(c.Name)
			row.Token, row.Known = c.Token, isKnown
		} else {
			row.Token = strings.Join(s.agents, ",")
		}
		for _, u := range cmp.URLs {
			q := s.query(u, robotstxt.DefaultDialect)
			own := f.Answer(q.ReadsIn()).Decide(q)
			row.Dialect = own.Dialect.String()
			cell := CompareCell{URL: u, Allowed: own.Allowed, Line: own.Line(), Group: groupReason(&own), Dialects: map[string]DialectVerdict{}}
			if own.HasRule() {
				cell.Rule = own.Rule.Text
			}
			compared := map[string]DialectVerdict{}
			for _, d := range dialects {
				a := f.Answer(d)
				dec := a.Decide(s.query(u, d))
				v := DialectVerdict{Allowed: dec.Allowed, Line: dec.Line()}
				if a.Policy != fetch.Rules {
					v.Policy = a.Policy.String()
				}
				if dec.HasRule() {
					v.Rule = dec.Rule.Text
				}
				cell.Dialects[d.String()] = v
				compared[d.String()] = v
				if dec.Allowed != own.Allowed {
					cell.Disagree = true
				}
			}
			if cell.Disagree {
				why := explainDisagreement(compared)
				k, ok := notes[why]
				if !ok {
					k = len(cmp.Disagreements)
					notes[why] = k
					cmp.Disagreements = append(cmp.Disagreements, Disagreement{Note: k + 1, Explanation: why})
				}
				cell.Note = k + 1
				cmp.Disagreements[k].Cells = append(cmp.Disagreements[k].Cells, CellRef{Crawler: s.label, URL: u})
			}
			row.Cells = append(row.Cells, cell)
		}
		if row.Dialect == "" {
			q := s.query("/", robotstxt.DefaultDialect)
			row.Dialect = q.ReadsIn().String()
		}
		cmp.Rows = append(cmp.Rows, row)
	}
}

// explainDisagreement says which dialects allow and which block, by which
// lines, and what in the odd dialects' reading makes the difference. vs
// holds the dialects compared.
func explainDisagreement(vs map[string]DialectVerdict) string {
	var parts []string
	google := vs[robotstxt.Google.String()].Allowed
	var odd []robotstxt.Dialect
	for _, allowed := range []bool{true, false} {
		var groups []string
		byLine := map[int][]string{}
		var lines []int
		for _, d := range robotstxt.Dialects() {
			v, ok := vs[d.String()]
			if !ok || v.Allowed != allowed {
				continue
			}
			if v.Allowed != google {
				odd = append(odd, d)
			}
			key := v.Line // a fetch policy's verdicts apart: keys -1, -2
			switch v.Policy {
			case "allow-all":
				key = -1
			case "disallow-all":
				key = -2
			}
			if _, ok := byLine[key]; !ok {
				lines = append(lines, key)
			}
			byLine[key] = append(byLine[key], d.String())
		}
		for _, l := range lines {
			who := strings.Join(byLine[l], ", ")
			if p := vs[byLine[l][0]].Policy; l < 0 {
				groups = append(groups, who+" (fetch policy: "+strings.ReplaceAll(p, "-", " ")+")")
			} else if l == 0 {
				groups = append(groups, who+" (no rule matches)")
			} else {
				groups = append(groups, fmt.Sprintf("%s (line %d %q)", who, l, vs[byLine[l][0]].Rule))
			}
		}
		if len(groups) == 0 {
			continue
		}
		verb := "allowed by "
		if !allowed {
			verb = "blocked by "
		}
		parts = append(parts, verb+strings.Join(groups, " and "))
	}
	out := strings.Join(parts, "; ")
	for _, d := range odd {
		if vs[d.String()].Policy != "" {
			continue // its fetch policy decided, not its reading
		}
		if hint := dialectHints[d]; hint != "" {
			out += "; " + hint
		}
	}
	return out
}

// dialectHints say what, in a dialect's reading, usually makes it differ.
var dialectHints = map[robotstxt.Dialect]string{
	robotstxt.Original: "the original draft takes the first matching rule in file order and has no wildcards",
	robotstxt.Baidu:    "Baidu takes the first matching rule in file order",
	robotstxt.RFC9309:  "RFC 9309 reads keys exactly, needs the colon and compares URLs percent-decoded",
	robotstxt.Yandex:   "Yandex has no index.htm rule",
}
