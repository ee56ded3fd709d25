package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/verify"
)

const (
	auditGuardV1 = "User-agent: GPTBot\nDisallow: /private\n"
	auditGuardV2 = "User-agent: GPTBot\nDisallow: /open\n"
)

// auditGuardID verifies every address but 203.0.113.9, a spoofer.
type auditGuardID struct{}

func (auditGuardID) Identify(_ context.Context, _ *http.Request, ip netip.Addr, c *robotstxt.Crawler) verify.Evidence {
	if ip == netip.MustParseAddr("203.0.113.9") {
		return verify.Evidence{Crawler: c.Name, IP: ip.String(), Outcome: "spoofed", Method: verify.MethodRanges,
			Lists: []verify.ListEvidence{{URL: "https://openai.com/gptbot.json", CreationTime: "2026-11-20T00:00:00"}}, Reason: "outside GPTBot's published address ranges"}
	}
	return verify.Evidence{Crawler: c.Name, IP: ip.String(), Outcome: "verified", Method: verify.MethodRanges, Reason: "in GPTBot's published address ranges"}
}

// auditGuardLog is a decision log written by a real guard through
// NewWriterSink: robots.txt v1 in enforce mode, then v2 in log mode.
func auditGuardLog(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	sink := guard.NewWriterSink(&buf, 0)
	enforce, err := guard.ParsePolicy("p.toml", []byte("mode = \"enforce\"\nrecord = \"all\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	src := guard.NewStatic([]byte(auditGuardV1), "")
	g, err := guard.Build(guard.Options{Robots: src, Decisions: sink, Policy: enforce, Identity: auditGuardID{}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(ip, ua, path string) {
		now = now.Add(time.Minute)
		r := httptest.NewRequest("GET", "http://example.com"+path, nil)
		r.RemoteAddr = ip + ":5555"
		r.Header.Set("User-Agent", ua)
		g.Decide(r)
	}
	ask("192.0.2.1", auditGPT, "/private/a")   // disallowed-verified: 403
	ask("192.0.2.1", auditGPT, "/open")        // pass
	ask("203.0.113.9", auditGPT, "/private/b") // spoofed: 403
	ask("192.0.2.2", auditFox, "/")            // not a crawler
	ask("192.0.2.1", auditGPT, "/robots.txt")  // the rules
	src.Set([]byte(auditGuardV2), "")
	logMode, err := guard.ParsePolicy("p.toml", []byte("mode = \"log\"\nrecord = \"all\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	g.SetPolicy(logMode)
	ask("192.0.2.1", auditGPT, "/open")      // disallowed-verified: log, would 403
	ask("192.0.2.1", auditGPT, "/private/c") // pass
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestAuditGuardLogRecorded: robotstxt audit of a guard's decision log
// with no robots.txt judges each request by the verdict, the version and
// the identity the guard recorded, and adds the guard's own figures, in
// text (80 columns), JSON and CSV.
func TestAuditGuardLogRecorded(t *testing.T) {
	log := writeTemp(t, "decisions.jsonl", auditGuardLog(t))
	code, out, errs := runCmd(t, "", "audit", log)
	if code != 1 {
		t.Fatalf("exit %d (want 1: a request was disallowed)\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"(guard): 7\nlines, 0 unparsed; 7 requests, 6 by known crawlers, 3 disallowed.",
		"robots.txt in force, as the guard recorded it:\n  #0 sha256:",
		": 3 judged, 2 disallowed\n     seen 2026-11-28T03:01:00Z to 2026-11-28T03:03:00Z\n  #1 sha256:",
		": 2 judged, 1 disallowed\n     seen 2026-11-28T03:06:00Z to 2026-11-28T03:07:00Z\n",
		"GPTBot                         6           3         5         1           0\n",
		"#1 line 2: Disallow: /open\n",
		"Guard: 7 decisions (enforce 5, log 2); it answered 2 in the site's place, and in\n  log mode let 1 pass that its policy would have refused.\n",
		"  Outcomes: disallowed-verified 2, pass 2, not-crawler 1, rules-path 1,\n    spoofed 1.\n",
		"  Actions taken: allow 4, 403 2, log 1.\n  Actions the policy names (would): allow 4, 403 3.\n",
		"  GPTBot                         6         2            1\n",
		"  203.0.113.9           GPTBot                 1          1  outside its ranges\n",
		"Identity: as the guard recorded it, each request with the evidence of its\n  decision (verified, spoofed or unverified then); nothing was looked up again.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Judged again") || strings.Contains(out, "reverse DNS") {
		t.Errorf("a recorded audit speaks of judging again or of DNS:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > auditWidth {
			t.Errorf("line over %d columns: %q", auditWidth, l)
		}
	}

	code, r, errs := auditJSON(t, "", log)
	if code != 1 || r.Format != "guard" || r.Judged != 5 || r.Disallowed != 3 || len(r.Versions) != 2 || len(r.Crawlers) != 1 {
		t.Fatalf("exit %d, %s: %+v", code, errs, r)
	}
	if v := r.Versions[1]; !strings.HasPrefix(v.Source, "sha256:") || v.FirstSeen != "2026-11-28T03:06:00Z" || v.LastSeen != "2026-11-28T03:07:00Z" || v.Judged != 2 || v.Disallowed != 1 {
		t.Errorf("version 1: %+v", v)
	}
	if c := r.Crawlers[0]; c.Verified != 5 || c.Spoofed != 1 || c.DisallowedSpoofed != 1 || c.DisallowedVerified != 2 {
		t.Errorf("GPTBot: %+v", c)
	}
	if len(r.Spoofers) != 1 || r.Spoofers[0].Evidence.Lists[0].CreationTime != "2026-11-20T00:00:00" {
		t.Errorf("spoofers: %+v", r.Spoofers)
	}
	g := r.Guard
	if g == nil || !g.Recorded || !r.Verification.Recorded || g.Blocked != 2 || g.WouldBlock != 1 || g.Outcomes["spoofed"] != 1 || g.Modes["log"] != 2 {
		t.Errorf("guard %+v, verification %+v", g, r.Verification)
	}

	code, out, errs = runCmd(t, "", "audit", "--csv", log)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 1 || err != nil {
		t.Fatalf("exit %d, %v, %s", code, err, errs)
	}
	head := strings.Join(rows[0], ",")
	if !strings.HasSuffix(head, ",served,refused,priced,blocked,would_block,name") {
		t.Errorf("CSV head: %s", head)
	}
	got := map[string]bool{}
	for _, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			t.Errorf("a row of %d columns: %v", len(row), row)
		}
		got[row[0]+" "+row[1]+" "+row[2]+" "+row[len(row)-3]+" "+row[len(row)-2]+" "+row[len(row)-1]] = true
	}
	for _, want := range []string{"crawler GPTBot 6 2 1 ", "outcome  2   disallowed-verified", "would  3   403", "mode  2   log"} {
		if !got[want] {
			t.Errorf("no CSV row %q in\n%s", want, out)
		}
	}
}

// TestAuditGuardLogJudgedAgain: with --robots, a guard's log is judged by
// that file, as before, and the report counts the verdicts that differ
// from the ones the guard recorded.
func TestAuditGuardLogJudgedAgain(t *testing.T) {
	log := writeTemp(t, "decisions.jsonl", auditGuardLog(t))
	for _, c := range []struct {
		robots                                   string
		disallowed, differs, nowAllowed, nowDisa int64
	}{
		// v2 allows /private/a and /private/b, which v1 disallowed, and
		// disallows the first /open, which v1 allowed.
		{auditGuardV2, 2, 3, 2, 1},
		// v1 allows the last /open and disallows /private/c.
		{auditGuardV1, 3, 2, 1, 1},
	} {
		robots := writeTemp(t, "robots.txt", c.robots)
		code, r, errs := auditJSON(t, "", "--robots", robots, log)
		if code != 1 || r.Guard == nil {
			t.Fatalf("exit %d, %s", code, errs)
		}
		g := r.Guard
		if r.Disallowed != c.disallowed || g.Recorded || r.Verification.Recorded || g.Compared != 5 || g.Differs != c.differs || g.NowAllowed != c.nowAllowed || g.NowDisallowed != c.nowDisa {
			t.Errorf("%q: disallowed %d, guard %+v", c.robots, r.Disallowed, g)
		}
		if r.Crawlers[0].Unverified != 6 || len(r.Versions) != 1 || r.Versions[0].FirstSeen != "" {
			t.Errorf("%q: identity and versions as before: %+v %+v", c.robots, r.Crawlers[0], r.Versions)
		}
	}
	robots := writeTemp(t, "robots.txt", auditGuardV2)
	_, out, _ := runCmd(t, "", "audit", "--dns=false", "--robots", robots, log)
	want := "Judged again by the robots.txt given: 3 of the 5 verdicts the guard recorded\n  differ (2 disallowed then and allowed now, 1 allowed then and disallowed now):\n  the file changed since, or is not the one the guard enforced.\n"
	if !strings.Contains(out, want) || !strings.Contains(out, "\nrobots.txt in force:\n  #0 since ever: ") {
		t.Errorf("no %q in\n%s", want, out)
	}
}

// TestAuditNoRobotsNotGuard: without a robots.txt, a log that is not the
// guard's stops as before, saying why; a format named stops at once.
func TestAuditNoRobotsNotGuard(t *testing.T) {
	log := writeTemp(t, "a.log", auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB))
	code, out, errs := runCmd(t, "", "audit", "--dns=false", log)
	if code != 2 || out != "" || !strings.Contains(errs, "no robots.txt to judge by: give --robots FILE") || !strings.Contains(errs, "a.log is combined: only the guard's decision log records its own verdicts") {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
	code, _, errs = runCmd(t, "", "audit", "--format", "combined", log)
	if code != 2 || !strings.Contains(errs, "no robots.txt to judge by: give --robots FILE, --robots TIME=FILE..., or --origin URL (with --store for the versions the service recorded)\n") {
		t.Errorf("--format combined: exit %d, %q", code, errs)
	}
	guardLog := writeTemp(t, "d.jsonl", auditGuardLog(t))
	code, _, errs = runCmd(t, "", "audit", "--ip-ranges", "GPTBot=x.json", guardLog)
	if code != 2 || !strings.Contains(errs, "--ip-ranges: the guard's decision log records each identity") {
		t.Errorf("--ip-ranges with recorded identities: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, "", "audit", "--field", "ip=client", guardLog)
	if code != 2 || !strings.Contains(errs, "--field: the guard's decision log has its own field names") {
		t.Errorf("--field with recorded verdicts: exit %d, %q", code, errs)
	}
	// The other formats' reports have no guard member.
	_, out, _ = runCmd(t, "", "audit", "--json", "--dns=false", "--robots", writeTemp(t, "r.txt", auditRobo), log)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	v := m["versions"].([]any)[0].(map[string]any)
	if _, ok := m["guard"]; ok {
		t.Errorf("a combined log's report has a guard member:\n%s", out)
	}
	if _, ok := v["first_seen"]; ok {
		t.Errorf("a combined log's version has a first_seen:\n%s", out)
	}
}

// TestAuditGuardDocExample runs the example of docs/audit.md's section on
// the guard's decision log, on the log auditGuardLog writes, and fails
// when the output differs from the page.
func TestAuditGuardDocExample(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	const start = "$ robotstxt audit decisions.jsonl\n"
	i := strings.Index(string(page), start)
	if i < 0 {
		t.Fatal("docs/audit.md has no example starting " + start)
	}
	want := string(page[i+len(start):])
	want = want[:strings.Index(want, "$ echo $?")]
	log := auditGuardLog(t)
	t.Chdir(t.TempDir())
	if err := os.WriteFile("decisions.jsonl", []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, "", "audit", "decisions.jsonl")
	if code != 1 || out != want {
		t.Errorf("exit %d, %s\ngot:\n%s\nthe page says:\n%s", code, errs, out, want)
	}
}
