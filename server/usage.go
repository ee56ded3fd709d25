package server

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/tester"
)

// A check asked with "usage": true gives each result two more members,
// in the shape "robotstxt eval" answers with, so that a tool reads both
// with one parser:
//
//	"usage":   null when the URL may not be crawled (preferences apply
//	           only to what may be), else {"lines": [...], "search",
//	           "train-ai" (each "y", "n" or "unknown"), and any other key
//	           the deciding Content-Usage rules set}; lines are theirs,
//	           ascending, [] when none;
//	"signals": null when the crawler's groups have no Content-Signal
//	           line, else {"ai-input", "ai-train" ("yes", "no" or null),
//	           "line", "search"}.
//
// Members in the order encoding/json writes a map's: by key. The answers
// are the core's (robotstxt.Decider.Usage), asked with the question the
// tester asked for the result: its crawler or tokens, in the request's
// dialect, of the answer its row read (a live file read with its
// crawler's fetch policy); a result a fetch policy decided (no file, or
// an error status) has no preference and no signal.

// checkUsage answers the usage members of a check's results. It is used
// by one request, from one goroutine.
type checkUsage struct {
	src     *tester.Source
	dialect robotstxt.Dialect // the request's
	rows    []usageRow
	last    int         // the row of the last result: results come row by row
	kv      []usagePair // scratch: a result's usage members
}

// usageRow is the question of one row of a check, prepared once.
type usageRow struct {
	who, crawler, dialect, fetchPolicy string
	d                                  *robotstxt.Decider // nil: no rules apply
}

type usagePair struct{ key, value string }

func newCheckUsage(src *tester.Source, d robotstxt.Dialect) *checkUsage {
	return &checkUsage{src: src, dialect: d, last: -1}
}

// row returns the prepared question of r's row.
func (u *checkUsage) row(r *tester.CheckResult) *usageRow {
	match := func(w *usageRow) bool {
		return w.who == r.Who && w.crawler == r.Crawler && w.dialect == r.Dialect && w.fetchPolicy == r.FetchPolicy
	}
	// The rows repeat in order, URL after URL: the next one is likely.
	if n := len(u.rows); n > 0 {
		if next := (u.last + 1) % n; match(&u.rows[next]) {
			u.last = next
			return &u.rows[next]
		}
	}
	if i := slices.IndexFunc(u.rows, func(w usageRow) bool { return match(&w) }); i >= 0 {
		u.last = i
		return &u.rows[i]
	}
	w := usageRow{who: r.Who, crawler: r.Crawler, dialect: r.Dialect, fetchPolicy: r.FetchPolicy}
	// The answer the row read: with a fetch policy per row, its own.
	ad := r.FetchPolicy
	if ad == "" {
		ad = r.Dialect
	}
	d, err := robotstxt.ParseDialect(ad)
	if err != nil {
		d = robotstxt.Google
	}
	if a := u.src.Answer(d); a.Policy == fetch.Rules && a.Robots != nil {
		// The question the tester asked (tester.check): the crawler in the
		// request's dialect (its own when none), tokens in Google's when
		// none is named.
		q := robotstxt.Query{Agents: r.Agents, Dialect: u.dialect}
		if c, ok := robotstxt.LookupCrawler(r.Crawler); ok && r.Crawler != "" {
			q.Crawler = &c
		}
		q.Dialect = q.ReadsIn()
		w.d = a.Robots.Decider(q)
	}
	u.rows = append(u.rows, w)
	u.last = len(u.rows) - 1
	return &u.rows[u.last]
}

// appendUsage appends the usage and signals members of r (with their
// leading commas).
func (u *checkUsage) appendUsage(b []byte, r *tester.CheckResult) []byte {
	w := u.row(r)
	var ua robotstxt.UsageAnswer
	if w.d != nil {
		ua = w.d.Usage(r.URL)
	}
	b = append(b, `,"usage":`...)
	if !r.Allowed {
		b = append(b, "null"...)
	} else {
		// As a map of them is written: the defaults, each key's last
		// value, "lines" over any key of that name, sorted.
		kv := append(u.kv[:0], usagePair{robotstxt.UsageTrainAI, "unknown"}, usagePair{robotstxt.UsageSearch, "unknown"})
		for _, p := range ua.Usage.Prefs {
			if p.Key == "lines" {
				continue
			}
			if i := slices.IndexFunc(kv, func(x usagePair) bool { return x.key == p.Key }); i >= 0 {
				kv[i].value = p.Pref.String()
			} else {
				kv = append(kv, usagePair{p.Key, p.Pref.String()})
			}
		}
		kv = append(kv, usagePair{key: "lines"})
		slices.SortFunc(kv, func(a, b usagePair) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		u.kv = kv
		b = append(b, '{')
		for i, p := range kv {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, p.key)
			b = append(b, ':')
			if p.key != "lines" {
				b = appendString(b, p.value)
				continue
			}
			b = append(b, '[')
			for j, l := range ua.Usage.Lines {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(l), 10)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	b = append(b, `,"signals":`...)
	s := ua.Signals
	if s.Line == 0 {
		return append(b, "null"...)
	}
	b = append(b, `{"ai-input":`...)
	b = appendSignal(b, s.AIInput)
	b = append(b, `,"ai-train":`...)
	b = appendSignal(b, s.AITrain)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(s.Line), 10)
	b = append(b, `,"search":`...)
	b = appendSignal(b, s.Search)
	return append(b, '}')
}

// appendSignal writes a Content-Signal value: "yes", "no", or null when
// the line does not set it.
func appendSignal(b []byte, v robotstxt.Signal) []byte {
	if v == robotstxt.SignalUnset {
		return append(b, "null"...)
	}
	return appendString(b, v.String())
}

// What answering usage questions builds on a file, beyond the answer:
// each reading the questions use (Google's, which Bing and Yandex share;
// RFC 9309's; the original draft's; Baidu's) compiles its rule sets and,
// on the first usage question, its usage table (robotstxt's Footprint
// bounds both). A request holds it in flight while it runs, so that many
// requests about heavy files wait for each other rather than all building
// at once; the parse cache weighs what stays once the request is done.
const (
	// usageFactor bounds what a reading's usage table holds while it is
	// built, per byte of the Content-Usage and Content-Signal lines: it
	// keeps at most 16 (TestUsageMemory), and its build holds as much
	// again.
	usageFactor = 32
	// liveUsageBytes is what a live file, not read yet, is taken to
	// hold of such lines.
	liveUsageBytes = 64 << 10
)

// usageLineBytes counts the bytes of the lines of body that may be
// Content-Usage or Content-Signal lines (a key starting "content-", any
// case), in what crawlers read of it: an upper bound, found without a
// parse.
func usageLineBytes(body []byte) int64 {
	body = body[:min(len(body), robotstxt.DefaultMaxBytes)]
	var n int64
	for len(body) > 0 {
		end := bytes.IndexAny(body, "\r\n")
		line := body
		if end >= 0 {
			line, body = body[:end], body[end+1:]
		} else {
			body = nil
		}
		key := bytes.TrimLeft(line, " \t")
		if len(key) >= 8 && bytes.EqualFold(key[:8], []byte("content-")) {
			n += int64(len(line)) + 1
		}
	}
	return n
}

// readingsOf counts the readings the questions of crawlers (and of
// agents, read in Google's unless d is set) compile, d when it is set.
func readingsOf(d robotstxt.Dialect, crawlers []robotstxt.Crawler, agents bool) int {
	if d != robotstxt.DefaultDialect {
		return 1
	}
	seen := map[robotstxt.Dialect]bool{}
	if agents || len(crawlers) == 0 {
		seen[robotstxt.Google] = true
	}
	for _, c := range crawlers {
		switch c.Dialect {
		case robotstxt.DefaultDialect, robotstxt.Bing, robotstxt.Yandex:
			seen[robotstxt.Google] = true
		default:
			seen[c.Dialect] = true
		}
	}
	return len(seen)
}

// usageBuildCost is what a check's usage members build, in flight: the
// usage tables of the readings its rows use.
func usageBuildCost(in *CheckInput) int64 {
	lines := int64(liveUsageBytes)
	if in.Live == nil {
		lines = usageLineBytes(in.Robots)
	}
	return int64(readingsOf(in.Dialect, in.Crawlers, len(in.Agents) > 0)) * usageFactor * lines
}
