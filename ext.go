package robotstxt

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Sitemap is a sitemap line. Sitemaps belong to no group.
type Sitemap struct {
	URL  string // the value as written
	Line int
}

// RequestRate is a request-rate line: at most Requests requests every Per,
// optionally only between From and To (UTC, "HHMM").
type RequestRate struct {
	Requests int
	Per      time.Duration
	From, To string
	Line     int
}

// VisitTime is a visit-time line: visit only between From and To (UTC, "HHMM").
type VisitTime struct {
	From, To string
	Line     int
}

// CleanParam is a Yandex clean-param line: the query parameters Params do not
// change the page for URLs whose path matches Path (a pattern; "" for all).
type CleanParam struct {
	Params []string
	Path   string
	Line   int
}

// Host is a Yandex host line, naming the site's main mirror (legacy).
type Host struct {
	Value string
	Line  int
}

// groupExt holds the extension fields of one group; the first readable value
// of each field counts.
type groupExt struct {
	crawlDelay     float64
	crawlDelayLine int32
	requestRate    *RequestRate
	visitTime      *VisitTime
}

func (e *groupExt) add(ln *lexLine) {
	switch ln.field {
	case FieldCrawlDelay:
		if e.crawlDelayLine == 0 {
			if d, ok := ParseCrawlDelay(ln.value); ok {
				e.crawlDelay, e.crawlDelayLine = d, int32(ln.num)
			}
		}
	case FieldRequestRate:
		if e.requestRate == nil {
			if rr, ok := parseRequestRate(ln.value); ok {
				rr.Line = ln.num
				e.requestRate = &rr
			}
		}
	case FieldVisitTime:
		if e.visitTime == nil {
			if from, to, ok := parseTimeWindow(ln.value); ok {
				e.visitTime = &VisitTime{From: from, To: to, Line: ln.num}
			}
		}
	}
}

// fileExt holds the fields that belong to the whole file, as references to
// their lines: the values are read from the body when asked for, so that a
// file of many short sitemap, host or clean-param lines keeps little.
type fileExt struct {
	sitemaps    []valueRef
	hosts       []valueRef
	cleanParams []valueRef // only readable ones
	body        string     // while parsing: the body, for linesBound
	maxLines    int        // the most lines of a kind the body can hold; 0 until needed
}

// valueRef is a line's value: body[off:off+n].
type valueRef struct {
	line   int32
	off, n uint32
}

func refOf(ln *lexLine) valueRef {
	return valueRef{line: int32(ln.num), off: uint32(ln.start + ln.valOff), n: uint32(len(ln.value))}
}

func (v valueRef) in(body string) string { return body[v.off : v.off+v.n] }

func (e *fileExt) addSitemap(ln *lexLine) {
	e.addSitemapAt(int32(ln.num), ln.start+ln.valOff, len(ln.value))
}

// addSitemapAt adds the sitemap line num whose value is n bytes at off.
func (e *fileExt) addSitemapAt(num int32, off, n int) {
	if n > 0 {
		e.sitemaps = append(grow(e.sitemaps, e.linesBound), valueRef{line: num, off: uint32(off), n: uint32(n)})
	}
}

func (e *fileExt) add(ln *lexLine) {
	switch ln.field {
	case FieldHost:
		if ln.value != "" {
			e.hosts = append(grow(e.hosts, e.linesBound), refOf(ln))
		}
	case FieldCleanParam:
		if cleanParamReadable(ln.value) {
			e.cleanParams = append(grow(e.cleanParams, e.linesBound), refOf(ln))
		}
	}
}

// linesBound returns the most rule, sitemap, host or clean-param lines the
// body can hold: no more than its lines, and each takes at least seven
// bytes ("allow:" or "host:x" and a line ending).
func (e *fileExt) linesBound() int {
	if e.maxLines == 0 {
		b := e.body
		e.maxLines = min((len(b)+1)/7, strings.Count(b, "\n")+strings.Count(b, "\r")+1)
	}
	return e.maxLines
}

func (e *fileExt) done() {
	e.body = ""
	e.sitemaps, e.hosts, e.cleanParams = clipSlice(e.sitemaps), clipSlice(e.hosts), clipSlice(e.cleanParams)
}

// ParseCrawlDelay reads a crawl-delay value: a non-negative number of
// seconds, decimals allowed ("10", "0.5"). It reports false for anything
// else, which crawlers ignore.
func ParseCrawlDelay(v string) (seconds float64, ok bool) {
	if v == "" || !(v[0] >= '0' && v[0] <= '9' || v[0] == '.') {
		return 0, false
	}
	d, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(d, 0) || math.IsNaN(d) || d < 0 {
		return 0, false
	}
	return d, true
}

// parseRequestRate reads "n/t[unit] [HHMM-HHMM]", unit s, m or h (default s).
func parseRequestRate(v string) (RequestRate, bool) {
	var rr RequestRate
	rate, window, _ := strings.Cut(v, " ")
	n, per, ok := strings.Cut(rate, "/")
	if !ok {
		return rr, false
	}
	reqs, err := strconv.Atoi(n)
	if err != nil || reqs <= 0 {
		return rr, false
	}
	unit := time.Second
	if per != "" {
		switch per[len(per)-1] {
		case 's', 'S':
			per = per[:len(per)-1]
		case 'm', 'M':
			unit, per = time.Minute, per[:len(per)-1]
		case 'h', 'H':
			unit, per = time.Hour, per[:len(per)-1]
		}
	}
	t, err := strconv.Atoi(per)
	if err != nil || t <= 0 || t > 1<<20 {
		return rr, false
	}
	rr.Requests, rr.Per = reqs, time.Duration(t)*unit
	if window = strings.TrimSpace(window); window != "" {
		if rr.From, rr.To, ok = parseTimeWindow(window); !ok {
			return rr, false
		}
	}
	return rr, true
}

// parseTimeWindow reads "HHMM-HHMM" (also "HH:MM-HH:MM").
func parseTimeWindow(v string) (from, to string, ok bool) {
	a, b, found := strings.Cut(strings.ReplaceAll(v, ":", ""), "-")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !found || !isHHMM(a) || !isHHMM(b) {
		return "", "", false
	}
	return a, b, true
}

func isHHMM(s string) bool {
	if len(s) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	h, m := (s[0]-'0')*10+s[1]-'0', (s[2]-'0')*10+s[3]-'0'
	return h < 24 && m < 60 || h == 24 && m == 0
}

// parseCleanParam reads "p1&p2 [path]".
func parseCleanParam(v string) (CleanParam, bool) {
	params, path, _ := strings.Cut(v, " ")
	path = strings.TrimSpace(path)
	var cp CleanParam
	for _, p := range strings.Split(params, "&") {
		if p = strings.TrimSpace(p); p != "" {
			cp.Params = append(cp.Params, p)
		}
	}
	if len(cp.Params) == 0 {
		return cp, false
	}
	cp.Path = EscapePattern(path)
	return cp, true
}

// cleanParamReadable reports whether parseCleanParam reads v, without
// allocating.
func cleanParamReadable(v string) bool {
	params, _, _ := strings.Cut(v, " ")
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, "&")
		if strings.TrimSpace(p) != "" {
			return true
		}
	}
	return false
}

// Sitemaps returns the sitemap lines of the file, in order. Each call
// returns a new slice.
func (r *Robots) Sitemaps() []Sitemap {
	refs := r.google.ext.sitemaps
	if len(refs) == 0 {
		return nil
	}
	out := make([]Sitemap, len(refs))
	for i, v := range refs {
		out[i] = Sitemap{URL: v.in(r.body), Line: int(v.line)}
	}
	return out
}

// Hosts returns the host lines of the file, in order. Yandex used the
// first. Each call returns a new slice.
func (r *Robots) Hosts() []Host {
	refs := r.google.ext.hosts
	if len(refs) == 0 {
		return nil
	}
	out := make([]Host, len(refs))
	for i, v := range refs {
		out[i] = Host{Value: v.in(r.body), Line: int(v.line)}
	}
	return out
}

// CleanParams returns the readable clean-param lines of the file, in
// order. Each call returns a new slice.
func (r *Robots) CleanParams() []CleanParam {
	refs := r.google.ext.cleanParams
	if len(refs) == 0 {
		return nil
	}
	out := make([]CleanParam, 0, len(refs))
	for _, v := range refs {
		if cp, ok := parseCleanParam(v.in(r.body)); ok {
			cp.Line = int(v.line)
			out = append(out, cp)
		}
	}
	return out
}

// CleanURL applies the file's clean-param lines to url as Yandex does: query
// parameters named by a clean-param line whose path pattern matches the
// URL's path are removed, giving the canonical URL of the page. A URL that
// no line touches is returned unchanged.
func (r *Robots) CleanURL(url string) string {
	refs := r.google.ext.cleanParams
	if len(refs) == 0 {
		return url
	}
	q := strings.IndexByte(url, '?')
	if q < 0 {
		return url
	}
	frag := ""
	if h := strings.IndexByte(url[q:], '#'); h >= 0 {
		url, frag = url[:q+h], url[q+h:]
	}
	p, slash := splitPath(url)
	if slash {
		p = "/" + p
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	drop := map[string]bool{}
	for _, v := range refs {
		cp, _ := parseCleanParam(v.in(r.body))
		if cp.Path == "" || globMatch(p, cp.Path, strings.HasSuffix(cp.Path, "$")) {
			for _, name := range cp.Params {
				drop[name] = true
			}
		}
	}
	if len(drop) == 0 {
		return url + frag
	}
	var kept []string
	for _, kv := range strings.Split(url[q+1:], "&") {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			kept = append(kept, kv)
		}
	}
	out := url[:q]
	if len(kept) > 0 {
		out += "?" + strings.Join(kept, "&")
	}
	return out + frag
}

// Extensions are lines beyond the dialects' own that a file may be parsed
// to read (ParseOptions.Extensions). Without them such lines are unknown
// fields, as every dialect's crawlers read them; with them, they are read
// into the group they stand in, in every dialect, and change no verdict.
type Extensions uint8

// The extensions.
const (
	// ExtWebBotAuth reads the Signature-Agent and Max-Crawl-Rate lines
	// of the Web Bot Auth editors' draft (draft-meunier-signature-agent-
	// rep, in github.com/thibmeu/http-message-signatures-directory, never
	// published as an Internet-Draft): which signing agents a group is
	// for, and at most how many requests they should make. No working
	// group draft has adopted them: docs/protocol.md, "Signing agents",
	// says how they are read.
	ExtWebBotAuth Extensions = 1 << iota
)

// classify gives ln the field of an extension x reads, when the
// dialect's reading found its key unknown.
func (x Extensions) classify(ln *lexLine) {
	if x == 0 || ln.field != FieldUnknown || ln.flags&flagDirective == 0 {
		return
	}
	if x&ExtWebBotAuth != 0 {
		switch {
		case strings.EqualFold(ln.key, "signature-agent"):
			ln.field = FieldSignatureAgent
		case strings.EqualFold(ln.key, "max-crawl-rate"):
			ln.field = FieldMaxCrawlRate
		}
	}
}

// aiKindOf is the kind of the group's line (aiLine, usage.go) a line of
// field f is: the AI preference lines and the extensions' group lines are
// kept in one list.
func aiKindOf(f Field) aiKind {
	switch f {
	case FieldContentSignal:
		return aiSignal
	case FieldSignatureAgent:
		return aiSigAgent
	case FieldMaxCrawlRate:
		return aiCrawlRate
	}
	return aiUsage
}

// SignatureAgent is a Signature-Agent line of a group (read with
// ExtWebBotAuth): a signing agent the group is for.
type SignatureAgent struct {
	Line  int
	Value string // the value as written
	// Host is the agent's host name the line names, lower-cased; "" when
	// the value is none (ParseSignatureAgentLine).
	Host string
}

// Matches reports whether the line names the signing agent of a request
// whose Signature-Agent value (a member's value: a quoted or bare https
// URL, or a host) is agent: the agent's host is the line's host or a
// name under it ("example.com" names "crawler.example.com", the draft's
// "FQDN suffix"), without regard to case. A line that names no host
// matches nothing.
func (a SignatureAgent) Matches(agent string) bool {
	if a.Host == "" {
		return false
	}
	h := agentHost(agent)
	return h == a.Host || strings.HasSuffix(h, "."+a.Host)
}

// agentHost is the host name of a request's Signature-Agent value,
// lower-cased: quotes, scheme, port and path removed; "" when none.
func agentHost(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	if i := strings.Index(v, "://"); i >= 0 {
		v = v[i+3:]
	}
	if i := strings.IndexAny(v, "/?#"); i >= 0 {
		v = v[:i]
	}
	if i := strings.LastIndexByte(v, ':'); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(v)
}

// ParseSignatureAgentLine reads the value of a Signature-Agent line: a
// host name (the draft's examples: "example.com"), or the https URL of
// its grammar, quoted or not ("\"https://example.com\"", a path of "/"
// allowed). A host is labels of letters, digits, '_' and '-' separated by
// dots (at most 253 bytes, 63 a label); it is returned lower-cased. ok is
// false for anything else: another scheme, a port, a path, a wildcard,
// white space, an empty value.
func ParseSignatureAgentLine(v string) (host string, ok bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	if rest, found := cutPrefixFold(v, "https://"); found {
		v = strings.TrimSuffix(rest, "/")
	}
	if v == "" || len(v) > 253 {
		return "", false
	}
	label := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '.':
			if label == 0 {
				return "", false
			}
			label = 0
			continue
		case isAlpha(c) || isDigit(c) || c == '_' || c == '-':
		default:
			return "", false
		}
		if label++; label > 63 {
			return "", false
		}
	}
	if label == 0 {
		return "", false
	}
	return strings.ToLower(v), true
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case; prefix is lower
// case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if hasPrefixFold(s, prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// CrawlRate is a Max-Crawl-Rate line (read with ExtWebBotAuth): at most
// Requests requests every Per. Line 0 means none.
type CrawlRate struct {
	Requests int
	Per      time.Duration
	Line     int
}

// ParseMaxCrawlRate reads the value of a Max-Crawl-Rate line as the
// draft's grammar writes it: a number of requests (digits, at most nine),
// then optionally "/" and a unit, s, m, h, d or w (any case), white space
// allowed around "/"; without a unit, per second. ok is false for
// anything else. The Line of the result is 0.
func ParseMaxCrawlRate(v string) (CrawlRate, bool) {
	n, unit, slash := strings.Cut(v, "/")
	n, unit = strings.TrimRight(n, " \t"), strings.TrimLeft(unit, " \t")
	if n == "" || len(n) > 9 {
		return CrawlRate{}, false
	}
	reqs := 0
	for i := 0; i < len(n); i++ {
		if !isDigit(n[i]) {
			return CrawlRate{}, false
		}
		reqs = reqs*10 + int(n[i]-'0')
	}
	per := time.Second
	if slash {
		if len(unit) != 1 {
			return CrawlRate{}, false
		}
		switch unit[0] | 0x20 {
		case 's':
		case 'm':
			per = time.Minute
		case 'h':
			per = time.Hour
		case 'd':
			per = 24 * time.Hour
		case 'w':
			per = 7 * 24 * time.Hour
		default:
			return CrawlRate{}, false
		}
	}
	return CrawlRate{Requests: reqs, Per: per}, true
}

// signingAgents gathers the lines of groups (file order).
func (c *compiled) signingAgents(groups []int) SigningAgents {
	var s SigningAgents
	if c.ai == nil {
		return s
	}
	in := make(map[int32]bool, len(groups))
	for _, g := range groups {
		in[int32(g)] = true
	}
	for _, l := range c.ai.lines {
		if in[l.group] {
			c.addSigning(&s, l)
		}
	}
	return s
}

// signingByGroup gathers every group's lines in one pass (file order),
// nil when the file has none: asking signingAgents group by group would
// read every usage line once a group.
func (c *compiled) signingByGroup() map[int32]*SigningAgents {
	if c.ai == nil {
		return nil
	}
	var m map[int32]*SigningAgents
	for _, l := range c.ai.lines {
		if l.kind != aiSigAgent && l.kind != aiCrawlRate {
			continue
		}
		if m == nil {
			m = map[int32]*SigningAgents{}
		}
		s := m[l.group]
		if s == nil {
			s = &SigningAgents{}
			m[l.group] = s
		}
		c.addSigning(s, l)
	}
	return m
}

// addSigning adds line l to s when it is a signing line.
func (c *compiled) addSigning(s *SigningAgents, l aiLine) {
	v := c.body[l.off : l.off+l.n]
	switch l.kind {
	case aiSigAgent:
		host, _ := ParseSignatureAgentLine(v)
		s.Agents = append(s.Agents, SignatureAgent{Line: int(l.line), Value: v, Host: host})
	case aiCrawlRate:
		// The reading's lines are in file order: the first readable
		// one counts.
		if s.Rate.Line == 0 {
			if cr, ok := ParseMaxCrawlRate(v); ok {
				cr.Line = int(l.line)
				s.Rate = cr
			}
		}
	}
}
