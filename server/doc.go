// Package server is the robotstxt service: one robots.txt authority that a
// fleet of crawler processes asks over HTTP, and the tester page that site
// owners open in a browser. "robotstxt serve" runs it.
//
// The JSON API lives under /v1/ (described by the OpenAPI 3.1 document at
// GET /v1/openapi.json):
//
//	POST /v1/check            may these crawlers fetch these URLs? (and,
//	                          with "usage": true, what may they use them for?)
//	POST /v1/lint             what is wrong with this file?
//	POST /v1/compare          how do the dialects read it?
//	POST /v1/diff             which verdicts change between two versions?
//	POST /v1/ai               who may use my content, purpose by purpose?
//	POST /v1/policy           the file that states these stances
//	GET  /v1/fetch            the live fetch: trace, policy, cache state
//	GET  /v1/history          the versions of an origin's robots.txt seen
//	GET  /v1/history/version  one version's body
//
// and beside it GET /healthz, GET /readyz (the store answers) and GET
// /metrics (Prometheus). Every answer under /v1/ is JSON, a route that
// does not exist (404) and a method a route does not take (405, with
// Allow) too; an error is {"error", "field"}, its text free of Go package
// names, an unknown field naming the one meant ("did you mean"). The POST routes are answered by an Engine: by
// default the code the CLI runs (package tester: check, lint, compare,
// diff, ai, policy), so that each answer is the object of the command's
// --json output; the server validates their bodies (strict JSON, size
// limits) before it. Inline files are kept parsed between requests, keyed
// by their bytes.
//
// A check asked with "usage": true gives each result the AI usage
// preferences that apply to it (the Content-Usage rules of the crawler's
// groups, null where it may not crawl) and its groups' Content-Signal
// line, in the shape "robotstxt eval" answers with, so that a tool reads
// both with one parser.
//
// # Limits
//
// A request of a few megabytes can ask for an answer of gigabytes (2,000
// URLs of 800 bytes for 256 agents: 512,000 results), so the work of each
// is bounded, every refusal naming its limit:
//
//   - Options.MaxQuestions (DefaultMaxQuestions, 100,000): a question is a
//     URL asked about for one crawler in one reading; a check asks URLs x
//     subjects, a compare x 7 readings, a diff x 2 files, an AI report
//     URLs x (crawlers + the * group). 413 past it. A diff that derives
//     its URLs may name at most MaxDerivedDiffRows crawlers and agents. An
//     AI report about a live file is held to the limits again once the
//     file is read (with "all", every token it names is a crawler asked
//     about).
//   - Options.MaxAnswerBytes (DefaultMaxAnswerBytes, 128 MiB): 413 past it.
//     A check's answer is written as its results come, in one buffer of
//     512 KiB; if it grows past the limit or the deadline passes after its
//     first part was sent, the connection is closed before its end.
//   - Options.MaxConns (DefaultMaxConns, 2,048): the connections Serve
//     holds open; past it the next waits to be accepted until one closes
//     (robotstxt_connections_open in /metrics).
//   - Options.MaxInFlightBytes (DefaultMaxInFlightBytes, 256 MiB): the
//     memory all requests in flight hold, as estimated: a quarter for
//     bodies (taken before a body is read), the rest for the answers built
//     and live fetches. A request waits for its share up to half its
//     deadline, then gets 503 with Retry-After. A policy, whose verdicts
//     (for every crawler of its stances, at URLs derived from the rules)
//     the tester bounds, holds the memory of its worst case, as a diff
//     that derives its URLs does: at most all of the work's.
//
// # Browsers
//
// A page on another site must not drive a server through a visitor's
// browser. Every route refuses a Host header that is not an address of the
// server (421; DNS rebinding), but Options.AllowedHosts; a POST must be
// Content-Type application/json (415), which a browser sends to another
// origin only after a CORS preflight the server does not answer; and a
// request that may change state (a POST, GET /v1/fetch) that a browser
// marks as coming from another origin (Sec-Fetch-Site, or Origin) gets 403.
//
// With Options.Token set, /v1/ (but the OpenAPI document) and /metrics need
// it ("Bearer", in any case), /readyz gives only ready or not without it,
// and wrong tokens are limited per client (AuthFailureBurst, then one
// every AuthFailureEvery; 429).
//
// # Live fetches and the history
//
// Live fetches go through the shared cache (package cache, on any store)
// and an address guard: unless Options.AllowPrivate is set, they never
// connect to loopback, private, link-local, site-local, CGNAT, multicast,
// unspecified or cloud-metadata addresses, nor to IPv6 addresses that
// carry one (IPv4-mapped, NAT64, 6to4, Teredo), whatever a name resolves
// to or a redirect says (see Guard). A fetch the guard refused is stored
// nowhere.
//
// The history keeps the versions of each origin's file that the site
// answered (not a refused fetch, nor one that got no answer): MaxVersions
// an origin, each for Options.HistoryTTL after it was last seen (its keys'
// time to live in the store), for at most Options.HistoryOrigins origins.
//
// # Files
//
// Each file holds one job of the server:
//
//   - options.go: the defaults and Options; server.go: Server, New (the
//     options given their defaults, the parts built and wired) and
//     ServeHTTP.
//   - routes.go: the route table, the mux and its JSON 404 and 405
//     (jsonMisses), the page and the OpenAPI document.
//   - reply.go: the answers' writers (writeJSON, writeError) and the one
//     error writer: a route is a handlerFunc that returns its error, and
//     handle turns it into its answer (failure) and writes it.
//   - middleware.go: the outermost layer (observe: the deadline, the
//     security headers, the log line, the metrics); hosts.go the Host
//     check, the cross-origin refusal and the POST gate; auth.go and
//     ratelimit.go the token and the rate limit of /v1/ (apiGate).
//   - serve.go: Serve, the connections it counts and bounds, the graceful
//     shutdown.
//   - limits.go, deadline.go: the work a request may ask for and the
//     memory it holds (admission), and the request's deadline.
//   - post.go: the POST routes (servePost: decode, validate, limits,
//     engine, answer), the check's streamed answer and its writers;
//     engine.go, api.go, encode.go, fastdecode.go, parsed.go, usage.go:
//     the engine, the request and answer types, the check's fast encoder
//     and decoder, the parsed inline files, the usage members.
//   - live.go: the live fetch through the caches (answer, fetchAnswer) and
//     GET /v1/fetch; guard.go and outbound.go: the addresses and the
//     bounds of every request made to a site.
//   - history.go, history_read.go, history_api.go: the versions recorded,
//     read back, and the routes GET /v1/history and /v1/history/version.
//   - health.go: /healthz and /readyz; metrics.go: /metrics.
//   - One file per remaining route family: ai.go, bulk.go, audit.go (with
//     identity.go), crawlers.go, watch.go; page.go and web/ the page.
package server
