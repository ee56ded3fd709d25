// Package termesc shows untrusted text safely on a terminal. Text that
// came from a robots.txt file, a server or the command line can hold ESC,
// OSC or C1 sequences that a terminal obeys (set the window title, clear
// the screen); the robotstxt commands and the bulk package write such text
// through String, and JSON through JSON, so that no control character
// reaches the user's terminal.
package termesc

import (
	"bytes"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// String returns s with every control character shown as an escape: C0
// (tab and line ends included) and DEL as \xNN, C1 written in UTF-8
// (U+0080 to U+009F) as \u00NN, and every byte that is not UTF-8 (raw
// 0x80-0x9F, which some terminals take for C1, among them) as \xNN.
// Everything else, and s when it needs nothing, is returned unchanged.
func String(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1, r < 0x20, r == 0x7f:
			b = append(b, '\\', 'x', hexDigits[s[i]>>4], hexDigits[s[i]&0xf])
		case r >= 0x80 && r <= 0x9f:
			b = append(b, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// needsEscape reports whether the rune r, decoded from n bytes, is one
// String rewrites.
func needsEscape(r rune, n int) bool {
	return r == utf8.RuneError && n <= 1 || r < 0x20 || r >= 0x7f && r <= 0x9f
}

// JSON returns p, JSON produced by encoding/json, with DEL and the C1
// controls (U+0080 to U+009F), which the encoder writes as they are, as
// \u escapes: the document decodes to the same values, and a terminal
// that shows it obeys nothing. (The encoder already escapes C0 and
// replaces bytes that are not UTF-8.) Outside strings JSON is ASCII, so
// the rewrite is byte by byte. When p needs nothing, p itself is returned.
func JSON(p []byte) []byte {
	if bytes.IndexByte(p, 0x7f) < 0 && bytes.IndexByte(p, 0xc2) < 0 {
		return p
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == 0x7f:
			out = append(out, `\u007f`...)
		case c == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			out = append(out, '\\', 'u', '0', '0', hexDigits[p[i+1]>>4], hexDigits[p[i+1]&0xf])
			i++
		default:
			out = append(out, c)
		}
	}
	return out
}
