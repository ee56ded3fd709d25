// Package guard makes a site's own robots.txt and AI usage preferences
// hold at the edge, for crawlers whose identity is proven.
//
// For each request, a Guard finds the crawler the User-Agent claims (the
// catalogue's names, read as robots.txt matching reads product tokens; a
// browser claims none), checks the claim through an Identity
// (verify.Identifier: a Web Bot Auth signature, the operator's address
// lists, forward-confirmed reverse DNS; without one every claim is
// unverified), asks the robots.txt in force for that crawler in its own
// dialect with its fallback tokens (the deciding line kept), its usage
// preferences for the crawler's purposes, and its Crawl-delay. The
// outcome gets an action from the Policy: allow, log, 403, 402 with a
// crawler-price, 429 with Retry-After, or a slow, bounded tarpit.
//
// The defaults are safe: mode log decides and records and blocks
// nothing. In enforce mode, by default, a crawler's claim on a path its
// groups disallow gets 403 whether or not it is verified, a spoofed claim
// gets 403 on every path but the rules, and browsers and unknown clients
// pass. /robots.txt, /.well-known/ and the sitemaps the file names are
// never blocked.
//
// docs/guard.md describes the library and the policy file.
package guard
