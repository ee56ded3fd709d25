package robotstxt

// Query is a question for [Robots.Decide].
type Query struct {
	// URL is an absolute URL or a path starting with '/'. It is taken as
	// given (see NormalizeURL).
	URL string
	// Agents are product tokens asked about together, with Google's
	// semantics: every group naming any of them applies. Agents and
	// Crawler are exclusive: when both are set, Crawler is who asks and
	// Agents is ignored.
	Agents []string
	// Crawler is a known crawler (see LookupCrawler): its fallback tokens,
	// whether it ignores the '*' group, and its dialect apply.
	// [Crawler.Query] makes such a query without taking an address.
	Crawler *Crawler
	// Dialect is the reading to use; DefaultDialect means the crawler's
	// own, else Google.
	Dialect Dialect
	// Explain asks for every rule that matched, with why it lost.
	Explain bool
}

// GroupKind says how the group that applied was chosen.
type GroupKind uint8

// The ways a group is chosen.
const (
	GroupNone     GroupKind = iota // no group applies: everything is allowed
	GroupSpecific                  // groups naming the crawler
	GroupGlobal                    // the '*' group
)

func (k GroupKind) String() string {
	switch k {
	case GroupSpecific:
		return "specific"
	case GroupGlobal:
		return "global"
	}
	return "none"
}

// GroupChoice says which groups applied to a question and why.
type GroupChoice struct {
	Kind   GroupKind
	Token  string // the token whose groups applied ("*" for the global group)
	Lines  []int  // the user-agent lines that chose the groups
	Groups []int  // the groups that applied (0-based, file order; see Robots.Groups)
	Reason string // in words
}

// RuleMatch is a rule that matched a URL.
type RuleMatch struct {
	Line    int
	Allow   bool
	Pattern string // the pattern as matched (normalised)
	Text    string // the line as written
	// Implicit is set for the rule Google derives from an allow of
	// .../index.htm: it allows the directory itself ("dir/$").
	Implicit bool
	// Lost says why this rule did not decide; "" for the deciding rule.
	Lost string
}

// Decision is the answer to a [Query], with what decided it.
type Decision struct {
	Allowed bool
	Dialect Dialect
	Path    string // the part of the URL that was matched
	// Rule is the deciding rule; its zero value (Line 0, empty Text) means
	// that no rule decided, so it is always safe to read (see HasRule).
	// Its Line is what Google's library reports as the matching line (an
	// empty pattern matches with weight 0: it never blocks, but it is
	// reported when nothing weightier matched).
	Rule   RuleMatch
	Group  GroupChoice
	Reason string // the verdict in words
	// Matches holds, with Query.Explain, every rule that matched, the
	// deciding rule first; empty when no rule matched. Lost returns the
	// rest safely.
	Matches []RuleMatch
	// CrawlDelay is the crawl-delay in seconds that applies, when
	// HasCrawlDelay; only some dialects honour it (Dialect.HonoursCrawlDelay).
	CrawlDelay     float64
	HasCrawlDelay  bool
	CrawlDelayLine int
}

// Line returns the deciding rule's line, 0 when none (Google's matching line).
func (d *Decision) Line() int { return d.Rule.Line }

// HasRule reports whether a rule decided (d.Rule is set). When none did,
// the verdict is "allowed" and d.Reason says why (no group, no match).
func (d *Decision) HasRule() bool { return d.Rule.Line != 0 }

// Lost returns the rules that matched but did not decide, each with why
// it lost (RuleMatch.Lost); it is empty without Query.Explain or when
// fewer than two rules matched, and never panics.
func (d *Decision) Lost() []RuleMatch {
	if len(d.Matches) < 2 {
		return nil
	}
	return d.Matches[1:]
}

// AllowedAgents reports whether a crawler obeying all the product tokens in
// agents may fetch url, with Google's semantics (AllowedByRobots): the rules
// of every group naming any of the tokens apply together.
func (r *Robots) AllowedAgents(agents []string, url string) bool {
	return r.Decide(Query{URL: url, Agents: agents, Dialect: Google}).Allowed
}

// Decide answers a query and says what decided it. To ask about many
// URLs for one crawler, [Robots.Decider] prepares the query once.
func (r *Robots) Decide(q Query) Decision {
	var p Decider
	r.prepare(&p, q)
	return p.Decide(q.URL)
}
