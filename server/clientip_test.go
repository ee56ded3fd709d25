package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
)

// getAs asks GET base+path with an X-Forwarded-For header (none when
// xff is "") and returns the status.
func getAs(t *testing.T, base, path, xff string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestTrustedProxyPerClientRate: behind a trusted load balancer
// (Options.TrustedProxies), the per-client rate limit counts the client
// clientip.Of names, an IPv6 client by its /64; without it (the default)
// X-Forwarded-For is a client's own words and everyone behind one peer is
// one client.
func TestTrustedProxyPerClientRate(t *testing.T) {
	lb, err := clientip.Parse(clientip.Loopback)
	if err != nil {
		t.Fatal(err)
	}
	const burst = 2
	behind := newTestServer(t, &Options{Rate: 0.001, Burst: burst, TrustedProxies: lb})
	for i := range burst {
		if c := getAs(t, behind.URL, "/v1/crawlers", "192.0.2.1"); c != 200 {
			t.Fatalf("192.0.2.1's request %d: %d", i, c)
		}
	}
	if c := getAs(t, behind.URL, "/v1/crawlers", "192.0.2.1"); c != 429 {
		t.Errorf("192.0.2.1 past its burst: %d, want 429", c)
	}
	if c := getAs(t, behind.URL, "/v1/crawlers", "192.0.2.1, 127.0.0.1"); c != 429 {
		t.Errorf("192.0.2.1 through a second trusted hop: %d, want 429", c)
	}
	if c := getAs(t, behind.URL, "/v1/crawlers", "192.0.2.1, 198.51.100.2"); c != 200 {
		t.Errorf("another client (the right-most untrusted entry): %d, want 200", c)
	}
	for i, a := range []string{"2001:db8:1:2::1", "[2001:db8:1:2::ff]:443"} {
		if c := getAs(t, behind.URL, "/v1/crawlers", a); c != 200 {
			t.Errorf("the /64's request %d (%s): %d", i, a, c)
		}
	}
	if c := getAs(t, behind.URL, "/v1/crawlers", "2001:db8:1:2::3"); c != 429 {
		t.Errorf("a third address of one /64: %d, want 429 (one client)", c)
	}
	if c := getAs(t, behind.URL, "/v1/crawlers", "2001:db8:1:3::1"); c != 200 {
		t.Errorf("another /64: %d, want 200", c)
	}

	direct := newTestServer(t, &Options{Rate: 0.001, Burst: burst})
	for i := range burst {
		if c := getAs(t, direct.URL, "/v1/crawlers", fmt.Sprintf("192.0.2.%d", 10+i)); c != 200 {
			t.Fatalf("request %d: %d", i, c)
		}
	}
	if c := getAs(t, direct.URL, "/v1/crawlers", "192.0.2.99"); c != 429 {
		t.Errorf("no trusted proxy: a new X-Forwarded-For escaped the peer's limit: %d, want 429", c)
	}
}

// TestTrustedProxyConns: a trusted proxy's connections carry many
// clients and are not bound per client; another peer's are.
func TestTrustedProxyConns(t *testing.T) {
	v4, _ := clientip.Parse("127.0.0.1")
	_, trusted, untrusted := serveBoth(t, &Options{MaxConnsPerClient: 1, TrustedProxies: v4})
	answers := func(base string) bool {
		host := strings.TrimPrefix(base, "http://")
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		return err == nil && strings.Contains(line, "200")
	}
	for i := range 3 {
		if !answers(trusted) {
			t.Errorf("the trusted proxy's connection %d was refused", i)
		}
	}
	if !answers(untrusted) {
		t.Fatal("the untrusted peer's first connection was refused")
	}
	if answers(untrusted) {
		t.Error("the untrusted peer's second connection answered past --max-conns-per-client 1")
	}
}
