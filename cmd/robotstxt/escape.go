package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Text that came from a robots.txt file, a server or the command line is
// untrusted: a fetched robots.txt can hold ESC, OSC or C1 sequences that a
// terminal obeys (set the window title, clear the screen). Every command
// writes such text through esc, and JSON through jsonWriter, so that no
// control character reaches the user's terminal.

// esc returns s with every control character shown as an escape: C0 (tab
// and line ends included) and DEL as \xNN, C1 written in UTF-8 (U+0080 to
// U+009F) as \u00NN, and every byte that is not UTF-8 (raw 0x80-0x9F, which
// some terminals take for C1, among them) as \xNN. Everything else, and s
// when it needs nothing, is returned unchanged.
func esc(s string) string {
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
			b = append(b, `\x`...)
			b = appendHex2(b, s[i])
		case r >= 0x80 && r <= 0x9f:
			b = append(b, `\u00`...)
			b = appendHex2(b, byte(r))
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// needsEscape reports whether the rune r, decoded from n bytes, is one esc
// rewrites.
func needsEscape(r rune, n int) bool {
	return r == utf8.RuneError && n <= 1 || r < 0x20 || r >= 0x7f && r <= 0x9f
}

func appendHex2(b []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	return append(b, hex[c>>4], hex[c&0xf])
}

// jsonWriter writes JSON produced by encoding/json with DEL and the C1
// controls (U+0080 to U+009F), which the encoder writes as they are, as
// \u escapes: the document decodes to the same values, and a terminal that
// shows it obeys nothing. (The encoder already escapes C0 and replaces bytes
// that are not UTF-8.) Outside strings JSON is ASCII, so the rewrite is
// byte by byte.
type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, 0x7f) < 0 && bytes.IndexByte(p, 0xc2) < 0 {
		return j.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == 0x7f:
			out = append(out, `\u007f`...)
		case c == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			out = append(out, `\u00`...)
			out = appendHex2(out, p[i+1])
			i++
		default:
			out = append(out, c)
		}
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// complain writes an error or a note of the command cmd to w: one line,
// "robotstxt CMD: MESSAGE", escaped, since messages quote what was read.
// A message that starts with the command's name, as errors of package
// fetch do ("fetch: ..."), does not repeat it.
func complain(w io.Writer, cmd, format string, a ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, a...), cmd+": ")
	fmt.Fprintf(w, "robotstxt %s: %s\n", cmd, esc(msg))
}

// writeBody writes a robots.txt body to w: as it is for a file or a pipe,
// line by line through esc for a terminal.
func writeBody(w io.Writer, body []byte, terminal bool) {
	if !terminal {
		w.Write(body)
		return
	}
	var b strings.Builder
	for len(body) > 0 {
		line, rest, found := bytes.Cut(body, []byte{'\n'})
		b.WriteString(esc(strings.TrimSuffix(string(line), "\r")))
		if found {
			b.WriteString("\n")
		}
		body = rest
	}
	io.WriteString(w, b.String())
}
