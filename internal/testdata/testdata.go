// Package testdata finds the project's shared test data: Google's
// conformance cases and the corpus of real robots.txt files, kept in the
// repository's testdata/ folder so that a plain clone passes its tests.
package testdata

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// modulePath is the main module's path, as its go.mod names it.
const modulePath = "github.com/seed53c283f5/robotstxt"

// Root returns the repository's testdata folder: testdata/ beside the go.mod
// of the main module, found by walking up from the working directory (which
// go test sets to the package's folder). It never depends on anything
// outside the repository.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && isMainModule(mod) {
			td := filepath.Join(dir, "testdata")
			if _, err := os.Stat(filepath.Join(td, "conformance")); err != nil {
				return "", fmt.Errorf("test data missing in %s: %w", td, err)
			}
			return td, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("test data: no go.mod of " + modulePath + " above the working directory")
		}
		dir = parent
	}
}

// isMainModule reports whether a go.mod declares the main module (and not
// a nested one, such as bench/).
func isMainModule(mod []byte) bool {
	for line := range bytes.Lines(mod) {
		f := bytes.Fields(line)
		if len(f) == 2 && string(f[0]) == "module" {
			return string(f[1]) == modulePath
		}
	}
	return false
}

// Conformance returns the folder of Google's conformance cases.
func Conformance() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "conformance"), nil
}

// Corpus returns the folder of real robots.txt files (corpus/real).
func Corpus() (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "corpus", "real"), nil
}

// TB is the part of testing.TB these helpers use.
type TB interface {
	Helper()
	Fatal(args ...any)
}

// MustRoot is Root for a test: it stops the test when the data is missing.
func MustRoot(t TB) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// MustCorpus is Corpus for a test.
func MustCorpus(t TB) string {
	t.Helper()
	return filepath.Join(MustRoot(t), "corpus", "real")
}
