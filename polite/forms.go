package polite

import (
	"net/url"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// wireForms returns the URLs a request to u is asked about, without
// duplicates, the URL as sent first: the path and query exactly as net/http
// writes them on the request line (url.URL.RequestURI: RawPath when it is a
// valid encoding of Path, else Path escaped), the same with its %xx hex
// upper-cased and non-ASCII bytes escaped (robotstxt.NormalizeURL, what
// Google's matching expects), and its normalised form (normalizePath),
// which is what most servers serve for it.
func wireForms(u *url.URL) []string {
	prefix := u.Scheme + "://" + u.Host
	wire := u.RequestURI()
	if !strings.HasPrefix(wire, "/") {
		// An opaque or absolute request target ("scheme:opaque").
		wire = robotstxt.PathParamsQuery(wire)
	}
	forms := make([]string, 0, 3)
	add := func(s string) {
		for _, f := range forms {
			if f == s {
				return
			}
		}
		forms = append(forms, s)
	}
	given := prefix + wire
	add(given)
	add(robotstxt.NormalizeURL(given))
	add(prefix + normalizePath(wire))
	return forms
}

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

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// normalizeEscapes decodes the %xx escapes of unreserved characters,
// upper-cases the hex of the others and escapes bytes that cannot stand in
// a URL as they are (controls, space, DEL, non-ASCII), and a '%' that
// starts no escape ("%7", "%zz", a '%' at the end), which a server takes as
// the byte '%' itself: it becomes "%25".
//
// The result names the same resource as s, and normalizing it again
// changes nothing: s is read once, left to right, and nothing written is
// read again; a decoded byte is never '%' (it is not unreserved), so no
// new escape is formed from bytes around it ("%7%30" is "%" "7" "0", which
// is "%2570", never "%70"), and a '%' kept in the result always starts an
// escape.
func normalizeEscapes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
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
		case c <= ' ' || c >= 0x7f || c == '%':
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// normalizePath brings a request target ("/path?query", starting with '/')
// to the form a server resolves it to: escapes normalised
// (normalizeEscapes), then, in the path, dot-segments removed (RFC 3986
// §5.2.4) and runs of '/' merged ("//private" is "/private" to most
// servers). %2F stays an escape: servers do not split on it.
func normalizePath(target string) string {
	path, query, hasQuery := strings.Cut(target, "?")
	path = normalizeEscapes(path)
	var out []string
	segs := strings.Split(path, "/")
	trailing := false
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case "", ".":
			trailing = last
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			trailing = last
		default:
			out = append(out, seg)
			trailing = false
		}
	}
	p := "/" + strings.Join(out, "/")
	if trailing && len(out) > 0 {
		p += "/"
	}
	if hasQuery {
		p += "?" + normalizeEscapes(query)
	}
	return p
}
