package testdata

import (
	"os"
	"path/filepath"
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
