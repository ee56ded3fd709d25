package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/store"
)

const auditUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

func auditLogLine(when, path string) string {
	return `66.249.66.1 - - [` + when + `] "GET ` + path + ` HTTP/1.1" 200 512 "-" "` + auditUA + `"` + "\n"
}

func auditBody(t *testing.T, req AuditRequest) string {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func auditReport(t *testing.T, r reply) *audit.Report {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var rep audit.Report
	if err := json.Unmarshal(r.body, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

// TestAudit: POST /v1/audit answers what robotstxt audit --json writes,
// with one file or versions in force from their times.
func TestAudit(t *testing.T) {
	ts := newTestServer(t, nil)
	log := auditLogLine("10/Nov/2026:11:00:00 +0000", "/old/a") + "garbage\n" + auditLogLine("10/Nov/2026:13:00:00 +0000", "/new/a")
	rep := auditReport(t, post(t, ts.URL+"/v1/audit", auditBody(t, AuditRequest{Log: log, Robots: "User-agent: *\nDisallow: /new/\n"})))
	if rep.Lines != 3 || rep.Unparsed != 1 || rep.Disallowed != 1 || len(rep.Crawlers) != 1 || rep.Crawlers[0].Crawler != "Googlebot" || rep.Crawlers[0].Unverified != 2 {
		t.Errorf("one file: %+v", rep)
	}
	rep = auditReport(t, post(t, ts.URL+"/v1/audit", auditBody(t, AuditRequest{Log: log, Versions: []AuditVersion{
		{Robots: "User-agent: *\nDisallow: /old/\n", Source: "old"},
		{From: "2026-11-10T12:00:00Z", Robots: "User-agent: *\nDisallow: /new/\n", Source: "new"},
	}})))
	if rep.Disallowed != 2 || rep.Versions[0].Disallowed != 1 || rep.Versions[1].Disallowed != 1 {
		t.Errorf("versions: %+v", rep.Versions)
	}
	for _, c := range []struct {
		body, field string
		status      int
	}{
		{`{"log":"x"}`, "robots", 400},
		{`{"log":"x","robots":"a","origin":"https://example.com"}`, "robots", 400},
		{`{"log":"x","versions":[{"from":"yesterday","robots":""}]}`, "versions[0].from", 400},
		{`{"log":"x","versions":[{"robots":""},{"robots":""}]}`, "versions", 400},
		{`{"log":"x","robots":"a","format":"w3c"}`, "format", 400},
		{`{"log":"x","robots":"a","fields":"nosuch=x"}`, "fields", 400},
		{`{"log":"x","robots":"a","top":1000}`, "top", 400},
		{`{"log":"x","origin":"https://example.com"}`, "", 404},
	} {
		post(t, ts.URL+"/v1/audit", c.body).wantError(t, c.status, c.field)
	}
	big := `{"log":"` + strings.Repeat("a", MaxBodyBytes) + `","robots":""}`
	if r := post(t, ts.URL+"/v1/audit", big); r.status != 413 {
		t.Errorf("a body past 8 MiB: %d", r.status)
	}
}

// TestAuditOrigin: origin judges by the versions the history recorded.
func TestAuditOrigin(t *testing.T) {
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /old/\n")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body.Load().(string)))
	}))
	defer site.Close()
	clk := &clock{now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	mem := store.NewMemory(&store.MemoryOptions{Now: clk.Now})
	ts := newTestServer(t, &Options{AllowPrivate: true, Now: clk.Now, Store: mem})
	get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	clk.Add(9*24*time.Hour + 12*time.Hour) // 2026-11-10T12:00:00Z
	body.Store("User-agent: *\nDisallow: /new/\n")
	get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	log := auditLogLine("05/Nov/2026:00:00:00 +0000", "/old/a") + auditLogLine("05/Nov/2026:00:00:00 +0000", "/new/a") +
		auditLogLine("11/Nov/2026:00:00:00 +0000", "/old/b") + auditLogLine("11/Nov/2026:00:00:00 +0000", "/new/b")
	rep := auditReport(t, post(t, ts.URL+"/v1/audit", auditBody(t, AuditRequest{Log: log, Origin: site.URL})))
	paths := map[string]int{}
	for _, p := range rep.Crawlers[0].TopDisallowed {
		paths[p.Path] = p.Version
	}
	if len(rep.Versions) != 2 || rep.Versions[1].From != "2026-11-10T12:00:00Z" || len(paths) != 2 || paths["/old/a"] != 0 || paths["/new/b"] != 1 {
		t.Errorf("versions %+v, disallowed %v", rep.Versions, paths)
	}
}

// TestAuditBombService: a compressed log pasted into POST /v1/audit (the
// zstd file of issue 34, as a JSON string carries it) is refused at once,
// saying why; and a megabyte of blank or noise lines is read in well under
// a second a line's worth (it cost 30 µs a line before: four parsers made
// to detect each one).
func TestAuditBombService(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct{ name, log string }{
		{"zstd", "\x28\xb5\x2f\xfd\x04\x58\x00\x00" + strings.Repeat("\x00", 64)},
		{"gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00" + strings.Repeat("\x00", 64)},
	} {
		r := post(t, ts.URL+"/v1/audit", auditBody(t, AuditRequest{Log: c.log, Robots: "User-agent: *\nDisallow: /x\n"}))
		if r.status != 400 || !strings.Contains(string(r.body), c.name+"-compressed") {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	for _, line := range []string{"\n", "x\n"} {
		start := time.Now()
		log := strings.Repeat(line, 1<<20/len(line))
		rep := auditReport(t, post(t, ts.URL+"/v1/audit", auditBody(t, AuditRequest{Log: log, Robots: "User-agent: *\nDisallow: /x\n"})))
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%q lines: %v", line, took)
		}
		if line == "x\n" && rep.Unparsed != 1<<19 {
			t.Errorf("%q lines: %d unparsed", line, rep.Unparsed)
		}
	}
}
