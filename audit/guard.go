package audit

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/internal/utc"
	"github.com/seed53c283f5/robotstxt/verify"
)

// ErrNoVerdicts is the error of an audit with Options.Recorded of a log
// that is not a guard's decision log: such a log records no verdict, and
// the audit has no robots.txt of its own to judge by.
var ErrNoVerdicts = errors.New("audit: no robots.txt to judge by: only the guard's decision log records its verdicts")

// MaxRecordedVersions bounds the robots.txt versions an audit with
// Recorded tells apart: the versions a log names past it are counted as
// one, "(other versions)".
const MaxRecordedVersions = 1024

// maxVersionName bounds a recorded version's name, and maxLabel a
// recorded outcome's, action's or mode's.
const (
	maxVersionName = 200
	maxLabel       = 64
	maxLabels      = 32 // distinct labels counted per kind; past it "other"
)

const otherVersions = "\x00other"

func (a *Auditor) formatErr() error {
	return fmt.Errorf("%w (this log is %v)", ErrNoVerdicts, a.wrongFormat)
}

// The identities a guard records, as crawlerState.idReq counts them.
const (
	idVerified = iota
	idSpoofed
	idUnverified
)

func identityOf(outcome []byte) int {
	switch string(outcome) {
	case "verified":
		return idVerified
	case "spoofed":
		return idSpoofed
	}
	return idUnverified
}

// isJudgedOutcome reports whether the guard judged a request of that
// outcome by the robots.txt: every outcome of a claimed crawler but a
// rules path (/robots.txt, /.well-known/, a sitemap) and none.
func isJudgedOutcome(outcome []byte) bool {
	switch string(outcome) {
	case "", "rules-path", "not-crawler":
		return false
	}
	return true
}

// guardTally counts a decision log's own figures.
type guardTally struct {
	decisions                           int64
	outcomes, actions, would, modes     map[string]*int64 // pointers: counting allocates nothing
	blocked, wouldBlock                 int64
	compared, nowDisallowed, nowAllowed int64
}

func (g *guardTally) label(m map[string]*int64, b []byte) {
	if len(b) > maxLabel {
		b = b[:maxLabel]
	}
	if len(b) == 0 {
		b = []byte("none")
	}
	n, ok := m[string(b)]
	if !ok {
		if len(m) >= maxLabels {
			b = []byte("other")
		}
		if n, ok = m[string(b)]; !ok {
			n = new(int64)
			m[string(b)] = n
		}
	}
	*n++
}

// tallyDecision counts a decision's outcome, action and mode.
func (a *Auditor) tallyDecision(e *accesslog.Entry) {
	g := a.g
	if g == nil {
		g = &guardTally{outcomes: map[string]*int64{}, actions: map[string]*int64{}, would: map[string]*int64{}, modes: map[string]*int64{}}
		a.g = g
	}
	d := e.Decision
	g.decisions++
	g.label(g.outcomes, d.Outcome)
	g.label(g.actions, d.Action)
	g.label(g.would, d.Would)
	g.label(g.modes, d.Mode)
	// The guard writes a status only when it answered in the site's
	// place; in log mode the action (log) differs from what the policy
	// would have done.
	if e.Status != 0 {
		g.blocked++
	}
	if !bytes.Equal(d.Action, d.Would) {
		g.wouldBlock++
	}
}

// compare counts a verdict judged again against the one recorded.
func (g *guardTally) compare(recorded, now bool) {
	g.compared++
	switch {
	case recorded && !now:
		g.nowDisallowed++
	case !recorded && now:
		g.nowAllowed++
	}
}

// addRecorded adds a request of a guard's decision log, judged by what
// the guard recorded.
func (a *Auditor) addRecorded(e *accesslog.Entry) {
	d := e.Decision
	var ci int32
	if d != nil && len(d.Claimed) > 0 {
		if i, ok := a.cat.lookup(d.Claimed); ok {
			ci = int32(i)
		} else {
			ci = a.identify(e.UserAgent) // a name of another catalogue
		}
	} else if ci = a.identify(e.UserAgent); ci >= 0 {
		ci = noCrawler // the guard claimed none
	}
	if ci < 0 {
		if ci == unknownBot && a.o.UnknownBots {
			a.unknown.add(clip(e.UserAgent))
		}
		return
	}
	cs := a.crawler(int(ci), e)
	var dec accesslog.Decision
	if d != nil {
		dec = *d
	}
	id := identityOf(dec.IdentityOutcome)
	cs.idReq[id]++
	path := pathOf(e.Target)
	disallowed := false
	switch {
	case len(path) > 0 && isRobotsTxt(path):
		cs.robotsTxt++
		a.robotsTxtAll++
	case !dec.HasVerdict || !isJudgedOutcome(dec.Outcome):
		// Not judged by the guard: a rules path, or no verdict recorded.
	default:
		vi := a.recordedVersion(dec.Version, e.Time)
		a.judged++
		a.verRequests[vi]++
		if !dec.Allowed {
			disallowed = true
			cs.disallowed++
			cs.idDis[id]++
			a.verDisallowed[vi]++
			if len(path) == 0 {
				path = e.Target
			}
			a.key = append(append(a.key[:0], byte(vi>>8), byte(vi)), clip(path)...)
			if c, fresh := cs.top.add(a.key); fresh || c.line != dec.Line || c.version != vi {
				c.version, c.line, c.text = vi, dec.Line, string(clip(dec.LineText))
			}
		}
	}
	a.trackRecorded(int(ci), cs, e.IP, id, disallowed, dec.Identity)
}

// recordedVersion returns the index of the version a decision names,
// noting when it was seen.
func (a *Auditor) recordedVersion(name []byte, t time.Time) int {
	if len(name) > maxVersionName {
		name = name[:maxVersionName]
	}
	i, ok := a.recVer[string(name)]
	if !ok {
		key, src := string(name), string(bytes.ToValidUTF8(name, []byte("\uFFFD")))
		if key == "" {
			src = "(none: no robots.txt in force, all allowed)"
		}
		if len(a.recVer) >= MaxRecordedVersions-1 {
			key, src = otherVersions, fmt.Sprintf("(other versions, past the %d told apart)", MaxRecordedVersions-1)
		}
		if i, ok = a.recVer[key]; !ok {
			i = len(a.versions)
			a.recVer[key] = i
			a.versions = append(a.versions, Version{Source: src})
			a.verRequests = append(a.verRequests, 0)
			a.verDisallowed = append(a.verDisallowed, 0)
			a.verFirst = append(a.verFirst, time.Time{})
			a.verLast = append(a.verLast, time.Time{})
		}
	}
	if !t.IsZero() {
		if a.verFirst[i].IsZero() || t.Before(a.verFirst[i]) {
			a.verFirst[i] = t
		}
		if t.After(a.verLast[i]) {
			a.verLast[i] = t
		}
	}
	return i
}

// trackRecorded counts a request for its (crawler, address) pair, with
// the identity the guard recorded; a spoofed pair keeps the evidence of
// its first spoofed request.
func (a *Auditor) trackRecorded(ci int, cs *crawlerState, ipText []byte, id int, disallowed bool, evidence []byte) {
	st, _, _ := a.pairOf(ci, cs, ipText)
	if st == nil {
		return
	}
	st.requests++
	if disallowed {
		st.disallowed++
	}
	if id != idSpoofed {
		return
	}
	st.spoofReq++
	if disallowed {
		st.spoofDis++
	}
	if st.ev == nil {
		st.ev = &verify.Evidence{}
		if json.Unmarshal(evidence, st.ev) != nil {
			*st.ev = verify.Evidence{Outcome: "spoofed", Reason: "the recorded evidence does not parse"}
		}
	}
}

// GuardReport is what a guard's decision log says of itself (Report.Guard,
// present when the log read is one): its decisions by outcome, action
// and mode, and what the guard refused or would have refused.
type GuardReport struct {
	// Recorded: the verdicts and identities are the guard's own, as it
	// recorded them (no robots.txt was given to judge by again).
	Recorded bool `json:"recorded"`
	// Decisions counts the decisions read.
	Decisions int64 `json:"decisions"`
	// Outcomes, Actions, Would and Modes count the decisions by their
	// outcome, the action taken, the action the policy names for the
	// outcome, and the mode ("none" for a decision without one).
	Outcomes map[string]int64 `json:"outcomes"`
	Actions  map[string]int64 `json:"actions"`
	Would    map[string]int64 `json:"would"`
	Modes    map[string]int64 `json:"modes"`
	// Blocked counts the requests the guard answered in the site's place
	// (403, 402, 429, tarpit: a status recorded); WouldBlock those its
	// log mode let pass that the policy would have acted on (the action
	// differs from would).
	Blocked    int64 `json:"blocked"`
	WouldBlock int64 `json:"would_block"`
	// Crawlers are Blocked and WouldBlock per crawler, the crawlers seen.
	Crawlers []GuardCrawler `json:"crawlers"`
	// Compared counts, when the log was judged again by a robots.txt
	// given, the requests whose recorded verdict was compared with the
	// new one; NowDisallowed those the guard allowed that the file given
	// disallows, NowAllowed the reverse: the file changed since, or is
	// not the one the guard enforced.
	Compared      int64 `json:"compared"`
	Differs       int64 `json:"differs"`
	NowDisallowed int64 `json:"now_disallowed"`
	NowAllowed    int64 `json:"now_allowed"`
}

// GuardCrawler is what the guard did to one crawler's requests.
type GuardCrawler struct {
	Crawler    string `json:"crawler"`
	Requests   int64  `json:"requests"`
	Blocked    int64  `json:"blocked"`
	WouldBlock int64  `json:"would_block"`
}

// reportGuard adds a decision log's figures to r.
func (a *Auditor) reportGuard(r *Report) {
	if a.g == nil && !a.o.Recorded {
		return
	}
	g := a.g
	if g == nil {
		g = &guardTally{}
	}
	gr := &GuardReport{Recorded: a.o.Recorded, Decisions: g.decisions,
		Outcomes: copyCounts(g.outcomes), Actions: copyCounts(g.actions), Would: copyCounts(g.would), Modes: copyCounts(g.modes),
		Blocked: g.blocked, WouldBlock: g.wouldBlock, Crawlers: []GuardCrawler{},
		Compared: g.compared, Differs: g.nowAllowed + g.nowDisallowed, NowDisallowed: g.nowDisallowed, NowAllowed: g.nowAllowed}
	for _, cs := range a.crawlers {
		if cs != nil {
			gr.Crawlers = append(gr.Crawlers, GuardCrawler{Crawler: cs.c.Name, Requests: cs.requests, Blocked: cs.blocked, WouldBlock: cs.wouldBlock})
		}
	}
	slices.SortFunc(gr.Crawlers, func(x, y GuardCrawler) int {
		return cmp.Or(cmp.Compare(y.Blocked+y.WouldBlock, x.Blocked+x.WouldBlock), cmp.Compare(y.Requests, x.Requests), cmp.Compare(x.Crawler, y.Crawler))
	})
	r.Guard = gr
	if a.o.Recorded {
		r.Verification.Recorded = true
		if r.Versions == nil {
			r.Versions = []VersionReport{}
		}
		for i := range r.Versions {
			r.Versions[i].FirstSeen = utc.RFC3339(a.verFirst[i])
			r.Versions[i].LastSeen = utc.RFC3339(a.verLast[i])
			r.Versions[i].From = r.Versions[i].FirstSeen
		}
	}
}

func copyCounts(m map[string]*int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = *v
	}
	return out
}

// recordedIdentities fills the crawlers' identity figures and the
// spoofers from what the guard recorded.
func (a *Auditor) recordedIdentities(r *Report, byIndex map[int]int) []SpooferReport {
	for ci, cs := range a.crawlers {
		if cs == nil {
			continue
		}
		cr := &r.Crawlers[byIndex[ci]]
		cr.Verified, cr.Spoofed, cr.Unverified = cs.idReq[idVerified], cs.idReq[idSpoofed], cs.idReq[idUnverified]
		cr.DisallowedVerified, cr.DisallowedSpoofed, cr.DisallowedUnverified = cs.idDis[idVerified], cs.idDis[idSpoofed], cs.idDis[idUnverified]
	}
	var spoof []SpooferReport
	for _, st := range a.ips {
		if st.spoofReq == 0 {
			continue
		}
		ev := *st.ev
		name := ""
		if len(ev.Names) > 0 {
			name = ev.Names[0]
		}
		ip := ev.IP
		if st.ip.IsValid() {
			ip = st.ip.String()
		}
		spoof = append(spoof, SpooferReport{IP: ip, Crawler: a.cat.Crawler(st.crawler).Name, Requests: st.spoofReq, Disallowed: st.spoofDis,
			Method: ev.Method, Name: name, Reason: ev.Reason, Evidence: ev})
	}
	return spoof
}
