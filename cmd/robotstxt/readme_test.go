package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// exampleCommands are the commands whose README examples TestREADMECommandExamples
// runs (the others' sections are their owners' to check).
var exampleCommands = map[string]bool{"check": true, "compare": true, "diff": true, "eval": true, "fetch": true, "lint": true}

// commandExample is one "$ robotstxt ..." of a README code block: the
// command, its standard input (a here-document), what it printed, and the
// exit status a following "$ echo $?" shows (-1: not shown).
type commandExample struct {
	line   int // in README.md
	args   []string
	stdin  string
	output string
	status int
}

// TestREADMECommandExamples runs the README's examples of check, compare,
// diff, eval, fetch and lint (ai_test.go's TestREADMEExamples runs ai's and
// policy's) and compares what they print (standard output,
// then standard error) and their exit status with what the README shows.
// Live examples run against local servers in place of the README's:
// 127.0.0.1:8089 serves the bundled example file, 127.0.0.1:8090 is a port
// nobody listens on; the cache is in a temporary directory, shown as
// /home/me/.cache.
func TestREADMECommandExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := commandExamples(t, string(readme))
	if len(examples) < 7 {
		t.Fatalf("%d examples found in README.md, want at least 7", len(examples))
	}

	cache := useTempCache(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Write(exampleRobots)
	}))
	defer site.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close()
	// The README's hosts and this run's, the longer of this run's first
	// where one might be a prefix of the other (:4001 and :40012).
	hosts := [][2]string{{"127.0.0.1:8089", strings.TrimPrefix(site.URL, "http://")}, {"127.0.0.1:8090", down}}
	if len(hosts[1][1]) > len(hosts[0][1]) {
		hosts[0], hosts[1] = hosts[1], hosts[0]
	}

	for _, ex := range examples {
		t.Run(fmt.Sprintf("line %d", ex.line), func(t *testing.T) {
			args := make([]string, len(ex.args))
			for i, a := range ex.args {
				for _, h := range hosts {
					a = strings.ReplaceAll(a, h[0], h[1])
				}
				args[i] = a
			}
			code, out, stderr := runCmd(t, ex.stdin, args...)
			got := out + stderr
			for _, h := range hosts {
				got = strings.ReplaceAll(got, h[1], h[0])
			}
			got = strings.ReplaceAll(got, cache, "/home/me/.cache")
			if got != ex.output {
				t.Errorf("README.md:%d: robotstxt %s prints what the README does not show:\n--- got\n%s--- README\n%s", ex.line, strings.Join(ex.args, " "), got, ex.output)
			}
			if ex.status >= 0 && code != ex.status {
				t.Errorf("README.md:%d: exit status %d, the README shows %d", ex.line, code, ex.status)
			}
		})
	}

	// The fetch report the README shows is the golden file of
	// TestFetchReport, and the lint example's file is lint_sample.txt.
	for _, name := range []string{"fetch_redirect.txt", "lint_sample.txt"} {
		want, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), "\n```\n"+string(want)+"```\n") {
			t.Errorf("README.md does not show testdata/%s as it is (go test -run TestFetchReport -update refreshes the golden file; copy it)", name)
		}
	}
}

// commandExamples finds the "$ robotstxt COMMAND ..." lines of the code
// blocks of readme, for the commands exampleCommands names.
func commandExamples(t *testing.T, readme string) []commandExample {
	var out []commandExample
	lines := strings.Split(readme, "\n")
	inBlock := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock || !strings.HasPrefix(l, "$ robotstxt ") {
			continue
		}
		ex := commandExample{line: i + 1, status: -1}
		cmd := strings.TrimPrefix(l, "$ ")
		for strings.HasSuffix(cmd, "\\") && i+1 < len(lines) {
			i++
			cmd = strings.TrimSuffix(cmd, "\\") + strings.TrimSpace(lines[i])
		}
		if c, ok := strings.CutSuffix(cmd, " <<'EOF'"); ok {
			cmd = c
			for i++; i < len(lines) && lines[i] != "EOF"; i++ {
				ex.stdin += lines[i] + "\n"
			}
		}
		words, err := splitShell(cmd)
		if err != nil {
			t.Fatalf("README.md:%d: %v", ex.line, err)
		}
		ex.args = words[1:]
		var output strings.Builder
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "```") && !strings.HasPrefix(lines[i+1], "$ ") {
			i++
			output.WriteString(lines[i] + "\n")
		}
		ex.output = output.String()
		if i+2 < len(lines) && lines[i+1] == "$ echo $?" {
			ex.status, err = strconv.Atoi(lines[i+2])
			if err != nil {
				t.Fatalf("README.md:%d: echo $? shows %q", i+2, lines[i+2])
			}
			i += 2
		}
		if len(ex.args) > 0 && exampleCommands[ex.args[0]] {
			out = append(out, ex)
		}
	}
	return out
}

// shellWords splits a command line as a POSIX shell does, for what the
// README's examples use: blanks, single and double quotes, backslashes.
func splitShell(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
