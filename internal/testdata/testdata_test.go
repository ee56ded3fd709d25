package testdata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataInRepository: the conformance cases and the corpus are found in
// the repository itself, with the counts their READMEs state.
func TestDataInRepository(t *testing.T) {
	root := MustRoot(t)
	for _, f := range []string{"google_robots_test.jsonl", "google_other_tests.jsonl", "corpus_golden.jsonl", "README.md"} {
		if _, err := os.Stat(filepath.Join(root, "conformance", f)); err != nil {
			t.Error(err)
		}
	}
	names, err := filepath.Glob(filepath.Join(MustCorpus(t), "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 8783 {
		t.Errorf("corpus: %d files, want 8783", len(names))
	}
	if _, err := os.Stat(filepath.Join(MustCorpus(t), "MANIFEST.tsv")); err != nil {
		t.Error(err)
	}
}

// TestNothingReadsBesideTheCheckout: no test or program of the main module
// reads the old ../shared folder beside the checkout, so a plain clone
// passes its tests (the bench module may take $ROBOTSTXT_SHARED to point at
// another copy, and defaults to testdata/ too).
func TestNothingReadsBesideTheCheckout(t *testing.T) {
	root := filepath.Dir(MustRoot(t))
	bad := []string{`"../shared`, `"../../shared`, `"../../../shared`, `"..", "shared"`, `"..", "..", "shared"`, `"..", "..", "..", "shared"`}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".go" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range bad {
			if strings.Contains(string(b), s) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s reads %s: the test data is in testdata/", rel, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
