package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// TestBulkUsage: with --usage, each result carries the AI usage
// preferences and signals, as eval writes them (JSON) or in four columns
// (CSV); without it, none.
func TestBulkUsage(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private\nContent-Usage: train-ai=n\nContent-Usage: /free/ train-ai=y, search=y\nContent-Signal: search=yes, ai-train=no\n")
			return
		}
		http.NotFound(w, r)
	}))
	defer site.Close()
	u, _ := url.Parse(site.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() { bulkProxy = old })

	in := "http://ai.test/a\nhttp://ai.test/free/b\nhttp://ai.test/private/c\n"
	out, stderr, code := runBulkArgs(t, strings.NewReader(in), "--store", "memory", "--usage", "--quiet")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	want := []string{
		`{"lines":[3],"search":"unknown","train-ai":"n"}`,
		`{"lines":[4],"search":"y","train-ai":"y"}`,
		`null`,
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var row struct{ Usage, Signals json.RawMessage }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if string(row.Usage) != want[i] || string(row.Signals) != `{"ai-input":null,"ai-train":"no","line":5,"search":"yes"}` {
			t.Errorf("row %d: usage %s, signals %s", i, row.Usage, row.Signals)
		}
	}

	out, _, code = runBulkArgs(t, strings.NewReader(in), "--store", "memory", "--usage", "--quiet", "--format", "csv")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.HasSuffix(lines[0], ",error,payment,train_ai,search,usage_lines,signals") ||
		!strings.HasSuffix(lines[1], `,n,unknown,3,"search=yes, ai-train=no"`) ||
		!strings.HasSuffix(lines[2], `,y,y,4,"search=yes, ai-train=no"`) ||
		!strings.HasSuffix(lines[3], `,,,,"search=yes, ai-train=no"`) {
		t.Errorf("exit %d; CSV:\n%s", code, out)
	}

	out, _, _ = runBulkArgs(t, strings.NewReader(in), "--store", "memory", "--quiet")
	if strings.Contains(out, `"usage"`) || strings.Contains(out, `"signals"`) {
		t.Errorf("usage without --usage:\n%s", out)
	}
}

// TestBulkRefresh: bulk takes an origin's robots.txt from the cache, and
// with --refresh fetches it again.
func TestBulkRefresh(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	db := filepath.Join(t.TempDir(), "cache.db")
	for i, tc := range []struct {
		args    []string
		fetches int
	}{{nil, 1}, {nil, 1}, {[]string{"--refresh"}, 2}} {
		args := append([]string{"--store", db, "--quiet"}, tc.args...)
		if _, stderr, code := runBulkArgs(t, strings.NewReader("http://s0.test/a\nhttp://s0.test/b\n"), args...); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr)
		}
		if n := fw.count("s0.test"); n != tc.fetches {
			t.Errorf("run %d (%v): robots.txt fetched %d times in all, want %d", i, tc.args, n, tc.fetches)
		}
	}
}
