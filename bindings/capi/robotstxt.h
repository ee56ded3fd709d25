/*
 * robotstxt.h: the C ABI of the robotstxt library (Google's exact answers
 * to robots.txt questions, with the deciding line, the fetch-status policy,
 * crawl-delay, sitemaps and AI usage preferences).
 *
 * Build: go build -buildmode=c-shared -o librobotstxt.so ./bindings/capi
 * (from the repository's root; cgo and a C compiler are needed). Link with
 * -lrobotstxt, or load the library at run time (dlopen, ctypes, cffi).
 *
 * Ownership and lifetime
 *
 *   - Handles. A parsed file is an int64_t handle: a positive integer that
 *     names an entry of a table kept inside the library, never a pointer.
 *     A handle is alive from rtx_parse or rtx_for_status until rtx_free;
 *     every function given a handle that is not alive fails with an error
 *     ("unknown handle"), it never crashes. Handles are never reused.
 *     At most 1,048,576 handles are alive at once. A handle may be used
 *     from any number of threads at once; freeing it while another thread
 *     uses it is the caller's race (that call then fails cleanly).
 *   - Input strings. Every string argument is a pointer and a length in
 *     bytes (no NUL terminator needed; NUL bytes are data). The library
 *     reads them only during the call and keeps no pointer to them: the
 *     caller keeps ownership. A NULL pointer with length 0 is the empty
 *     string.
 *   - Returned strings. A char * returned, or stored in *err, was
 *     allocated with malloc by the library and belongs to the caller, who
 *     frees it with rtx_free_string (or free). They are NUL-terminated
 *     UTF-8 (JSON documents for the rich answers, see docs/bindings.md).
 *   - Errors. Every function that can fail takes char **err last. When err
 *     is not NULL, *err is set to NULL on success and to a message on
 *     failure. A failure is reported by the return value (a negative
 *     number, or NULL). A Go panic inside the library is recovered and
 *     reported as an error ("robotstxt: internal error: ..."): it never
 *     ends the host process.
 *   - Threads. Every function is safe to call from any thread.
 *
 * Who asks (kind)
 *
 *   RTX_AGENT_TOKEN   0  agent is a product token, matched as given
 *                        (Google's OneAgentAllowedByRobots).
 *   RTX_AGENT_HEADER  1  agent is a User-Agent header value; its product
 *                        token is asked about ("Mozilla/5.0 (compatible;
 *                        ExampleBot/1.0)" asks as ExampleBot).
 *   RTX_AGENT_CRAWLER 2  agent names a crawler of the catalogue
 *                        (docs/crawlers.md): its fallback tokens, whether it
 *                        obeys '*' and its engine's dialect apply. An
 *                        unknown name is an error.
 *
 * Dialects (dialect): 0 the crawler's own, else Google; 1 google;
 * 2 rfc9309; 3 bing; 4 yandex; 5 original; 6 baidu. rtx_dialect maps a
 * name to its number.
 *
 * URLs are taken as given: pass them percent-encoded as a crawler fetches
 * them (Google's library does not normalise URLs either).
 */
#ifndef ROBOTSTXT_H
#define ROBOTSTXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTX_AGENT_TOKEN 0
#define RTX_AGENT_HEADER 1
#define RTX_AGENT_CRAWLER 2

/* Fetch policies (rtx_for_status). */
#define RTX_POLICY_RULES 1        /* obey the body's rules */
#define RTX_POLICY_ALLOW_ALL 2    /* no valid robots.txt: all allowed */
#define RTX_POLICY_DISALLOW_ALL 3 /* server error or no answer: nothing */

/* Parses a robots.txt body (its first 512,000 bytes count, as Google and
 * RFC 9309 read). Returns a handle (> 0), or -1 on error. The body is
 * copied. */
int64_t rtx_parse(const char *body, size_t len, char **err);

/* Applies the fetch policy of dialect to the final answer of a request
 * for /robots.txt (after redirects): HTTP status (0: no answer at all),
 * Content-Type (may be empty) and body. Returns a handle that answers
 * every question under that policy, and stores the policy (RTX_POLICY_*)
 * in *policy when policy is not NULL; -1 on error. rtx_info gives the
 * reason in words. Google: 2xx parse, 3xx/4xx allow all, 429/5xx/no answer
 * disallow all (and /robots.txt itself is always allowed). */
int64_t rtx_for_status(int status, const char *content_type, size_t ct_len,
                       const char *body, size_t len, int dialect,
                       int *policy, char **err);

/* May agent fetch url? Returns line * 2 + allowed: bit 0 is the verdict
 * (1 allowed, 0 disallowed), the rest the deciding rule's line (0 when
 * no rule decided: Google's matching line). Returns -1 on error. */
int64_t rtx_ask(int64_t h, const char *agent, size_t agent_len, int kind,
                const char *url, size_t url_len, int dialect, char **err);

/* May agent fetch url? The verdict alone: 1 allowed, 0 disallowed, -1
 * on error. For a product token or a User-Agent header in Google's
 * reading it takes the core's fastest path (no line is worked out);
 * otherwise it answers as rtx_ask. */
int rtx_allowed(int64_t h, const char *agent, size_t agent_len, int kind,
                const char *url, size_t url_len, int dialect, char **err);

/* The same question, with what decided it, as a JSON object: allowed,
 * line, dialect, path, rule (line, allow, pattern, text, implicit; null
 * when no rule decided), group (kind, token, lines, groups, reason),
 * reason, crawl_delay (null when none applies), crawl_delay_line.
 * NULL on error. */
char *rtx_decide(int64_t h, const char *agent, size_t agent_len, int kind,
                 const char *url, size_t url_len, int dialect, char **err);

/* How fast the file asks agent to go, as a JSON object: crawl_delay
 * (seconds, null when none), crawl_delay_line, crawl_delay_global,
 * request_rate (requests, seconds, from, to, line; or null),
 * request_rate_global, visit_time (from, to, line; or null), ignored
 * (the crawler's engine ignores these fields: Google's), interval_seconds.
 * NULL on error. */
char *rtx_crawl_delay(int64_t h, const char *agent, size_t agent_len,
                      int kind, int dialect, char **err);

/* The sitemap lines, as a JSON array of {url, line}. NULL on error. */
char *rtx_sitemaps(int64_t h, char **err);

/* The handle described, as a JSON object: policy ("rules", "allow-all",
 * "disallow-all"), reason, unreachable, truncated, size, sitemaps
 * ({url, line}), hosts ({value, line}: Yandex's host lines). NULL on
 * error. */
char *rtx_info(int64_t h, char **err);

/* The AI usage preferences for url, as a JSON object: allowed, line,
 * usage (null when url may not be crawled; else train-ai, search and
 * other categories, "y", "n" or "unknown", and lines) and signals (null
 * without a Content-Signal line; else search, ai-train, ai-input: "yes",
 * "no" or null; and line). NULL on error. */
char *rtx_usage(int64_t h, const char *agent, size_t agent_len, int kind,
                const char *url, size_t url_len, int dialect, char **err);

/* The number of a dialect by name ("google", "rfc9309", "bing",
 * "yandex", "baidu", "original"; "" or "default" for 0); -1 on error. */
int rtx_dialect(const char *name, size_t len, char **err);

/* Releases a handle. Freeing one that is not alive does nothing. */
void rtx_free(int64_t h);

/* Releases a string the library returned. NULL does nothing. */
void rtx_free_string(char *s);

/* The number of handles alive (for leak checks). */
int64_t rtx_alive(void);

#ifdef __cplusplus
}
#endif

#endif /* ROBOTSTXT_H */
