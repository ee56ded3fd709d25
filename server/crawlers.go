package server

import (
	"net/http"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// CrawlerInfo is one crawler of the table, as GET /v1/crawlers lists it:
// what a request naming it needs (token, fallbacks, dialect), and its
// catalogue entry (docs/crawlers.md): purposes, documentation, whether its
// operator says it obeys robots.txt, how to verify its visits, and the
// source of these facts. Lists are never null.
type CrawlerInfo struct {
	Name          string   `json:"name"`
	Token         string   `json:"token"`
	Fallbacks     []string `json:"fallbacks"`
	IgnoresGlobal bool     `json:"ignores_global"`
	Dialect       string   `json:"dialect"`
	Operator      string   `json:"operator"`
	Purpose       string   `json:"purpose"`
	Control       bool     `json:"control"`
	Aliases       []string `json:"aliases"`

	IgnoresCrawlDelay bool `json:"ignores_crawl_delay"`
	// Purposes are the names of its purposes (robotstxt.Purpose).
	Purposes []string `json:"purposes"`
	Docs     string   `json:"docs"`
	// ObeysRobots is "yes", "no", "partly" or "unknown".
	ObeysRobots string   `json:"obeys_robots"`
	RobotsNote  string   `json:"robots_note"`
	IPRanges    []string `json:"ip_ranges"`
	ReverseDNS  []string `json:"reverse_dns"`
	Source      string   `json:"source"`
	Checked     string   `json:"checked"`
	// Behaviours are the names of its behaviour classes
	// (robotstxt.Behaviour); Access is "direct", "intermediary" or
	// "unknown".
	Behaviours      []string `json:"behaviours"`
	Access          string   `json:"access"`
	BehaviourSource string   `json:"behaviour_source"`
	BehaviourNote   string   `json:"behaviour_note"`
}

// CrawlersAnswer is the answer of GET /v1/crawlers.
type CrawlersAnswer struct {
	// Crawlers is the table (robotstxt.Crawlers), in its order, or the
	// crawlers the purpose and operator parameters keep.
	Crawlers []CrawlerInfo `json:"crawlers"`
	// Defaults are the crawlers compare and diff ask about when a request
	// names none.
	Defaults []string `json:"defaults"`
	// Dialects are the dialects a request may name.
	Dialects []string `json:"dialects"`
	// DefaultDialects are those lint and compare report on unless asked
	// for original too (robotstxt.DefaultDialects): the page's Lint and
	// Dialects tabs say them.
	DefaultDialects []string `json:"default_dialects"`
	// Purposes are the purposes' names, for the purpose parameter.
	Purposes []string `json:"purposes"`
}

// NewCrawlerInfo is c as GET /v1/crawlers and robotstxt crawlers --json
// list it.
func NewCrawlerInfo(c *robotstxt.Crawler) CrawlerInfo {
	return CrawlerInfo{
		Name: c.Name, Token: c.Token, Fallbacks: nonNil(c.Fallbacks), IgnoresGlobal: c.IgnoresGlobal,
		Dialect: c.Dialect.String(), Operator: c.Operator, Purpose: c.Purpose, Control: c.Control,
		Aliases: nonNil(c.Aliases), IgnoresCrawlDelay: c.IgnoresCrawlDelay, Purposes: c.Purposes.Names(),
		Docs: c.Docs, ObeysRobots: c.ObeysRobots.String(), RobotsNote: c.RobotsNote,
		IPRanges: nonNil(c.IPRanges), ReverseDNS: nonNil(c.ReverseDNS), Source: c.Source, Checked: c.Checked,
		Behaviours: c.Behaviours.Names(), Access: c.Access.String(), BehaviourSource: c.BehaviourSource, BehaviourNote: c.BehaviourNote,
	}
}

// handleCrawlers answers GET /v1/crawlers: the table, or with purpose
// (names separated by commas, or the parameter repeated) the crawlers that
// fetch for any of those purposes, and with operator those whose
// operator's name holds one of the names given, ignoring case.
func (s *Server) handleCrawlers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	for k := range q {
		if k != "purpose" && k != "operator" {
			return badField(k, "unknown parameter (want purpose, operator)")
		}
	}
	var want robotstxt.Purpose
	for _, v := range q["purpose"] {
		p, err := robotstxt.ParsePurpose(v)
		if err != nil {
			return badField("purpose", "%s", strings.TrimPrefix(err.Error(), "robotstxt: "))
		}
		if p == 0 {
			return badField("purpose", "no purpose given")
		}
		want |= p
	}
	var ops []string
	for _, v := range q["operator"] {
		for _, o := range strings.Split(v, ",") {
			if o = strings.TrimSpace(o); o != "" {
				ops = append(ops, strings.ToLower(o))
			}
		}
	}
	if q.Has("operator") && len(ops) == 0 {
		return badField("operator", "no operator given")
	}

	out := CrawlersAnswer{Crawlers: []CrawlerInfo{}, Defaults: tester.DefaultCrawlers()}
	for _, c := range robotstxt.CrawlersByPurpose(want) {
		if len(ops) > 0 && !holdsAny(strings.ToLower(c.Operator), ops) {
			continue
		}
		out.Crawlers = append(out.Crawlers, NewCrawlerInfo(&c))
	}
	for _, d := range robotstxt.Dialects() {
		out.Dialects = append(out.Dialects, d.String())
	}
	for _, d := range robotstxt.DefaultDialects() {
		out.DefaultDialects = append(out.DefaultDialects, d.String())
	}
	for _, p := range robotstxt.AllPurposes() {
		out.Purposes = append(out.Purposes, p.String())
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// holdsAny reports whether s holds one of subs.
func holdsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
