package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// pricedSite answers /robots.txt 402 Payment Required, with crawler-price
// when price is not "".
func pricedSite(t *testing.T, price string) *httptest.Server {
	t.Helper()
	useTempCache(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if price != "" {
			w.Header().Set("crawler-price", price)
		}
		w.WriteHeader(http.StatusPaymentRequired)
		w.Write([]byte("payment required"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFetch402 is robotstxt fetch of a robots.txt answered 402: allow all
// (a 4xx), and the report names the outcome and the price in text and
// JSON.
func TestFetch402(t *testing.T) {
	fixedClock(t)
	srv := pricedSite(t, "USD 0.01")
	code, out, stderr := runCmd(t, "", "fetch", "--store", "memory", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "fetch_402.txt", normalise(out, srv.URL))
	for _, want := range []string{"402 Payment Required", "crawler-price: USD 0.01", "policy:   allow all",
		"payment:  required (402: offered at a price), crawler-price USD 0.01"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "payment:") && len(l) > 80 {
			t.Errorf("line over 80 columns: %q", l)
		}
	}
	code, out, stderr = runCmd(t, "", "fetch", "--json", "--store", "memory", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "fetch_402.json", normalise(out, srv.URL))
	var info struct {
		Policy  string
		Status  int
		Payment map[string]string
		Trace   []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	if info.Policy != "allow-all" || info.Status != 402 || info.Payment["status"] != "required" || info.Payment["price"] != "USD 0.01" {
		t.Errorf("JSON: %+v", info)
	}
	if len(info.Trace) != 1 || info.Trace[0]["crawler_price"] != "USD 0.01" {
		t.Errorf("trace: %+v", info.Trace)
	}
}

// TestFetch402NoOrBadPrice: without crawler-price, and with one that
// does not read, the outcome is still payment required, and says which.
func TestFetch402NoOrBadPrice(t *testing.T) {
	for _, tc := range []struct{ price, text, json string }{
		{"", "required (402: offered at a price), no crawler-price", `"payment": { "status": "required" }`},
		{"USD a penny", `crawler-price unreadable: invalid price "USD a penny": the amount`, `"price_error": "invalid price \"USD a penny\": the amount is not a decimal number`},
	} {
		srv := pricedSite(t, tc.price)
		code, out, stderr := runCmd(t, "", "fetch", "--store", "memory", srv.URL)
		if code != 0 || !strings.Contains(out, tc.text) || !strings.Contains(out, "policy:   allow all") {
			t.Errorf("%q: exit %d, report lacks %q:\n%s%s", tc.price, code, tc.text, out, stderr)
		}
		_, out, _ = runCmd(t, "", "fetch", "--json", "--store", "memory", srv.URL)
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(tc.json), " ")) {
			t.Errorf("%q: JSON lacks %s:\n%s", tc.price, tc.json, out)
		}
	}
}

// TestCheckURL402: check -u says the site answered 402 and names the
// price; everything is allowed, as for any 4xx.
func TestCheckURL402(t *testing.T) {
	fixedClock(t)
	srv := pricedSite(t, "USD 0.01")
	code, out, stderr := runCmd(t, "", "check", "--store", "memory", "-u", srv.URL, "/a")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (everything allowed): %s", code, stderr)
	}
	golden(t, "check_url_402.txt", normalise(out, srv.URL))
	if !containsWords(out, "402 Payment Required (crawler-price: USD 0.01)") {
		t.Errorf("check -u does not name the price:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "check", "--json", "--store", "memory", "-u", srv.URL, "/a")
	var rep struct {
		Fetch struct {
			Status  int
			Payment map[string]string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Fetch.Status != 402 || rep.Fetch.Payment["status"] != "required" || rep.Fetch.Payment["price"] != "USD 0.01" {
		t.Errorf("check --json: %+v\n%s", rep.Fetch, out)
	}
}

// TestBulk402: robotstxt bulk gives an origin whose robots.txt answers
// 402 its payment in JSON and CSV, and the summary on stderr counts it.
func TestBulk402(t *testing.T) {
	srv := pricedSite(t, "USD 0.01")
	t.Setenv("HTTP_PROXY", "")
	t.Setenv("http_proxy", "")
	out, stderr, code := runBulkArgs(t, strings.NewReader(srv.URL+"/a\n"), "--store", "memory")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"policy":"allow-all"`) || !strings.Contains(out, `"payment":{"status":"required","price":"USD 0.01"}`) {
		t.Errorf("JSON:\n%s", out)
	}
	if !strings.Contains(stderr, "  priced: 1 origin answered 402 Payment Required") {
		t.Errorf("summary:\n%s", stderr)
	}
	for _, l := range strings.Split(stderr, "\n") {
		if displayWidth(l) > 80 {
			t.Errorf("summary line over 80 columns: %q", l)
		}
	}
	out, _, code = runBulkArgs(t, strings.NewReader(srv.URL+"/a\n"), "--store", "memory", "--format", "csv", "--quiet")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], ",payment") || !strings.HasSuffix(lines[1], ",required: USD 0.01") {
		t.Errorf("CSV (exit %d):\n%s", code, out)
	}
}

// TestAudit402: requests answered 402 are priced, not served nor
// refused, in JSON, CSV and text; a log without them shows no priced
// section.
func TestAudit402(t *testing.T) {
	robots := writeTemp(t, "robots.txt", auditRobo)
	line := func(path, status, ua string) string {
		return `66.249.66.1 - - [10/Nov/2026:12:00:00 +0000] "GET ` + path + ` HTTP/1.1" ` + status + ` 512 "-" "` + ua + `"` + "\n"
	}
	log := writeTemp(t, "a.log", line("/a", "200", auditGPT)+line("/b", "402", auditGPT)+line("/c", "402", auditGPT)+
		line("/d", "403", auditGPT)+line("/e", "404", auditGPT)+line("/f", "304", auditGB)+line("/g", "402", auditFox))
	_, r, stderr := auditJSON(t, "", "--robots", robots, log)
	gpt := crawlerOf(r, "GPTBot")
	if gpt == nil || gpt.Priced != 2 || gpt.Served != 1 || gpt.Refused != 1 || gpt.Requests != 5 {
		t.Fatalf("GPTBot %+v (%s)", gpt, stderr)
	}
	if r.Priced != 2 || r.Served != 2 || r.Refused != 1 {
		t.Errorf("totals: %d priced, %d served, %d refused; want 2, 2, 1 (a browser's 402 is not a crawler's)", r.Priced, r.Served, r.Refused)
	}
	_, out, _ := runCmd(t, "", "audit", "--json", "--dns=false", "--robots", robots, log)
	for _, k := range []string{`"priced": 2`, `"served": 2`, `"refused": 1`} {
		if !strings.Contains(out, k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	_, out, _ = runCmd(t, "", "audit", "--csv", "--dns=false", "--robots", robots, log)
	rows := strings.Split(strings.TrimSpace(out), "\r\n")
	if !strings.HasSuffix(rows[0], ",served,refused,priced") {
		t.Errorf("CSV head: %s", rows[0])
	}
	found := false
	for _, row := range rows {
		if strings.HasPrefix(row, "crawler,GPTBot,5,") {
			found = strings.HasSuffix(row, ",1,1,2")
		}
	}
	if !found {
		t.Errorf("CSV has no GPTBot row ending served 1, refused 1, priced 2:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "audit", "--dns=false", "--robots", robots, log)
	if !strings.Contains(out, "Priced: 2 of the crawlers' requests were answered 402 Payment Required") {
		t.Errorf("text:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if displayWidth(l) > 80 {
			t.Errorf("text line over 80 columns: %q", l)
		}
	}
	// No 402: no priced section.
	log = writeTemp(t, "b.log", line("/a", "200", auditGPT))
	_, out, _ = runCmd(t, "", "audit", "--dns=false", "--robots", robots, log)
	if strings.Contains(out, "Priced") {
		t.Errorf("a priced section without a 402:\n%s", out)
	}
}
