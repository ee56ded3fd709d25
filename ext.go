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
