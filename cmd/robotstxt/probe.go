package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/tester"
)

const probeHelp = `Usage: robotstxt probe [-c CRAWLER]... [--behaviour B]... [--origin-file FILE]
                       [--concurrency 4] [--timeout 10s] [--site-timeout 60s]
                       [--max-time 5m] [--json] URL...

Are the rules readable? Fetches the robots.txt of each URL's site as every
crawler of the catalogue would (its product token in a User-Agent of the
form crawlers send, its dialect's fetch policy: the redirects, size limit
and statuses robotstxt fetch applies) and reports where the answers
differ: a challenge page (Cloudflare, Anubis, DataDome, ...) or an HTML
page where text is expected, a 403 or 429 for some crawlers and not
others, a group present in the file some crawlers get and not in the
others' (a CDN-injected group), a body that is not the origin's own.

  URL              any URL of the site; "example.com" means https://...
  -c CRAWLER       ask as these crawlers only (repeatable, or separated by
                   commas; default: every crawler of the catalogue but the
                   control tokens, which fetch nothing)
  --behaviour B    ask as the crawlers of these behaviour classes only
                   (robotstxt crawlers --behaviour lists them)
  --origin-file FILE
                   the robots.txt the site's owner serves: every file a
                   crawler gets is compared with it
  --concurrency N  requests at once to a site (default 4, at most 32)
  --timeout D      time allowed for one crawler's fetch, redirects
                   included (default 10s)
  --site-timeout D
                   time allowed for one site (default 60s): crawlers not
                   asked by then are reported as not asked
  --max-time D     time allowed for every site together (default 5m)
  --json           JSON: {"sites": [{"url", "answers", "findings",
                   "fetches", ...}]}

Each distinct answer is shown once, with the crawlers that got it; the
findings say what differs and for whom. A site that answers every crawler
with a challenge or a refusal is a finding too: no crawler can read its
rules.

Exit status:
  0  every crawler got the same answer, and nothing keeps them from the
     rules: a file of rules, or none at all (404: everything allowed)
  1  findings: answers differ, or the rules are not readable
  2  could not run: bad usage, an origin file that cannot be read, a site
     that gave no crawler any answer, or crawlers not asked in time

Examples:
  robotstxt probe example.com
  robotstxt probe --behaviour training,agent https://example.com/
  robotstxt probe -c GPTBot,Googlebot --origin-file robots.txt example.com
  robotstxt probe --json example.com | jq '.sites[].findings'
`

// Probe's bounds.
const (
	probeDefaultConcurrency = 4
	probeMaxConcurrency     = 32
	probeDefaultTimeout     = 10 * time.Second
	probeDefaultSiteTimeout = 60 * time.Second
	probeDefaultMaxTime     = 5 * time.Minute
	// probePeek is how much of a body that is not a robots.txt (an
	// error page) is read, to find a challenge's markers.
	probePeek = 32 << 10
	// probeMaxBodies is how many distinct files of a site are kept for
	// their groups and the comparison with --origin-file: a site that
	// serves every crawler another body costs no more than this many
	// times 500 KiB.
	probeMaxBodies = 16
	// probeNames is how many crawler names the text report lists for one
	// answer or finding; the JSON lists them all.
	probeNames = 10
)

// probeOptions are the settings of one probe run.
type probeOptions struct {
	crawlers    []robotstxt.Crawler
	concurrency int
	timeout     time.Duration
	siteTimeout time.Duration
	origin      []byte // the owner's file; nil: none to compare with
	originName  string
	// transport makes the requests; nil: one like the fetch package's.
	transport http.RoundTripper
}

// probeReport is what --json writes.
type probeReport struct {
	Sites []probeSite `json:"sites"`
}

// probeSite is the probe of one site.
type probeSite struct {
	URL string `json:"url"` // the robots.txt asked for
	// Asked is how many crawlers were asked; NotAsked how many the site's
	// time ran out before.
	Asked    int `json:"asked"`
	NotAsked int `json:"not_asked"`
	// Agree is set when every crawler got the same answer and it is a
	// file of rules: no finding.
	Agree    bool           `json:"agree"`
	Answers  []probeAnswer  `json:"answers"`
	Findings []probeFinding `json:"findings"`
	// OriginFile is the --origin-file compared with, and the answers that
	// are that file.
	OriginFile *probeOrigin `json:"origin_file,omitempty"`
	Fetches    []probeFetch `json:"fetches"`
	// Error is why the site could not be probed ("" when it was).
	Error string `json:"error,omitempty"`

	bodies *probeBodies
}

// probeOrigin is the owner's file and which answers match it.
type probeOrigin struct {
	File    string   `json:"file"`
	SHA256  string   `json:"sha256"`
	Matches []string `json:"matches"` // answer ids
}

// probeAnswer is one distinct answer and the crawlers that got it.
type probeAnswer struct {
	ID   string `json:"id"` // "A", "B", ... most crawlers first
	Kind string `json:"kind"`
	// What: the answer in a few words ("200 OK, rules, 1234 bytes").
	What   string `json:"what"`
	Status int    `json:"status"`
	SHA256 string `json:"sha256,omitempty"`
	Bytes  int    `json:"bytes"`
	// Challenge is the product whose challenge page it is.
	Challenge string   `json:"challenge,omitempty"`
	Groups    []string `json:"groups,omitempty"`
	Crawlers  []string `json:"crawlers"`

	key  string
	kept bool // its body was kept: Groups are its groups
}

// The kinds of answers.
const (
	kindRules     = "rules"     // a file of rules, served as text
	kindHTML      = "html"      // a 2xx HTML page that is no known challenge
	kindChallenge = "challenge" // a challenge or bot-wall page
	kindStatus    = "status"    // any other status: 4xx, 5xx, redirects that lead nowhere
	kindNoAnswer  = "no-answer" // the fetch got no answer (timeout, refused connection)
	kindNotAsked  = "not-asked" // the site's time ran out first
	kindAllowAll  = "allow-all" // a 2xx the dialect reads as no rules (Yandex's non-200, oversized)
)

// probeFinding is one difference, or one reason the rules cannot be read.
type probeFinding struct {
	// Kind: challenge, html, refused, rate-limited, server-error,
	// no-answer, not-asked, status, body-differs, injected-group,
	// missing-group, not-origin.
	Kind     string   `json:"kind"`
	Crawlers []string `json:"crawlers"`
	Detail   string   `json:"detail"`
}

// probeFetch is one crawler's fetch.
type probeFetch struct {
	Crawler     string `json:"crawler"`
	UserAgent   string `json:"user_agent"`
	Dialect     string `json:"dialect"`
	Answer      string `json:"answer"` // its answer's id
	Status      int    `json:"status"`
	Policy      string `json:"policy"`
	Reason      string `json:"reason"`
	ContentType string `json:"content_type,omitempty"`
	Bytes       int    `json:"bytes"`
	SHA256      string `json:"sha256,omitempty"`
	Challenge   string `json:"challenge,omitempty"`
	Redirects   int    `json:"redirects"`
	Error       string `json:"error,omitempty"`
	Millis      int64  `json:"ms"`

	kind string
}

// probeBodies are the distinct files of rules a site served, by SHA-256,
// at most probeMaxBodies of them.
type probeBodies struct {
	mu sync.Mutex
	m  map[string][]byte
}

// keep keeps body under sum unless probeMaxBodies others are kept.
func (b *probeBodies) keep(sum string, body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.m[sum]; !ok && len(b.m) < probeMaxBodies {
		b.m[sum] = body
	}
}

// get returns the body kept under sum, nil when none was.
func (b *probeBodies) get(sum string) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m[sum]
}

func runProbe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("probe")
	var crawlerFlags, behaviours stringList
	fs.Var(&crawlerFlags, "c", "crawlers")
	fs.Var(&behaviours, "behaviour", "behaviour classes")
	fs.Var(&behaviours, "behavior", "behaviour classes")
	originFile := fs.String("origin-file", "", "the owner's robots.txt")
	concurrency := fs.Int("concurrency", probeDefaultConcurrency, "requests at once to a site")
	timeout := fs.Duration("timeout", probeDefaultTimeout, "time for one fetch")
	siteTimeout := fs.Duration("site-timeout", probeDefaultSiteTimeout, "time for one site")
	maxTime := fs.Duration("max-time", probeDefaultMaxTime, "time for every site")
	jsonOut := fs.Bool("json", false, "JSON output")
	urls, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "probe", probeHelp, args, err)
	}
	if len(urls) == 0 {
		complain(stderr, "probe", "give a URL (robotstxt probe -h for help)")
		return 2
	}
	switch {
	case *concurrency < 1 || *concurrency > probeMaxConcurrency:
		complain(stderr, "probe", "--concurrency must be 1 to %d", probeMaxConcurrency)
		return 2
	case *timeout <= 0 || *siteTimeout <= 0 || *maxTime <= 0:
		complain(stderr, "probe", "--timeout, --site-timeout and --max-time must be positive")
		return 2
	}
	o := probeOptions{concurrency: *concurrency, timeout: *timeout, siteTimeout: *siteTimeout, transport: probeTransport}
	o.crawlers, err = probeCrawlers(crawlerFlags, behaviours)
	if err != nil {
		complain(stderr, "probe", "%v", err)
		return 2
	}
	if *originFile != "" {
		body, err := os.ReadFile(*originFile)
		if err != nil {
			complain(stderr, "probe", "--origin-file: %v", err)
			return 2
		}
		o.origin, o.originName = body, *originFile
	}
	for i, u := range urls {
		if tester.NeedsScheme(u) {
			u = "https://" + u
		}
		origin, err := fetch.OriginOf(u)
		if err != nil || (origin.Scheme != "http" && origin.Scheme != "https") {
			if err == nil {
				err = fmt.Errorf("%s: not an http or https URL", u)
			}
			complain(stderr, "probe", "%v", err)
			return 2
		}
		urls[i] = origin.RobotsURL()
	}

	ctx, cancel := context.WithTimeout(context.Background(), *maxTime)
	defer cancel()
	var rep probeReport
	for _, u := range urls {
		rep.Sites = append(rep.Sites, probeOne(ctx, u, &o))
	}
	status := 0
	for _, s := range rep.Sites {
		switch {
		case s.Error != "" || s.NotAsked > 0:
			status = 2
		case len(s.Findings) > 0 && status == 0:
			status = 1
		}
	}
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			complain(stderr, "probe", "%v", err)
			return 2
		}
	} else {
		writeProbeReport(stdout, &rep)
	}
	for _, s := range rep.Sites {
		if s.Error != "" {
			complain(stderr, "probe", "%s: %s", s.URL, s.Error)
		}
	}
	return status
}

// probeCrawlers are the crawlers the flags name: -c's, else every crawler
// that fetches (not the control tokens); then those in a class of
// --behaviour.
func probeCrawlers(names, behaviours []string) ([]robotstxt.Crawler, error) {
	var list []robotstxt.Crawler
	seen := map[string]bool{}
	for _, v := range names {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			c, ok := robotstxt.LookupCrawler(n)
			if !ok {
				did := ""
				if near := nearCrawler(n); near != "" {
					did = "; did you mean -c " + near + "?"
				}
				return nil, fmt.Errorf("-c: unknown crawler %q%s (robotstxt crawlers lists them)", n, did)
			}
			if c.Control {
				return nil, fmt.Errorf("-c: %s is a control token: it fetches nothing", c.Name)
			}
			if !seen[c.Name] {
				seen[c.Name] = true
				list = append(list, c)
			}
		}
	}
	if len(names) > 0 && len(list) == 0 {
		return nil, errors.New("-c needs a crawler")
	}
	if len(list) == 0 {
		for _, c := range robotstxt.Crawlers() {
			if !c.Control {
				list = append(list, c)
			}
		}
	}
	var want robotstxt.Behaviour
	for _, v := range behaviours {
		b, err := robotstxt.ParseBehaviour(v)
		if err != nil {
			return nil, fmt.Errorf("--behaviour: %s%s", strings.TrimPrefix(err.Error(), "robotstxt: "), nearBehaviours(v))
		}
		if b == 0 {
			return nil, fmt.Errorf("--behaviour needs a class: %s", strings.Join(behaviourNames(), ", "))
		}
		want |= b
	}
	if want != 0 {
		list = slices.DeleteFunc(list, func(c robotstxt.Crawler) bool { return !c.Behaviours.Any(want) })
		if len(list) == 0 {
			return nil, fmt.Errorf("no crawler asked is in %s", strings.Join(want.Names(), " or "))
		}
	}
	return list, nil
}

// probeUserAgent is the User-Agent header probe sends as c: its product
// token, with a version, in the form most crawlers send, and the
// operator's page when there is one. A CDN that tells crawlers apart
// by their token (every one known does) sees c.
func probeUserAgent(c *robotstxt.Crawler) string {
	ua := "Mozilla/5.0 (compatible; " + c.Token + "/1.0"
	if c.Docs != "" {
		ua += "; +" + c.Docs
	}
	return ua + ")"
}

// probeTransport makes probe's requests: a transport as the fetch
// package's own (bodies left compressed for the fetcher to decode under
// its limit, bounded headers). A test replaces it.
var probeTransport http.RoundTripper = func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DisableCompression = true
	t.MaxResponseHeaderBytes = 64 << 10
	t.HTTP2 = &http.HTTP2Config{MaxReceiveBufferPerStream: 64 << 10}
	return t
}()

// probeRecord is what the recording transport keeps of a fetch's last
// answer: its header, and the start of its body when the fetcher will
// not read it (a status that is not 2xx).
type probeRecord struct {
	mu     sync.Mutex
	header http.Header
	peek   []byte
}

type probeRecordKey struct{}

// recordingTransport keeps, for a fetch whose context carries a
// *probeRecord, its last answer's header and the start of a non-2xx body
// (decoded when gzip): what tells a challenge page. The fetcher sees the
// body whole.
type recordingTransport struct{ base http.RoundTripper }

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	rec, _ := req.Context().Value(probeRecordKey{}).(*probeRecord)
	if err != nil || rec == nil {
		return resp, err
	}
	var peek []byte
	if resp.StatusCode < 200 || resp.StatusCode >= 400 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, probePeek))
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(raw), resp.Body), resp.Body}
		peek = raw
		if strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip") {
			peek = nil
			if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
				peek, _ = io.ReadAll(io.LimitReader(zr, probePeek))
			}
		}
	}
	rec.mu.Lock()
	rec.header, rec.peek = resp.Header.Clone(), peek
	rec.mu.Unlock()
	return resp, nil
}

// probeOne asks the site of robots URL u as every crawler of o, at most
// o.concurrency at once, within o.siteTimeout, and reads the answers.
func probeOne(ctx context.Context, u string, o *probeOptions) probeSite {
	site := probeSite{URL: u, Answers: []probeAnswer{}, Findings: []probeFinding{}, bodies: &probeBodies{m: map[string][]byte{}}}
	origin, _ := fetch.OriginOf(u)
	ctx, cancel := context.WithTimeout(ctx, o.siteTimeout)
	defer cancel()
	rt := recordingTransport{base: o.transport}
	fetchers := map[robotstxt.Dialect]*fetch.Fetcher{}
	for _, c := range o.crawlers {
		if fetchers[c.Dialect] == nil {
			fetchers[c.Dialect] = &fetch.Fetcher{Transport: rt, Dialect: c.Dialect, Timeout: o.timeout}
		}
	}
	site.Fetches = make([]probeFetch, len(o.crawlers))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(o.concurrency, len(o.crawlers)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				site.Fetches[i] = probeFetchAs(ctx, fetchers[o.crawlers[i].Dialect], origin, &o.crawlers[i], site.bodies)
			}
		}()
	}
	for i := range o.crawlers {
		c := &o.crawlers[i]
		if ctx.Err() != nil {
			site.Fetches[i] = probeFetch{Crawler: c.Name, UserAgent: probeUserAgent(c), Dialect: c.Dialect.String(), kind: kindNotAsked,
				Error: "not asked: the site's time (" + o.siteTimeout.String() + ") or the run's ran out"}
			continue
		}
		select {
		case work <- i:
		case <-ctx.Done():
			site.Fetches[i] = probeFetch{Crawler: c.Name, UserAgent: probeUserAgent(c), Dialect: c.Dialect.String(), kind: kindNotAsked,
				Error: "not asked: the site's time (" + o.siteTimeout.String() + ") or the run's ran out"}
		}
	}
	close(work)
	wg.Wait()
	analyseProbe(&site, o)
	return site
}

// probeFetchAs fetches the robots.txt of origin as crawler c and says
// what the answer is; a file of rules goes to bodies.
func probeFetchAs(ctx context.Context, f *fetch.Fetcher, origin fetch.Origin, c *robotstxt.Crawler, bodies *probeBodies) probeFetch {
	pf := probeFetch{Crawler: c.Name, UserAgent: probeUserAgent(c), Dialect: c.Dialect.String()}
	rec := &probeRecord{}
	ctx = context.WithValue(fetch.WithUserAgent(ctx, pf.UserAgent), probeRecordKey{}, rec)
	start := time.Now()
	res, err := f.Fetch(ctx, origin, fetch.Validators{})
	pf.Millis = time.Since(start).Milliseconds()
	pf.Status, pf.Policy, pf.Reason = res.Status, res.Policy.String(), res.Reason
	for _, t := range res.Trace {
		if t.Location != "" {
			pf.Redirects++
		}
	}
	if n := len(res.Trace); n > 0 {
		pf.ContentType = res.Trace[n-1].ContentType
	}
	rec.mu.Lock()
	header, peek := rec.header, rec.peek
	rec.mu.Unlock()
	if err != nil && res.Status == 0 {
		pf.kind, pf.Error = kindNoAnswer, err.Error()
		return pf
	}
	body := res.Body
	if body == nil {
		body = peek
	}
	if header == nil {
		header = http.Header{}
	}
	if pf.Challenge = challengeOf(header, body); pf.Challenge != "" {
		pf.kind, pf.Bytes = kindChallenge, len(body)
		return pf
	}
	switch {
	case res.Status >= 200 && res.Status < 300 && res.Policy == fetch.Rules:
		pf.Bytes = len(res.Body)
		sum := sha256.Sum256(res.Body)
		pf.SHA256 = hex.EncodeToString(sum[:])
		bodies.keep(pf.SHA256, res.Body)
		pf.kind = kindRules
		if looksLikeHTML(pf.ContentType, res.Body) {
			pf.kind = kindHTML
		}
	case res.Status >= 200 && res.Status < 300:
		pf.kind = kindAllowAll
	default:
		pf.kind = kindStatus
	}
	if err != nil {
		pf.Error = err.Error()
	}
	return pf
}

// writeProbeReport writes the report for people, in 80 columns.
func writeProbeReport(w io.Writer, rep *probeReport) {
	var b strings.Builder
	for i, s := range rep.Sites {
		if i > 0 {
			b.WriteByte('\n')
		}
		head := fmt.Sprintf("%s: %d %s asked, %d %s", s.URL, s.Asked, plural(s.Asked, "crawler"), len(s.Answers), plural(len(s.Answers), "answer"))
		if s.NotAsked > 0 {
			head += fmt.Sprintf(", %d not asked in time", s.NotAsked)
		}
		b.WriteString(wrapIndent(esc(head), termWidth, "", "  "))
		for _, a := range s.Answers {
			line := fmt.Sprintf("answer %s (%d): %s", a.ID, len(a.Crawlers), a.What)
			b.WriteString(wrapIndent(esc(line), termWidth, "", "    "))
			b.WriteString(wrapIndent(esc(nameList(a.Crawlers)), termWidth, "    ", "    "))
		}
		if s.OriginFile != nil {
			m := "none"
			if len(s.OriginFile.Matches) > 0 {
				m = "answer " + strings.Join(s.OriginFile.Matches, ", ")
			}
			b.WriteString(wrapIndent(esc(fmt.Sprintf("origin file %s (sha256:%s): %s", s.OriginFile.File, s.OriginFile.SHA256[:12], m)), termWidth, "", "    "))
		}
		switch {
		case s.Error != "":
			b.WriteString(wrapIndent(esc("could not probe: "+s.Error), termWidth, "", "    "))
		case len(s.Findings) == 0 && len(s.Answers) == 1 && s.Answers[0].Kind != kindRules:
			b.WriteString(wrapIndent(esc("Every crawler got the same answer: "+s.Answers[0].What+"."), termWidth, "", "  "))
		case len(s.Findings) == 0:
			b.WriteString("Every crawler got the same file of rules.\n")
		default:
			fmt.Fprintf(&b, "\n%d %s:\n", len(s.Findings), plural(len(s.Findings), "finding"))
			for _, f := range s.Findings {
				b.WriteString(wrapIndent(esc(f.Kind+": "+f.Detail), termWidth, "  ", "    "))
				b.WriteString(wrapIndent(esc("for "+nameList(f.Crawlers)), termWidth, "    ", "    "))
			}
		}
	}
	io.WriteString(w, b.String())
}

// nameList is names separated by commas, at most probeNames of them and
// then how many more.
func nameList(names []string) string {
	if len(names) <= probeNames {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:probeNames], ", ") + fmt.Sprintf(" and %d more", len(names)-probeNames)
}
