package robotstxt

import (
	"math/bits"
	"strings"
)

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// PathParamsQuery returns the part of a URL that robots.txt rules are matched
// against, as Google's library extracts it: the path, params and query, with
// the scheme, authority and fragment dropped. The result always starts with
// '/'; a URL with no path gives "/". The URL is not otherwise normalised.
func PathParamsQuery(url string) string {
	p, slash := splitPath(url)
	if slash {
		return "/" + p
	}
	return p
}

// URLHead returns the scheme and authority of url as a robots.txt question
// reads them: the text before its path, params, query or fragment, that is
// before the first '/', '?', ';' or '#' after "scheme://" (where
// PathParamsQuery starts reading): "https://example.com:8080" of
// "https://example.com:8080/a?b". The rest is the path, read as given:
// nothing in it makes a URL unreadable (a bare '%' is one more byte, as
// Google's library reads it). A URL's origin is read from its head alone
// (fetch.OriginOf), so every face that asks about a URL (check, eval, bulk,
// the service) accepts the same URLs.
func URLHead(url string) string {
	from := authorityStart(url)
	if from < 0 {
		return url[:strings.IndexByte(url, '#')] // a fragment first
	}
	for i := from; i < len(url); i++ {
		switch url[i] {
		case '/', '?', ';', '#':
			return url[:i]
		}
	}
	return url
}

// splitPath finds the path, params and query of url without allocating. When
// slash is true the result lacks its leading '/' (it starts with '?' or ';')
// and the caller must prepend one.
func splitPath(url string) (p string, slash bool) {
	p, slash = splitPathRaw(url)
	if h := strings.IndexByte(p, '#'); h >= 0 {
		p = p[:h]
	}
	return p, slash
}

// splitPathRaw is splitPath without cutting the fragment: the result runs
// to the end of url.
//
// The common case, "http://" or "https://" then the authority, is taken
// here: each scheme is compared in one load, and the path starts at the
// first '/', '?' or ';' after it, a '#' before that leaving none. The
// authority is read eight bytes at a time for the bytes b with b|0x1C ==
// 0x3F, which are those four and the apostrophe, '+', '3' and '7': a byte
// found that is one of the last four is passed over (by the byte loop).
// Any other URL has its authority's start found the general way
// (authorityStart), and is then read the same way.
func splitPathRaw(url string) (p string, slash bool) {
	var from int
	switch {
	case len(url) >= 8 && url[:8] == "https://":
		from = 8
	case len(url) >= 7 && url[:7] == "http://":
		from = 7
	default:
		if from = authorityStart(url); from < 0 {
			return "/", false // the fragment starts before the authority
		}
	}
	i := from
	for ; i+8 <= len(url); i += 8 {
		if m := zeroBytes((le64At(url, i) | 0x1C*ones8) ^ 0x3F*ones8); m != 0 {
			if i += bits.TrailingZeros64(m) / 8; url[i] == '/' {
				return url[i:], false // the usual case
			}
			return pathAt(url, i)
		}
	}
	if j := len(url) - 8; i < len(url) && j >= from {
		// The last bytes, by a load that overlaps bytes already looked
		// at: their marks are cleared.
		if m := zeroBytes((le64At(url, j)|0x1C*ones8)^0x3F*ones8) &^ (1<<(8*(i-j)) - 1); m != 0 {
			return pathAt(url, j+bits.TrailingZeros64(m)/8)
		}
		return "/", false
	}
	return pathAt(url, i)
}

// pathAt is splitPathRaw from url[i] on, which may be the first byte of the
// path or of a fragment or a byte to pass over, a byte at a time.
func pathAt(url string, i int) (string, bool) {
	for ; i < len(url); i++ {
		switch url[i] {
		case '/':
			return url[i:], false
		case '?', ';':
			return url[i:], true
		case '#':
			return "/", false
		}
	}
	return "/", false
}

// authorityStart returns where the authority of url starts, for a URL
// that does not start with "http://" or "https://": after "scheme://"
// when one comes before the path, else at the start (after a leading "//":
// a network-path reference); -1 when a '#' comes before it (the fragment
// starts before the authority: there is no path).
func authorityStart(url string) int {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	early := indexPathStart(url, start, '/')
	end := strings.Index(url[start:], "://")
	if end < 0 || early >= 0 && early < start+end {
		// No scheme, or the "://" stands inside the path or query.
		end = start
	} else {
		end += start + 3
	}
	if strings.IndexByte(url[start:end], '#') >= 0 {
		return -1
	}
	return end
}

// EscapePattern normalises an allow or disallow value the way Google's library
// does before matching: bytes of 0x80 and above are percent-encoded (whether
// or not they are valid UTF-8) and the hex digits of existing %xx escapes are
// upper-cased. A value that needs no change is returned as is.
func EscapePattern(v string) string {
	i := escapeFrom(v)
	if i == len(v) {
		return v
	}
	b := make([]byte, 0, len(v)+16)
	return string(appendPercentEncoded(append(b, v[:i]...), v[i:], isHighByte))
}

// escapeFrom returns the index of the first byte EscapePattern changes in
// v, or len(v) when it changes none: percentEncodeFrom for isHighByte,
// with no call a byte (parsing and the first answers run it on every
// value that holds a '%').
func escapeFrom(v string) int {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c >= 0x80 {
			return i
		} else if c == '%' {
			if esc, lower := hexEscapeAt(v, i); lower {
				return i
			} else if esc {
				i += 2
			}
		}
	}
	return len(v)
}

// hexEscapeAt reports whether the '%' at s[i] starts a %xx escape, and
// whether a hex digit of it is lower-case (which escaping upper-cases).
func hexEscapeAt(s string, i int) (esc, lower bool) {
	if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
		return false, false
	}
	return true, s[i+1] >= 'a' || s[i+2] >= 'a'
}

func isHighByte(c byte) bool { return c >= 0x80 }

// NormalizeURL prepares a URL the way crawlers do before they ask a
// robots.txt question: bytes of 0x80 and above, control characters and
// spaces are percent-encoded and the hex digits of %xx escapes are
// upper-cased; everything else, host and fragment included, is kept. It is
// what the CLI applies to what people type; [Robots.Allowed] itself takes the
// URL as given, as Google's library does.
func NormalizeURL(url string) string {
	if isPlainURL(url) {
		return url // the common case, without a call per byte
	}
	return percentEncode(url, func(c byte) bool { return c >= 0x80 || c <= ' ' || c == 0x7f })
}

// isPlainURL reports whether NormalizeURL leaves url as it is for want of
// anything to change: no '%', space, control character, DEL or non-ASCII
// byte.
func isPlainURL(url string) bool {
	for i := 0; i < len(url); i++ {
		if c := url[i]; c <= ' ' || c >= 0x7f || c == '%' {
			return false
		}
	}
	return true
}

// percentEncode percent-encodes the bytes of s for which enc is true and
// upper-cases the hex digits of its %xx escapes. It returns s itself when
// nothing changes.
func percentEncode(s string, enc func(byte) bool) string {
	i := percentEncodeFrom(s, enc)
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	return string(appendPercentEncoded(append(b, s[:i]...), s[i:], enc))
}

// percentEncodeFrom returns the index of the first byte percentEncode
// changes in s, or len(s) when it changes none.
func percentEncodeFrom(s string, enc func(byte) bool) int {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if enc(c) {
			break
		}
		if c != '%' {
			continue
		}
		if esc, lower := hexEscapeAt(s, i); lower {
			break
		} else if esc {
			i += 2
		}
	}
	return i
}

// appendPercentEncoded appends s to dst, percent-encoded as percentEncode
// encodes it.
func appendPercentEncoded(dst []byte, s string, enc func(byte) bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			dst = append(dst, '%', upperHex[unhex(s[i+1])], upperHex[unhex(s[i+2])])
			i += 2
		case enc(c):
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// isUnreserved reports whether c is an unreserved character of RFC 3986.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// notInURI marks the octets that may not appear as they are in a URI (RFC
// 3986 §2): controls, space, DEL, '"', '<', '>', '\\', '^', '`', '{', '|',
// '}' and every octet outside US-ASCII.
var notInURI = func() (t [256]bool) {
	for c := range t {
		t[c] = c <= ' ' || c >= 0x7f
	}
	for _, c := range []byte("\"<>\\^`{|}") {
		t[c] = true
	}
	return t
}()

// normalizeRFC brings a pattern or a URL path to the form RFC 9309 §2.2.2
// compares, RFC 3986's normalisation: octets that may not appear in a URI
// as they are (non-ASCII, controls, space, '"', '<', '>', '\\', '^', '`', '{',
// '|', '}', and a '%' that starts no escape) percent-encoded, %xx escapes of
// unreserved characters decoded, other escapes' hex upper-cased. In a URL
// (isURL), '*' and '$' are literal and written %2A and %24, so that a
// pattern's %2A and %24 match them; in a pattern they stay operators, but a
// '$' that is not the last byte is literal and written %24.
func normalizeRFC(s string, isURL bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(upperHex[d>>4])
				b.WriteByte(upperHex[d&15])
			}
			i += 2
		case notInURI[c] || c == '%':
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		case isURL && c == '*':
			b.WriteString("%2A")
		case c == '$' && (isURL || i != len(s)-1):
			b.WriteString("%24")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func normalizeRFCPattern(p string) string { return normalizeRFC(p, false) }

// decodeOriginal decodes the %xx escapes of a path or pattern for the
// original draft, which compares them decoded, except %2F, which stays an
// escape (upper-cased) so that it never matches a real '/'.
func decodeOriginal(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if d == '/' {
				b.WriteString("%2F")
			} else {
				b.WriteByte(d)
			}
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// TargetURL returns the URL to decide for an HTTP request's origin-form
// request-target (the path and query of the request line, as servers log
// it and as a proxy sees it). Such a target is always a path, but a URL
// that starts with "//" names an authority (Google's library reads
// "//private/x" as the host "private" and the path "/x"), so a target that
// starts with "//" is given a scheme and authority of its own; any other
// is returned as it is. The audit, the guard and its exporters decide
// request-targets through it.
func TargetURL(target string) string {
	if len(target) > 1 && target[0] == '/' && target[1] == '/' {
		return "http://target" + target
	}
	return target
}
