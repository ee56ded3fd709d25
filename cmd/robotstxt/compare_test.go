package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestCompareBundledExample(t *testing.T) {
	code, out, stderr := runCmd(t, "", "compare")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "compare_example.txt", out)
	// Baiduspider reads by the draft: first match blocks /private/press/.
	if !strings.Contains(out, "Baiduspider, /private/press/: allowed by google, rfc9309, bing, yandex (line 24") {
		t.Errorf("the Baiduspider disagreement is not explained:\n%s", out)
	}
}

func TestCompareJSON(t *testing.T) {
	code, out, stderr := runCmd(t, "", "compare", "--json", "-c", "Googlebot", "-c", "Baiduspider", "/private/press/x", "/ツ")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "compare_example.json", out)
	var cmp comparison
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	if len(cmp.Rows) != 2 || len(cmp.URLs) != 2 || cmp.URLs[1] != "/%E3%83%84" {
		t.Fatalf("rows %d, urls %v", len(cmp.Rows), cmp.URLs)
	}
	baidu := cmp.Rows[1].Cells[0]
	if baidu.Allowed || !baidu.Disagree || baidu.Line != 23 || !baidu.Dialects["google"].Allowed {
		t.Errorf("Baiduspider cell = %+v", baidu)
	}
	if len(cmp.Disagreements) != 2 || cmp.Disagreements[1].Note != baidu.Note {
		t.Errorf("disagreements = %+v", cmp.Disagreements)
	}
}

func TestCompareFileAndStdin(t *testing.T) {
	body := "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
	code, out, _ := runCmd(t, body, "compare", "-f", "-", "-c", "Googlebot", "/a/b")
	if code != 0 || !strings.Contains(out, "allow:3") {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte(body), 0o644)
	code, out, _ = runCmd(t, "", "compare", "-f", file, "-c", "Baiduspider", "/a/b")
	if code != 0 || !strings.Contains(out, "BLOCK:2 [1]") {
		t.Errorf("file: exit %d\n%s", code, out)
	}
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "favicon.ico")
	os.WriteFile(bin, []byte("\x00\x00\x01\x00binary"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-f", filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{[]string{"-f", dir}, "is a directory"},
		{[]string{"-f", bin}, "looks like a binary file"},
		{[]string{"-c", "NoSuchBot"}, `unknown crawler "NoSuchBot"`},
		{[]string{"-nosuchflag"}, "unknown flag -nosuchflag (robotstxt compare -h lists the flags)"},
	}
	for _, tt := range tests {
		code, out, stderr := runCmd(t, "", append([]string{"compare"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("compare %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, stderr, tt.want)
		}
		if strings.Count(stderr, "\n") != 1 {
			t.Errorf("compare %v: want a one-line error, got %q", tt.args, stderr)
		}
	}
}
