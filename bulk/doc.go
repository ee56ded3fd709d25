// Package bulk checks crawl frontiers: streams of URLs, each asked about
// for one or more crawlers under its origin's live robots.txt, with each
// origin's file fetched once through a cache (shared by a fleet with a
// shared store: one fetch an origin between all processes). It is the
// engine of the robotstxt bulk command and of the service's POST
// /v1/bulk.
//
// A Checker is made once from Options and runs any number of times:
//
//	c, err := bulk.New(&bulk.Options{Cache: myCache, Subjects: subjects})
//	sum, err := c.Run(ctx, urls, os.Stdout)  // results as JSON Lines or CSV
//	sum, err = c.RunFunc(ctx, urls, func(r bulk.Result) error { ... })
//
// The input is a URL a line, or a JSON object a line with a "url" member;
// the results are written one a line per URL and subject, in input order
// or as soon as known (Options.Order), each as soon as it may be.
//
// What a run holds is bounded whatever the input's size: the URLs read and
// not yet written (Options.Window; past it the input is not read), the
// answers kept for the URLs that follow (Options.OriginBytes, by what their
// parsed files weigh), the origins fetched at once (Options.Concurrency),
// and an input line (MaxLine). A run ends with its input, or when its
// context ends: then every line written is whole, and Run returns
// ErrInterrupted. Progress is reported to a callback (Options.Progress).
//
// Fetching is the cache's: give its fetcher a transport from NewTransport
// to bound the requests at once to one host name, and with
// Options.Timeout each origin's fetch gets a budget counted only while its
// requests hold their host's slots (see NewTransport, Backstop and
// DialContext).
package bulk
