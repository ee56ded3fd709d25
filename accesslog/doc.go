// Package accesslog reads web server access logs: the Apache and nginx
// combined and common formats, JSON lines with field names that can be
// mapped, and Cloudflare's JSON log fields. It is made for audits that read
// millions of lines a second: a [Parser] scans a line's bytes in place and
// fills an [Entry] whose fields point into the line, with no allocation
// per line.
//
// The formats:
//
//   - [Combined]: "IP ident user [time] "request" status bytes "referer"
//     "user-agent"", as Apache's combined and nginx's default write it.
//     Fields after the user agent (nginx's extra ones) are ignored, and a
//     line with one quoted field after the size reads it as the user agent
//     (the common format with the user agent appended).
//   - [Common]: the same without referer and user agent.
//   - [JSON]: one object a line. Each field of an [Entry] is read from the
//     first of its candidate names the object has (see [DefaultFields]);
//     [ParseFieldMap] overrides them ("ip=client_ip,ua=agent"). Times are
//     RFC 3339 strings, the common log format's "10/Oct/2026:13:55:36
//     +0000", or numbers of seconds, milliseconds or nanoseconds since
//     1970 (told apart by their size).
//   - [Cloudflare]: JSON lines with Cloudflare's Logpush field names
//     (ClientIP, ClientRequestURI, ClientRequestUserAgent,
//     EdgeStartTimestamp, ...).
//   - [Guard]: the guard package's decision log, one decision a line
//     (ip, time, method, path, host, user_agent; the decision's own
//     fields in Entry.Decision: claimed, outcome, verdict, deciding line,
//     version, action, would, mode, identity).
//
// [Detect] names the format of a sample of lines. [Open] reads a file,
// or standard input for "-", decompressing gzip and zstd (told by their
// first bytes, not by the name). A [Scanner] splits a reader into lines,
// bounding their length.
//
// A line that does not parse is an error of the line, never of the log:
// callers count it and go on.
package accesslog
