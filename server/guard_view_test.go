package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/guard"
)

// TestGuardView: GET /v1/guard counts the decisions at the end of the
// decision log by crawler, outcome and action, lists the last ones newest
// first, skips lines that are not decisions, and says when no log is
// configured.
func TestGuardView(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "decisions.jsonl")
	t0 := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	var b strings.Builder
	add := func(i int, claimed string, o guard.Outcome, a guard.Action) {
		d := guard.Decision{Time: t0.Add(time.Duration(i) * time.Second), Addr: netip.MustParseAddr("192.0.2.7"),
			Method: "GET", Host: "example.com", Path: "/p", Claimed: claimed, Outcome: o, Action: a, Would: a}
		line, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	for i := range 60 {
		add(i, "GPTBot", guard.OutcomeDisallowedUnverified, guard.Action403)
	}
	b.WriteString("not a decision\n")
	add(60, "", guard.OutcomeNotCrawler, guard.ActionAllow)
	add(61, "Googlebot", guard.OutcomePass, guard.ActionAllow)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	get := func(ts *testServer) GuardView {
		resp, err := http.Get(ts.URL + "/v1/guard")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET /v1/guard: %d %s", resp.StatusCode, body)
		}
		var v GuardView
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	v := get(newTestServer(t, &Options{GuardDecisions: path}))
	if !v.Configured || v.Read != 62 || v.Unparsed != 1 || v.From != "2026-11-28T03:00:00Z" || v.To != "2026-11-28T03:01:01Z" {
		t.Errorf("configured %v, read %d, unparsed %d, from %s to %s", v.Configured, v.Read, v.Unparsed, v.From, v.To)
	}
	want := []GuardCount{{"GPTBot", "disallowed-unverified", "403", 60}, {"Googlebot", "pass", "allow", 1}, {"other", "not-crawler", "allow", 1}}
	if len(v.Counts) != 3 || v.Counts[0] != want[0] || v.Counts[1] != want[1] || v.Counts[2] != want[2] {
		t.Errorf("counts %+v, want %+v", v.Counts, want)
	}
	if len(v.Recent) != GuardViewRecent || v.Recent[0].Claimed != "Googlebot" || v.Recent[1].Outcome != guard.OutcomeNotCrawler {
		t.Errorf("%d recent, the first two %+v %+v", len(v.Recent), v.Recent[0], v.Recent[1])
	}

	// The log's end only: a log longer than GuardViewBytes is read from a
	// whole line past its cut.
	long := strings.Repeat(`{"junk":"`+strings.Repeat("x", 1000)+"\"}\n", GuardViewBytes/1000+10) + b.String()
	os.WriteFile(path, []byte(long), 0o644)
	v = get(newTestServer(t, &Options{GuardDecisions: path}))
	if v.Read != 62 || v.Unparsed >= GuardViewBytes/1000 {
		t.Errorf("a long log: read %d, unparsed %d", v.Read, v.Unparsed)
	}

	if v := get(newTestServer(t, nil)); v.Configured || v.Read != 0 || v.Counts == nil || v.Recent == nil {
		t.Errorf("no log: %+v", v)
	}
	if v := get(newTestServer(t, &Options{GuardDecisions: filepath.Join(dir, "none.jsonl")})); !v.Configured || v.Read != 0 {
		t.Errorf("a log not written yet: %+v", v)
	}
}
