package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile holds what a hostile robots.txt or server sends to a terminal:
// an OSC title ended by BEL, a CSI clear screen, C1 CSI and NEL written in
// UTF-8, the same as raw 8-bit bytes, and DEL.
const hostile = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u0085\x9b\x85\x7f"

// hostileHigh is the part of hostile that Go's HTTP client lets through in
// a response header (it refuses C0 and DEL there): C1 in UTF-8 and raw.
const hostileHigh = "\u009b31m\u0085\x9b\x85"

// hostileShown is how esc shows hostile.
const hostileShown = `\x1b]0;pwned\x07\x1b[2J\u009b31m\u0085\x9b\x85\x7f`

// assertNoControls fails when s holds a control character other than a
// line end: C0, DEL, C1 in UTF-8 or a byte that is not UTF-8.
func assertNoControls(t *testing.T, what, s string) {
	t.Helper()
	for i, r := range s {
		_, n := utf8.DecodeRuneInString(s[i:])
		if r == '\n' {
			continue
		}
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == utf8.RuneError && n == 1 {
			t.Errorf("%s: control character %q at byte %d:\n%q", what, s[i:i+n], i, s)
			return
		}
	}
}

func TestEsc(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Disallow: /a b", "Disallow: /a b"},
		{"/caf\u00e9/ツ", "/caf\u00e9/ツ"},
		{hostile, hostileShown},
		{"a\tb\r\n", `a\x09b\x0d\x0a`},
		{"\xff\xfe", `\xff\xfe`},
		{"\xc2", `\xc2`},
	}
	for _, tt := range tests {
		if got := esc(tt.in); got != tt.want {
			t.Errorf("esc(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(jsonWriter{&b})
	enc.Encode(map[string]string{"rule": hostile})
	assertNoControls(t, "json", b.String())
	var back map[string]string
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(hostile, "\x9b\x85", "\ufffd\ufffd"); back["rule"] != want {
		t.Errorf("json round trip: %q, want %q", back["rule"], want)
	}
}

// hostileFile writes a robots.txt whose rules, agents and comments carry
// hostile bytes.
func hostileFile(t *testing.T, dir, name string) string {
	t.Helper()
	body := "User-agent: *\nDisallow: /a" + hostile + "\nAllow: /a" + hostile + "/b\nDisallow: /*x" + hostile + "$\n" +
		"\nUser-agent: Googlebot\nDisallow: /g" + hostile + "\nSitemap: https://example.com/" + hostile + "\nFoo" + hostile + ": bar\n" +
		"\nUser-agent: Evil" + hostile + "\nDisallow: /\n"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTextOutputIsEscaped(t *testing.T) {
	dir := t.TempDir()
	file := hostileFile(t, dir, "robots.txt")
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("User-agent: *\nDisallow:\n"), 0o644)
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"check", "", []string{"check", "-f", file, "-v", "-c", "Googlebot", "-c", "Bingbot", "/a" + hostile + "/b", "/g" + hostile, "/x" + hostile}},
		{"check from stdin", "/a" + hostile + "\n", []string{"check", "-f", file, "-"}},
		{"compare", "", []string{"compare", "-f", file}},
		{"compare URLs", "", []string{"compare", "-f", file, "/a" + hostile, "/g" + hostile}},
		{"diff", "", []string{"diff", empty, file}},
		{"diff reversed", "", []string{"diff", file, empty}},
		{"lint", "", []string{"lint", file}},
		{"eval", `{"robots_file":"` + strings.ReplaceAll(file, `\`, `\\`) + `","ua":"Googlebot","url":"/g\u001b\u009b"}` + "\n" +
			`{"robots":"User-agent: *\nDisallow: /\u001b]0;x\u0007\u009b\u007f\n","ua":"X","url":"/\u001b]0;x\u0007\u009b\u007f"}` + "\n" +
			`{"robots":"","crawler":"Evil\u001b\u009b","url":"/"}` + "\n", []string{"eval"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, stderr := runCmd(t, tt.stdin, tt.args...)
			assertNoControls(t, "stdout", out)
			assertNoControls(t, "stderr", stderr)
			if tt.name != "eval" && !strings.Contains(out, `\x1b]0;pwned\x07`) {
				t.Errorf("the hostile text is not shown escaped:\n%s", out)
			}
		})
	}
	// Errors that name a file or a flag value as typed.
	for _, args := range [][]string{
		{"check", "-f", filepath.Join(dir, "no"+hostile), "/"},
		{"compare", "-c", "No" + hostile},
		{"diff", file, filepath.Join(dir, "no"+hostile)},
		{"lint", filepath.Join(dir, "no"+hostile)},
		{"check", "-f", file, "-a", "Bad" + hostile, "/"},
		{"check", "-f", file, "no" + hostile},
		{"check", "-" + hostile},
		{"fetch", "no" + hostile + "://x"},
	} {
		_, out, stderr := runCmd(t, "", args...)
		assertNoControls(t, strings.Join(args, " ")+": stdout", out)
		assertNoControls(t, strings.Join(args, " ")+": stderr", stderr)
	}
}

// hostileServer answers every request with a robots.txt and response
// headers that carry hostile bytes, written raw on the connection.
func hostileServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				body := "User-agent: *\nDisallow: /a" + hostile + "\n"
				c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n" +
					"Cache-Control: max-age=60, x" + hostileHigh + "\r\nETag: \"" + hostileHigh + "\"\r\nLast-Modified: " + hostileHigh + "\r\n" +
					"Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body))
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func TestFetchOutputIsEscaped(t *testing.T) {
	useTempCache(t)
	srv := hostileServer(t)
	for _, args := range [][]string{
		{"fetch", "--store", "memory", srv + "/"},
		{"fetch", "--json", "--store", "memory", srv + "/"},
		{"check", "-u", srv + "/", "--store", "memory", "/a" + hostile},
		{"compare", "-u", srv + "/", "--store", "memory"},
	} {
		_, out, stderr := runCmd(t, "", args...)
		assertNoControls(t, args[0]+" stdout", out)
		assertNoControls(t, args[0]+" stderr", stderr)
		want := `\x1b]0;pwned\x07`
		if args[0] == "fetch" {
			want = `etag: "\u009b31m\u0085\x9b\x85"`
		}
		if args[1] != "--json" && !strings.Contains(out, want) {
			t.Errorf("%v: the hostile text is not shown escaped:\n%s", args, out)
		}
	}
}

func TestWriteBody(t *testing.T) {
	body := []byte("User-agent: *\r\nDisallow: /a" + hostile + "\n")
	var raw, term strings.Builder
	writeBody(&raw, body, false)
	writeBody(&term, body, true)
	if raw.String() != string(body) {
		t.Errorf("not a terminal: %q", raw.String())
	}
	if want := "User-agent: *\nDisallow: /a" + hostileShown + "\n"; term.String() != want {
		t.Errorf("terminal: %q, want %q", term.String(), want)
	}
}
