package robotstxt

import (
	"iter"
	"strings"
	"sync"
)

// Field is the kind of key a line holds.
type Field uint8

// The fields a robots.txt line can hold. Google reads only user-agent, allow,
// disallow and sitemap; the others are read by other crawlers (see [Dialect])
// and reported by the line report.
const (
	FieldNone           Field = iota // no key: an empty, comment-only or unreadable line
	FieldUserAgent                   // user-agent
	FieldAllow                       // allow
	FieldDisallow                    // disallow
	FieldSitemap                     // sitemap
	FieldCrawlDelay                  // crawl-delay (Bing, Yandex)
	FieldRequestRate                 // request-rate (some crawlers of the 2000s)
	FieldVisitTime                   // visit-time (some crawlers of the 2000s)
	FieldCleanParam                  // clean-param (Yandex)
	FieldHost                        // host (Yandex, legacy)
	FieldNoindex                     // noindex (never supported by Google in robots.txt)
	FieldNofollow                    // nofollow (not a robots.txt field)
	FieldNoarchive                   // noarchive (not a robots.txt field)
	FieldUnknown                     // a key no crawler we know reads
	FieldContentUsage                // content-usage (IETF AI preferences, draft-ietf-aipref-attach)
	FieldContentSignal               // content-signal (Cloudflare's AI content signals)
	FieldSignatureAgent              // signature-agent (Web Bot Auth editors' draft; read only with ExtWebBotAuth)
	FieldMaxCrawlRate                // max-crawl-rate (Web Bot Auth editors' draft; read only with ExtWebBotAuth)
)

var fieldNames = [...]string{
	FieldNone:           "",
	FieldUserAgent:      "user-agent",
	FieldAllow:          "allow",
	FieldDisallow:       "disallow",
	FieldSitemap:        "sitemap",
	FieldCrawlDelay:     "crawl-delay",
	FieldRequestRate:    "request-rate",
	FieldVisitTime:      "visit-time",
	FieldCleanParam:     "clean-param",
	FieldHost:           "host",
	FieldNoindex:        "noindex",
	FieldNofollow:       "nofollow",
	FieldNoarchive:      "noarchive",
	FieldUnknown:        "unknown",
	FieldContentUsage:   "content-usage",
	FieldContentSignal:  "content-signal",
	FieldSignatureAgent: "signature-agent",
	FieldMaxCrawlRate:   "max-crawl-rate",
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
	Field  Field  // what the key means (in the reading of the dialect asked for, with the file's Extensions)

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
// and ignores: clean-param, content-signal, content-usage, crawl-delay,
// domain, host, noarchive, nofollow, noindex, request-rate, revisit-after,
// visit-time) and "Unknown".
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
	case FieldCrawlDelay, FieldCleanParam, FieldHost, FieldNoindex, FieldNofollow, FieldNoarchive,
		FieldRequestRate, FieldVisitTime, FieldContentUsage, FieldContentSignal:
		return "Unused"
	}
	if strings.EqualFold(l.Key, "domain") || strings.EqualFold(l.Key, "revisit-after") {
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

// lineIndex is where each line starts, built on the first question that
// needs a line by its number (an explanation's rule text, Line). It keeps
// four bytes a line: line n spans body[starts[n-1]:end], end being where the
// next line starts less its line ending. The line reports themselves are
// never kept: each is read again from the body when asked for, which takes
// no allocation.
type lineIndex struct {
	once   sync.Once
	starts []uint32 // one per line, then len(body)+1
}

// index returns the line index of the body, building it on first use.
func (r *Robots) index() []uint32 {
	r.lines.once.Do(func() {
		n := 0
		splitLines(r.body, func(int, int, int) { n++ })
		starts := make([]uint32, 0, n+1)
		splitLines(r.body, func(_, start, _ int) { starts = append(starts, uint32(start)) })
		r.lines.starts = append(starts, uint32(len(r.body))+1)
	})
	return r.lines.starts
}

// lineBounds returns the bounds of line n (1-based), and false when the
// body has no such line.
func (r *Robots) lineBounds(n int) (start, end int, ok bool) {
	starts := r.index()
	if n < 1 || n >= len(starts) {
		return 0, 0, false
	}
	start, next := int(starts[n-1]), int(starts[n])
	if next > len(r.body) {
		return start, len(r.body), true // the last line has no line ending
	}
	end = next - 1
	if end > start && r.body[end] == '\n' && r.body[end-1] == '\r' {
		end--
	}
	return start, end, true
}

// lineText returns the text of line n as written, without its ending.
func (r *Robots) lineText(n int) string {
	start, end, _ := r.lineBounds(n)
	return r.body[start:end]
}

// Lines returns the report on every line of the parsed body as Google's
// library reads it, in order, each with its index (the line number less
// one), as [slices.All] does: the line count includes the empty line after a
// final line ending, as Google's report counts it. The reports are read from
// the body as the loop asks for them: none is kept, so a loop over the
// lines of any file takes no memory. [Robots.NumLines] counts them.
func (r *Robots) Lines() iter.Seq2[int, Line] {
	return r.linesFor(readGoogle)
}

// LinesFor is Lines in the reading of dialect d: the strict dialects
// ([RFC9309], [Original]) read keys exactly and require the colon.
func (r *Robots) LinesFor(d Dialect) iter.Seq2[int, Line] {
	return r.linesFor(d.reading())
}

func (r *Robots) linesFor(mode reading) iter.Seq2[int, Line] {
	return func(yield func(int, Line) bool) {
		stop := false
		x := r.google.extensions
		lex(r.body, mode, func(ln *lexLine) {
			x.classify(ln)
			if !stop && !yield(ln.num-1, makeLine(r.body, ln)) {
				stop = true
			}
		})
	}
}

// NumLines returns the number of lines of the parsed body, counting the
// empty line after a final line ending as Lines does.
func (r *Robots) NumLines() int { return len(r.index()) - 1 }

// Line returns the report on line n (1-based) as Google reads it, and false
// when the body has no such line. It does not allocate once the line index
// is built (on the first call), which keeps four bytes a line.
func (r *Robots) Line(n int) (Line, bool) {
	return r.lineFor(readGoogle, n)
}

// LineFor is Line in the reading of dialect d.
func (r *Robots) LineFor(d Dialect, n int) (Line, bool) {
	return r.lineFor(d.reading(), n)
}

func (r *Robots) lineFor(mode reading, n int) (Line, bool) {
	start, end, ok := r.lineBounds(n)
	if !ok {
		return Line{}, false
	}
	ln := classify(r.body[start:end], mode)
	ln.num, ln.start, ln.end = n, start, end
	r.google.extensions.classify(&ln)
	return makeLine(r.body, &ln), true
}
