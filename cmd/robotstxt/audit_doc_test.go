package main

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/loggen"
)

// TestAuditDocExample runs docs/audit.md's first example as a reader
// would: the files of docs/examples/audit/, the log the page says how to
// generate (go run ./internal/loggen/gen -bytes 2e7 -seed 3, gzipped),
// the command as printed; its output holds every line the page shows, in
// order, and the exit status is the one it shows (issue 35 item 8: the
// input files were not shipped).
func TestAuditDocExample(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	const start = "$ robotstxt audit --robots 2026-10-01=robots-old.txt"
	i := strings.Index(string(page), start)
	if i < 0 {
		t.Fatal("docs/audit.md has no example starting " + start)
	}
	block := string(page[i:])
	block = block[:strings.Index(block, "```")]
	lines := strings.Split(block, "\n")
	// The command: its first line and the continuations ending in "\".
	cmd := ""
	n := 0
	for ; n < len(lines); n++ {
		l := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(lines[n], "$ ")), "\\")
		cmd += " " + l
		if !strings.HasSuffix(lines[n], "\\") {
			n++
			break
		}
	}
	args := strings.Fields(cmd)[1:] // without "robotstxt"
	var want []string
	wantCode := -1
	for k := n; k < len(lines); k++ {
		switch l := lines[k]; {
		case l == "$ echo $?" && k+1 < len(lines):
			wantCode = map[string]int{"0": 0, "1": 1, "2": 2}[strings.TrimSpace(lines[k+1])]
			k = len(lines)
		case l == "..." || strings.TrimSpace(l) == "":
		default:
			want = append(want, l)
		}
	}

	dir := t.TempDir()
	examples := filepath.Join("..", "..", "docs", "examples", "audit")
	entries, err := os.ReadDir(examples)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(examples, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(dir, "access.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := loggen.Write(zw, 2e7, 3); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Chdir(dir)

	code, out, stderr := runCmd(t, "", args...)
	if code != wantCode {
		t.Errorf("robotstxt %s: exit %d, the page says %d (%s)", strings.Join(args, " "), code, wantCode, stderr)
	}
	if len(want) < 20 {
		t.Fatalf("only %d lines of output read from the page", len(want))
	}
	rest := out
	for _, w := range want {
		j := strings.Index(rest, w+"\n")
		if j < 0 {
			t.Fatalf("the output lacks, after what came before, the page's line %q:\n%s", w, out)
		}
		rest = rest[j+len(w)+1:]
	}
}
