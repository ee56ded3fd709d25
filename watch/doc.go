// Package watch watches the robots.txt of origins and says, within
// minutes, which watched URLs each crawler lost or gained.
//
// A watch names an origin, the URLs that matter on it (paths, absolute
// URLs on the origin, or the URLs a sitemap lists), the crawlers to ask
// about (names from robotstxt.Crawlers, or purposes such as "search" or
// "ai-training", which stand for every crawler of the table with that
// purpose), how often to look (every, bounded below by the engine's
// MinInterval) and, optionally, a webhook and a secret to sign its alerts
// with.
//
// An Engine keeps the watches in a store.Store, so that they survive a
// restart and so that several servers on one shared store (Redis) share
// them; each check then runs on one server only: the server that takes
// the origin's lease (store.Leaser) checks it, and the others find the
// check done when they read its state. A check fetches the origin's
// robots.txt once for all the watches of that origin (Options.Fetch: a
// fresh fetch through the cache), reads it with each crawler's own
// engine and fetch policy (package tester), and compares with the last
// check:
//
//   - verdict flips: a watched URL that a crawler may no longer fetch, or
//     may now fetch. A URL newly blocked for a search crawler is
//     critical, newly blocked for another crawler a warning, newly
//     allowed information;
//   - a new version of the file, summarised semantically
//     (tester.Changes: groups, rules, sitemaps, Content-Usage and
//     Content-Signal lines added or removed): information;
//   - the state of the fetch: a 5xx or 429 answer, a redirect loop, HTML
//     served as robots.txt, a file over 500 KiB, the file gone (404,
//     410), the site unreachable. Entering such a state is a warning,
//     leaving it information.
//
// The first check of a watch sets its baseline and alerts nobody. A check
// that finds a change records an Event in the watch's history (the last
// MaxHistory) and, when the watch has a webhook, queues an Alert: a JSON
// POST, signed with HMAC-SHA256 over the body when the watch has a secret
// (header X-Robotstxt-Signature: sha256=HEX), retried with exponential
// backoff on a network error, a 5xx, a 408 or a 429. The queue is bounded
// (an alert that finds it full is dropped and counted): delivering never
// blocks a check, nor a check the service.
//
// Nothing runs in the background until Run, which checks what is due
// every PollInterval and delivers the alerts until its context ends.
// Tick runs one pass by itself: tests drive the engine with it and a
// clock of their own (Options.Now).
package watch
