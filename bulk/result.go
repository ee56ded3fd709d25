package bulk

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// Result is one result of a run (a URL asked about for one subject), as
// JSON Lines write it and ReadResults reads it back. The members of JSON
// input other than "url", which a result copies, are not read into it.
type Result struct {
	// InputLine is the URL's line in the input, with AnyOrder; else 0.
	InputLine int    `json:"input_line,omitempty"`
	URL       string `json:"url"`
	// Crawler names a crawler of the table, Agent a product token.
	Crawler string `json:"crawler,omitempty"`
	Agent   string `json:"agent,omitempty"`
	// Allowed is nil when the line could not be checked (see Error).
	Allowed *bool `json:"allowed"`
	// Line and Rule are the deciding rule's, when one decided.
	Line int    `json:"line,omitempty"`
	Rule string `json:"rule,omitempty"`
	// Origin is the URL's origin ("http://example.com"); Policy its
	// answer's: "rules", "allow-all" or "disallow-all", and Reason why.
	Origin string `json:"origin,omitempty"`
	Policy string `json:"policy,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Source says where the answer came from: "network", "cache" or
	// "stale-cache".
	Source string `json:"source,omitempty"`
	// Payment is what the origin's robots.txt answer said about pay per
	// crawl, when it said something: {"status":"required","price":"USD
	// 0.01"} for a 402 Payment Required (offered at a price; read as any
	// 4xx, so Policy is allow-all). Absent otherwise.
	Payment *fetch.PaymentJSON `json:"payment,omitempty"`
	// Error says why the line could not be checked.
	Error string `json:"error,omitempty"`
	// Usage and Signals are the AI usage preferences and signals, with
	// Options.Usage (JSON as robotstxt eval writes them).
	Usage   json.RawMessage `json:"usage,omitempty"`
	Signals json.RawMessage `json:"signals,omitempty"`
}

// maxResultLine bounds a result line ReadResults reads: a URL and the
// members copied from its input line, each at most MaxLine, and the rest.
const maxResultLine = 3*MaxLine + 64<<10

// ReadResults reads the results of a run written as JSON Lines from r, and
// calls fn with each, in order, until the end of r or fn's first error,
// which it returns.
func ReadResults(r io.Reader, fn func(Result) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxResultLine)
	n := 0
	for sc.Scan() {
		n++
		var res Result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			return fmt.Errorf("bulk: result line %d: %v", n, err)
		}
		if err := fn(res); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("bulk: result line %d: %v", n+1, err)
	}
	return nil
}

// RunFunc is Run with each result given to fn, in the Checker's order, as
// it is known, rather than written: the Checker's Format is not used. An
// error of fn stops the run, and is returned.
func (c *Checker) RunFunc(ctx context.Context, in io.Reader, fn func(Result) error) (Summary, error) {
	cfg := c.cfg
	cfg.csv = false
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	type ran struct {
		sum Summary
		err error
	}
	done := make(chan ran, 1)
	go func() {
		sum, err := run(ctx, cfg, in, pw)
		pw.Close()
		done <- ran{sum, err}
	}()
	rerr := ReadResults(pr, fn)
	if rerr != nil {
		cancel()
		pr.CloseWithError(rerr)
	}
	r := <-done
	if rerr != nil {
		return r.sum, rerr
	}
	return r.sum, r.err
}
