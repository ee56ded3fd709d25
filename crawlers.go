package robotstxt

import "strings"

// Crawler describes a known crawler: the product token it looks for in
// user-agent lines, the tokens it falls back to when no group names it, whether
// it obeys the '*' group at all, and which dialect its engine reads robots.txt
// in. These are properties of a crawler, not of a token: they apply when a
// question names a crawler ([Query].Crawler), never when it names tokens.
//
// A crawler also carries a catalogue entry: what it fetches for
// (Purposes), where its operator documents it (Docs), whether the operator
// says it obeys robots.txt (ObeysRobots), and how to tell a request really
// comes from it (IPRanges, ReverseDNS), with the source of these facts and
// the day they were checked (docs/crawlers.md lists the table and its
// sources).
type Crawler struct {
	Name      string   // the crawler's usual name, e.g. "Googlebot-Image"
	Token     string   // the product token it obeys first
	Fallbacks []string // tokens obeyed, in order, when no group names Token
	// IgnoresGlobal is set for crawlers that obey only groups naming them
	// and never the '*' group (Google's AdsBot crawlers, for example).
	IgnoresGlobal bool
	Dialect       Dialect // its engine's reading of robots.txt
	Operator      string  // who runs it; "" when no source says
	// Purpose says in a few words what it fetches for ("image search");
	// Purposes is the same as a set of the fixed purposes.
	Purpose string
	// Control is set for tokens that crawlers of the operator obey for a
	// use of the content but that fetch nothing themselves (Google-Extended).
	// Their Purposes hold PurposeTokenOnly.
	Control bool
	// IgnoresCrawlDelay is set for crawlers whose engine ignores
	// crawl-delay and request-rate (Google's; Yandex's, which stopped
	// obeying it in 2018; Baidu's, which never read it); the polite client
	// does not pace them by it, check shows none, lint warns of the line,
	// and Robots.CrawlDelay says so (Pace.Ignored). Query.HonoursCrawlDelay
	// is the one answer all of them ask.
	IgnoresCrawlDelay bool
	// Aliases are other names it is known by: LookupCrawler finds it by
	// them, and a user-agent line naming one of them names the crawler
	// ("User-agent: Yahoo! Slurp" is a group for Slurp).
	Aliases []string

	// Purposes is the set of uses it fetches for, as its operator (or, for
	// operators who say nothing, Source) describes them. It is empty when
	// no source says.
	Purposes Purpose
	// Docs is the operator's page about the crawler, "" when there is none.
	Docs string
	// ObeysRobots says whether the operator says it obeys robots.txt;
	// RobotsNote qualifies it: which rules it ignores, or that the
	// statement is a third party's report rather than the operator's.
	ObeysRobots Obeys
	RobotsNote  string
	// IPRanges are the URLs of JSON documents in which the operator
	// publishes the addresses it fetches from (Google's, Bing's and
	// OpenAI's, for example: {"prefixes": [{"ipv4Prefix": ...}]}).
	IPRanges []string
	// ReverseDNS are the domains the reverse DNS names of its addresses
	// end in ("googlebot.com"): a request comes from the crawler when the
	// name of its address is in one of these domains and that name
	// resolves back to the address (forward-confirmed reverse DNS).
	ReverseDNS []string
	// Source is where the catalogue facts come from (a URL); Checked is
	// the day (YYYY-MM-DD) they were last compared with it.
	Source  string
	Checked string

	// Behaviours are the behaviour classes an edge operator places it in
	// (Cloudflare's 2026 taxonomy: search, agent, training, ...); empty
	// when unclassified, and BehaviourNote then says why. Access says
	// whether its operator runs it for itself (AccessDirect) or on behalf
	// of many customers or end users who each start what it fetches
	// (AccessIntermediary).
	Behaviours Behaviour
	Access     Access
	// BehaviourSource is where Behaviours and Access come from (a URL:
	// Cloudflare's classification when Cloudflare names the crawler, else
	// the operator's page the Purposes come from, read through
	// Purpose.Behaviours); BehaviourNote says how they were decided, or
	// why the crawler is unclassified. They were compared on Checked.
	BehaviourSource string
	BehaviourNote   string
}

// Query returns the question "may this crawler fetch url?", in its own
// dialect, for [Robots.Decide] or [Robots.Decider]:
//
//	c, _ := robotstxt.LookupCrawler("bingbot")
//	dec := r.Decide(c.Query("https://example.com/a"))
func (c Crawler) Query(url string) Query { return Query{URL: url, Crawler: &c} }

// ReadsIn returns the dialect q is read in: q.Dialect when it is set, else
// the dialect of q.Crawler's engine, else Google's. A question about
// product tokens alone (q.Agents, no crawler) is read in Google's dialect
// unless q.Dialect says otherwise: tokens are asked with Google's semantics
// (docs/protocol.md, Dialects), whatever fetch policy brought the file. It
// is the one rule every face (check, eval, compare, bulk, the cache's
// answers and the service) applies; the dialect a fetched answer is read
// with (its fetch policy) is this one too.
func (q *Query) ReadsIn() Dialect {
	d := q.Dialect
	if d == DefaultDialect && q.Crawler != nil {
		d = q.Crawler.Dialect
	}
	if d == DefaultDialect || d > Baidu {
		return Google // (as Dialect.resolve: this file calls no other)
	}
	return d
}

// Tokens returns the tokens the crawler obeys, in order of preference.
func (c *Crawler) Tokens() []string {
	return append([]string{c.Token}, c.Fallbacks...)
}

// Crawlers returns a copy of the table of known crawlers. The crawlers'
// slices are the table's: replace them rather than change their elements.
func Crawlers() []Crawler {
	out := make([]Crawler, len(crawlers))
	copy(out, crawlers)
	return out
}

// CrawlersByPurpose returns the known crawlers that fetch for at least one
// of the purposes in p, in the table's order; every crawler for the empty
// set.
func CrawlersByPurpose(p Purpose) []Crawler {
	if p == 0 {
		return Crawlers()
	}
	var out []Crawler
	for i := range crawlers {
		if crawlers[i].Purposes.Any(p) {
			out = append(out, crawlers[i])
		}
	}
	return out
}

// CrawlersByBehaviour returns the known crawlers that show at least one of
// the behaviours in b, in the table's order; every crawler for the empty
// set.
func CrawlersByBehaviour(b Behaviour) []Crawler {
	if b == 0 {
		return Crawlers()
	}
	var out []Crawler
	for i := range crawlers {
		if crawlers[i].Behaviours.Any(b) {
			out = append(out, crawlers[i])
		}
	}
	return out
}

// LookupCrawler finds a known crawler by its name, token or an alias,
// ignoring case. The result is a copy the caller may change; its slices
// are the table's, so replace them rather than change their elements.
func LookupCrawler(name string) (Crawler, bool) {
	name = strings.TrimSpace(name)
	if i, ok := crawlerIndex.byName[strings.ToLower(name)]; ok {
		return crawlers[i], true
	}
	if i, ok := crawlerIndex.byAlias[strings.ToLower(name)]; ok {
		return crawlers[i], true
	}
	if isASCII(name) {
		return Crawler{}, false
	}
	// Names the lower-case keys miss (Unicode case folding: "ſlurp").
	for i := range crawlers {
		c := &crawlers[i]
		if strings.EqualFold(c.Name, name) || strings.EqualFold(c.Token, name) {
			return *c, true
		}
	}
	for i := range crawlers {
		for _, a := range crawlers[i].Aliases {
			if strings.EqualFold(a, name) {
				return crawlers[i], true
			}
		}
	}
	return Crawler{}, false
}

// crawlerIndex finds crawlers by lower-case name or token, then alias: the
// first in the table wins, as a walk of the table would find it.
var crawlerIndex = indexCrawlers(crawlers)

type crawlerKeys struct {
	byName, byAlias map[string]int
}

func indexCrawlers(table []Crawler) crawlerKeys {
	ix := crawlerKeys{byName: map[string]int{}, byAlias: map[string]int{}}
	for i := range table {
		for _, k := range []string{table[i].Name, table[i].Token} {
			if _, ok := ix.byName[strings.ToLower(k)]; !ok {
				ix.byName[strings.ToLower(k)] = i
			}
		}
		for _, a := range table[i].Aliases {
			if _, ok := ix.byAlias[strings.ToLower(a)]; !ok {
				ix.byAlias[strings.ToLower(a)] = i
			}
		}
	}
	return ix
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
