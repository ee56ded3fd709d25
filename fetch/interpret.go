package fetch

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// Answer is what one answer to a robots.txt request means for crawlers of
// one dialect: the fetch policy, why, and the parsed file when its rules
// apply. Interpret makes one from any HTTP client's response; the Fetcher
// decides with the same code.
type Answer struct {
	Dialect robotstxt.Dialect // whose fetch policy was applied
	Policy  Policy
	// Reason says in words what the answer was and why it means Policy.
	Reason string
	// Unreachable is set for answers that say nothing about the file and
	// must be retried (5xx, 429 except for RFC 9309, no answer at all): a
	// copy cached from an earlier answer takes precedence over them.
	Unreachable bool
	// Robots is the parsed body when Policy is Rules, else nil.
	Robots *robotstxt.Robots
}

// Response is the final answer to a robots.txt request, as any HTTP client
// got it (after following redirects: up to five; docs/protocol.md, Fetching).
type Response struct {
	// Status is the HTTP status; 0 means no answer came (a DNS failure,
	// a timeout, a reset): unreachable in every dialect.
	Status int
	// Header is the answer's header; only Content-Type and the pay per
	// crawl headers (crawler-price, for a 402's reason) are read. It may
	// be nil.
	Header http.Header
	// Body is the body, or its first part when the client stopped reading.
	Body []byte
	// Size is the length of the whole body when Body holds only its
	// first part; 0 means len(Body). A client that read one byte past
	// 500 KiB and stopped passes that count.
	Size int
}

// Interpret says what a final answer to a robots.txt request, with this
// status, header and body, means for crawlers of dialect d: the same
// policy the Fetcher applies (see the package documentation), and the
// parsed file when its rules apply. It is for crawlers with their own HTTP
// stack: fetch /robots.txt as you do, following redirects, then ask the
// Answer. DefaultDialect means Google's policy.
func Interpret(status int, header http.Header, body []byte, d robotstxt.Dialect) *Answer {
	return Response{Status: status, Header: header, Body: body}.Interpret(d)
}

// Interpret is the package function Interpret for r, with r.Size saying
// how long a body cut by the client was.
func (r Response) Interpret(d robotstxt.Dialect) *Answer {
	a := r.Verdict(d)
	if a.Policy == Rules {
		a.Robots = robotstxt.ParseWith(r.Body, &robotstxt.ParseOptions{Size: max(r.Size, len(r.Body))})
	}
	return a
}

// Verdict is Interpret without the parse: the policy of dialect d for the
// answer and why, with Robots nil. It is for a caller that holds the body
// parsed already (a cache re-reading, with another dialect's fetch policy,
// an answer fetched with Google's).
func (r Response) Verdict(d robotstxt.Dialect) *Answer {
	d = policyDialect(d)
	size := max(r.Size, len(r.Body))
	var ct string
	if r.Header != nil {
		ct = r.Header.Get("Content-Type")
	}
	a := &Answer{Dialect: d}
	if r.Status == 0 {
		a.Policy, a.Unreachable = DisallowAll, true
		a.Reason = "no answer: everything is disallowed until a retry gets an answer"
		return a
	}
	v := decide(d, r.Status, ct, len(r.Body), size, robotstxt.DefaultMaxBytes, PaymentOf(r.Status, r.Header))
	a.Policy, a.Reason, a.Unreachable = v.policy, v.reason, v.unreachable
	return a
}

// Decide answers q under the answer: when the file's rules apply, as
// Robots.Decide does; otherwise every URL is allowed (AllowAll) or
// disallowed (DisallowAll) for the answer's reason, except /robots.txt
// itself, which a crawler that fetches it may always fetch. A query with
// neither a dialect nor a crawler is asked in the answer's dialect.
func (a *Answer) Decide(q robotstxt.Query) robotstxt.Decision {
	if q.Dialect == robotstxt.DefaultDialect && q.Crawler == nil {
		q.Dialect = a.Dialect
	}
	if a.Policy == Rules && a.Robots != nil {
		return a.Robots.Decide(q)
	}
	d := q.Dialect
	if d == robotstxt.DefaultDialect {
		d = q.Crawler.Dialect
	}
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	path := robotstxt.PathParamsQuery(q.URL)
	dec := robotstxt.Decision{Allowed: a.Policy != DisallowAll, Dialect: d, Path: path, Reason: a.Reason}
	dec.Group.Reason = "no group: the site's robots.txt gives no rules"
	if path == "/robots.txt" {
		dec.Allowed = true
		dec.Reason = "/robots.txt itself is always allowed to a crawler that fetches it"
	}
	return dec
}

// Allowed reports whether a crawler obeying the product token agent may
// fetch url under the answer, in the answer's dialect.
func (a *Answer) Allowed(agent, url string) bool {
	return a.Decide(robotstxt.Query{URL: url, Agents: []string{agent}}).Allowed
}

// policyDialect is the dialect whose fetch policy applies: d, or Google's.
func policyDialect(d robotstxt.Dialect) robotstxt.Dialect {
	if d == robotstxt.DefaultDialect {
		return robotstxt.Google
	}
	return d
}

// refusalDisallows reports whether the dialect reads refused access (HTTP
// 401 and 403, FTP 530) as everything disallowed: the original draft does,
// and Baidu, which follows it.
func refusalDisallows(d robotstxt.Dialect) bool {
	return d == robotstxt.Original || d == robotstxt.Baidu
}

// verdict is the policy of one answer.
type verdict struct {
	policy      Policy
	reason      string
	unreachable bool
}

// decide is the fetch policy of dialect d for a final answer with this
// status (not 0) and content type, and a body of which n bytes are held
// out of size; limit is how much of a body is parsed; pay is what the
// answer says about pay per crawl (PaymentOf). The Fetcher and Interpret
// both decide here.
//
// A 402 Payment Required is a 4xx like the others (RFC 9309 §2.3.1.3:
// everything allowed, as Google reads it; the dialects that refuse on 401
// and 403 do not on 402): its reason names the price, when the answer
// gives one (docs/protocol.md, Pay per crawl).
func decide(d robotstxt.Dialect, code int, contentType string, n, size, limit int, pay Payment) verdict {
	sl := statusLine(code)
	if pay.Status == PaymentRequired {
		sl += priceNote(pay)
	}
	if code >= 200 && code < 300 {
		switch {
		case d == robotstxt.Yandex && code != http.StatusOK:
			return verdict{policy: AllowAll, reason: sl + ": Yandex reads any answer but 200 OK as no restrictions: everything is allowed"}
		case d.IgnoresOversized() && size > robotstxt.DefaultMaxBytes:
			return verdict{policy: AllowAll, reason: fmt.Sprintf("%s: %s (this one is over %d bytes): everything is allowed", sl, robotstxt.OversizedReason, robotstxt.DefaultMaxBytes)}
		}
		v := verdict{policy: Rules, reason: sl + ": " + byteCount(min(n, limit)) + " of rules"}
		switch {
		case size > limit && n <= limit:
			v.reason = fmt.Sprintf("%s: the body is over %d bytes; its first %d are read, the rest ignored and not downloaded", sl, limit, limit)
		case size > limit:
			v.reason = fmt.Sprintf("%s: the body is over %d bytes; its first %d are read, the rest ignored", sl, limit, limit)
		}
		if contentType != "" && mediaType(contentType) == "text/html" {
			v.reason += " (served as HTML: only lines that read as rules count)"
		}
		return v
	}
	if code >= 300 && code < 400 {
		if d == robotstxt.Yandex {
			return verdict{policy: AllowAll, reason: sl + ": Yandex reads any answer but 200 OK as no restrictions: everything is allowed"}
		}
		return verdict{policy: AllowAll, reason: sl + ": a redirect that was not followed: treated as 404, everything is allowed"}
	}
	serverError := code >= 500 || code < 200 || code == http.StatusTooManyRequests && d != robotstxt.RFC9309
	switch {
	case d == robotstxt.Yandex:
		return verdict{policy: AllowAll, unreachable: serverError, reason: sl + ": Yandex reads any answer but 200 OK as no restrictions: everything is allowed"}
	case serverError:
		return verdict{policy: DisallowAll, unreachable: true, reason: sl + ": the server cannot answer now: everything is disallowed until a retry gets an answer"}
	case d == robotstxt.Original && (code == http.StatusUnauthorized || code == http.StatusForbidden):
		return verdict{policy: DisallowAll, reason: sl + ": the original standard reads refused access as everything disallowed"}
	case d == robotstxt.Baidu && (code == http.StatusUnauthorized || code == http.StatusForbidden):
		return verdict{policy: DisallowAll, reason: sl + ": Baidu, as the original standard, reads refused access as everything disallowed"}
	}
	if code == http.StatusPaymentRequired {
		return verdict{policy: AllowAll, reason: sl + ": robots.txt offered at a price (pay per crawl) is no valid robots.txt: everything is allowed"}
	}
	return verdict{policy: AllowAll, reason: sl + ": no valid robots.txt, everything is allowed"}
}

// priceNote is what a 402's reason says of its price: " (crawler-price:
// USD 0.01)", " (crawler-price unreadable: ...)", or "" when the answer
// names none.
func priceNote(pay Payment) string {
	switch {
	case pay.Err != nil:
		return " (crawler-price unreadable: " + strings.TrimPrefix(pay.Err.Error(), "fetch: ") + ")"
	case !pay.Price.IsZero():
		return " (crawler-price: " + pay.Price.String() + ")"
	}
	return ""
}

// byteCount is "1 byte" or "n bytes".
func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
