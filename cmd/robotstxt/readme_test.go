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
	file   string
	line   int // in file
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
	docs := readDocs(t)
	var examples []commandExample
	for _, d := range docs {
		examples = append(examples, commandExamples(t, d.name, d.text)...)
	}
	if len(examples) < 7 {
		t.Fatalf("%d examples found in README.md and docs/*.md, want at least 7", len(examples))
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
		t.Run(fmt.Sprintf("%s:%d", ex.file, ex.line), func(t *testing.T) {
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
				t.Errorf("%s:%d: robotstxt %s prints what the document does not show:\n--- got\n%s--- document\n%s", ex.file, ex.line, strings.Join(ex.args, " "), got, ex.output)
			}
			if ex.status >= 0 && code != ex.status {
				t.Errorf("%s:%d: exit status %d, the document shows %d", ex.file, ex.line, code, ex.status)
			}
		})
	}

	// The fetch report the docs show is the golden file of
	// TestFetchReport, and the lint example's file is lint_sample.txt.
	var all strings.Builder
	for _, d := range docs {
		all.WriteString(d.text)
	}
	for _, name := range []string{"fetch_redirect.txt", "lint_sample.txt"} {
		want, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(all.String(), "\n```\n"+string(want)+"```\n") {
			t.Errorf("no document shows testdata/%s as it is (go test -run TestFetchReport -update refreshes the golden file; copy it)", name)
		}
	}
}

// doc is a document whose examples the tests run: its path from the
// module root and its text.
type doc struct{ name, text string }

// readDocs reads the documents that show commands: README.md and every
// docs/*.md.
func readDocs(t *testing.T) []doc {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	names = append([]string{filepath.Join("..", "..", "README.md")}, names...)
	var docs []doc
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Join("..", ".."), n)
		docs = append(docs, doc{filepath.ToSlash(rel), string(b)})
	}
	return docs
}

// commandExamples finds the "$ robotstxt COMMAND ..." lines of the code
// blocks of the document name, for the commands exampleCommands names.
func commandExamples(t *testing.T, name, text string) []commandExample {
	var out []commandExample
	lines := strings.Split(text, "\n")
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
		ex := commandExample{file: name, line: i + 1, status: -1}
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
			t.Fatalf("%s:%d: %v", name, ex.line, err)
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
				t.Fatalf("%s:%d: echo $? shows %q", name, i+2, lines[i+2])
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
