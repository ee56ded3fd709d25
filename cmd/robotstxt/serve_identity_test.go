package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/server"
	"github.com/seed53c283f5/robotstxt/store"
)

// identityFigures are a report's identity figures: per crawler its
// requests by outcome, and the spoofers with their evidence's method and
// lists.
func identityFigures(r *audit.Report) []string {
	var out []string
	for _, c := range r.Crawlers {
		b, _ := json.Marshal([]any{c.Crawler, c.Requests, c.Verified, c.Spoofed, c.Unverified, c.DisallowedVerified, c.DisallowedSpoofed, c.DisallowedUnverified})
		out = append(out, string(b))
	}
	for _, s := range r.Spoofers {
		b, _ := json.Marshal([]any{s.IP, s.Crawler, s.Requests, s.Method, s.Reason, s.Evidence.Outcome, s.Evidence.Method, s.Evidence.Lists, s.Evidence.Names})
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// TestServeAuditIdentity: POST /v1/audit, with the lists serve
// --ip-ranges gives and reverse DNS through the same loopback resolver,
// gives the same identity figures as robotstxt audit on the same log.
func TestServeAuditIdentity(t *testing.T) {
	resolver := auditDNS(t, map[string]string{
		"66.249.66.1":  "crawl-66-249-66-1.googlebot.com.",
		"203.0.113.9":  "crawl-203-0-113-9.googlebot.com.",
		"198.51.100.7": "host.example.net.",
	}, map[string][]string{
		"crawl-66-249-66-1.googlebot.com.": {"66.249.66.1"},
		"crawl-203-0-113-9.googlebot.com.": {"66.249.66.99"},
		"host.example.net.":                {"198.51.100.7"},
	})
	robots := writeTemp(t, "robots.txt", auditRobo)
	ranges := writeTemp(t, "gptbot.json", `{"creationTime":"2026-11-20T00:00:00","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`)
	logText := auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB) +
		auditLine("66.249.66.1", "10/Nov/2026:12:00:01 +0000", "/a", auditGB) +
		auditLine("203.0.113.9", "10/Nov/2026:12:00:02 +0000", "/private/b", auditGB) +
		auditLine("198.51.100.7", "10/Nov/2026:12:00:03 +0000", "/a", auditGB) +
		auditLine("20.171.206.5", "10/Nov/2026:12:00:04 +0000", "/a", auditGPT) +
		auditLine("192.0.2.50", "10/Nov/2026:12:00:05 +0000", "/private/c", auditGPT) +
		auditLine("192.0.2.51", "10/Nov/2026:12:00:06 +0000", "/a", "ClaudeBot/1.0")
	log := writeTemp(t, "a.log", logText)

	code, out, stderr := runCmd(t, "", "audit", "--json", "--resolver", resolver, "--store", "memory", "--ip-ranges", "GPTBot="+ranges, "--robots", robots, log)
	var cli audit.Report
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatalf("audit: exit %d: %v %s", code, err, stderr)
	}

	ident, err := serveIdentity([]string{"GPTBot=" + ranges}, true, resolver, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(&server.Options{Store: store.NewMemory(nil), Identity: ident})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	robotsText, _ := os.ReadFile(robots)
	body, _ := json.Marshal(server.AuditRequest{Log: logText, Robots: string(robotsText)})
	resp, err := http.Post(hs.URL+"/v1/audit", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var svc audit.Report
	if err := json.NewDecoder(resp.Body).Decode(&svc); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /v1/audit: %d %v", resp.StatusCode, err)
	}

	a, b := identityFigures(&cli), identityFigures(&svc)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("audit and POST /v1/audit differ:\ncli %s\nsvc %s", strings.Join(a, "\n    "), strings.Join(b, "\n    "))
	}
	// The figures are the right ones, not only equal: both verify.
	gb := crawlerOf(&svc, "Googlebot")
	if gb == nil || gb.Verified != 2 || gb.Spoofed != 2 || !svc.Verification.Enabled || svc.Verification.DNS.Lookups != 3 {
		t.Errorf("service: Googlebot %+v, verification %+v", gb, svc.Verification)
	}
	for _, s := range svc.Spoofers {
		if s.IP == "192.0.2.50" && (len(s.Evidence.Lists) != 1 || s.Evidence.Lists[0].URL != ranges || s.Evidence.Lists[0].CreationTime != "2026-11-20T00:00:00" || s.Evidence.Checked.IsZero()) {
			t.Errorf("spoofer evidence: %+v", s.Evidence)
		}
	}
	// The CSV carries the evidence's columns.
	_, csv, _ := runCmd(t, "", "audit", "--csv", "--resolver", resolver, "--store", "memory", "--ip-ranges", "GPTBot="+ranges, "--robots", robots, log)
	if !strings.Contains(csv, ",method,lists,names,checked") || !strings.Contains(csv, "ip-ranges,"+ranges+"@2026-11-20T00:00:00,") {
		t.Errorf("CSV:\n%s", csv)
	}
}
