package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPage: the page has the sections of a man page and every
// command's help; where man is installed it renders, within 80 columns.
func TestManPage(t *testing.T) {
	code, page, stderr := runCmd(t, "", "man")
	if code != 0 || stderr != "" {
		t.Fatalf("man: exit %d, %s", code, stderr)
	}
	if !strings.HasPrefix(page, ".TH ROBOTSTXT 1 ") {
		t.Errorf("the page does not start with .TH: %.40q", page)
	}
	for _, s := range []string{".SH NAME\n", ".SH SYNOPSIS\n", ".SH DESCRIPTION\n", ".SH COMMANDS\n", ".SH \"EXIT STATUS\"\n", ".SH \"SEE ALSO\"\n"} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	for _, c := range commands() {
		if !strings.Contains(page, ".SS \"robotstxt "+roffText(c.name)+"\"\n") {
			t.Errorf("the page lacks the section of %s", c.name)
		}
	}
	for i, l := range strings.Split(page, "\n") {
		// A line of text starting with . or ' would be read as a request.
		if strings.HasPrefix(l, "'") || strings.HasPrefix(l, ".") && !isRoffRequest(l) {
			t.Errorf("line %d is neither a request nor escaped text: %q", i+1, l)
		}
	}
	man, err := exec.LookPath("man")
	if err != nil {
		return // checked for its structure only
	}
	file := filepath.Join(t.TempDir(), "robotstxt.1")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(man, "-l", file)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MANPAGER=cat", "PAGER=cat", "LC_ALL=C.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("man -l: %v", err)
	}
	text := string(out)
	for _, s := range []string{"NAME", "robotstxt - the Robots Exclusion Protocol toolkit", "Usage: robotstxt check (-f FILE", "EXIT STATUS"} {
		if !strings.Contains(text, s) {
			t.Errorf("man -l shows no %q", s)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if w := displayWidth(stripOverstrike(l)); w > 80 {
			t.Errorf("man -l shows a line of %d columns: %q", w, l)
		}
	}
}

// isRoffRequest reports whether l is one of the requests manPage writes.
func isRoffRequest(l string) bool {
	for _, r := range []string{".TH ", ".SH ", ".SS ", ".TP", ".B ", ".I ", ".PP", ".nf", ".fi", ".ft ", ".sp", ".in"} {
		if strings.HasPrefix(l, r) {
			return true
		}
	}
	return false
}

// stripOverstrike removes the backspace overstrikes of bold and underline.
func stripOverstrike(s string) string {
	for strings.Contains(s, "\b") {
		i := strings.Index(s, "\b")
		if i == 0 {
			s = s[1:]
			continue
		}
		// Drop the character before the backspace and the backspace.
		j := i - 1
		for j > 0 && s[j]&0xC0 == 0x80 {
			j--
		}
		s = s[:j] + s[i+1:]
	}
	return s
}
