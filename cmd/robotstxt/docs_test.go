package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// mdLink finds the targets of Markdown links and images: ](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks: every relative link of README.md and docs/*.md names a file
// of the repository, and its #anchor a heading of that file, so that every
// page the README promises is there.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	docs := readDocs(t)
	anchors := map[string]map[string]bool{}
	for _, d := range docs {
		anchors[d.name] = headingSlugs(d.text)
	}
	for _, d := range docs {
		for _, m := range mdLink.FindAllStringSubmatch(stripCode(d.text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			name := d.name
			if file != "" {
				name = path.Clean(path.Join(path.Dir(d.name), file))
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
					t.Errorf("%s: link %q: %v", d.name, target, err)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			slugs, ok := anchors[name]
			if !ok {
				t.Errorf("%s: link %q: an anchor into a file that is not a document", d.name, target)
			} else if !slugs[anchor] {
				t.Errorf("%s: link %q: %s has no heading #%s", d.name, target, name, anchor)
			}
		}
	}
}

// TestREADMEFrontPage: the README is a front page: under 400 lines, the way
// to install, run the page, check a URL and run the tests in its first
// screen, and every page of docs/ linked from it.
func TestREADMEFrontPage(t *testing.T) {
	docs := readDocs(t)
	readme := docs[0].text
	lines := strings.Split(readme, "\n")
	if len(lines) >= 400 {
		t.Errorf("README.md has %d lines, want fewer than 400", len(lines))
	}
	first := strings.Join(lines[:min(len(lines), 45)], "\n")
	for _, want := range []string{"make build", "serve", "check", "make test", "go run ./cmd/robotstxt serve"} {
		if !strings.Contains(first, want) {
			t.Errorf("the README's first screen (45 lines) does not show %q", want)
		}
	}
	for _, d := range docs[1:] {
		if !strings.Contains(readme, "("+d.name+")") {
			t.Errorf("README.md does not link %s", d.name)
		}
	}
}

// headingSlugs returns the anchors GitHub gives the headings of a Markdown
// text: lower case, spaces as hyphens, punctuation but - and _ dropped.
func headingSlugs(text string) map[string]bool {
	slugs := map[string]bool{}
	for _, l := range strings.Split(stripCode(text), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slugs[b.String()] = true
	}
	return slugs
}

// stripCode blanks the fenced code blocks of a Markdown text (their lines
// are neither headings nor links).
func stripCode(text string) string {
	lines := strings.Split(text, "\n")
	in := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			in = !in
			lines[i] = ""
			continue
		}
		if in {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
