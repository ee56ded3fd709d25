package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFlagErrorsAreOneLine(t *testing.T) {
	for _, cmd := range []string{"check", "compare", "diff", "eval", "fetch", "lint", "version"} {
		for _, tt := range []struct{ arg, want string }{
			{"--nosuch", "unknown flag --nosuch ("},
			{"-nosuch=3", "unknown flag -nosuch ("},
		} {
			code, out, stderr := runCmd(t, "", cmd, tt.arg)
			want := "robotstxt " + cmd + ": " + tt.want + "robotstxt " + cmd + " -h lists the flags)\n"
			if code != 2 || out != "" || !strings.HasPrefix(stderr, "robotstxt "+cmd+": "+tt.want) || stderr != want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd, tt.arg, code, out, stderr, want)
			}
		}
	}
	code, _, stderr := runCmd(t, "", "check", "-f")
	if code != 2 || stderr != "robotstxt check: -f needs a value (robotstxt check -h lists the flags)\n" {
		t.Errorf("check -f: exit %d, %q", code, stderr)
	}
}

func TestVersionJSON(t *testing.T) {
	code, out, _ := runCmd(t, "", "version", "--json")
	var v struct{ Version string }
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Version != version {
		t.Errorf("version --json: exit %d, %v, %q", code, err, out)
	}
}

func TestErrorsHaveNoDoubledPrefix(t *testing.T) {
	code, _, stderr := runCmd(t, "", "fetch", "--store", "memory", "http://")
	if code != 2 || !strings.HasPrefix(stderr, "robotstxt fetch: ") || strings.Contains(stderr, "fetch: fetch:") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

func TestCountsInPluralAgree(t *testing.T) {
	code, out, _ := runCmd(t, "User-agent: *\nDisallow: /a\n<html>\n", "lint", "-")
	if code == 2 || !strings.Contains(out, "1 line looks like HTML") {
		t.Errorf("lint: exit %d:\n%s", code, out)
	}
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	os.WriteFile(old, []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	os.WriteFile(new, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	_, out, _ = runCmd(t, "", "diff", "-c", "Googlebot", "--urls", "-", old, new)
	if !strings.Contains(out, "0 URLs (from --urls) x 1 crawler\n") {
		t.Errorf("diff:\n%s", out)
	}
	_, out, _ = runCmd(t, "/a\n", "diff", "-c", "Googlebot", "--urls", "-", old, new)
	if !strings.Contains(out, "1 URL (from --urls) x 1 crawler\n") || !strings.Contains(out, "\n1 verdict changed\n") {
		t.Errorf("diff:\n%s", out)
	}
}
