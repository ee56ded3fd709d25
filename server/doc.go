// Package server is the robotstxt service: one robots.txt authority that a
// fleet of crawler processes asks over HTTP, and the tester page that site
// owners open in a browser. "robotstxt serve" runs it.
//
// The JSON API lives under /v1/ (described by the OpenAPI 3.1 document at
// GET /v1/openapi.json):
//
//	POST /v1/check            may these crawlers fetch these URLs?
//	POST /v1/lint             what is wrong with this file?
//	POST /v1/compare          how do the dialects read it?
//	POST /v1/diff             which verdicts change between two versions?
//	GET  /v1/fetch            the live fetch: trace, policy, cache state
//	GET  /v1/history          the versions of an origin's robots.txt seen
//	GET  /v1/history/version  one version's body
//
// and beside it GET /healthz, GET /readyz (the store answers) and GET
// /metrics (Prometheus). Check, lint, compare and diff are answered by an
// Engine: by default the code the CLI runs (package tester), so that each
// answer is the object of the command's --json output; the server
// validates their bodies (strict JSON, size limits) before it. Inline files
// are kept parsed between requests, keyed by their bytes.
//
// Live fetches go through the shared cache (package cache, on any store)
// and an address guard: unless Options.AllowPrivate is set, they never
// connect to loopback, private, link-local, CGNAT, multicast, unspecified or
// cloud-metadata addresses, whatever a name resolves to or a redirect says
// (see Guard).
package server
