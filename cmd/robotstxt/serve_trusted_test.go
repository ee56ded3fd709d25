package main

import (
	"strings"
	"testing"
)

// TestServeTrustedProxy: serve --trusted-proxy makes the per-client rate
// limit count the client a trusted proxy names in X-Forwarded-For (as
// clientip.Of reads it); without the flag the header is not believed; a
// bad list is refused with its entry named.
func TestServeTrustedProxy(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	common := []string{"--addr", "127.0.0.1:0", "--store", "memory", "--log-level", "error", "--rate", "0.001", "--burst", "1"}
	page, _, _ := startServe(t, append(common, "--trusted-proxy", "127.0.0.1")...)
	if code, _ := httpGet(t, page+"v1/crawlers", "X-Forwarded-For", "192.0.2.1"); code != 200 {
		t.Fatalf("192.0.2.1's first request: %d", code)
	}
	if code, _ := httpGet(t, page+"v1/crawlers", "X-Forwarded-For", "192.0.2.1"); code != 429 {
		t.Errorf("192.0.2.1's second: %d, want 429", code)
	}
	if code, _ := httpGet(t, page+"v1/crawlers", "X-Forwarded-For", "192.0.2.2"); code != 200 {
		t.Errorf("192.0.2.2 behind the same proxy: %d, want 200 (its own share)", code)
	}

	page, _, _ = startServe(t, common...)
	if code, _ := httpGet(t, page+"v1/crawlers", "X-Forwarded-For", "192.0.2.1"); code != 200 {
		t.Fatalf("first request: %d", code)
	}
	if code, _ := httpGet(t, page+"v1/crawlers", "X-Forwarded-For", "192.0.2.2"); code != 429 {
		t.Errorf("no --trusted-proxy: X-Forwarded-For was believed (%d, want 429)", code)
	}

	var out, errb strings.Builder
	if code := run([]string{"serve", "--store", "memory", "--trusted-proxy", "10.0.0.0/8,nope"}, strings.NewReader(""), &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), `--trusted-proxy: "nope" is neither an address nor a CIDR prefix`) {
		t.Errorf("a bad --trusted-proxy: exit %d, %q", code, errb.String())
	}
}
