package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusNoCrash runs lint on every real file of the corpus, and check,
// compare and diff on every file with a few URLs each.
func TestCorpusNoCrash(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "corpus", "real")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".txt") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) < 8000 {
		t.Fatalf("%d corpus files, want the 8,783", len(files))
	}
	step := shortStep(50)
	if step == 1 {
		code, _, stderr := runCmd(t, "", append([]string{"lint"}, files...)...)
		if code != 1 || stderr != "" {
			t.Fatalf("lint over the corpus: exit %d (want 1: the UTF-16 files are errors), stderr %q", code, stderr)
		}
	} else {
		var sample []string
		for i := 0; i < len(files); i += step {
			sample = append(sample, files[i])
		}
		if code, _, stderr := runCmd(t, "", append([]string{"lint"}, sample...)...); code == 2 || stderr != "" {
			t.Fatalf("lint over a sample of the corpus: exit %d, stderr %q", code, stderr)
		}
	}
	urls := []string{"/", "https://example.com/private/a?x=1", "/ツ", "/*$"}
	for i := 0; i < len(files); i += step {
		f := files[i]
		if code, _, stderr := runCmd(t, "", append([]string{"check", "-f", f, "-c", "Googlebot", "-c", "Baiduspider"}, urls...)...); code == 2 {
			t.Fatalf("check %s: %s", f, stderr)
		}
		if i%32 == 0 {
			if code, _, stderr := runCmd(t, "", append([]string{"compare", "-f", f}, urls...)...); code != 0 {
				t.Fatalf("compare %s: %s", f, stderr)
			}
			next := files[(i+1)%len(files)]
			if code, _, stderr := runCmd(t, "", "diff", "-c", "YandexBot", "-c", "*", f, next); code == 2 {
				t.Fatalf("diff %s %s: %s", f, next, stderr)
			}
		}
	}
}
