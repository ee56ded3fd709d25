package server

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"net/http"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Decoding a check's body with encoding/json costs about a microsecond a
// URL (the body is scanned twice, then each string unquoted): as much as
// the check itself. decodeCheck reads the common shape of the body by
// hand, in one pass, with each unescaped string a slice of one copy of the
// body; anything else (an unknown or differently cased key, a value of
// another type, invalid UTF-8 in a string, a syntax error)
// goes to decode's path, which gives the same values and every error. A
// test holds the two equal.

// decodeCheck reads the body of POST /v1/check into req, as decode does;
// sc (nil: none) remembers long strings already unescaped.
func decodeCheck(w http.ResponseWriter, r *http.Request, req *CheckRequest, sc *stringCache) *Error {
	var buf bytes.Buffer
	if n := r.ContentLength; n > 0 && n <= MaxBodyBytes {
		// ReadFrom wants bytes.MinRead free before each read, the one
		// that finds the end too: room for it spares a second buffer.
		buf.Grow(int(n) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, MaxBodyBytes)); err != nil {
		return readFailure(err, "")
	}
	return decodeCheckBodyCached(buf.Bytes(), req, sc)
}

// decodeCheckBody decodes a whole body into req.
func decodeCheckBody(body []byte, req *CheckRequest) *Error {
	return decodeCheckBodyCached(body, req, nil)
}

// decodeCheckBodyCached is decodeCheckBody with the strings of sc.
func decodeCheckBodyCached(body []byte, req *CheckRequest, sc *stringCache) *Error {
	var fast CheckRequest
	// The strings read share body's bytes, which no one writes again.
	if parseCheckCached(unsafe.String(unsafe.SliceData(body), len(body)), &fast, sc) {
		*req = fast
		return nil
	}
	return decodeFrom(bytes.NewReader(body), req)
}

// jsonParser reads JSON from s; ok turns false at anything the fast path
// leaves to encoding/json.
type jsonParser struct {
	s     string
	i     int
	ok    bool
	cache *stringCache // nil: none
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether the next byte is c,
// consuming it if so.
func (p *jsonParser) next(c byte) bool {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// null consumes a null.
func (p *jsonParser) null() bool {
	p.ws()
	if strings.HasPrefix(p.s[p.i:], "null") {
		p.i += 4
		return true
	}
	return false
}

// str reads a string: a slice of s when it has no escape, else unescaped
// (invalid UTF-8 is left to encoding/json).
func (p *jsonParser) str() string {
	if !p.next('"') {
		p.ok = false
		return ""
	}
	return p.strFrom(p.i, false)
}

// longStr is str for a string that may be long and sent again (a
// robots.txt): it is looked for among the strings of p.cache first, and
// kept there.
func (p *jsonParser) longStr() string {
	if p.cache == nil {
		return p.str()
	}
	if !p.next('"') {
		p.ok = false
		return ""
	}
	if v, end, ok := p.cache.find(p.s, p.i); ok {
		p.i = end + 1
		return v
	}
	return p.strFrom(p.i, true)
}

// strFrom reads the rest of a string that starts (after its opening
// quote) at start, keeping it in p.cache when keep is set.
func (p *jsonParser) strFrom(start int, keep bool) string {
	escaped, ascii := false, true
	s := p.s
	for p.i < len(s) {
		// Eight bytes at a time up to the first that needs a look: a
		// robots.txt is a few KB of plain text.
		nonASCII := uint64(swarHigh)
		if !ascii {
			nonASCII = 0
		}
		for p.i+8 <= len(s) {
			if m := stringSpecial(load8(s, p.i), nonASCII); m != 0 {
				p.i += bits.TrailingZeros64(m) >> 3
				break
			}
			p.i += 8
		}
		if p.i == len(s) {
			break
		}
		c := s[p.i]
		switch {
		case c == '"':
			v := s[start:p.i]
			p.i++
			if !ascii && !utf8.ValidString(v) {
				p.ok = false
				return ""
			}
			if escaped {
				u := p.unescape(v)
				if p.ok && keep {
					p.cache.add(v, u)
				}
				return u
			}
			return v
		case c == '\\':
			escaped = true
			p.i += 2
			continue
		case c < 0x20:
			p.ok = false
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	p.ok = false
	return ""
}

const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// load8 reads s[i:i+8] as a little-endian word: byte k of it is s[i+k].
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// stringSpecial returns, for eight bytes of a JSON string, a word whose
// lowest set bit is the high bit of the first byte that is '"', '\\', a
// control character, or (with nonASCII swarHigh) not ASCII; 0 when none
// is. (Bytes after the first may be marked falsely: a byte that matches
// borrows from the next.)
func stringSpecial(w, nonASCII uint64) uint64 {
	q := w ^ (swarOnes * '"')
	b := w ^ (swarOnes * '\\')
	return ((q-swarOnes)&^q | (b-swarOnes)&^b | (w-swarOnes*0x20)&^w | w&nonASCII) & swarHigh
}

// unescape returns v, the text of a string holding escapes, unescaped; a
// bad escape turns p.ok false.
func (p *jsonParser) unescape(v string) string {
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		j := strings.IndexByte(v[i:], '\\')
		if j < 0 {
			b = append(b, v[i:]...)
			break
		}
		b = append(b, v[i:i+j]...)
		i += j + 1
		if i == len(v) {
			p.ok = false
			return ""
		}
		switch v[i] {
		case '"', '\\', '/':
			b = append(b, v[i])
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(v[i+1:])
			if !ok {
				p.ok = false
				return ""
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// A pair makes one rune; anything else is U+FFFD, as
				// encoding/json reads it.
				r2, ok := rune(-1), false
				if strings.HasPrefix(v[i+1:], `\u`) {
					r2, ok = hex4(v[i+3:])
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default: // not an escape
			p.ok = false
			return ""
		}
	}
	// b is not written again: the string shares it.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// boolean reads true or false.
func (p *jsonParser) boolean() bool {
	p.ws()
	switch {
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false
	}
	p.ok = false
	return false
}

// strs reads an array of strings, or null (nil).
func (p *jsonParser) strs() []string {
	if p.null() {
		return nil
	}
	if !p.next('[') {
		p.ok = false
		return nil
	}
	out := []string{}
	if p.next(']') {
		return out
	}
	for p.ok {
		out = append(out, p.str())
		if p.next(',') {
			continue
		}
		if !p.next(']') {
			p.ok = false
		}
		break
	}
	return out
}

// parseCheck reads body into req when it is an object of the fields of a
// CheckRequest, spelt as documented, each of its type, and nothing after
// it; false leaves the body to encoding/json.
func parseCheck(body string, req *CheckRequest) bool {
	return parseCheckCached(body, req, nil)
}

// parseCheckCached is parseCheck with the strings of sc.
func parseCheckCached(body string, req *CheckRequest, sc *stringCache) bool {
	p := &jsonParser{s: body, ok: true, cache: sc}
	if !p.next('{') {
		return false
	}
	if !p.next('}') {
		// A member given twice goes to decode's path, which refuses it.
		var seen uint8
		for p.ok {
			key := p.str()
			bit := checkKeyBit(key)
			if !p.ok || !p.next(':') || seen&bit != 0 {
				return false
			}
			seen |= bit
			switch key {
			case "robots":
				if p.null() {
					req.Robots = nil
				} else {
					v := p.longStr()
					req.Robots = &v
				}
			case "origin":
				if !p.null() {
					req.Origin = p.str()
				}
			case "dialect":
				if !p.null() {
					req.Dialect = p.str()
				}
			case "urls":
				req.URLs = p.strs()
			case "crawlers":
				req.Crawlers = p.strs()
			case "agents":
				req.Agents = p.strs()
			case "usage":
				if !p.null() {
					req.Usage = p.boolean()
				}
			default:
				return false
			}
			if p.next(',') {
				continue
			}
			if !p.next('}') {
				return false
			}
			break
		}
	}
	p.ws()
	return p.ok && p.i == len(p.s)
}

// checkKeyBit is the bit of a CheckRequest member in parseCheckCached's
// set of members seen; 0 for any other key (which that path leaves to
// decode).
func checkKeyBit(key string) uint8 {
	switch key {
	case "robots":
		return 1
	case "origin":
		return 2
	case "dialect":
		return 4
	case "urls":
		return 8
	case "crawlers":
		return 16
	case "agents":
		return 32
	case "usage":
		return 64
	}
	return 0
}

// stringCache remembers the last few long strings with escapes that bodies
// held, and their values: a robots.txt sent again and again (a fleet's
// questions, the page's) is then found with a search for its closing
// quote, a hash and a comparison, without being scanned and unescaped
// again. Only strings that unescaped without error are kept, so that a
// string found has the value the scan would give it. It is safe for
// concurrent use.
type stringCache struct {
	seed  maphash.Seed
	mu    sync.Mutex
	items [stringCacheSize]cachedString
	next  int
}

type cachedString struct {
	hash     uint64
	raw, val string
}

// What stringCache keeps: a few strings, each long enough for the search
// to pay and no longer than a robots.txt crawlers read, with room to spare.
const (
	stringCacheSize = 8
	minCachedString = 256
	maxCachedString = 1 << 20
)

func newStringCache() *stringCache { return &stringCache{seed: maphash.MakeSeed()} }

// find looks for the string whose text starts at s[start:] (after its
// opening quote) among those kept: its value and the index of its closing
// quote.
func (c *stringCache) find(s string, start int) (val string, end int, ok bool) {
	end = closingQuote(s, start)
	n := end - start
	if end < 0 || n < minCachedString || n > maxCachedString {
		return "", 0, false
	}
	raw := s[start:end]
	h := maphash.String(c.seed, raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.items {
		if it := &c.items[i]; it.hash == h && it.raw == raw {
			return it.val, end, true
		}
	}
	return "", 0, false
}

// add keeps raw, the text of a string, and its value val.
func (c *stringCache) add(raw, val string) {
	if len(raw) < minCachedString || len(raw) > maxCachedString {
		return
	}
	h := maphash.String(c.seed, raw)
	raw = strings.Clone(raw) // not the whole body
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.items {
		if c.items[i].hash == h && c.items[i].raw == raw {
			return
		}
	}
	c.items[c.next] = cachedString{hash: h, raw: raw, val: val}
	c.next = (c.next + 1) % stringCacheSize
}

// closingQuote returns the index of the first '"' in s from start that no
// backslash escapes (an even run of them before it), or -1.
func closingQuote(s string, start int) int {
	for i := start; ; {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			return -1
		}
		q := i + k
		b := q
		for b > start && s[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q
		}
		i = q + 1
	}
}
