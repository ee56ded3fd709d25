package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/testweb"
)

// newSlowWeb starts a testweb.Slow and routes the bulk fetcher through
// it as its proxy for the test.
func newSlowWeb(t *testing.T) *testweb.Slow {
	sw := testweb.NewSlow(t)
	u, _ := url.Parse(sw.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() { bulkProxy = old })
	return sw
}

// TestBulkOrderAny: with --order any, one slow origin first does not hold
// back the results of the URLs after it: they are all written while it
// has not answered, each with its input line, and its own come last.
func TestBulkOrderAny(t *testing.T) {
	sw := newSlowWeb(t)
	const fast = 600
	var in strings.Builder
	in.WriteString("http://slow.test/private/a\n# a comment\n")
	want := map[int]string{1: "http://slow.test/private/a"}
	for i := range fast {
		u := fmt.Sprintf("http://f%d.test/p%d", i%30, i)
		in.WriteString(u + "\n")
		want[i+3] = u
	}
	pr, pw := io.Pipe()
	codeCh := make(chan int, 1)
	var errb strings.Builder
	go func() {
		codeCh <- run([]string{"bulk", "--store", "memory", "--quiet", "--order", "any"}, strings.NewReader(in.String()), pw, &errb)
		pw.Close()
	}()
	// A watchdog: should the fast results wait for the slow one, the test
	// fails instead of hanging.
	held := atomic.Bool{}
	watchdog := time.AfterFunc(60*time.Second, func() { held.Store(true); sw.Free() })
	defer watchdog.Stop()
	sc := bufio.NewScanner(pr)
	seen := map[int]bool{}
	check := func(line string) bulkAnyRow {
		var r bulkAnyRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON: %v: %q", err, line)
		}
		if r.InputLine == nil || want[*r.InputLine] != r.URL || seen[*r.InputLine] {
			t.Fatalf("result %s says input line %v, want a line of its own", r.URL, r.InputLine)
		}
		seen[*r.InputLine] = true
		return r
	}
	for range fast {
		if !sc.Scan() {
			t.Fatalf("the output ended after %d results: %v; stderr:\n%s", len(seen), sc.Err(), errb.String())
		}
		if r := check(sc.Text()); r.URL == want[1] {
			t.Fatal("the slow origin's result came before it answered")
		}
	}
	if held.Load() {
		t.Fatal("the fast origins' results were held back until the slow one answered")
	}
	sw.Free()
	if !sc.Scan() {
		t.Fatalf("no result for the slow origin: %v", sc.Err())
	}
	if r := check(sc.Text()); r.URL != want[1] || r.Allowed == nil || *r.Allowed {
		t.Errorf("last: %+v", r)
	}
	if sc.Scan() {
		t.Errorf("more output: %q", sc.Text())
	}
	if code := <-codeCh; code != 0 {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

type bulkAnyRow struct {
	bulkRow
	InputLine *int `json:"input_line"`
}

// TestBulkOrderAnyCSV: the input line is the first column.
func TestBulkOrderAnyCSV(t *testing.T) {
	newSlowWeb(t)
	out, stderr, code := runBulkArgs(t, strings.NewReader("http://a.test/private\n\nhttp://b.test/x\n"),
		"--store", "memory", "--quiet", "--order", "any", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "input_line,url,crawler,allowed,line,rule,origin,policy,reason,source,error,payment" {
		t.Fatalf("output:\n%s", out)
	}
	got := strings.Join(lines[1:], "\n")
	if !strings.Contains(got, "1,http://a.test/private,Googlebot,false,") || !strings.Contains(got, "3,http://b.test/x,Googlebot,true,") {
		t.Errorf("rows:\n%s", out)
	}
}

// TestBulkOrderFlag: --order is input or any.
func TestBulkOrderFlag(t *testing.T) {
	_, stderr, code := runBulkArgs(t, strings.NewReader(""), "--store", "memory", "--order", "random")
	if code != 2 || !strings.Contains(stderr, `--order "random": want input or any`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
