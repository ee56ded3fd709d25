package polite

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// A User-Agent in the browser-compatible form is matched as the crawler
// it names, not as Mozilla, and not as '*'.
func TestTokenFromCompatibleUserAgent(t *testing.T) {
	s := newSite(t, "User-agent: *\nAllow: /\n\nUser-agent: ExampleBot\nDisallow: /mine/\n")
	ua := "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"
	tr, err := New(&Options{UserAgent: ua})
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&http.Client{Transport: tr}).Get(s.URL + "/mine/x")
	var de *DisallowedError
	if !errors.As(err, &de) || de.Agent != "ExampleBot" || de.Line != 5 {
		t.Fatalf("err = %v", err)
	}
}

// A configuration whose token would be Mozilla is refused: every browser
// is Mozilla, no crawler is.
func TestMozillaTokenRefused(t *testing.T) {
	for _, o := range []Options{
		{UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"},
		{UserAgent: "Mozilla/5.0 (Macintosh) Safari/605.1.15 (Applebot/0.1)"},
		{Token: "mozilla"},
	} {
		_, err := New(&o)
		if err == nil || !strings.Contains(err.Error(), "Mozilla") || !strings.Contains(err.Error(), "Token") {
			t.Errorf("%+v: err = %v", o, err)
		}
	}
	// With the token given, the header may be anything valid.
	if _, err := New(&Options{UserAgent: "Mozilla/5.0 (Macintosh) Safari/605.1.15 (Applebot/0.1)", Token: "Applebot"}); err != nil {
		t.Error(err)
	}
}

// A User-Agent that cannot be sent as a header is refused at New, before
// anything is fetched.
func TestInvalidUserAgentRefused(t *testing.T) {
	if _, err := New(&Options{UserAgent: "ExampleBot/1.0\r\nX-Evil: 1", Token: "ExampleBot"}); err == nil {
		t.Error("a User-Agent with CR LF accepted")
	}
}
