package tester

import (
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

func TestNeedsScheme(t *testing.T) {
	for in, want := range map[string]bool{
		"example.com": true, "example.com/a:b": true, "localhost:8080": true, "[::1]:8080": true,
		"https://example.com": false, "mailto:a@example.com": false, "ftp://h/": false,
	} {
		if NeedsScheme(in) != want {
			t.Errorf("NeedsScheme(%q) = %v", in, !want)
		}
	}
}

// TestNewSourceCut: a body over the limit is cut as crawlers cut it, and
// the source keeps its whole size and the lines past the cut, so that the
// notes and lint say how much is not read.
func TestNewSourceCut(t *testing.T) {
	line := "Disallow: /" + strings.Repeat("x", 88) + "\n" // 100 bytes
	body := "User-agent: *\n" + strings.Repeat(line, 6000)
	src := NewSource("big", []byte(body))
	if len(src.Body) != robotstxt.DefaultMaxBytes+1 || src.Size != int64(len(body)) || !src.Truncated() {
		t.Fatalf("body %d bytes, size %d, truncated %v", len(src.Body), src.Size, src.Truncated())
	}
	if want := strings.Count(body[robotstxt.DefaultMaxBytes+1:], "\n"); src.CutLines != want {
		t.Errorf("cut lines %d, want %d", src.CutLines, want)
	}
	rep, _ := Lint(src, nil)
	found := false
	for _, f := range rep.Findings {
		found = found || f.Code == "file-truncated" && strings.Contains(f.Message, "the file is 600,014 bytes")
	}
	if !found {
		t.Errorf("no file-truncated finding with the whole size (%d findings)", len(rep.Findings))
	}
}
