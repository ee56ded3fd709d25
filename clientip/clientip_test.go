package clientip

import (
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// TestOf is the table of the one function that decides a request's
// client: an untrusted peer's forwarded headers are its own words and are
// ignored; a trusted peer's X-Forwarded-For is read from the right past
// the trusted hops; garbage stops the walk; X-Real-IP counts only from a
// trusted peer and only without X-Forwarded-For; the walk is bounded.
func TestOf(t *testing.T) {
	trusted, err := Parse("127.0.0.0/8, 10.0.0.1,::1/128 2001:db8:ff::/48")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("10.0.0.1, ", MaxHops+5) + "10.0.0.1"
	for _, tc := range []struct {
		name   string
		peer   string
		xff    []string // one header line each
		realIP string
		want   string // "" for the zero Addr
	}{
		{"no headers", "203.0.113.1:5000", nil, "", "203.0.113.1"},
		{"spoofed XFF from an untrusted peer", "203.0.113.1:5000", []string{"192.0.2.7"}, "", "203.0.113.1"},
		{"spoofed X-Real-IP from an untrusted peer", "203.0.113.1:5000", nil, "192.0.2.8", "203.0.113.1"},
		{"untrusted peer spoofing a trusted hop", "203.0.113.1:5000", []string{"192.0.2.7, 127.0.0.1"}, "", "203.0.113.1"},
		{"trusted peer, one hop", "127.0.0.1:5000", []string{"192.0.2.7"}, "", "192.0.2.7"},
		{"the right-most untrusted entry", "127.0.0.1:5000", []string{"198.51.100.1, 192.0.2.7"}, "", "192.0.2.7"},
		{"past a trusted hop", "127.0.0.1:5000", []string{"192.0.2.7, 10.0.0.1"}, "", "192.0.2.7"},
		{"past a chain of trusted hops", "127.0.0.1:5000", []string{"198.51.100.9, 192.0.2.7, 2001:db8:ff::3, 10.0.0.1, 127.0.0.5"}, "", "192.0.2.7"},
		{"chain over two header lines", "127.0.0.1:5000", []string{"198.51.100.9, 192.0.2.7", "10.0.0.1"}, "", "192.0.2.7"},
		{"only trusted hops: the last one read", "127.0.0.1:5000", []string{"10.0.0.1"}, "", "10.0.0.1"},
		{"garbage stops the walk", "127.0.0.1:5000", []string{"192.0.2.7, junk, 10.0.0.1"}, "", "10.0.0.1"},
		{"garbage right of the chain", "127.0.0.1:5000", []string{"192.0.2.7, not-an-address"}, "", "127.0.0.1"},
		{"empty entry stops the walk", "127.0.0.1:5000", []string{"192.0.2.7, , 10.0.0.1"}, "", "10.0.0.1"},
		{"a host name is garbage", "127.0.0.1:5000", []string{"evil.example"}, "", "127.0.0.1"},
		{"a bad port is garbage", "127.0.0.1:5000", []string{"192.0.2.7:http"}, "", "127.0.0.1"},
		{"bracketed IPv4 is garbage", "127.0.0.1:5000", []string{"[192.0.2.7]"}, "", "127.0.0.1"},
		{"IPv4 with a port", "127.0.0.1:5000", []string{"192.0.2.7:4711"}, "", "192.0.2.7"},
		{"IPv6 bare", "[::1]:5000", []string{"2001:db8::1"}, "", "2001:db8::1"},
		{"IPv6 with brackets", "[::1]:5000", []string{"[2001:db8::1]"}, "", "2001:db8::1"},
		{"IPv6 with brackets and a port", "[::1]:5000", []string{"[2001:db8::1]:443"}, "", "2001:db8::1"},
		{"IPv6 trusted hop with brackets", "[::1]:5000", []string{"192.0.2.7, [2001:db8:ff::9]:80"}, "", "192.0.2.7"},
		{"IPv4-mapped peer is trusted", "[::ffff:127.0.0.1]:5000", []string{"192.0.2.7"}, "", "192.0.2.7"},
		{"IPv4-mapped entry unmapped", "127.0.0.1:5000", []string{"::ffff:192.0.2.7"}, "", "192.0.2.7"},
		{"too many hops: the walk stops", "127.0.0.1:5000", []string{"192.0.2.7, " + long}, "", "10.0.0.1"},
		{"X-Real-IP from a trusted peer", "127.0.0.1:5000", nil, "192.0.2.8", "192.0.2.8"},
		{"X-Real-IP bracketed with port", "[::1]:5000", nil, "[2001:db8::8]:9", "2001:db8::8"},
		{"X-Forwarded-For before X-Real-IP", "127.0.0.1:5000", []string{"192.0.2.7"}, "192.0.2.8", "192.0.2.7"},
		{"garbage X-Real-IP", "127.0.0.1:5000", nil, "unknown", "127.0.0.1"},
		{"peer without port", "192.0.2.1", nil, "", "192.0.2.1"},
		{"peer not an address", "pipe", []string{"192.0.2.7"}, "", ""},
		{"empty peer", "", []string{"192.0.2.7"}, "", ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if tc.realIP != "" {
			r.Header.Set("X-Real-IP", tc.realIP)
		}
		got := Of(r, trusted)
		var want netip.Addr
		if tc.want != "" {
			want = netip.MustParseAddr(tc.want)
		}
		if got != want {
			t.Errorf("%s: peer %q, X-Forwarded-For %q, X-Real-IP %q: %v, want %v", tc.name, tc.peer, tc.xff, tc.realIP, got, want)
		}
		if none := Of(r, nil); none != Peer(tc.peer) {
			t.Errorf("%s: trusting nobody: %v, want the peer %v", tc.name, none, Peer(tc.peer))
		}
	}
}

// TestOfBoundedWork: a trusted peer padding X-Forwarded-For with
// trusted hops costs a bounded walk and no allocation.
func TestOfBoundedWork(t *testing.T) {
	trusted, _ := Parse(Loopback)
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:1"
	r.Header.Set("X-Forwarded-For", "192.0.2.1, "+strings.Repeat("127.0.0.1,", 10000)+"127.0.0.1")
	if got := Of(r, trusted); got != netip.MustParseAddr("127.0.0.1") {
		t.Errorf("%v, want the last hop read", got)
	}
	if n := testing.AllocsPerRun(100, func() { Of(r, trusted) }); n != 0 {
		t.Errorf("%v allocations a call, want 0", n)
	}
}

func TestPeer(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:80":         "192.0.2.1",
		"192.0.2.1":            "192.0.2.1",
		"[2001:db8::1]:443":    "2001:db8::1",
		"2001:db8::1":          "2001:db8::1",
		"[::ffff:192.0.2.7]:1": "192.0.2.7",
		"[fe80::1%eth0]:8080":  "fe80::1%eth0",
		"":                     "invalid IP",
		"pipe":                 "invalid IP",
		"[::1":                 "invalid IP",
		"192.0.2.1:x":          "invalid IP",
	} {
		if got := Peer(in).String(); got != want {
			t.Errorf("Peer(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "none",
		"none":                      "none",
		"127.0.0.0/8,::1/128":       "127.0.0.0/8,::1/128",
		" 10.0.0.1 , 10.1.2.3/8 ":   "10.0.0.1/32,10.0.0.0/8",
		"::ffff:192.0.2.0/120":      "192.0.2.0/24",
		"::ffff:192.0.2.1":          "192.0.2.1/32",
		"2001:db8::1 2001:db8::/32": "2001:db8::1/128,2001:db8::/32",
	} {
		got, err := Parse(in)
		if err != nil || got.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"10.0.0.0/8,nope", "10.0.0.0/33", "fe80::1%eth0", "192.0.2.1:80"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		} else if !strings.Contains(err.Error(), "neither an address nor a CIDR prefix") {
			t.Errorf("Parse(%q): %v", bad, err)
		}
	}
	tr, _ := Parse("10.0.0.0/8")
	if !tr.Contains(netip.MustParseAddr("::ffff:10.1.2.3")) || tr.Contains(netip.MustParseAddr("11.0.0.1")) || tr.Contains(netip.Addr{}) {
		t.Error("Contains")
	}
}
