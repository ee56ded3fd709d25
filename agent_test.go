package robotstxt

import "testing"

// TestFoldWord8 checks the branch-free case folding of token fingerprints
// against a plain loop, for every byte value in every position.
func TestFoldWord8(t *testing.T) {
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 8; pos++ {
			in := []byte("aZ@[`{-_")
			in[pos] = byte(b)
			s := string(in)
			w := foldWord8(s)
			for i := 0; i < 8; i++ {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				if got := byte(w >> (8 * i)); got != c {
					t.Fatalf("byte %d of %q: %#x, want %#x", i, s, got, c)
				}
			}
		}
	}
}

func TestFindTokenIgnoresCase(t *testing.T) {
	var body string
	names := []string{"Googlebot", "Googlebot-Image", "GoogleOther-Image-Extra", "a", "", "BINGBOT", "x_y-z"}
	for _, n := range names {
		body += "User-agent: " + n + "\nDisallow: /" + n + "\n"
	}
	for _, many := range []bool{false, true} {
		b := body
		if many {
			for i := 0; i < 20; i++ {
				b += "User-agent: Filler" + string(rune('a'+i)) + "\nDisallow: /\n"
			}
		}
		r := ParseString(b)
		r.google.prepare()
		if n := len(r.google.slots); n&(n-1) != 0 {
			t.Fatalf("the token table has %d slots: not a power of two, probes would not wrap", n)
		}
		if many && r.google.slots == nil {
			t.Fatal("many tokens but no table")
		}
		for _, n := range names {
			for _, ask := range []string{n, lowerASCIIForTest(n), upperASCIIForTest(n)} {
				if r.google.findToken(ask) < 0 {
					t.Errorf("many=%v: token %q not found as %q", many, n, ask)
				}
			}
		}
		for _, ask := range []string{"Googlebo", "Googlebot-", "Googlebot-Imagf", "GoogleOther-Image-Extr", "b", "x_y-zz"} {
			if r.google.findToken(ask) >= 0 {
				t.Errorf("many=%v: %q found", many, ask)
			}
		}
	}
}

func lowerASCIIForTest(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func upperASCIIForTest(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}
