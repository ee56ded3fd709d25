package guard

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"time"

	"github.com/seed53c283f5/robotstxt/verify"
)

// Outcome is what the guard found of a request: the question its policy
// answers with an action.
type Outcome uint8

// The outcomes, in the order the guard tests them: a request for the
// rules is never judged; a client that claims no known crawler passes; a
// claim whose identity check said no is spoofed, whatever the path; then
// the robots.txt verdict, the usage preferences and the pace.
const (
	// OutcomePass: a crawler's claim on a path its groups allow, with no
	// preference refused and within its crawl-delay.
	OutcomePass Outcome = iota
	// OutcomeNotCrawler: the User-Agent names no known crawler (a
	// browser, an unknown client). Always allowed.
	OutcomeNotCrawler
	// OutcomeRulesPath: /robots.txt, a /.well-known/ path or a sitemap
	// the file names. Always allowed: every client reads the rules.
	OutcomeRulesPath
	// OutcomeDisallowedVerified: a verified crawler on a path its groups
	// disallow.
	OutcomeDisallowedVerified
	// OutcomeDisallowedUnverified: a claim not (yet) verified on a path
	// the claimed crawler's groups disallow: it asked as that crawler.
	OutcomeDisallowedUnverified
	// OutcomeSpoofed: the identity check says the client is not the
	// crawler it claims to be.
	OutcomeSpoofed
	// OutcomePreferenceRefused: a path the crawler may fetch, for a use
	// the file's usage preferences refuse (a training crawler under
	// train-ai=n or ai-train=no; an AI-input fetcher under ai-input=no).
	OutcomePreferenceRefused
	// OutcomeOverCrawlDelay: the crawler came back to the host sooner
	// than the file's Crawl-delay (or Request-rate) asks.
	OutcomeOverCrawlDelay

	numOutcomes
)

var outcomeNames = [numOutcomes]string{
	"pass", "not-crawler", "rules-path", "disallowed-verified",
	"disallowed-unverified", "spoofed", "preference-refused", "over-crawl-delay",
}

// String returns the outcome's name ("disallowed-verified").
func (o Outcome) String() string {
	if o < numOutcomes {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// ParseOutcome returns the outcome a name names.
func ParseOutcome(name string) (Outcome, error) {
	for i, n := range outcomeNames {
		if n == name {
			return Outcome(i), nil
		}
	}
	return 0, fmt.Errorf("guard: unknown outcome %q", name)
}

// MarshalText writes the outcome's name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, err := ParseOutcome(string(b))
	if err == nil {
		*o = v
	}
	return err
}

// Action is what the guard does with a request. The zero Action is unset
// (a policy that says nothing for an outcome).
type Action uint8

// The actions.
const (
	// ActionAllow passes the request to the site.
	ActionAllow Action = iota + 1
	// ActionLog passes it too; the decision is recorded as one the
	// policy would act on.
	ActionLog
	// Action403 answers 403 Forbidden.
	Action403
	// Action402 answers 402 Payment Required with a crawler-price header
	// (Cloudflare's pay per crawl), the policy's price.
	Action402
	// Action429 answers 429 Too Many Requests with Retry-After: the
	// seconds left of the crawl-delay, else the crawl-delay.
	Action429
	// ActionTarpit answers 403 slowly, a byte at a time over the
	// policy's tarpit time; past the cap of connections held at once, at
	// once.
	ActionTarpit

	actionEnd
)

var actionNames = [actionEnd]string{"", "allow", "log", "403", "402", "429", "tarpit"}

// actionRank orders the actions from the mildest: when several classes
// of a crawler name actions for one outcome, the strictest counts.
var actionRank = [actionEnd]int{0, 1, 2, 5, 4, 3, 6}

// String returns the action's name: "allow", "log", "403", "402", "429"
// or "tarpit"; "" for the zero Action.
func (a Action) String() string {
	if a < actionEnd {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// Blocks reports whether the action answers in the site's place.
func (a Action) Blocks() bool { return a >= Action403 && a < actionEnd }

// ParseAction returns the action a name names.
func ParseAction(name string) (Action, error) {
	for i, n := range actionNames {
		if i > 0 && n == name {
			return Action(i), nil
		}
	}
	return 0, fmt.Errorf("unknown action %q (want allow, log, 403, 402, 429 or tarpit)", name)
}

// MarshalText writes the action's name.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads an action's name ("" is the zero Action).
func (a *Action) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*a = 0
		return nil
	}
	v, err := ParseAction(string(b))
	if err == nil {
		*a = v
	}
	return err
}

// Decision is what the guard decided of one request, and why: what the
// decision log records, one JSON object a line.
type Decision struct {
	Time      time.Time
	Addr      netip.Addr // the client's address
	Method    string
	Host      string // the request's host, without port
	Path      string // the path and query the rules were asked about
	UserAgent string
	// Claimed is the catalogue name of the crawler the User-Agent
	// claims; "" when it claims none.
	Claimed string
	// Identity is the identity check's evidence; its Outcome is ""
	// when no crawler was claimed.
	Identity verify.Evidence
	Outcome  Outcome
	// Allowed is the robots.txt verdict for the claimed crawler, in its
	// dialect with its fallbacks (true when no crawler is claimed, or
	// when no robots.txt is known).
	Allowed bool
	// Line and LineText are the deciding line: the allow or disallow
	// rule, or for OutcomePreferenceRefused the Content-Usage or
	// Content-Signal line; 0 and "" when none decided.
	Line     int
	LineText string
	// Reason says why, in words.
	Reason string
	// Version names the robots.txt version asked (Rules.Version).
	Version string
	// Action is what the guard did; Would is what the policy says for
	// the outcome (the same in enforce mode; in log mode Action is log
	// or allow).
	Action Action
	Would  Action
	Mode   Mode
	// Status is the HTTP status the guard answered with, 0 when the
	// request went on to the site.
	Status int
	// Price is the crawler-price header of a 402; RetryAfter the seconds
	// of a 429's Retry-After.
	Price      string
	RetryAfter int
}

// decisionJSON is a Decision as the log writes it.
type decisionJSON struct {
	Time       time.Time        `json:"time"`
	IP         string           `json:"ip"`
	Method     string           `json:"method,omitempty"`
	Host       string           `json:"host"`
	Path       string           `json:"path"`
	UserAgent  string           `json:"user_agent"`
	Claimed    string           `json:"claimed,omitempty"`
	Identity   *verify.Evidence `json:"identity,omitempty"`
	Outcome    Outcome          `json:"outcome"`
	Allowed    bool             `json:"allowed"`
	Line       int              `json:"line,omitempty"`
	LineText   string           `json:"line_text,omitempty"`
	Reason     string           `json:"reason,omitempty"`
	Version    string           `json:"version,omitempty"`
	Action     Action           `json:"action"`
	Would      Action           `json:"would"`
	Mode       Mode             `json:"mode"`
	Status     int              `json:"status,omitempty"`
	Price      string           `json:"price,omitempty"`
	RetryAfter int              `json:"retry_after,omitempty"`
}

// MarshalJSON writes the decision as the decision log holds it: the
// address as "ip", the identity only when a crawler was claimed.
func (d Decision) MarshalJSON() ([]byte, error) {
	return json.Marshal(d.logged())
}

// logged is d as the decision log writes it (MarshalJSON's object; the
// FileSink encodes it directly, sparing MarshalJSON's second pass).
func (d *Decision) logged() decisionJSON {
	j := decisionJSON{
		Time: d.Time.UTC(), Method: d.Method, Host: d.Host, Path: d.Path,
		UserAgent: d.UserAgent, Claimed: d.Claimed, Outcome: d.Outcome, Allowed: d.Allowed,
		Line: d.Line, LineText: d.LineText, Reason: d.Reason, Version: d.Version,
		Action: d.Action, Would: d.Would, Mode: d.Mode, Status: d.Status, Price: d.Price,
		RetryAfter: d.RetryAfter,
	}
	if d.Addr.IsValid() {
		j.IP = d.Addr.Unmap().String()
	}
	if d.Identity.Outcome != "" {
		e := d.Identity
		j.Identity = &e
	}
	return j
}

// UnmarshalJSON reads a decision MarshalJSON wrote.
func (d *Decision) UnmarshalJSON(b []byte) error {
	var j decisionJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*d = Decision{
		Time: j.Time, Method: j.Method, Host: j.Host, Path: j.Path, UserAgent: j.UserAgent,
		Claimed: j.Claimed, Outcome: j.Outcome, Allowed: j.Allowed, Line: j.Line,
		LineText: j.LineText, Reason: j.Reason, Version: j.Version, Action: j.Action,
		Would: j.Would, Mode: j.Mode, Status: j.Status, Price: j.Price, RetryAfter: j.RetryAfter,
	}
	if j.IP != "" {
		a, err := netip.ParseAddr(j.IP)
		if err != nil {
			return fmt.Errorf("guard: decision ip: %w", err)
		}
		d.Addr = a
	}
	if j.Identity != nil {
		d.Identity = *j.Identity
	}
	return nil
}
