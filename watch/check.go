package watch

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The severities of a change, least first.
const (
	SeverityInfo     = "info"
	SeverityWarning  = "warning"
	SeverityCritical = "critical"
)

// Severities are the severities, least first: the labels of
// robotstxt_watch_changes_total.
var Severities = []string{SeverityInfo, SeverityWarning, SeverityCritical}

func rank(s string) int {
	for i, v := range Severities {
		if v == s {
			return i + 1
		}
	}
	return 0
}

func worst(a, b string) string {
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// The states of a fetch (FetchState.State).
const (
	StateOK          = "ok"            // a robots.txt with rules
	StateServerError = "server-error"  // a 5xx answer
	StateRateLimited = "rate-limited"  // a 429 answer
	StateRedirect    = "redirect-loop" // a redirect loop, or too many redirects
	StateHTML        = "html"          // HTML served as robots.txt
	StateTooLarge    = "too-large"     // over 500 KiB: crawlers read only its start
	StateGone        = "gone"          // 404 or 410: no file, everything allowed
	StateClientError = "client-error"  // another 4xx (401, 403...)
	StateUnreachable = "unreachable"   // no answer: DNS, connection, timeout
	StateRefused     = "refused"       // this server refused to fetch it (a private address)
)

// FetchState is what a check's fetch got, in one word and in words.
type FetchState struct {
	State  string `json:"state"`
	Status int    `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// Version is one version of the file a check saw.
type Version struct {
	// Hash is the SHA-256 of the body, hexadecimal ("" when no file
	// with rules was read).
	Hash      string `json:"hash"`
	Size      int    `json:"size"`
	Status    int    `json:"status"`
	Policy    string `json:"policy"`
	FetchedAt string `json:"fetched_at,omitempty"`
}

// Verdict is whether a crawler may fetch a URL, and the line and rule
// that decided ("" and 0 when a fetch policy or no rule did).
type Verdict struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
}

// Row is a verdict about one (URL, crawler).
type Row struct {
	URL     string `json:"url"`
	Crawler string `json:"crawler"`
	Verdict
}

// Flip is a watched URL whose verdict changed for a crawler.
type Flip struct {
	URL      string  `json:"url"`
	Crawler  string  `json:"crawler"`
	Before   Verdict `json:"before"`
	After    Verdict `json:"after"`
	Severity string  `json:"severity"`
}

// FetchChange is a change of the fetch's state.
type FetchChange struct {
	Before FetchState `json:"before"`
	After  FetchState `json:"after"`
}

// State is what the engine keeps of a watch between checks.
type State struct {
	LastCheck time.Time  `json:"last_check"`
	NextCheck time.Time  `json:"next_check"`
	Checks    int        `json:"checks"`
	Fetch     FetchState `json:"fetch"`
	Version   *Version   `json:"version,omitempty"`
	Verdicts  []Row      `json:"verdicts,omitempty"`
	// Severity is the last change's.
	Severity string `json:"severity,omitempty"`
	// Error is why the last check could not be made ("" when it was).
	Error   string  `json:"error,omitempty"`
	History []Event `json:"history,omitempty"`
}

// Event is a check that found a change (or the first check: Baseline),
// as the history keeps it.
type Event struct {
	At       time.Time `json:"at"`
	Severity string    `json:"severity"`
	Baseline bool      `json:"baseline,omitempty"`
	// Changes are the verdict flips (at most MaxFlipsKept; Flips counts
	// them all).
	Changes []Flip       `json:"changes"`
	Flips   int          `json:"flips"`
	Fetch   *FetchChange `json:"fetch,omitempty"`
	// Summary is the new version's change summary in lines
	// (tester.ChangeSummary.Lines, at most MaxSummaryLines).
	Summary  []string `json:"summary,omitempty"`
	Version  *Version `json:"version,omitempty"`
	Previous *Version `json:"previous,omitempty"`
}

// Alert is the JSON body of a webhook's POST.
type Alert struct {
	Watch    string    `json:"watch"`
	Origin   string    `json:"origin"`
	At       time.Time `json:"at"`
	Severity string    `json:"severity"`
	// Changes are every verdict flip: each watched (URL, crawler) whose
	// verdict changed, with the verdict before and after.
	Changes []Flip `json:"changes"`
	// Fetch is set when the fetch's state changed.
	Fetch *FetchChange `json:"fetch,omitempty"`
	// Summary is set for a new version of the file, both with rules.
	Summary  *tester.ChangeSummary `json:"summary,omitempty"`
	Version  *Version              `json:"version"`
	Previous *Version              `json:"previous,omitempty"`
}

// classify says what state a fetch is in.
func classify(info *tester.FetchInfo, body []byte) FetchState {
	// The live answer is the trace's last: after a failed refresh the
	// report's status is the cached copy's (info.Source "stale-cache").
	status, ct := info.Status, ""
	if n := len(info.Trace); n > 0 {
		status, ct = info.Trace[n-1].Status, strings.ToLower(info.Trace[n-1].ContentType)
	}
	fs := FetchState{Status: status, Reason: info.Reason}
	reason := strings.ToLower(info.Reason + " " + info.Error)
	switch {
	case info.Refused != "":
		fs.State = StateRefused
	case strings.Contains(reason, "redirect loop") || strings.Contains(reason, "redirects (at most"):
		fs.State = StateRedirect
	case status == 429:
		fs.State = StateRateLimited
	case status >= 500:
		fs.State = StateServerError
	case status == 404 || status == 410:
		fs.State = StateGone
	case status >= 400:
		fs.State = StateClientError
	case status == 0:
		fs.State = StateUnreachable
	case strings.HasPrefix(ct, "text/html") || looksHTML(body):
		fs.State = StateHTML
	case info.Truncated || len(body) > robotstxt.DefaultMaxBytes:
		fs.State = StateTooLarge
	default:
		fs.State = StateOK
	}
	return fs
}

// looksHTML reports whether a body starts as an HTML page does.
func looksHTML(b []byte) bool {
	b = bytes.TrimLeft(b[:min(len(b), 512)], " \t\r\n\ufeff")
	l := bytes.ToLower(b[:min(len(b), 15)])
	return bytes.HasPrefix(l, []byte("<!doctype html")) || bytes.HasPrefix(l, []byte("<html"))
}

// verdicts asks, for each watched URL and crawler, what the fetched file
// says, each crawler with its own engine and fetch policy.
func verdicts(w *Watch, src *tester.Source) ([]Row, error) {
	rep, err := tester.Check(&tester.CheckRequest{Source: src, URLs: w.URLs, Subjects: tester.Subjects{Crawlers: w.Crawlers}})
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(rep.Results))
	for i, r := range rep.Results {
		// Results come URL by URL, crawler by crawler, in the order
		// asked: the URL as given is the watch's.
		u := w.URLs[i/len(w.Crawlers)]
		rows = append(rows, Row{URL: u, Crawler: r.Who, Verdict: Verdict{Allowed: r.Allowed, Line: r.Line, Rule: r.Rule}})
	}
	return rows, nil
}

// isSearch reports whether a crawler fetches for search.
func isSearch(name string) bool {
	c, ok := robotstxt.LookupCrawler(name)
	return ok && c.Purposes.Any(robotstxt.PurposeSearch)
}

// evaluate compares a check's fetch with the watch's state, updates the
// state, and returns the alert for what changed (nil when nothing did;
// for the first check, an alert with no webhook meaning: baseline).
func (e *Engine) evaluate(w *Watch, st *State, body, prevBody []byte, info *tester.FetchInfo, now time.Time) *Alert {
	src := tester.FetchedSource(body, info, robotstxt.DefaultDialect)
	fs := classify(info, body)
	ver := &Version{Size: len(body), Status: info.Status, Policy: info.Policy, FetchedAt: info.FetchedAt}
	if info.Policy == "rules" && info.Error == "" {
		h := sha256.Sum256(body)
		ver.Hash = hex.EncodeToString(h[:])
	}
	rows, err := verdicts(w, src)
	st.LastCheck = now
	st.NextCheck = now.Add(e.opts.Jitter(w.Every))
	if err != nil {
		st.Error = err.Error()
		return nil
	}
	st.Error = ""
	first := st.Checks == 0
	st.Checks++
	a := &Alert{Watch: w.ID, Origin: w.Origin, At: now.UTC(), Changes: []Flip{}, Version: ver, Previous: st.Version}
	if first {
		st.Fetch, st.Version, st.Verdicts = fs, ver, rows
		return a // the baseline
	}
	before := make(map[[2]string]Verdict, len(st.Verdicts))
	for _, r := range st.Verdicts {
		before[[2]string{r.URL, r.Crawler}] = r.Verdict
	}
	for _, r := range rows {
		old, ok := before[[2]string{r.URL, r.Crawler}]
		if !ok || old.Allowed == r.Allowed {
			continue
		}
		f := Flip{URL: r.URL, Crawler: r.Crawler, Before: old, After: r.Verdict, Severity: SeverityInfo}
		if !r.Allowed {
			f.Severity = SeverityWarning
			if isSearch(r.Crawler) {
				f.Severity = SeverityCritical
			}
		}
		a.Changes = append(a.Changes, f)
		a.Severity = worst(a.Severity, f.Severity)
	}
	if fs.State != st.Fetch.State {
		a.Fetch = &FetchChange{Before: st.Fetch, After: fs}
		sev := SeverityWarning
		if fs.State == StateOK {
			sev = SeverityInfo
		}
		a.Severity = worst(a.Severity, sev)
	}
	newVersion := ver.Hash != "" && (st.Version == nil || st.Version.Hash != ver.Hash)
	if newVersion {
		var old *robotstxt.Robots
		if prevBody != nil && st.Version != nil && st.Version.Hash != "" {
			old = robotstxt.Parse(prevBody)
		}
		sum := tester.Changes(old, src.Robots)
		if !sum.Same || len(a.Changes) > 0 {
			a.Summary = sum
			a.Severity = worst(a.Severity, SeverityInfo)
		}
	}
	st.Fetch, st.Verdicts = fs, rows
	if ver.Hash != "" || st.Version == nil {
		st.Version = ver
	} else {
		// No file now: the last version with rules is kept, so that its
		// return is no new version.
		v := *st.Version
		v.Status, v.Policy, v.FetchedAt = ver.Status, ver.Policy, ver.FetchedAt
		a.Version = &v
	}
	if a.Severity == "" {
		return nil
	}
	st.Severity = a.Severity
	return a
}

// eventOf is what the history keeps of an alert.
func eventOf(a *Alert, baseline bool) Event {
	ev := Event{At: a.At, Severity: a.Severity, Baseline: baseline, Changes: a.Changes[:min(len(a.Changes), MaxFlipsKept)],
		Flips: len(a.Changes), Fetch: a.Fetch, Version: a.Version, Previous: a.Previous}
	if baseline {
		ev.Severity = SeverityInfo
	}
	if a.Summary != nil {
		l := a.Summary.Lines()
		ev.Summary = l[:min(len(l), MaxSummaryLines)]
	}
	return ev
}
