package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/seed53c283f5/robotstxt"
)

// maxInputBytes bounds how much of a robots.txt file the CLI reads: what
// crawlers parse plus one byte, so that a cut can be reported.
const maxInputBytes = robotstxt.DefaultMaxBytes + 1

// readInput reads a robots.txt file named on the command line, or standard
// input for "-". Its errors are one line that names the file.
func readInput(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = stdin
		name = "standard input"
	} else {
		f, err := openFile(name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such file", name)
			}
			if errors.Is(err, errIsDir) {
				return nil, fmt.Errorf("%s: is a directory, not a robots.txt file", name)
			}
			return nil, err
		}
		defer f.Close()
		r = f
	}
	body, err := io.ReadAll(io.LimitReader(r, maxInputBytes))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if isBinary(body) {
		return nil, fmt.Errorf("%s: looks like a binary file, not a robots.txt file", name)
	}
	return body, nil
}

// errIsDir is returned by openFile for a directory.
var errIsDir = errors.New("is a directory")

// openFile opens a file for reading, refusing directories.
func openFile(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		err = fmt.Errorf("%s %w", name, errIsDir)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// isBinary reports whether body looks like a binary file: NUL bytes in its
// first 8 KiB, unless it starts with a UTF-16 byte order mark (a UTF-16
// robots.txt is text that crawlers cannot read; the linter says so).
func isBinary(body []byte) bool {
	if bytes.HasPrefix(body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) {
		return false
	}
	head := body[:min(len(body), 8192)]
	return bytes.IndexByte(head, 0) >= 0
}

// useColor reports whether w is a terminal and NO_COLOR is not set.
func useColor(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return fmt.Sprint(*s) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
