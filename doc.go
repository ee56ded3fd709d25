// Package robotstxt parses robots.txt files and answers whether a crawler may
// fetch a URL, exactly as Google's robots.txt library answers, and also as
// RFC 9309, Bing, Yandex, Baidu and the original 1996 draft read the same file.
//
// # What robots.txt is
//
// A robots.txt file lives at /robots.txt of one origin (scheme, host and
// port) and applies to that origin only. It is a list of groups. A group
// starts with one or more user-agent lines naming crawlers by their product
// token ("Googlebot", "GPTBot") or '*' for every crawler, followed by allow
// and disallow rules:
//
//	User-agent: Googlebot
//	Disallow: /private/
//	Allow: /private/press/
//
//	User-agent: *
//	Disallow: /tmp/
//
//	Sitemap: https://example.com/sitemap.xml
//
// A crawler obeys exactly one (merged) group: the groups naming its token,
// or, when none does, the '*' group. A rule's pattern matches a URL's path
// and query from its start; '*' matches any run of characters and a final
// '$' anchors the pattern to the end of the URL. Among the rules that match,
// the longest pattern wins, and allow wins a tie. No matching rule means the
// URL is allowed.
//
// # Use
//
// Parse a file once and ask it any number of questions, from any number of
// goroutines:
//
//	r := robotstxt.Parse(body)
//	if r.Allowed("Googlebot", "https://example.com/private/x") { ... }
//
// [Robots.Allowed] is the fast path: it answers for one product token in
// Google's reading and allocates nothing. Parse reads and classifies every
// line and builds the groups; a file's first questions are answered from
// those lines, and after them the rules that apply to a crawler are compiled
// (normalised, ordered, and for large groups indexed) on the first question
// about it, so a crawler never pays for other crawlers' groups;
// [Robots.Compile] compiles them all at once. [Robots.Decide] answers a richer
// [Query]: several tokens at once (Google's semantics: the groups of every
// token apply together), a known [Crawler] from the table (with its
// fallback tokens, whether it ignores the '*' group, and its engine's
// dialect), another [Dialect], and with [Query].Explain every rule that
// matched and why it lost. Its [Decision] names the deciding rule (line,
// kind, pattern, text) and the group chosen and why.
//
// # Google's reading
//
// The Google dialect follows Google's open-source library to the byte,
// including what surprises people (docs/protocol.md, Google's reading in detail): lines end at LF, CR or CRLF
// and only their first 16,663 bytes count; the first '#' ends a line; keys
// match by prefix ("Disallowed:" is a disallow) and a few typos are accepted
// ("useragent", "dissallow", "site-map"); a missing colon is tolerated when
// the line has exactly two words; a user-agent value names the token made of
// its leading letters, '-' and '_' ("Googlebot/2.1" names "Googlebot"); rule
// patterns are normalised (bytes of 0x80 and above percent-encoded, %xx hex
// upper-cased) but URLs are taken as given, so callers pass normalised URLs
// ([NormalizeURL] does what crawlers do); an empty rule matches with weight 0;
// an allow of ".../index.htm" also allows its directory. The conformance data
// of Google's own test suite and 52,698 questions over real files pass.
//
// A body is read up to [DefaultMaxBytes] (500 KiB), as Google and RFC 9309
// crawlers read it; [ParseWith] changes the limit and [Robots.Truncated]
// says whether it cut.
//
// # Dialects
//
//   - [Google]: the default, as above.
//   - [RFC9309]: the RFC read strictly: exact keys and a colon required;
//     no line-length cut or index.htm rule; patterns and URLs both
//     normalised as RFC 3986 does (%xx of unreserved characters decoded;
//     non-ASCII, controls, space and the characters a URI may not hold,
//     such as '<' and '|', encoded), so %2A and %24 in a pattern match a
//     literal '*' and '$';
//     /robots.txt is always allowed.
//   - [Bing]: Google's reading; crawl-delay is honoured, and taken from the
//     '*' group when the bingbot group has none.
//   - [Yandex]: longest match, allow winning ties; a Yandex robot obeys the
//     group naming it, else "User-agent: Yandex", else '*'; clean-param,
//     host and crawl-delay are read ([Robots.CleanURL] gives the canonical
//     URL). Google's index.htm rule does not apply.
//     A file over 500 KB (read as 500 KiB, [DefaultMaxBytes]) means no
//     restrictions ([Dialect.IgnoresOversized], from [Robots.Size]).
//   - [Baidu]: Baiduspider and its variants. Records, group choice and
//     /robots.txt as [Original]; rules tried in file order, the first match
//     wins; '*' and '$' matched as Google matches them (an escaped %2A or
//     %24 is a literal byte); paths case-sensitive; an empty rule blocks
//     nothing.
//   - [Original]: the 1994/1996 draft, strict: blank lines end records;
//     the first record whose user-agent value contains the crawler's name
//     applies, else the first '*' record; rules are tried in file order and
//     the first match wins; no wildcards; %xx escapes are decoded before
//     comparing, except %2F; /robots.txt is always allowed.
//
// Sources: Google's library and documentation; RFC 9309; Bing's webmaster
// help; Yandex's robots.txt help (longest match, the Yandex group, the
// 500 KB rule); Baidu's robots.txt help (order matters, the first matching
// line decides; Baiduspider supports * and $); the 1996 draft. Where a
// source is thin this package documents its assumption: Bing's fine print
// is taken to be Google's; Baidu's records and fetch policy are taken to be
// the draft's; crawlers whose engines document nothing else read as Google
// does.
//
// # The line report
//
// [Robots.Lines] reports every line: its number, text, key, value and
// field, and the flags of Google's parsing report (typo, missing colon,
// comment, too long...). It is built on first use by the same parser, so
// explain and lint need no second parser and crawlers never pay for it.
//
// This package imports only the standard library.
package robotstxt
