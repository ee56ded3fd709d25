package polite

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Each escape form of a disallowed path is refused before it is sent: the
// question is asked about what goes on the wire, as given and normalised
// (hex upper-cased, unreserved characters decoded, dot-segments removed,
// empty segments merged).
func TestEscapeFormsRefused(t *testing.T) {
	const file = `User-agent: *
Disallow: /a%2Fb
Disallow: /caf%C3%A9
Disallow: /~user
Disallow: /%7Eother
Disallow: /Sec%5Bret%5D
Disallow: /private
Disallow: /q?x=%7E
`
	for _, tc := range []struct{ name, path string }{
		{"lower-case escape of a reserved byte", "/a%2fb"},
		{"lower-case UTF-8 escapes", "/caf%c3%a9"},
		{"raw UTF-8", "/café"},
		{"escaped unreserved byte against a decoded rule", "/%7euser"},
		{"upper-case escape of an unreserved byte", "/%7Euser"},
		{"lower-case escape of an unreserved byte against an escaped rule", "/%7eother"},
		{"lower-case brackets", "/Sec%5bret%5d"},
		{"dot-dot segment", "/public/../private"},
		{"dot segment", "/./private"},
		{"escaped dot-dot segment", "/public/%2e%2e/private"},
		{"double slash", "//private"},
		{"double slash inside", "/public/..//private"},
		{"query escape", "/q?x=%7e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, file)
			tr, err := New(&Options{Token: "examplebot"})
			if err != nil {
				t.Fatal(err)
			}
			client := &http.Client{Transport: tr}
			_, err = client.Get(s.URL + tc.path)
			var de *DisallowedError
			if !errors.As(err, &de) || de.Line == 0 {
				t.Errorf("%s: err = %v; want a refusal by a rule", tc.path, err)
			}
			// A path no rule covers still goes out.
			resp, err := client.Get(s.URL + "/public/x")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := strings.Join(s.requested(), " "); got != "/robots.txt /public/x" {
				t.Errorf("requests %s", got)
			}
		})
	}
}

// Normalising never turns an allowed path into a refused one by itself:
// paths that differ only in what a server does not decode stay allowed.
func TestEscapeFormsAllowed(t *testing.T) {
	s := newSite(t, "User-agent: *\nDisallow: /a/b\nDisallow: /x%2Fy\n")
	tr, _ := New(&Options{Token: "examplebot"})
	client := &http.Client{Transport: tr}
	for _, p := range []string{"/a%2fb", "/x/y", "/a..b", "/public/.hidden"} {
		resp, err := client.Get(s.URL + p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		resp.Body.Close()
	}
}

func TestNormalizePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/", "/"},
		{"/a/b/", "/a/b/"},
		{"/a/./b/../c", "/a/c"},
		{"/a/b/..", "/a/"},
		{"/..", "/"},
		{"/../../x", "/x"},
		{"//x//y", "/x/y"},
		{"/%2e%2E/x", "/x"},
		{"/%7e%41%2f%3a", "/~A%2F%3A"},
		{"/caf\xc3\xa9 x", "/caf%C3%A9%20x"},
		{"/a/../b?x=%7e&y=/../", "/b?x=~&y=/../"},
		// A '%' that starts no escape is the byte '%': "%25".
		{"/a%", "/a%25"},
		{"/a%4", "/a%254"},
		{"/a%zz", "/a%25zz"},
		{"/%%41", "/%25A"},
		// Decoding never forms an escape with the bytes before it.
		{"/%7%30", "/%2570"},
		{"/%%32%35", "/%2525"},
		{"/%2570", "/%2570"},
		{"/100%25", "/100%25"},
	} {
		if got := normalizePath(tc.in); got != tc.want {
			t.Errorf("normalizePath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzNormalizePath checks that normalizing is idempotent, and that
// normalizeEscapes keeps the resource named: the bytes a server decodes
// from its result are those it decodes from its input (escapeUnits, a
// plain reading of RFC 3986). testdata/fuzz holds the inputs it failed on.
func FuzzNormalizePath(f *testing.F) {
	f.Add("/a/../b%2e%2E//c?q=%7e")
	f.Add("%7%30")
	f.Add("a%%2541%")
	f.Fuzz(func(t *testing.T, s string) {
		p := normalizePath("/" + s)
		if !strings.HasPrefix(p, "/") {
			t.Fatalf("normalizePath(%q) = %q", "/"+s, p)
		}
		if q := normalizePath(p); q != p {
			t.Fatalf("not idempotent: %q -> %q -> %q", "/"+s, p, q)
		}
		e := normalizeEscapes(s)
		if got, want := escapeUnits(e), escapeUnits(s); got != want {
			t.Fatalf("normalizeEscapes(%q) = %q names another resource: %q, want %q", s, e, got, want)
		}
		if again := normalizeEscapes(e); again != e {
			t.Fatalf("normalizeEscapes not idempotent: %q -> %q -> %q", s, e, again)
		}
	})
}

// escapeUnits is what a server reads in s, one unit a byte: a reserved
// byte (RFC 3986 gen-delims and sub-delims) escaped is "%" and its hex, as
// it differs from the byte itself; any other byte is itself, however it
// was written (escaped or not, its hex in either case). A '%' that starts
// no escape is the byte '%'.
func escapeUnits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			if strings.IndexByte(":/?#[]@!$&'()*+,;=", d) >= 0 {
				fmt.Fprintf(&b, "%%%02X", d)
				continue
			}
			c = d
		}
		if c == '%' {
			b.WriteString("%%") // the byte '%', apart from an escape
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
