// Package fetch fetches robots.txt files the way crawlers must (RFC 9309
// and docs/protocol.md: Scope, Fetching, Dialects), and says what each outcome means.
//
// # Origins
//
// A robots.txt applies to one origin: scheme, host and port. OriginOf finds
// the origin of any URL, folding what does not change it: default ports
// ("https://h:443" is "https://h"), the case of the host, and international
// names (a host is the same as its punycode form). An IP address is its own
// origin. Origin.String is the cache's key.
//
// # What an answer means
//
// Fetcher.Fetch asks for /robots.txt and reads the answer with the policy of
// its dialect. For Google (the default), Bing and RFC 9309:
//
//	2xx                          the body's rules (at most 500 KiB of it)
//	3xx                          followed, up to 5 redirects, to any host; the
//	                             rules still apply to the original origin
//	6th redirect, loop, no target  as 404: everything allowed
//	4xx (401 and 403 too)        no valid robots.txt: everything allowed
//	429                          as 5xx (RFC 9309: as 4xx)
//	5xx, DNS failure, timeout,   unreachable: everything disallowed for now,
//	reset, TLS failure, body     to be retried (a cache keeps serving its
//	cut short or malformed       last good copy meanwhile)
//
// Yandex reads any answer but 200 OK, and a body over 500 KB (read as 500
// KiB, robotstxt.DefaultMaxBytes: one limit for every dialect), as no
// restrictions (Yandex's robots.txt help). The original draft reads 401 and
// 403 as everything disallowed, and so does Baidu, which follows it. HTML, JavaScript and meta-refresh redirects are not followed:
// an HTML page is parsed as a robots.txt body, and only its lines that read as
// rules count. A network failure, which is no answer at all, is unreachable in
// every dialect (for Yandex too: this package assumes that a robot that could
// not ask does not read silence as consent).
//
// # Your own HTTP client
//
// Interpret gives the same answer for a status, header and body that any
// client fetched (colly, net/http): the policy, why, and the parsed file;
// Answer.Decide then answers questions as the cache does. The Fetcher
// decides with the same code, so both always agree.
//
// FTP origins are fetched with an anonymous login and RETR /robots.txt. A
// 550 reply is a 404, a refused login (530) is a 401, other permanent (5xx)
// replies mean no valid robots.txt, and transient (4xx) replies and network
// errors mean unreachable.
//
// # Limits
//
// At most MaxBytes (500 KiB) of a body are read, one byte more to know there
// was more, and the rest is never downloaded: a server streaming forever
// costs 500 KiB. Bodies compressed with gzip, deflate or br are decoded by the
// fetcher under the same limit, so a compression bomb costs no more. One fetch,
// every redirect and byte included, is bounded by Timeout (15 s).
//
// Fetch returns a Result in every case; when no answer came it also returns
// an *Error naming the origin, the URL and the step that failed, whose cause
// errors.Is can test (context.DeadlineExceeded for a timeout).
//
// This package never caches: package cache keeps results by the rules of
// docs/protocol.md, Caching.
package fetch
