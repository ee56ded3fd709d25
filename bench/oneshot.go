package bench

import (
	"fmt"
	"io"
	"path/filepath"
)

// oneShot is the first golden question about each file of the sample: what
// a crawler meeting a new origin, the CLI and an inline check each ask of a
// file they have just read.
func (c *corpus) oneShot() []question {
	out := make([]question, 0, len(c.files))
	seen := make([]bool, len(c.files))
	for _, q := range c.questions {
		if !seen[q.file] {
			seen[q.file] = true
			out = append(out, q)
		}
	}
	return out
}

// WriteOneShotList writes the one-shot questions of the 1,000-file sample as
// tab-separated lines "path<TAB>user-agent<TAB>url", the path absolute, for
// another implementation to time the same work (see google/oneshot.sh).
func WriteOneShotList(w io.Writer) error {
	c, err := loadCorpus(sampleSize)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(filepath.Join(sharedDir(), "corpus"))
	if err != nil {
		return err
	}
	for _, q := range c.oneShot() {
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", filepath.Join(root, c.files[q.file].name), q.ua, q.url); err != nil {
			return err
		}
	}
	return nil
}
