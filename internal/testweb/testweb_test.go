package testweb

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestWebs checks what each web answers: Memory by host number, Slow and
// Hostile as proxies, whatever host a URL names.
func TestWebs(t *testing.T) {
	get := func(c *http.Client, u string) (int, string) {
		t.Helper()
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	mem := &http.Client{Transport: Memory{}}
	for host, want := range map[string]int{"s0.test": 200, "s3.test": 404, "s7.test": 503} {
		if code, _ := get(mem, "http://"+host+"/robots.txt"); code != want {
			t.Errorf("Memory %s: %d, want %d", host, code, want)
		}
	}
	if in := MemoryInput(10, 3); strings.Count(string(in), "\n") != 10 || string(in) != string(MemoryInput(10, 3)) {
		t.Errorf("MemoryInput(10, 3) is not 10 lines, the same each time:\n%s", in)
	}
	proxied := func(u string) *http.Client {
		p, _ := url.Parse(u)
		return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(p)}}
	}
	sw := NewSlow(t)
	sw.Free()
	if code, body := get(proxied(sw.URL), "http://slow.test/robots.txt"); code != 200 || !strings.Contains(body, "Disallow: /private") {
		t.Errorf("Slow once freed: %d %q", code, body)
	}
	hw := NewHostile(t)
	if code, body := get(proxied(hw.URL), "http://h5.test/robots.txt"); code != 200 || !strings.HasPrefix(body, "# h5.test\n") || len(body) < 100<<10 {
		t.Errorf("Hostile h5.test: %d, %d bytes", code, len(body))
	}
	if code, _ := get(proxied(hw.URL), "http://h5.test/other"); code != 404 || hw.Robots() != 1 {
		t.Errorf("Hostile /other: %d, %d robots.txt requests counted, want 404 and 1", code, hw.Robots())
	}
	if n := strings.Count(HostileInput(3, 2), "\n"); n != 6 {
		t.Errorf("HostileInput(3, 2): %d lines, want 6", n)
	}
	var lb LockedBuffer
	lb.Write([]byte("a"))
	lb.Write([]byte("b"))
	if lb.String() != "ab" {
		t.Errorf("LockedBuffer: %q", lb.String())
	}
}
