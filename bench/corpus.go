// Package bench compares github.com/seed53c283f5/robotstxt with two other
// Go robots.txt libraries, github.com/temoto/robotstxt and
// github.com/jimsmart/grobotstxt, on the same sample of the real corpus and
// the same golden questions. It is a module of its own so that the library
// itself depends on nothing; everything it does is in its tests and
// benchmarks (see README.md).
package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// sampleSize is how many corpus files are compared. The root package's
// benchmarks pick the same files the same way.
const sampleSize = 1000

// file is one corpus file of the sample.
type file struct {
	name string // relative to corpus/, as in corpus_golden.jsonl
	// body is the file cut to robotstxt.DefaultMaxBytes (512,000 bytes):
	// what a crawler reads and what the golden answers were computed on.
	// Every library is given these same bytes.
	body []byte
	str  string // body as a string, for the APIs that take one
}

// question is one golden question about a sample file.
type question struct {
	file    int // index into corpus.files
	ua, url string
	allowed bool // Google's answer
}

// corpus is the sample and its questions.
type corpus struct {
	files     []file
	questions []question
	bytes     int64 // the sum of len(body)
}

// errNoData says the shared data is not there.
var errNoData = errors.New("shared corpus not found")

// sharedDir returns the test data directory: $ROBOTSTXT_SHARED when set,
// else the repository's testdata/ (this module lives in bench/).
func sharedDir() string {
	if dir := os.Getenv("ROBOTSTXT_SHARED"); dir != "" {
		return dir
	}
	return filepath.Join("..", "testdata")
}

// sampleNames picks n names out of the sorted list: those at positions
// floor(i*len/n), i = 0..n-1, spread evenly and skipping none by size.
func sampleNames(sorted []string, n int) []string {
	if len(sorted) <= n {
		return sorted
	}
	out := make([]string, n)
	for i := range out {
		out[i] = sorted[i*len(sorted)/n]
	}
	return out
}

// loadCorpus reads n files of the corpus, spread as sampleNames spreads
// them (all of them when n <= 0), and the golden questions about them.
func loadCorpus(n int) (*corpus, error) {
	dir := sharedDir()
	realDir := filepath.Join(dir, "corpus", "real")
	entries, err := os.ReadDir(realDir)
	if err != nil {
		return nil, fmt.Errorf("%w in %s (set ROBOTSTXT_SHARED): %v", errNoData, realDir, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if n <= 0 {
		n = len(names)
	}
	if len(names) < n {
		return nil, fmt.Errorf("%w: %s holds %d files, want at least %d", errNoData, realDir, len(names), n)
	}
	c := &corpus{}
	index := make(map[string]int)
	for _, name := range sampleNames(names, n) {
		body, err := os.ReadFile(filepath.Join(realDir, name))
		if err != nil {
			return nil, err
		}
		if len(body) > robotstxt.DefaultMaxBytes {
			body = body[:robotstxt.DefaultMaxBytes]
		}
		rel := "real/" + name
		index[rel] = len(c.files)
		c.files = append(c.files, file{name: rel, body: body, str: string(body)})
		c.bytes += int64(len(body))
	}

	golden := filepath.Join(dir, "conformance", "corpus_golden.jsonl")
	f, err := os.Open(golden)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoData, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			File    string `json:"file"`
			UA      string `json:"ua"`
			URL     string `json:"url"`
			Allowed bool   `json:"allowed"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s: %v", golden, err)
		}
		if i, ok := index[rec.File]; ok {
			c.questions = append(c.questions, question{file: i, ua: rec.UA, url: rec.URL, allowed: rec.Allowed})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(c.questions) == 0 {
		return nil, fmt.Errorf("%s has no question about the sample", golden)
	}
	return c, nil
}
