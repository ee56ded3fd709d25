package audit

import (
	"cmp"
	"slices"

	"github.com/seed53c283f5/robotstxt/internal/utc"
	"github.com/seed53c283f5/robotstxt/verify"
)

// Report is an audit's result. Its JSON names are a contract: tools read
// them (docs/audit.md describes each).
type Report struct {
	// Format is the log format read ("combined", ...).
	Format string `json:"format"`
	// Lines counts the log's non-blank lines; Unparsed those that did not
	// parse, the first of them quoted in UnparsedSamples.
	Lines           int64    `json:"lines"`
	Unparsed        int64    `json:"unparsed"`
	UnparsedSamples []Sample `json:"unparsed_samples,omitempty"`
	// Requests counts the parsed requests; CrawlerRequests those whose
	// User-Agent names a known crawler; Judged those of them that were
	// judged (not /robots.txt, with a path); Disallowed those judged
	// disallowed.
	Requests        int64 `json:"requests"`
	CrawlerRequests int64 `json:"crawler_requests"`
	Judged          int64 `json:"judged"`
	Disallowed      int64 `json:"disallowed"`
	// RobotsTxtRequests counts crawlers' requests for /robots.txt (always
	// allowed).
	RobotsTxtRequests int64 `json:"robots_txt_requests"`
	// Served, Refused and Priced count the crawlers' requests by how the
	// site answered them (AnswerOf their status): served (1xx to 3xx),
	// refused (401, 403, 407, 451), or offered at a price (402 Payment
	// Required: pay per crawl, neither served nor refused). Requests with
	// another status or none are in none of them.
	Served  int64 `json:"served"`
	Refused int64 `json:"refused"`
	Priced  int64 `json:"priced"`
	// Versions are the robots.txt versions judged by, oldest first.
	Versions []VersionReport `json:"versions"`
	// Crawlers are the crawlers seen, the most disallowed requests first.
	Crawlers []CrawlerReport `json:"crawlers"`
	// Spoofers are the addresses whose claims were spoofed, the most
	// requests first.
	Spoofers []SpooferReport `json:"spoofers"`
	// UnknownBots are bot-like agents the catalogue does not know, the
	// most requests first (with Options.UnknownBots).
	UnknownBots []AgentCount `json:"unknown_bots,omitempty"`
	// Verification says how identities were checked.
	Verification VerificationReport `json:"verification"`
	// Limits are the bounds the audit ran with.
	Limits Limits `json:"limits"`
	// Guard is what a guard's decision log says of itself: present when
	// the log read is one (format "guard").
	Guard *GuardReport `json:"guard,omitempty"`
}

// VersionReport is one robots.txt version and what it judged.
type VersionReport struct {
	Index int `json:"index"`
	// From is when it came into force (RFC 3339), "" for since ever.
	From       string `json:"from"`
	Source     string `json:"source"`
	Judged     int64  `json:"judged"`
	Disallowed int64  `json:"disallowed"`
	// FirstSeen and LastSeen are, for a version a guard recorded
	// (Options.Recorded), the first and last time a decision named it;
	// From is then FirstSeen.
	FirstSeen string `json:"first_seen,omitempty"`
	LastSeen  string `json:"last_seen,omitempty"`
}

// CrawlerReport is what one crawler did.
type CrawlerReport struct {
	Crawler  string `json:"crawler"`
	Operator string `json:"operator,omitempty"`
	Requests int64  `json:"requests"`
	// Disallowed counts its requests that its robots.txt version
	// disallowed; the Disallowed* counts split them by identity.
	Disallowed int64 `json:"disallowed"`
	// Verified, Spoofed and Unverified count its requests by the outcome
	// of their address's check.
	Verified             int64  `json:"verified"`
	Spoofed              int64  `json:"spoofed"`
	Unverified           int64  `json:"unverified"`
	DisallowedVerified   int64  `json:"disallowed_verified"`
	DisallowedSpoofed    int64  `json:"disallowed_spoofed"`
	DisallowedUnverified int64  `json:"disallowed_unverified"`
	RobotsTxt            int64  `json:"robots_txt"`
	IPs                  int    `json:"ips"`
	FirstSeen            string `json:"first_seen,omitempty"`
	LastSeen             string `json:"last_seen,omitempty"`
	// TopDisallowed are its most requested disallowed paths.
	TopDisallowed []PathReport `json:"top_disallowed"`
	// Served, Refused and Priced count its requests by the site's answer,
	// as Report's do.
	Served  int64 `json:"served"`
	Refused int64 `json:"refused"`
	Priced  int64 `json:"priced"`
}

// PathReport is a disallowed path, the line that disallowed it and the
// version that line is in.
type PathReport struct {
	Path string `json:"path"`
	// Count is an upper bound of its requests; CountError how much it
	// may overstate (0: exact).
	Count      int64  `json:"count"`
	CountError int64  `json:"count_error,omitempty"`
	Line       int    `json:"line"`
	Rule       string `json:"rule"`
	Version    int    `json:"version"`
	Source     string `json:"source"`
}

// SpooferReport is an address that claimed a crawler and is not it.
type SpooferReport struct {
	IP         string `json:"ip"`
	Crawler    string `json:"crawler"`
	Requests   int64  `json:"requests"`
	Disallowed int64  `json:"disallowed"`
	Method     string `json:"method"`
	Name       string `json:"name,omitempty"`
	Reason     string `json:"reason"`
	// Evidence is the decision's record: the lists (URL, creationTime)
	// or reverse DNS names that decided, and when.
	Evidence verify.Evidence `json:"evidence"`
}

// AgentCount is an unknown bot-like agent and its requests (an upper
// bound; CountError as in PathReport).
type AgentCount struct {
	Agent      string `json:"agent"`
	Requests   int64  `json:"requests"`
	CountError int64  `json:"count_error,omitempty"`
}

// VerificationReport says how identities were checked.
type VerificationReport struct {
	// Enabled: a verifier checked the claims (else all are unverified).
	Enabled bool `json:"enabled"`
	// DNS counts the verifier's DNS work (zero without DNS).
	DNS verify.Stats `json:"dns"`
	// Addresses counts the (crawler, address) pairs checked;
	// UntrackedRequests the requests of pairs past Limits.MaxIPs, counted
	// unverified.
	Addresses         int   `json:"addresses"`
	UntrackedRequests int64 `json:"untracked_requests"`
	// Recorded: the identities are those a guard recorded, each request
	// with its own evidence, none looked up again (Options.Recorded).
	Recorded bool `json:"recorded,omitempty"`
}

// Limits are the bounds of an audit's memory.
type Limits struct {
	TopPaths    int `json:"top_paths"`
	TopCounters int `json:"top_counters"`
	MaxAgents   int `json:"max_agents"`
	MaxPaths    int `json:"max_paths"`
	MaxIPs      int `json:"max_ips"`
}

// Report waits for the identity checks under way and returns the report
// of the requests added so far. The auditor may go on after it.
func (a *Auditor) Report() *Report {
	a.finish()
	r := &Report{
		Format: a.Format().String(), Lines: a.lines, Unparsed: a.unparsed, UnparsedSamples: a.samples,
		Requests: a.requests, Judged: a.judged, RobotsTxtRequests: a.robotsTxtAll,
		Crawlers: []CrawlerReport{}, Spoofers: []SpooferReport{},
		Verification: VerificationReport{Enabled: a.o.Verifier != nil, UntrackedRequests: a.untracked, Addresses: len(a.ips)},
		Limits:       Limits{TopPaths: a.o.TopPaths, TopCounters: a.o.TopCounters, MaxAgents: a.o.MaxAgents, MaxPaths: a.o.MaxPaths, MaxIPs: a.o.MaxIPs},
	}
	if a.o.Verifier != nil {
		r.Verification.DNS = a.o.Verifier.Stats()
	}
	for i, v := range a.versions {
		r.Versions = append(r.Versions, VersionReport{Index: i, From: utc.RFC3339(v.From), Source: v.Source, Judged: a.verRequests[i], Disallowed: a.verDisallowed[i]})
	}
	byIndex := map[int]int{}
	for ci, cs := range a.crawlers {
		if cs == nil {
			continue
		}
		cr := CrawlerReport{
			Crawler: cs.c.Name, Operator: cs.c.Operator, Requests: cs.requests, Disallowed: cs.disallowed,
			RobotsTxt: cs.robotsTxt, IPs: cs.ips, FirstSeen: utc.RFC3339(cs.first), LastSeen: utc.RFC3339(cs.last),
			TopDisallowed: []PathReport{},
			Served:        cs.answers[Served], Refused: cs.answers[Refused], Priced: cs.answers[Priced],
		}
		r.Served += cr.Served
		r.Refused += cr.Refused
		r.Priced += cr.Priced
		for _, c := range cs.top.top(a.o.TopPaths) {
			vi := int(c.key[0])<<8 | int(c.key[1])
			r := PathReport{Path: c.key[2:], Count: c.count, CountError: c.err, Line: c.line, Rule: c.text, Version: vi, Source: a.versions[vi].Source}
			cr.TopDisallowed = append(cr.TopDisallowed, r)
		}
		r.CrawlerRequests += cs.requests
		r.Disallowed += cs.disallowed
		r.Crawlers = append(r.Crawlers, cr)
		byIndex[ci] = len(r.Crawlers) - 1
	}
	var spoof []SpooferReport
	if a.o.Recorded {
		spoof = a.recordedIdentities(r, byIndex)
	}
	for _, st := range a.ips {
		if a.o.Recorded {
			break
		}
		cr := &r.Crawlers[byIndex[st.crawler]]
		switch st.res.Outcome {
		case verify.Verified:
			cr.Verified += st.requests
			cr.DisallowedVerified += st.disallowed
		case verify.Spoofed:
			cr.Spoofed += st.requests
			cr.DisallowedSpoofed += st.disallowed
			spoof = append(spoof, SpooferReport{IP: st.ip.String(), Crawler: cr.Crawler, Requests: st.requests, Disallowed: st.disallowed, Method: st.res.Method, Name: st.res.Name, Reason: st.res.Reason,
				Evidence: a.o.Verifier.Evidence(a.cat.Crawler(st.crawler), st.ip, st.res, st.checked)})
		default:
			cr.Unverified += st.requests
			cr.DisallowedUnverified += st.disallowed
		}
	}
	// The requests of untracked pairs are unverified.
	for i := range r.Crawlers {
		if a.o.Recorded {
			break // each request's identity was recorded
		}
		cr := &r.Crawlers[i]
		cr.Unverified = cr.Requests - cr.Verified - cr.Spoofed
		cr.DisallowedUnverified = cr.Disallowed - cr.DisallowedVerified - cr.DisallowedSpoofed
	}
	slices.SortFunc(r.Crawlers, func(x, y CrawlerReport) int {
		return cmp.Or(cmp.Compare(y.Disallowed, x.Disallowed), cmp.Compare(y.Requests, x.Requests), cmp.Compare(x.Crawler, y.Crawler))
	})
	slices.SortFunc(spoof, func(x, y SpooferReport) int {
		return cmp.Or(cmp.Compare(y.Requests, x.Requests), cmp.Compare(x.IP, y.IP), cmp.Compare(x.Crawler, y.Crawler))
	})
	if len(spoof) > a.o.TopSpoofers {
		spoof = spoof[:a.o.TopSpoofers]
	}
	if spoof != nil {
		r.Spoofers = spoof
	}
	a.reportGuard(r)
	if a.o.UnknownBots {
		r.UnknownBots = []AgentCount{}
		for _, c := range a.unknown.top(a.o.TopAgents) {
			r.UnknownBots = append(r.UnknownBots, AgentCount{Agent: c.key, Requests: c.count, CountError: c.err})
		}
	}
	return r
}
