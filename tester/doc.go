// Package tester answers what a site owner asks of a robots.txt file, the
// same way for the robotstxt command and for the service:
//
//   - Check: may these crawlers fetch these URLs, which line decided, which
//     group applied and why, and which rules matched and lost;
//   - Compare: how each crawler's own engine, and each dialect, reads the
//     file, URL by URL, with the disagreements explained;
//   - Diff: which (crawler, URL) verdicts change between two versions;
//   - Lint (LintReport.Add): package lint's findings, with the notes of a
//     file fetched live.
//
// The file is a Source: bytes given (NewSource), or the answer of a live
// origin fetched through a cache (Fetch, FetchInfoOf then FetchedSource):
// as it is now by default, since a site owner checks the file just
// changed (FetchOptions.Cached takes the cache's copy, as a crawler would),
// with notes that say where the answer came from and, for a fetch this
// side refused (cache.Refusal), that the site was not asked.
// A live answer is read, question by question, with the fetch policy of
// the crawler's engine (fetch.Interpret): a 403 allows Google and blocks
// Baidu, a 503 blocks Google and allows Yandex.
//
// Requests name crawlers from the table (robotstxt.Crawlers), product
// tokens, and sets of tokens one crawler obeys at once; URLs are absolute
// or paths, normalised as crawlers normalise them. Bad input is an *Error
// that names the request field at fault. The results marshal to the JSON
// that "robotstxt check --json", "compare --json", "diff --json" and
// "lint --json" print. Reports hold text read from the file and the
// network: escape it before showing it on a terminal or in a page.
package tester
