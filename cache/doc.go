// Package cache keeps robots.txt answers for any number of origins by the
// rules of docs/protocol.md (Fetching, Caching), so that a crawler asks each site once a day, not once a
// page, and never turns an outage into "allow everything".
//
// The rules:
//
//   - a copy is fresh for 24 hours, or for its Cache-Control max-age clamped
//     to [1 minute, 24 hours]; no-store and no-cache keep it 1 minute;
//   - a refresh is conditional (If-None-Match, If-Modified-Since) and a 304
//     renews the copy; a Last-Modified less than a minute before its
//     answer's Date is not sent back (the fetch package's rule: a file
//     rewritten within that second would keep its time);
//   - 4xx answers ("no valid robots.txt": allow all) are cached like a body;
//   - when a refresh fails (5xx, 429, network error) the last good copy is
//     served (Source StaleCache), past its 24 hours and past 30 days;
//   - with no copy, an unreachable origin is disallowed, until it has been
//     unreachable for 30 days, when everything is allowed;
//   - a 503 is retried after its Retry-After, or 1 minute; other failures
//     after 1 minute, doubling up to 1 hour; until then the failure is the
//     answer, from the cache;
//   - however many goroutines ask about an origin, one fetch is made at a
//     time, and a body is parsed once per copy; the parsed files kept in
//     memory are bounded by count and by bytes (Options.ParsedMax,
//     Options.ParsedBytes), each weighed by robotstxt.Robots.Footprint;
//   - a fetch that this side refused (a Refusal: the service's address
//     guard will not connect to a private address) is not the site's
//     failure: nothing is stored.
//
// Crawlers ask Get (or Allowed); a site owner who has just changed the
// file, or an operator who wants a new copy, asks Refresh, which fetches
// now whatever the store holds (conditionally, when the copy has an ETag
// or a Last-Modified) and stores the result for the questions that
// follow. Refreshes share fetches as questions do.
//
// Entries are kept through a store.Store (in memory by default; a bbolt file
// or Redis to survive restarts or share one cache between processes), encoded
// by this package with a version byte first. A value the cache cannot read is
// a miss, never a panic. Time is injected (Options.Now).
//
// What runs, exactly: New starts nothing, and a Cache has no timer, no
// sweeper and no Close. Entries expire when read (a bbolt file deletes the
// expired ones it is not asked about when its owner calls its Sweep;
// robotstxt serve does, every hour). The one goroutine a Cache starts is
// the fetch of an origin, one per origin being fetched, shared by every
// question about it: it takes the fleet's lease when the store is shared
// (waiting at most twice Options.LeaseTTL for another process's fetch),
// fetches (within the fetcher's timeout, 15 seconds by default), stores the
// result and ends. It runs on when the question that started it gives up
// (its context done), so that the result is stored for the next; nothing
// outlives it.
package cache
