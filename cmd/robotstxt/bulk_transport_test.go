package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/bulk"
)

// TestBulkPerHostWaitNotTimed: many origins redirect to one slow host,
// whose one slot (--per-host 1) they take in turn. Each request is well
// within the timeout, the queue is not: the timeout counts the fetch, not
// the wait for the slot, so every origin gets its rules. (The timeout ran
// from the start of the fetch: the origins at the end of the queue timed
// out without a request made, unreachable, disallow all.) A host that
// never answers still times out, and says so.
func TestBulkPerHostWaitNotTimed(t *testing.T) {
	const origins = 16
	const slowFor = 250 * time.Millisecond // 16 in turn: 4 s, twice the timeout
	var mu sync.Mutex
	cur, peak, served := 0, 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Hostname()
		if host == "hang.test" {
			<-r.Context().Done()
			return
		}
		if host != "slow.test" {
			http.Redirect(w, r, "http://slow.test/robots.txt?from="+host, http.StatusFound)
			return
		}
		mu.Lock()
		cur++
		peak = max(peak, cur)
		mu.Unlock()
		time.Sleep(slowFor)
		mu.Lock()
		cur--
		served++
		mu.Unlock()
		io.WriteString(w, "User-agent: *\nDisallow: /private\n")
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	u, _ := url.Parse(srv.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() { bulkProxy = old })
	var in strings.Builder
	for n := range origins {
		fmt.Fprintf(&in, "http://r%d.test/private/x\n", n)
	}
	in.WriteString("http://hang.test/x\n")
	sumFile := filepath.Join(t.TempDir(), "sum.json")
	out, stderr, code := runBulkArgs(t, strings.NewReader(in.String()), "--store", "memory", "--quiet",
		"--per-host", "1", "--timeout", "2s", "--concurrency", "16", "--summary", sumFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := parseRows(t, out)
	if len(rows) != origins+1 {
		t.Fatalf("%d results for %d URLs", len(rows), origins+1)
	}
	if r := rows[origins]; r.Policy != "disallow-all" || !strings.Contains(r.Reason, "timed out after 2s") {
		t.Errorf("the host that never answers: policy %s, reason %q", r.Policy, r.Reason)
	} else {
		t.Logf("the host that never answers: %s", r.Reason)
	}
	bad := 0
	for _, r := range rows[:origins] {
		if r.Policy != "rules" || r.Allowed == nil || *r.Allowed {
			bad++
			t.Logf("%s: policy %s, %s", r.URL, r.Policy, r.Reason)
		}
	}
	var sum bulk.Summary
	b, _ := os.ReadFile(sumFile)
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if bad > 0 || sum.Fetches.Unreachable != 1 {
		t.Errorf("%d of %d origins without their rules, %d unreachable (want 1): the wait for the slow host's slot was timed", bad, origins, sum.Fetches.Unreachable)
	}
	if peak != 1 || served != origins {
		t.Errorf("the slow host served %d requests, at most %d at once; want %d, one at once", served, peak, origins)
	}
}
