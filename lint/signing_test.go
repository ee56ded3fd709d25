package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// TestLintSigning: with the Web Bot Auth extension, Signature-Agent and
// Max-Crawl-Rate lines are checked, not called unknown; without it, they
// are unknown fields, as before.
func TestLintSigning(t *testing.T) {
	signing := []string{"signing-outside-group", "bad-signature-agent", "bad-max-crawl-rate", "unknown-field"}
	for _, tt := range []struct {
		name, body string
		ext        robotstxt.Extensions
		want       []string // code:line of the codes above, exactly
		msg        string   // in the first wanted finding's message
	}{
		{"clean", "User-agent: *\nSignature-Agent: example.com\nSignature-Agent: \"https://bots.example.org\"\nMax-Crawl-Rate: 600/m\nDisallow: /private\n",
			robotstxt.ExtWebBotAuth, nil, ""},
		{"without the extension", "User-agent: *\nSignature-Agent: example.com\nMax-Crawl-Rate: 600/m\nDisallow: /private\n",
			0, []string{"unknown-field:2", "unknown-field:3"}, `"Signature-Agent"`},
		{"before any group", "Signature-Agent: example.com\nMax-Crawl-Rate: 1\nUser-agent: *\nDisallow: /x\n",
			robotstxt.ExtWebBotAuth, []string{"signing-outside-group:1", "signing-outside-group:2"}, "belongs to no group"},
		{"a port", "User-agent: *\nSignature-Agent: https://example.com:8443\nDisallow: /x\n",
			robotstxt.ExtWebBotAuth, []string{"bad-signature-agent:2"}, "without a port"},
		{"http", "User-agent: *\nSignature-Agent: \"http://example.com\"\nDisallow: /x\n",
			robotstxt.ExtWebBotAuth, []string{"bad-signature-agent:2"}, "https"},
		{"a wildcard", "User-agent: *\nSignature-Agent: *.example.com\nDisallow: /x\n",
			robotstxt.ExtWebBotAuth, []string{"bad-signature-agent:2"}, "without wildcards"},
		{"a bad rate", "User-agent: *\nMax-Crawl-Rate: 10 per minute\nMax-Crawl-Rate: 5/y\nDisallow: /x\n",
			robotstxt.ExtWebBotAuth, []string{"bad-max-crawl-rate:2", "bad-max-crawl-rate:3"}, "600/m"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(&File{Name: "r.txt", Body: []byte(tt.body), Extensions: tt.ext})
			var codes []string
			var first string
			for _, fd := range got {
				if slices.Contains(signing, fd.Code) {
					codes = append(codes, fd.Code+":"+itoa(fd.Line))
					if first == "" {
						first = fd.Message
					}
				}
			}
			if !slices.Equal(codes, tt.want) {
				t.Errorf("findings %v, want %v", codes, tt.want)
			}
			if tt.msg != "" && !strings.Contains(first, tt.msg) {
				t.Errorf("message %q, want it to say %q", first, tt.msg)
			}
		})
	}
	// A Robots parsed with the extension is linted with it.
	body := "User-agent: *\nSignature-Agent: example.com\nDisallow: /x\n"
	r := robotstxt.ParseWith([]byte(body), &robotstxt.ParseOptions{Extensions: robotstxt.ExtWebBotAuth})
	for _, fd := range Check(&File{Name: "r.txt", Body: []byte(body), Robots: r}) {
		if fd.Code == "unknown-field" {
			t.Errorf("a Robots parsed with the extension: %v", fd)
		}
	}
}
