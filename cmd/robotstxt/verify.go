package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/verify"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

const verifyHelp = `Usage: robotstxt verify IP USER-AGENT [--ip-ranges NAME=FILE|URL]...
                        [--published] [--dns=false] [--resolver ADDR]
                        [--json]
       robotstxt verify --request FILE [--keys FILE] [--at TIME]
                        [--skew DURATION] [--allow-test-keys] [--json]
       robotstxt verify --directory URL [--json]

Checks who is really asking: whether the address IP is the crawler its
USER-AGENT names (published address lists, forward-confirmed reverse DNS),
or a request by Web Bot Auth (HTTP Message Signatures, RFC 9421, as
draft-ietf-webbotauth-httpsig-protocol-01 profiles them).

  IP USER-AGENT    the address and the User-Agent header it sent: says
                   verified, spoofed or unverified, how (method) and why
  --ip-ranges NAME=SRC
                   the crawler NAME's published address list, a JSON
                   file or URL (repeatable; URLs are kept in the store and
                   fetched at most daily, the last good copy kept)
  --published      fetch the lists the crawler's operator publishes (the
                   table of robotstxt's verify package), as --ip-ranges
  --dns=false      no reverse DNS: only address lists verify
  --resolver ADDR  the DNS server (host:port), default the system's
  --store STORE    where fetched lists and DNS answers are kept (as audit)

  --request FILE   a raw HTTP/1.1 request, its request line and header
                   fields ("-" for standard input), carrying
                   Signature-Agent, Signature-Input and Signature. Says
                   verified, spoofed or unverified, and why (docs/verify.md)
  --keys FILE      with --request: the agent's keys, a JWK Set file (or one
                   JWK), instead of fetching the directory Signature-Agent
                   names (no redirect is followed; bounded in bytes, keys
                   and time)
  --at TIME        with --request: check as of TIME (RFC 3339, or seconds
                   since 1970), not now: a logged request
  --skew DURATION  clock skew allowed on created and expires (default 1m)
  --allow-test-keys
                   accept RFC 9421's published test keys (refused by
                   default: anyone can sign with them)
  --scheme S       the request's scheme, for @target-uri (default https)
  --directory URL  lint a key directory: an origin (its well-known
                   directory) or a URL. Checks the status, no redirect, the
                   media type, the keys array and its size, each key's kid
                   is its thumbprint, algorithms, private members, test
                   keys, the directory's own signature, caching headers
  --timeout DURATION
                   bound on each fetch (default 5s)
  --json           JSON: for IP USER-AGENT and --request the evidence
                   record ({"outcome", "method", "crawler", "ip", "lists",
                   "names", "agent", "keyid", "reason", "checked", ...});
                   for --directory {"outcome": "clean" or "findings",
                   "method": "directory-lint", "findings": [...], ...}

Exit status:
  0  the address or request is verified; the directory has no error
     finding
  1  spoofed or unverified (a User-Agent that names no known crawler is
     unverified); the directory has errors
  2  could not run: bad usage, a file that cannot be read or parsed, a
     directory that cannot be fetched at all

Examples:
  robotstxt verify 66.249.66.1 'Mozilla/5.0 (compatible; Googlebot/2.1)'
  robotstxt verify 20.171.206.5 GPTBot/1.1 --published --dns=false --json
  robotstxt verify --request req.txt
  robotstxt verify --request req.txt --keys jwks.json --at 2026-11-01T12:00:00Z
  robotstxt verify --directory https://bot.example --json
`

// verifyClient returns the HTTP client verify fetches with: the CLI, as
// check -u does, may reach loopback and private addresses (a test
// server). A test replaces it.
var verifyClient = func() *http.Client { return &http.Client{} }

// verifyLint is what "verify --directory --json" writes.
type verifyLint struct {
	Outcome string `json:"outcome"`
	Method  string `json:"method"`
	*webbotauth.LintReport
}

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("verify")
	request := fs.String("request", "", "raw HTTP request file")
	keys := fs.String("keys", "", "JWK Set file")
	directory := fs.String("directory", "", "key directory to lint")
	at := fs.String("at", "", "check as of this time")
	skew := fs.Duration("skew", webbotauth.DefaultSkew, "clock skew")
	allowTest := fs.Bool("allow-test-keys", false, "accept RFC 9421 test keys")
	scheme := fs.String("scheme", "https", "the request's scheme")
	timeout := fs.Duration("timeout", webbotauth.DefaultFetchTimeout, "fetch timeout")
	jsonOut := fs.Bool("json", false, "JSON output")
	var ranges stringList
	fs.Var(&ranges, "ip-ranges", "published address list")
	published := fs.Bool("published", false, "fetch the operator's lists")
	dnsOn := fs.Bool("dns", true, "reverse DNS")
	resolver := fs.String("resolver", "", "DNS server")
	storeSpec := fs.String("store", defaultStoreSpec, "store")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "verify", verifyHelp, args, err)
	}
	ipForm := len(ranges) > 0 || *published || !*dnsOn || *resolver != ""
	switch {
	case len(pos) > 0 && (*request != "" || *directory != ""):
		complain(stderr, "verify", "unexpected argument %q: IP USER-AGENT, --request and --directory are separate forms (robotstxt verify -h)", pos[0])
		return 2
	case len(pos) == 2:
		return verifyAddress(pos[0], pos[1], verifyIPFlags{ranges, *published, *dnsOn, *resolver, *storeSpec, *jsonOut}, stdout, stderr)
	case len(pos) > 0 || ipForm:
		complain(stderr, "verify", "give an address and the User-Agent it sent (robotstxt verify IP USER-AGENT), --request FILE or --directory URL (robotstxt verify -h)")
		return 2
	case (*request == "") == (*directory == ""):
		complain(stderr, "verify", "give one of --request FILE or --directory URL (robotstxt verify -h)")
		return 2
	case *directory != "" && (*keys != "" || *at != ""):
		complain(stderr, "verify", "--keys and --at go with --request, not --directory")
		return 2
	case *timeout <= 0 || *skew < 0:
		complain(stderr, "verify", "--timeout must be positive and --skew not negative")
		return 2
	}
	dirs := webbotauth.NewDirectories(webbotauth.DirectoryOptions{
		Client:    verifyClient(),
		Timeout:   *timeout,
		AllowHTTP: *directory != "",
		UserAgent: fetch.DefaultUserAgent,
	})
	ctx := context.Background()
	if *directory != "" {
		return lintDirectory(ctx, dirs, *directory, *jsonOut, stdout, stderr)
	}

	now := time.Now()
	if *at != "" {
		t, err := parseAt(*at)
		if err != nil {
			complain(stderr, "verify", "--at %q: %v", *at, err)
			return 2
		}
		now = t
	}
	raw, err := readRequestFile(*request, stdin)
	if err != nil {
		complain(stderr, "verify", "%v", err)
		return 2
	}
	req, err := webbotauth.ReadRequest(raw)
	if err != nil {
		complain(stderr, "verify", "%s: %v", *request, err)
		return 2
	}
	o := webbotauth.Options{
		Directories:   dirs,
		Skew:          max(*skew, time.Nanosecond),
		AllowTestKeys: *allowTest,
		Scheme:        *scheme,
		Now:           func() time.Time { return now },
	}
	if *keys != "" {
		ks, err := readKeys(*keys)
		if err != nil {
			complain(stderr, "verify", "--keys %s: %v", *keys, err)
			return 2
		}
		o.Keys = ks
	}
	res := webbotauth.New(o).Verify(ctx, req)
	if *jsonOut {
		if err := writeJSON(stdout, verify.FromSignature(res)); err != nil {
			complain(stderr, "verify", "%v", err)
			return 2
		}
	} else {
		writeVerifyText(stdout, res)
	}
	if res.Outcome == webbotauth.Verified {
		return 0
	}
	return 1
}

// parseAt reads --at: RFC 3339, or seconds since 1970.
func parseAt(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not RFC 3339 (2026-11-01T12:00:00Z) nor seconds since 1970")
	}
	return t, nil
}

// readRequestFile reads a file of at most MaxRequestBytes, "-" for stdin.
func readRequestFile(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, webbotauth.MaxRequestBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return b, nil
}

// readKeys reads a JWK Set file, or a file of one JWK.
func readKeys(name string) (*webbotauth.KeySet, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	ks, err := webbotauth.ParseKeySet(b, 0)
	if err == webbotauth.ErrNotKeySet {
		var j webbotauth.JWK
		if json.Unmarshal(b, &j) == nil && j.Kty != "" {
			k, err := webbotauth.ParseJWK(j)
			if err != nil {
				return nil, err
			}
			return webbotauth.NewKeySet(k), nil
		}
	}
	return ks, err
}

func writeVerifyText(w io.Writer, r webbotauth.Result) {
	var b strings.Builder
	b.WriteString(r.Outcome.String() + "\n")
	b.WriteString(wrapIndent(esc(r.Reason), termWidth, "  reason    ", strings.Repeat(" ", 12)))
	row := func(k, v string) {
		if v != "" {
			b.WriteString(wrapIndent(esc(v), termWidth, fmt.Sprintf("  %-9s ", k), strings.Repeat(" ", 12)))
		}
	}
	row("method", r.Method)
	row("agent", r.Agent)
	row("type", r.AgentType)
	row("keyid", r.KeyID)
	row("alg", r.Alg)
	if !r.Created.IsZero() {
		row("created", r.Created.Format(time.RFC3339))
	}
	if !r.Expires.IsZero() {
		row("expires", r.Expires.Format(time.RFC3339))
	}
	row("nonce", r.Nonce)
	if d := r.Directory; d != nil && !d.Fetched.IsZero() {
		s := "fetched " + d.Fetched.UTC().Format(time.RFC3339)
		if d.Stale {
			s += " (stale: the directory failed since)"
		}
		if d.SelfSignature != "" {
			s += "; own signature " + d.SelfSignature
		}
		row("directory", s)
	}
	io.WriteString(w, b.String())
}

func lintDirectory(ctx context.Context, dirs *webbotauth.Directories, target string, jsonOut bool, stdout, stderr io.Writer) int {
	rep, err := dirs.Lint(ctx, target)
	if err != nil {
		complain(stderr, "verify", "--directory %s: %v", target, err)
		return 2
	}
	outcome := "clean"
	if rep.Errors() > 0 {
		outcome = "findings"
	}
	if jsonOut {
		if err := writeJSON(stdout, verifyLint{outcome, "directory-lint", rep}); err != nil {
			complain(stderr, "verify", "%v", err)
			return 2
		}
	} else {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: HTTP %d, %s, %d keys\n", esc(rep.URL), rep.Status, esc(rep.ContentType), len(rep.Keys))
		for _, k := range rep.Keys {
			b.WriteString(wrapIndent(esc(fmt.Sprintf("%s %s kid %q", k.Thumbprint, strings.Join(k.Algs, ","), k.Kid)), termWidth, "  key ", "      "))
		}
		for _, f := range rep.Findings {
			b.WriteString(wrapIndent(esc(f.Message+" ["+f.Code+"]"), termWidth, fmt.Sprintf("  %-8s", f.Severity+":"), strings.Repeat(" ", 10)))
		}
		if len(rep.Findings) == 0 {
			b.WriteString("  no findings\n")
		}
		io.WriteString(stdout, b.String())
	}
	if outcome == "clean" {
		return 0
	}
	return 1
}
