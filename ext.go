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

// fileExt holds the fields that belong to the whole file.
type fileExt struct {
	sitemaps    []Sitemap
	hosts       []Host
	cleanParams []CleanParam
}

func (e *fileExt) addSitemap(ln *lexLine) {
	if ln.value != "" {
		e.sitemaps = append(e.sitemaps, Sitemap{URL: ln.value, Line: ln.num})
	}
}

func (e *fileExt) add(ln *lexLine) {
	switch ln.field {
	case FieldHost:
		if ln.value != "" {
			e.hosts = append(e.hosts, Host{Value: ln.value, Line: ln.num})
		}
	case FieldCleanParam:
		if cp, ok := parseCleanParam(ln.value); ok {
			cp.Line = ln.num
			e.cleanParams = append(e.cleanParams, cp)
		}
	}
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

// Sitemaps returns the sitemap lines of the file, in order.
func (r *Robots) Sitemaps() []Sitemap { return r.google.ext.sitemaps }

// Hosts returns the host lines of the file, in order. Yandex used the first.
func (r *Robots) Hosts() []Host { return r.google.ext.hosts }

// CleanParams returns the readable clean-param lines of the file, in order.
func (r *Robots) CleanParams() []CleanParam { return r.google.ext.cleanParams }

// CleanURL applies the file's clean-param lines to url as Yandex does: query
// parameters named by a clean-param line whose path pattern matches the
// URL's path are removed, giving the canonical URL of the page. A URL that
// no line touches is returned unchanged.
func (r *Robots) CleanURL(url string) string {
	cps := r.google.ext.cleanParams
	if len(cps) == 0 {
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
	for _, cp := range cps {
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
