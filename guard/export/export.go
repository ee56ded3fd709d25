// Package export compiles a site's robots.txt, as the guard enforces it,
// into the configuration of tools people already run in front of their
// sites: nginx, HAProxy, Caddy and Anubis.
//
// Each crawler the guard knows (the catalogue's, by product token) and
// each other product token the file names gets the ordered rules of the
// groups that apply to it, as the core chooses them (robotstxt.Decide,
// with its fallbacks and dialect). The rules become regular expressions
// sorted so that the first that matches is the rule the crawler's dialect
// makes decide: for Google's reading (and Bing's and Yandex's) the longest
// pattern, an allow before a disallow of the same length; for Baidu's, the
// first in file order. '*' is ".*", a final '$' ends the expression, every
// other byte is literal. Allow rules are kept: they stop the search as
// they stop it in the core.
//
// What a target cannot express exactly is compiled in the safer
// direction (a request the file disallows is never let through because of
// it; a request it allows may be refused) and named by a Warning.
// docs/guard.md ("Exporters") says what each target matches against.
package export

import (
	"fmt"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/guard"
)

// Target is a tool an export is written for.
type Target string

// The targets.
const (
	Nginx   Target = "nginx"
	HAProxy Target = "haproxy"
	Caddy   Target = "caddy"
	Anubis  Target = "anubis"
)

// Targets returns the targets Compile writes, in a stable order.
func Targets() []Target { return []Target{Anubis, Caddy, HAProxy, Nginx} }

// ParseTarget returns the target named name (case-insensitive).
func ParseTarget(name string) (Target, error) {
	for _, t := range Targets() {
		if strings.EqualFold(name, string(t)) {
			return t, nil
		}
	}
	names := make([]string, 0, 4)
	for _, t := range Targets() {
		names = append(names, string(t))
	}
	return "", fmt.Errorf("export: unknown target %q (one of %s)", name,
		strings.Join(names, ", "))
}

// Warning says that a rule (or, with Line 0, the target as a whole)
// cannot be expressed exactly in a target, and what the export does
// instead.
type Warning struct {
	// Line is the robots.txt line of the rule, 0 for the target as a
	// whole.
	Line int
	// Rule is the rule as the export read it ("disallow: /a?b"), or
	// what a target-wide warning concerns.
	Rule string
	// Why says what the target cannot express and what was written.
	Why string
	// Name is a short stable name for the kind of warning (the
	// Warn... constants).
	Name string
	// Agents are the product tokens whose rules the warning concerns;
	// empty when it concerns every one.
	Agents []string
}

// The names of warnings.
const (
	// WarnLong: a pattern longer than the target's limit; a disallow
	// is cut to a prefix (it matches more), an allow is left out.
	WarnLong = "too-long"
	// WarnNonUTF8: a pattern whose bytes the target's regular
	// expressions cannot hold (invalid UTF-8 once decoded); cut or left
	// out as for WarnLong.
	WarnNonUTF8 = "bytes"
	// WarnQueryRule: a pattern that reaches into the query string, in
	// a target that matches the path alone (Anubis); cut or left out.
	WarnQueryRule = "query-rule"
	// WarnDecodedRule: a pattern with %-escapes, in a target that
	// matches the decoded path (Anubis); compiled decoded.
	WarnDecodedRule = "decoded-rule"
	// WarnPathOnly (target-wide): the target matches the path without
	// the query string; a request with a query may be decided
	// differently.
	WarnPathOnly = "path-only"
	// WarnDecodedPath (target-wide, or for a dialect that decodes
	// URLs, Baidu's): the reading compares decoded paths, the target
	// raw or decoded ones; a request with %-escapes may be decided
	// differently.
	WarnDecodedPath = "decoded-path"
	// WarnDialect: a crawler whose dialect the export cannot write
	// (the 1996 draft's, RFC 9309's normalisation); it is left out.
	WarnDialect = "dialect"
	// WarnStatus: the action's status or header is not the target's to
	// choose (Anubis answers DENY with its status_codes setting; the
	// tarpit exists only in HAProxy).
	WarnStatus = "status"
	// WarnLogMode: the policy is in log mode; the export enforces.
	WarnLogMode = "log-mode"
)

// Input is what an export compiles: the robots.txt and the policy's part
// that the export can carry.
type Input struct {
	// Robots is the robots.txt body, parsed as the guard parses it.
	Robots []byte
	// Crawlers are the crawlers the guard recognises; nil: the
	// catalogue (robotstxt.Crawlers()), control tokens left out. They
	// are recognised by the User-Agent as the guard recognises them
	// (audit.Catalogue.Identify).
	Crawlers []robotstxt.Crawler
	// NamedTokens also holds to their groups the product tokens the
	// file names that are no known crawler's ("User-agent: FooBot"),
	// recognised by product token alone. The guard does not (it acts
	// on known crawlers only), so it is off by default.
	NamedTokens bool
	// Policy gives each crawler's action for a disallowed path: the
	// export cannot check identity, so every claim is unverified
	// (guard.OutcomeDisallowedUnverified, enforce mode's table). Nil:
	// Action for every crawler.
	Policy *guard.Policy
	// Action is what a disallowed crawler gets when Policy is nil, and
	// what a named token gets: "403" (the default when empty), "402",
	// "429" or "tarpit" (HAProxy; 403 elsewhere, with a warning).
	// "allow" and "log" block nothing.
	Action string
	// RetryAfter is the Retry-After of a 429, in seconds (0: 60).
	RetryAfter int
	// Price is the crawler-price a 402 answers with ("USD 0.01") when
	// Policy is nil or names none.
	Price string
}

// Compile writes the export of robots.txt body robots under policy p
// for target t: the configuration text and a warning for each rule the
// target cannot express exactly. A nil p exports the default enforce
// actions (guard.DefaultActions: 403 for a disallowed claim).
func Compile(t Target, robots []byte, p *guard.Policy) ([]byte, []Warning, error) {
	return CompileInput(t, Input{Robots: robots, Policy: p})
}

// CompileInput is Compile with every choice of Input.
func CompileInput(t Target, in Input) ([]byte, []Warning, error) {
	if tt, err := ParseTarget(string(t)); err != nil || tt != t {
		return nil, nil, fmt.Errorf("export: unknown target %q", string(t))
	}
	def, err := actionOf(in.Action)
	if err != nil {
		return nil, nil, err
	}
	p := build(in, def, limitsOf(t))
	p.retryAfter = in.RetryAfter
	p.price = in.Price
	if in.Policy != nil && in.Policy.Price != "" {
		p.price = in.Policy.Price
	}
	if p.retryAfter <= 0 {
		p.retryAfter = 60
	}
	if in.Policy != nil && in.Policy.Mode == guard.ModeLog {
		p.warn(Warning{Name: WarnLogMode, Rule: "mode = log",
			Why: "the policy is in log mode; the export enforces its actions all the same"})
	}
	var out []byte
	switch t {
	case Nginx:
		out = renderNginx(p)
	case HAProxy:
		out = renderHAProxy(p)
	case Caddy:
		out = renderCaddy(p)
	default:
		out = renderAnubis(p)
	}
	return out, p.warnings, nil
}

// actionOf reads Input.Action.
func actionOf(action string) (guard.Action, error) {
	if action == "" {
		return guard.Action403, nil
	}
	a, err := guard.ParseAction(action)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	return a, nil
}

// statusOf is the HTTP status an action answers with; 0 when it blocks
// nothing.
func statusOf(a guard.Action) int {
	switch a {
	case guard.Action403, guard.ActionTarpit:
		return 403
	case guard.Action402:
		return 402
	case guard.Action429:
		return 429
	}
	return 0
}
