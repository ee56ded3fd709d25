package lint

import (
	"fmt"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// The checks of the Signature-Agent and Max-Crawl-Rate lines of the Web
// Bot Auth editors' draft, read only when the file is parsed with
// robotstxt.ExtWebBotAuth (File.Extensions, or a Robots parsed so):
// otherwise they are unknown fields, as crawlers read them.
// docs/protocol.md, "Signing agents", says how the toolkit reads them.

// signingLine checks a Signature-Agent or Max-Crawl-Rate line; inGroup
// says a user-agent line came before it.
func (l *linter) signingLine(ln *robotstxt.Line, inGroup bool) {
	if !inGroup {
		l.add(ln.Number, keyColumn(ln), "signing-outside-group", fmt.Sprintf("this %s line comes before any user-agent line: it belongs to no group and applies to no crawler; put it in a group, after its user-agent lines", canonicalSigningKey(ln.Field)), nil)
		return
	}
	switch ln.Field {
	case robotstxt.FieldSignatureAgent:
		if _, ok := robotstxt.ParseSignatureAgentLine(ln.Value); !ok {
			l.add(ln.Number, valueColumn(ln), "bad-signature-agent", fmt.Sprintf("signature-agent %q names no host, so it names no signing agent; write the agent's domain (Signature-Agent: example.com) or its https URL (Signature-Agent: \"https://example.com\")%s", clip(ln.Value, 60), signatureAgentHint(ln.Value)), nil)
		}
	case robotstxt.FieldMaxCrawlRate:
		if _, ok := robotstxt.ParseMaxCrawlRate(ln.Value); !ok {
			l.add(ln.Number, valueColumn(ln), "bad-max-crawl-rate", fmt.Sprintf("max-crawl-rate %q is not a number of requests with an optional unit (s, m, h, d or w; seconds without one): crawlers ignore it; write e.g. Max-Crawl-Rate: 10 or Max-Crawl-Rate: 600/m", clip(ln.Value, 40)), nil)
		}
	}
}

// signatureAgentHint says what most likely makes a Signature-Agent value
// unreadable.
func signatureAgentHint(v string) string {
	lv := strings.ToLower(strings.Trim(v, `"`))
	switch {
	case strings.HasPrefix(lv, "http://"):
		return "; the draft's URLs are https"
	case strings.Contains(lv, "*"):
		return "; a line names a domain and every name under it, without wildcards"
	case strings.Contains(strings.TrimPrefix(lv, "https://"), ":"):
		return "; without a port"
	case strings.Contains(strings.TrimSuffix(strings.TrimPrefix(lv, "https://"), "/"), "/"):
		return "; without a path"
	}
	return ""
}

// canonicalSigningKey is the key of field f as the draft writes it.
func canonicalSigningKey(f robotstxt.Field) string {
	if f == robotstxt.FieldMaxCrawlRate {
		return "Max-Crawl-Rate"
	}
	return "Signature-Agent"
}
