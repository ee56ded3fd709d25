package robotstxt

import "testing"

// NormalizeURL's fast path (a URL with nothing to change) answers as the
// full encoder does, for every byte value in a URL.
func TestNormalizeURLEveryByte(t *testing.T) {
	enc := func(c byte) bool { return c >= 0x80 || c <= ' ' || c == 0x7f }
	for c := range 256 {
		for _, u := range []string{
			"https://example.com/a" + string(byte(c)) + "b",
			string(byte(c)), "/" + string(byte(c)), "/%" + string(byte(c)) + "f", "/%a" + string(byte(c)),
		} {
			if got, want := NormalizeURL(u), percentEncode(u, enc); got != want {
				t.Errorf("NormalizeURL(%q) = %q, want %q", u, got, want)
			}
		}
	}
	for u, want := range map[string]string{"/a b": "/a%20b", "/%7e": "/%7E", "/é": "/%C3%A9", "/plain?q=1#f": "/plain?q=1#f"} {
		if got := NormalizeURL(u); got != want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", u, got, want)
		}
	}
}
