package robotstxt

import "sync"

// Field is the kind of key a line holds.
type Field uint8

// The fields a robots.txt line can hold. Google reads only user-agent, allow,
// disallow and sitemap; the others are read by other crawlers (see [Dialect])
// and reported by the line report.
const (
	FieldNone        Field = iota // no key: an empty, comment-only or unreadable line
	FieldUserAgent                // user-agent
	FieldAllow                    // allow
	FieldDisallow                 // disallow
	FieldSitemap                  // sitemap
	FieldCrawlDelay               // crawl-delay (Bing, Yandex)
	FieldRequestRate              // request-rate (some crawlers of the 2000s)
	FieldVisitTime                // visit-time (some crawlers of the 2000s)
	FieldCleanParam               // clean-param (Yandex)
	FieldHost                     // host (Yandex, legacy)
	FieldNoindex                  // noindex (never supported by Google in robots.txt)
	FieldNofollow                 // nofollow (not a robots.txt field)
	FieldNoarchive                // noarchive (not a robots.txt field)
	FieldUnknown                  // a key no crawler we know reads
)

var fieldNames = [...]string{
	FieldNone:        "",
	FieldUserAgent:   "user-agent",
	FieldAllow:       "allow",
	FieldDisallow:    "disallow",
	FieldSitemap:     "sitemap",
	FieldCrawlDelay:  "crawl-delay",
	FieldRequestRate: "request-rate",
	FieldVisitTime:   "visit-time",
	FieldCleanParam:  "clean-param",
	FieldHost:        "host",
	FieldNoindex:     "noindex",
	FieldNofollow:    "nofollow",
	FieldNoarchive:   "noarchive",
	FieldUnknown:     "unknown",
}

// String returns the field's canonical lower-case name, "unknown" for an
// unknown key and "" for FieldNone.
func (f Field) String() string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return "unknown"
}

// Line is the parser's report on one line of a robots.txt file, in the terms
// of Google's parsing report plus what a linter needs.
type Line struct {
	Number int    // 1-based line number
	Offset int    // byte offset of the line's start in the parsed body
	Text   string // the line as written, without its line ending
	Key    string // the key as written, trimmed; "" when the line has no directive
	Value  string // the value, trimmed, comment removed, not yet normalised
	Field  Field  // what the key means (in the reading of the dialect asked for)

	HasDirective bool // the line has a key and a separator
	Comment      bool // the line is only a comment
	HasComment   bool // the line has a '#' comment
	Empty        bool // the line is empty or only white space
	Typo         bool // the key is a typo the dialect accepts (useragent, dissallow, site-map...)
	PrefixKey    bool // the key only starts with a field name (Google reads "Disallowed" as disallow)
	MissingColon bool // white space stands where the colon should be
	TooLong      bool // the line is longer than the 16,663 bytes Google reads of it
	NUL          bool // the line holds a NUL byte; Google reads it only up to there
}

// GoogleTag returns the tag Google's parsing report gives the line: one of
// "UserAgent", "Allow", "Disallow", "Sitemap", "Unused" (a field Google knows
// and ignores: crawl-delay, clean-param, host, noindex, nofollow, noarchive)
// and "Unknown".
func (l Line) GoogleTag() string {
	if !l.HasDirective {
		return "Unknown"
	}
	switch l.Field {
	case FieldUserAgent:
		return "UserAgent"
	case FieldAllow:
		return "Allow"
	case FieldDisallow:
		return "Disallow"
	case FieldSitemap:
		return "Sitemap"
	case FieldCrawlDelay, FieldCleanParam, FieldHost, FieldNoindex, FieldNofollow, FieldNoarchive:
		return "Unused"
	}
	return "Unknown"
}

func makeLine(body string, ln *lexLine) Line {
	f := ln.flags
	return Line{
		Number:       ln.num,
		Offset:       ln.start,
		Text:         body[ln.start:ln.end],
		Key:          ln.key,
		Value:        ln.value,
		Field:        ln.field,
		HasDirective: f&flagDirective != 0,
		Comment:      f&flagComment != 0,
		HasComment:   f&flagHasComment != 0,
		Empty:        f&flagEmpty != 0,
		Typo:         f&flagTypo != 0,
		PrefixKey:    f&flagPrefixKey != 0,
		MissingColon: f&flagMissingColon != 0,
		TooLong:      f&flagTooLong != 0,
		NUL:          f&flagNUL != 0,
	}
}

// lineReport is built on first use: crawlers that only ask questions never
// pay for it.
type lineReport struct {
	once  [2]sync.Once
	lines [2][]Line

	startsOnce sync.Once
	starts     []int32 // line n spans body[starts[n-1]:ends[n-1]]
	ends       []int32
}

// lineText returns the text of line n as written, without building the
// full report.
func (r *Robots) lineText(n int) string {
	r.report.startsOnce.Do(func() {
		splitLines(r.body, func(_, start, end int) {
			r.report.starts = append(r.report.starts, int32(start))
			r.report.ends = append(r.report.ends, int32(end))
		})
	})
	if n < 1 || n > len(r.report.starts) {
		return ""
	}
	return r.body[r.report.starts[n-1]:r.report.ends[n-1]]
}

// Lines returns the report on every line of the parsed body as Google's
// library reads it, in order: the line count includes the empty line after a
// final line ending, as Google's report counts it. It is built on first use
// by the same parser that built r, and shared: callers must not modify it.
func (r *Robots) Lines() []Line {
	return r.linesFor(readGoogle)
}

// LinesFor is Lines in the reading of dialect d: the strict dialects
// ([RFC9309], [Original]) read keys exactly and require the colon.
func (r *Robots) LinesFor(d Dialect) []Line {
	return r.linesFor(d.reading())
}

func (r *Robots) linesFor(mode reading) []Line {
	r.report.once[mode].Do(func() {
		var lines []Line
		lex(r.body, mode, func(ln *lexLine) {
			lines = append(lines, makeLine(r.body, ln))
		})
		r.report.lines[mode] = lines
	})
	return r.report.lines[mode]
}

// Line returns the report on line n (1-based) as Google reads it, and false
// when the body has no such line.
func (r *Robots) Line(n int) (Line, bool) {
	lines := r.Lines()
	if n < 1 || n > len(lines) {
		return Line{}, false
	}
	return lines[n-1], true
}
