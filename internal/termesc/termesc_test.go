package termesc

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile holds what a hostile robots.txt or server sends to a terminal:
// an OSC title ended by BEL, a CSI clear screen, C1 CSI and NEL written in
// UTF-8, the same as raw 8-bit bytes, and DEL.
const hostile = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u0085\x9b\x85\x7f"

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Disallow: /a b", "Disallow: /a b"},
		{"/caf\u00e9/ツ", "/caf\u00e9/ツ"},
		{hostile, `\x1b]0;pwned\x07\x1b[2J\u009b31m\u0085\x9b\x85\x7f`},
		{"a\tb\r\n", `a\x09b\x0d\x0a`},
		{"\xff\xfe", `\xff\xfe`},
		{"\xc2", `\xc2`},
		{"\u00a0\u2028", "\u00a0\u2028"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestJSON checks that JSON leaves no control character in what
// encoding/json writes, and that the document decodes to the same value.
func TestJSON(t *testing.T) {
	for _, s := range []string{"", "plain", hostile, "\u00a0\u0080\u009f\u00c2", "\xc2", "é\x7f"} {
		raw, err := json.Marshal(map[string]string{"rule": s})
		if err != nil {
			t.Fatal(err)
		}
		out := JSON(raw)
		for i, r := range string(out) {
			if r < 0x20 || r >= 0x7f && r <= 0x9f {
				t.Errorf("JSON(%q): control character %q at byte %d", raw, r, i)
			}
		}
		var back, want map[string]string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("JSON(%q) = %q: %v", raw, out, err)
		}
		json.Unmarshal(raw, &want)
		if back["rule"] != want["rule"] {
			t.Errorf("JSON(%q) decodes to %q, want %q", raw, back["rule"], want["rule"])
		}
	}
	if p := []byte(`{"a":"b"}`); &JSON(p)[0] != &p[0] {
		t.Error("JSON copied a document that needs nothing")
	}
}

// FuzzString checks that String leaves no control character and that a
// string needing nothing comes back as it was.
func FuzzString(f *testing.F) {
	f.Add(hostile)
	f.Add("/caf\u00e9")
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		for i, r := range got {
			_, n := utf8.DecodeRuneInString(got[i:])
			if r < 0x20 || r >= 0x7f && r <= 0x9f || r == utf8.RuneError && n == 1 {
				t.Fatalf("String(%q) = %q: control at byte %d", s, got, i)
			}
		}
		if !strings.Contains(got, `\`) && got != s {
			t.Fatalf("String(%q) = %q changed a string without escapes", s, got)
		}
	})
}
