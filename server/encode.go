package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt/tester"
)

// The answer of a check is most of the work of a large batch when
// encoding/json writes it (reflection, field by field, 1,000 results of a
// dozen fields each). appendCheckReport writes the same bytes as
// json.Marshal, by hand: a test holds the two equal on the corpus and on
// hostile strings.

// bufPool holds the buffers answers are written into.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// The headers of a JSON answer, shared as securityHeaders are.
var (
	jsonContentType = []string{"application/json; charset=utf-8"}
	noStore         = []string{"no-store"}
)

// writeCheckReport answers rep as writeJSON would, byte for byte, without
// reflection, or with 413 when it is more than maxBytes. It reports false,
// having written nothing, when rep holds a value it does not write as
// json.Marshal does (a crawl-delay that is not a finite number, which
// json.Marshal refuses): the caller then answers.
func writeCheckReport(w http.ResponseWriter, rep *tester.CheckReport, maxBytes int64) bool {
	bp := bufPool.Get().(*[]byte)
	b := (*bp)[:0]
	if n := reportSize(rep); cap(b) < n {
		b = make([]byte, 0, n)
	}
	b, ok := appendCheckReport(b, rep)
	if ok && int64(len(b)) >= maxBytes {
		writeError(w, &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf(
			"the answer is %s, more than %s (--max-answer-bytes); ask about fewer or shorter URLs, or fewer crawlers, in several requests", sizeString(int64(len(b))+1), sizeString(maxBytes))})
	} else if ok {
		b = append(b, '\n')
		h := w.Header()
		h["Content-Type"] = jsonContentType
		h["Cache-Control"] = noStore
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	}
	putBuf(bp, b)
	return ok
}

// reportSize guesses the length of rep's JSON, a little over, so that
// its buffer is made once.
func reportSize(rep *tester.CheckReport) int {
	n := 512
	for i := range rep.Results {
		r := &rep.Results[i]
		n += 320 + 2*len(r.URL) + len(r.Input) + len(r.Path) + len(r.Rule) + len(r.Reason) + len(r.Group.Reason) + 8*len(r.Group.Lines)
		for j := range r.Matches {
			m := &r.Matches[j]
			n += 80 + len(m.Pattern) + len(m.Text) + len(m.Lost)
		}
	}
	return n + n/8
}

// appendCheckReport appends the JSON of rep, as json.Marshal writes it.
func appendCheckReport(b []byte, rep *tester.CheckReport) ([]byte, bool) {
	b, ok := appendCheckHead(b, rep)
	if !ok {
		return b, false
	}
	if rep.Results == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range rep.Results {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendCheckResult(b, &rep.Results[i]); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	return appendCheckTail(b, rep), true
}

// appendCheckHead appends the JSON of rep up to its results' value.
func appendCheckHead(b []byte, rep *tester.CheckReport) ([]byte, bool) {
	b = append(b, `{"file":`...)
	b = appendString(b, rep.File)
	if rep.Fetch != nil {
		f, err := json.Marshal(rep.Fetch)
		if err != nil {
			return b, false
		}
		b = append(b, `,"fetch":`...)
		b = append(b, f...)
	}
	if len(rep.Notes) > 0 {
		b = append(b, `,"notes":`...)
		b = appendStrings(b, rep.Notes)
	}
	return append(b, `,"results":`...), true
}

// appendCheckTail appends the JSON of rep after its results' value.
func appendCheckTail(b []byte, rep *tester.CheckReport) []byte {
	b = append(b, `,"allowed":`...)
	b = strconv.AppendInt(b, int64(rep.Allowed), 10)
	b = append(b, `,"blocked":`...)
	b = strconv.AppendInt(b, int64(rep.Blocked), 10)
	return append(b, '}')
}

// checkStream is the answer of a check, not yet made: respond writes it
// with writeCheck, each result as it comes (tester.CheckStream), instead of
// holding them all.
type checkStream struct {
	req *tester.CheckRequest
	// usage, when set, adds each result's usage preferences (usage.go).
	usage *checkUsage
}

// putBuf gives a buffer back to bufPool, unless it grew too large to keep.
func putBuf(bp *[]byte, b []byte) {
	if cap(b) <= 1<<20 {
		*bp = b[:0]
		bufPool.Put(bp)
	}
}

// Why a check's writing stopped.
var (
	errAnswerTooLarge = errors.New("server: the answer is larger than its limit")
	errClientGone     = errors.New("server: the client is gone")
	errNotFinite      = errors.New("server: the answer cannot be encoded: a crawl-delay is not a finite number")
)

// stopCheck is the panic by which a check's writer stops tester.CheckStream
// from within its callback (which cannot say stop): runCheck recovers it.
type stopCheck struct{ err error }

// checkWriter writes the answer of a check as tester.Check and
// writeCheckReport would write it (and size notes after its counts),
// holding at most about streamBuffer of it: an answer that fits is written
// at once, and an error before then is answered as one; past that, the
// status is sent and the answer goes out in pieces of that size.
type checkWriter struct {
	w       http.ResponseWriter
	bp      *[]byte
	b       []byte
	sent    int64 // bytes written to w
	started bool  // the status is sent
	max     int64
	expired func() bool
	first   bool
	results int
	notes   []string
	usage   *checkUsage // nil: no usage members
}

// writeCheck answers cs on w, at most maxBytes of it, until expired
// reports true (checked every few results). Its error is nil when the
// answer was written whole; otherwise, with started false, nothing was
// written and the error is the answer to give (errAnswerTooLarge, a
// *tester.Error, the deadline's), and with started true a part of the
// answer was sent: the caller must break the connection, so that the
// client does not take the part for the whole.
func writeCheck(w http.ResponseWriter, cs *checkStream, sizeNotes []string, maxBytes int64, expired func() bool) (started bool, err error) {
	bp := bufPool.Get().(*[]byte)
	cw := &checkWriter{w: w, bp: bp, b: (*bp)[:0], max: maxBytes, expired: expired, first: true, notes: sizeNotes, usage: cs.usage}
	defer func() { putBuf(cw.bp, cw.b) }()
	rep, err := runCheck(cs.req, cw.head, cw.result)
	if err != nil {
		return cw.started, err
	}
	cw.b = append(cw.b, ']')
	cw.b = appendCheckTail(cw.b, rep)
	if len(cw.notes) > 0 {
		cw.b = cw.b[:len(cw.b)-1] // the closing brace
		cw.b = append(cw.b, `,"size_notes":`...)
		cw.b = append(appendStrings(cw.b, cw.notes), '}')
	}
	cw.b = append(cw.b, '\n')
	if cw.sent+int64(len(cw.b)) > cw.max {
		return cw.started, errAnswerTooLarge
	}
	if err := cw.flush(); err != nil {
		return cw.started, err
	}
	return cw.started, nil
}

// runCheck is tester.CheckStream, stopped by a stopCheck panic of each.
func runCheck(req *tester.CheckRequest, before func(*tester.CheckReport), each func(*tester.CheckResult)) (rep *tester.CheckReport, err error) {
	defer func() {
		if v := recover(); v != nil {
			stop, ok := v.(stopCheck)
			if !ok {
				panic(v)
			}
			rep, err = nil, stop.err
		}
	}()
	return tester.CheckStream(req, before, each)
}

func (cw *checkWriter) head(rep *tester.CheckReport) {
	var ok bool
	if cw.b, ok = appendCheckHead(cw.b, rep); !ok {
		panic(stopCheck{errNotFinite})
	}
	cw.b = append(cw.b, '[')
}

func (cw *checkWriter) result(r *tester.CheckResult) {
	if !cw.first {
		cw.b = append(cw.b, ',')
	}
	cw.first = false
	var ok bool
	if cw.b, ok = appendCheckResult(cw.b, r); !ok {
		panic(stopCheck{errNotFinite})
	}
	if cw.usage != nil {
		// The members go before the result's closing brace.
		cw.b = append(cw.usage.appendUsage(cw.b[:len(cw.b)-1], r), '}')
	}
	if cw.sent+int64(len(cw.b)) > cw.max {
		panic(stopCheck{errAnswerTooLarge})
	}
	// The deadline, every 64 results and before each piece goes out.
	full := len(cw.b) >= streamBuffer
	if cw.results++; (cw.results%64 == 0 || full) && cw.expired() {
		panic(stopCheck{context.DeadlineExceeded})
	}
	if full {
		if err := cw.flush(); err != nil {
			panic(stopCheck{err})
		}
	}
}

// flush writes what the buffer holds, after the status the first time.
func (cw *checkWriter) flush() error {
	if !cw.started {
		h := cw.w.Header()
		h["Content-Type"] = jsonContentType
		h["Cache-Control"] = noStore
		cw.w.WriteHeader(http.StatusOK)
		cw.started = true
	}
	n, err := cw.w.Write(cw.b)
	cw.sent += int64(n)
	cw.b = cw.b[:0]
	if err != nil {
		return errClientGone
	}
	return nil
}

func appendCheckResult(b []byte, r *tester.CheckResult) ([]byte, bool) {
	b = append(b, `{"url":`...)
	b = appendString(b, r.URL)
	if r.Input != "" {
		b = append(b, `,"input":`...)
		b = appendString(b, r.Input)
	}
	b = append(b, `,"who":`...)
	b = appendString(b, r.Who)
	if r.Crawler != "" {
		b = append(b, `,"crawler":`...)
		b = appendString(b, r.Crawler)
	}
	if len(r.Agents) > 0 {
		b = append(b, `,"agents":`...)
		b = appendStrings(b, r.Agents)
	}
	b = append(b, `,"dialect":`...)
	b = appendString(b, r.Dialect)
	b = append(b, `,"allowed":`...)
	b = strconv.AppendBool(b, r.Allowed)
	b = append(b, `,"path":`...)
	b = appendString(b, r.Path)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(r.Line), 10)
	b = append(b, `,"rule":`...)
	b = appendString(b, r.Rule)
	b = append(b, `,"reason":`...)
	b = appendString(b, r.Reason)
	b = append(b, `,"group":{"kind":`...)
	b = appendString(b, r.Group.Kind)
	if r.Group.Token != "" {
		b = append(b, `,"token":`...)
		b = appendString(b, r.Group.Token)
	}
	b = append(b, `,"lines":`...)
	if r.Group.Lines == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, l := range r.Group.Lines {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(l), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"reason":`...)
	b = appendString(b, r.Group.Reason)
	b = append(b, '}')
	if r.CrawlDelay != nil {
		f := *r.CrawlDelay
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return b, false
		}
		b = append(b, `,"crawl_delay":`...)
		b = appendFloat(b, f)
	}
	if r.CrawlDelayLine != 0 {
		b = append(b, `,"crawl_delay_line":`...)
		b = strconv.AppendInt(b, int64(r.CrawlDelayLine), 10)
	}
	b = append(b, `,"matches":`...)
	if r.Matches == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Matches {
			m := &r.Matches[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"line":`...)
			b = strconv.AppendInt(b, int64(m.Line), 10)
			b = append(b, `,"allow":`...)
			b = strconv.AppendBool(b, m.Allow)
			b = append(b, `,"pattern":`...)
			b = appendString(b, m.Pattern)
			b = append(b, `,"text":`...)
			b = appendString(b, m.Text)
			if m.Implicit {
				b = append(b, `,"implicit":true`...)
			}
			if m.Lost != "" {
				b = append(b, `,"lost":`...)
				b = appendString(b, m.Lost)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.Policy != "" {
		b = append(b, `,"policy":`...)
		b = appendString(b, r.Policy)
	}
	if r.FetchPolicy != "" {
		b = append(b, `,"fetch_policy":`...)
		b = appendString(b, r.FetchPolicy)
	}
	return append(b, '}'), true
}

// appendStrings appends a non-nil list of strings.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendFloat writes a finite float64 as encoding/json does: the shortest
// decimal that reads back the same, in exponent form only for very large
// or small values, with a one-digit negative exponent unpadded.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// plainASCII marks the bytes below utf8.RuneSelf that json.Marshal writes
// as they are: not control characters, not '"' or '\\', and not '<', '>'
// or '&', which it escapes so that JSON can sit in HTML.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// encodeSpecial returns, for eight bytes of a string, a word whose lowest
// set bit is the high bit of the first byte appendString cannot copy as it
// is (not plainASCII, or not ASCII); 0 when there is none. (Bytes after
// the first may be marked falsely, as in stringSpecial.)
func encodeSpecial(w uint64) uint64 {
	q := w ^ (swarOnes * '"')
	bs := w ^ (swarOnes * '\\')
	lt := w ^ (swarOnes * '<')
	gt := w ^ (swarOnes * '>')
	amp := w ^ (swarOnes * '&')
	return ((q-swarOnes)&^q | (bs-swarOnes)&^bs | (lt-swarOnes)&^lt | (gt-swarOnes)&^gt |
		(amp-swarOnes)&^amp | (w-swarOnes*0x20)&^w | w) & swarHigh
}

// appendString writes s as a JSON string as json.Marshal does: the escapes
// \" \\ \b \f \n \r \t, \u00XX for the other control characters and for
// '<', '>' and '&', \ufffd for each byte of invalid UTF-8, and \u2028 and
// \u2029 (which JavaScript reads as line ends).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain bytes at a time up to the first that needs a look.
		for i+8 <= len(s) {
			if m := encodeSpecial(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plainASCII[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
