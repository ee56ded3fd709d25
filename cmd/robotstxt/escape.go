package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/seed53c283f5/robotstxt/internal/termesc"
)

// Text that came from a robots.txt file, a server or the command line is
// untrusted: a fetched robots.txt can hold ESC, OSC or C1 sequences that a
// terminal obeys (set the window title, clear the screen). Every command
// writes such text through esc, and JSON through jsonWriter, so that no
// control character reaches the user's terminal.

// esc returns s with every control character shown as an escape (see
// termesc.String).
func esc(s string) string { return termesc.String(s) }

// jsonWriter writes JSON produced by encoding/json with DEL and the C1
// controls (U+0080 to U+009F), which the encoder writes as they are, as
// \u escapes: the document decodes to the same values, and a terminal that
// shows it obeys nothing. (The encoder already escapes C0 and replaces bytes
// that are not UTF-8.) Outside strings JSON is ASCII, so the rewrite is
// byte by byte.
type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(termesc.JSON(p)); err != nil {
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
