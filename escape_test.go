package robotstxt

import "testing"

// TestEscapeFrom checks escapeFrom, the scan for the first byte Google's
// escaping of a pattern changes, against the general percentEncodeFrom
// with isHighByte: on every string of up to five bytes over an alphabet
// of the bytes that matter (escapes, hex digits of both cases, high
// bytes) and on every rule value of the corpus sample.
func TestEscapeFrom(t *testing.T) {
	alpha := []byte{'%', '7', 'e', 'E', 'a', 'g', '/', 0xC3, 0xA9, 0x80}
	buf := make([]byte, 0, 5)
	var walk func()
	n := 0
	walk = func() {
		s := string(buf)
		if got, want := escapeFrom(s), percentEncodeFrom(s, isHighByte); got != want {
			t.Fatalf("escapeFrom(%q) = %d, percentEncodeFrom = %d", s, got, want)
		}
		n++
		if len(buf) == cap(buf) {
			return
		}
		for _, c := range alpha {
			buf = append(buf, c)
			walk()
			buf = buf[:len(buf)-1]
		}
	}
	walk()
	if n != 111111 {
		t.Fatalf("walked %d strings, want 111111", n)
	}
	values := 0
	for _, f := range benchData(t).files {
		r := Parse(f.body)
		for _, raw := range r.google.raws {
			v := r.google.body[raw.off : raw.off+raw.n]
			if got, want := escapeFrom(v), percentEncodeFrom(v, isHighByte); got != want {
				t.Fatalf("escapeFrom(%q) = %d, percentEncodeFrom = %d", v, got, want)
			}
			values++
		}
	}
	if values < 10000 {
		t.Fatalf("only %d rule values in the sample", values)
	}
}
