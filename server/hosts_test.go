package server

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// withHost sends a GET of path with Host host to the test server.
func withHost(t *testing.T, ts *testServer, path, host string) reply {
	t.Helper()
	req, err := http.NewRequest("GET", ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}
}

// TestHostHeader: a server on loopback answers its own address and the
// loopback names with its port, and refuses other Host values (DNS
// rebinding) with 421, on every route.
func TestHostHeader(t *testing.T) {
	ts := newTestServer(t, nil)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "localhost.:" + port, "[::1]:" + port} {
		if r := withHost(t, ts, "/healthz", host); r.status != 200 {
			t.Errorf("Host %s: %d %s", host, r.status, r.body)
		}
	}
	for _, host := range []string{"attacker.example:" + port, "attacker.example", "localhost", "localhost:1", "127.0.0.1:1", "10.0.0.1:" + port, "localhost.attacker.example:" + port, "localhost:x"} {
		for _, path := range []string{"/healthz", "/", "/v1/fetch?url=example.com", "/metrics"} {
			r := withHost(t, ts, path, host)
			r.wantError(t, 421, "")
			if !strings.Contains(r.json(t)["error"].(string), "--allowed-hosts") {
				t.Errorf("Host %s: %s does not say how to accept it", host, r.body)
			}
		}
	}

	allowed := newTestServer(t, &Options{AllowedHosts: []string{"robots.example", "Other.Example:8443", "[2001:db8::1]:443"}})
	for host, want := range map[string]int{
		"robots.example:1234":    200,
		"ROBOTS.example":         200,
		"other.example:8443":     200,
		"other.example:8444":     421,
		"other.example":          421,
		"[2001:db8::1]:443":      200,
		"[2001:db8::1]:80":       421,
		"attacker.example:80":    421,
		"robots.example.evil:80": 421,
	} {
		if r := withHost(t, allowed, "/healthz", host); r.status != want {
			t.Errorf("allowed hosts, Host %s: %d, want %d", host, r.status, want)
		}
	}
	anyHost := newTestServer(t, &Options{AllowedHosts: []string{"*"}})
	if r := withHost(t, anyHost, "/healthz", "attacker.example"); r.status != 200 {
		t.Errorf("--allowed-hosts '*': %d", r.status)
	}
	for _, bad := range []string{"", "http://robots.example", "robots.example/x", "robots.example:0", "robots.example:99999", "a b"} {
		if _, err := New(&Options{AllowedHosts: []string{bad}}); err == nil || !strings.Contains(err.Error(), "allowed host") {
			t.Errorf("allowed host %q: %v", bad, err)
		}
	}
}

// TestHostPolicy: the Host values accepted on connections to each kind of
// listening address.
func TestHostPolicy(t *testing.T) {
	tcp := func(ip string, port int) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: port} }
	p, _ := newHostPolicy(nil)
	every, _ := newHostPolicy(nil)
	every.listening(tcp("0.0.0.0", 8080))
	for _, c := range []struct {
		p     *hostPolicy
		host  string
		local net.Addr
		tls   bool
		want  bool
	}{
		{p, "127.0.0.1:8080", tcp("127.0.0.1", 8080), false, true},
		{p, "localhost:8080", tcp("127.0.0.1", 8080), false, true},
		{p, "[::1]:8080", tcp("::1", 8080), false, true},
		{p, "localhost:8080", tcp("::1", 8080), false, true},
		{p, "localhost", tcp("127.0.0.1", 80), false, true},
		{p, "localhost", tcp("127.0.0.1", 443), true, true},
		{p, "localhost", tcp("127.0.0.1", 443), false, false},
		{p, "evil.example:8080", tcp("127.0.0.1", 8080), false, false},
		// A server on one interface: its address, not loopback names.
		{p, "192.0.2.7:8080", tcp("192.0.2.7", 8080), false, true},
		{p, "localhost:8080", tcp("192.0.2.7", 8080), false, false},
		{p, "192.0.2.8:8080", tcp("192.0.2.7", 8080), false, false},
		{p, "[2001:db8::7]:8080", tcp("2001:db8::7", 8080), false, true},
		// On every interface: the interface's address, and loopback names.
		{every, "192.0.2.7:8080", tcp("192.0.2.7", 8080), false, true},
		{every, "localhost:8080", tcp("192.0.2.7", 8080), false, true},
		{every, "127.0.0.1:8080", tcp("192.0.2.7", 8080), false, true},
		{every, "localhost:9090", tcp("192.0.2.7", 9090), false, false},
		{every, "evil.example:8080", tcp("192.0.2.7", 8080), false, false},
		// No Host (HTTP/1.0), and connections that are not TCP.
		{p, "", tcp("127.0.0.1", 8080), false, true},
		{p, "evil.example", &net.UnixAddr{Name: "/run/robotstxt.sock", Net: "unix"}, false, true},
	} {
		if got := c.p.allows(c.host, c.local, c.tls); got != c.want {
			t.Errorf("Host %q on %v (tls %v): %v, want %v", c.host, c.local, c.tls, got, c.want)
		}
	}
}

// TestPostContentType: a POST must declare its body as JSON; a browser
// sends any other POST across sites without asking.
func TestPostContentType(t *testing.T) {
	ts := newTestServer(t, nil)
	body := `{"robots": "", "urls": ["/"]}`
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8", "application/x-ndjson", "application/jsonl"} {
		if r := do(t, "POST", ts.URL+"/v1/check", strings.NewReader(body), "Content-Type", ct); r.status != 200 {
			t.Errorf("%q: %d %s", ct, r.status, r.body)
		}
	}
	for _, route := range []string{"check", "lint", "compare", "diff"} {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", "application/json-seq"} {
			var h []string
			if ct != "" {
				h = []string{"Content-Type", ct}
			}
			r := do(t, "POST", ts.URL+"/v1/"+route, strings.NewReader(body), h...)
			r.wantError(t, 415, "")
		}
	}
}

// TestCrossOrigin: a request that may change state, sent by a browser from
// a page of another origin, is refused.
func TestCrossOrigin(t *testing.T) {
	ts := newTestServer(t, nil)
	body := `{"robots": "", "urls": ["/"]}`
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "http://attacker.example"},
	} {
		post(t, ts.URL+"/v1/check", body, h...).wantError(t, 403, "")
	}
	// GET /v1/fetch (no url: a 400 when let through) fetches, writing the
	// cache and the history: refused when Sec-Fetch-Site says another
	// site.
	for _, site := range []string{"cross-site", "same-site"} {
		get(t, ts.URL+"/v1/fetch", "Sec-Fetch-Site", site).wantError(t, 403, "")
	}
	get(t, ts.URL+"/v1/fetch", "Sec-Fetch-Site", "same-origin").wantError(t, 400, "url")
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "same-origin"},
		{"Sec-Fetch-Site", "none"},
		{"Origin", ts.URL},
	} {
		if r := post(t, ts.URL+"/v1/check", body, h...); r.status != 200 {
			t.Errorf("%v: %d %s", h, r.status, r.body)
		}
	}
	// Reading is not refused: the browser keeps the answer from the page.
	if r := get(t, ts.URL+"/v1/crawlers", "Sec-Fetch-Site", "cross-site"); r.status != 200 {
		t.Errorf("a cross-site read: %d", r.status)
	}
}
