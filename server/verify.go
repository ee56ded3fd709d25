package server

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/verify"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// VerifyRequest is the body of POST /v1/verify: an address and the
// User-Agent it sent, a raw request (its request line and header fields,
// carrying Web Bot Auth's Signature-Agent, Signature-Input and
// Signature), or both.
type VerifyRequest struct {
	// IP is the client's address.
	IP string `json:"ip,omitempty"`
	// UserAgent names the crawler claimed; "" takes the request's
	// User-Agent.
	UserAgent string `json:"user_agent,omitempty"`
	// Request is a raw HTTP/1.1 request, at most 64 KiB (a body, if any,
	// is ignored). Its signature is checked as if it came over https.
	Request string `json:"request,omitempty"`
}

// verifyWait bounds how long POST /v1/verify waits for what decides (a
// reverse DNS lookup, a key directory): past it, the answer is
// unverified and pending, and a later question gets the answer.
const verifyWait = 3 * time.Second

// VerifyPerClient is how many POST /v1/verify questions one client (an
// address, an IPv6 /64) may have in flight. Each may wait verifyWait and
// leave a lookup going on behind it, and the lookups are shared by every
// client (the Identifier's queue): this keeps one client's share of them
// small. Past it the client gets 429 with Retry-After.
const VerifyPerClient = 4

// clientGate counts the requests each client has in flight.
type clientGate struct {
	mu sync.Mutex
	n  map[string]int
}

// enter takes one of client's max places, false when it holds them all.
func (g *clientGate) enter(client string, max int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n[client] >= max {
		return false
	}
	if g.n == nil {
		g.n = map[string]int{}
	}
	g.n[client]++
	return true
}

// leave gives client's place back.
func (g *clientGate) leave(client string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n[client]--; g.n[client] <= 0 {
		delete(g.n, client)
	}
}

// catalogue finds the crawler a User-Agent names, as audit does.
var catalogue = sync.OnceValue(func() *audit.Catalogue { return audit.NewCatalogue(nil) })

// newIdentifier returns the server's Identifier: key directories and
// address lists fetched through the address guard (loopback, private and
// metadata addresses refused unless AllowPrivate), the lists and reverse
// DNS of Options.Identity (none without it: only signatures verify).
func (s *Server) newIdentifier() *verify.Identifier {
	client := &http.Client{Transport: s.outbound, Timeout: verify.DefaultListTimeout}
	ua := s.opts.UserAgent
	if ua == "" {
		ua = fetch.DefaultUserAgent
	}
	// The store keeps each directory's copy for the fleet, and its leases
	// (bbolt, Redis) make one process fetch a directory at a time.
	dirs := webbotauth.NewDirectories(webbotauth.DirectoryOptions{Client: client, Now: s.opts.Now, UserAgent: ua, Store: s.store})
	o := verify.IdentifierOptions{
		Client:     client,
		Signatures: webbotauth.New(webbotauth.Options{Directories: dirs, Scheme: "https", Now: s.opts.Now}),
		Now:        s.opts.Now,
	}
	id := s.identity
	if id == nil {
		o.Verifier = verify.New(&verify.Options{NoDNS: true})
		return verify.NewIdentifier(o)
	}
	o.Verifier = verify.New(&verify.Options{NoDNS: id.o.NoDNS, Resolver: id.o.Resolver, Timeout: id.o.Timeout})
	o.Verifier.ShareRanges(id.files)
	for _, l := range id.o.Lists {
		if isURL(l.Source) {
			o.Lists = append(o.Lists, verify.IdentifierList{URL: l.Source, Crawlers: l.Crawlers})
		}
	}
	o.Fetcher = id.fetcher // one copy of each list for the audit and this
	o.Warn = func(url, msg string) { id.warn(url, "an address list", msg) }
	return verify.NewIdentifier(o)
}

// Identifier returns the server's identity checker (the one POST
// /v1/verify asks): a program that embeds the server may put it in front
// of its own pages, with its SSRF guard and its lists.
func (s *Server) Identifier() *verify.Identifier { return s.identifier }

// handleVerify answers POST /v1/verify with the evidence record of the
// claim: a signature first, then the address lists, then reverse DNS.
func (s *Server) handleVerify(w http.ResponseWriter, r *http.Request) error {
	var req VerifyRequest
	if e := decodeFrom(http.MaxBytesReader(w, r.Body, MaxBodyBytes), &req); e != nil {
		return e
	}
	var ip netip.Addr
	if req.IP != "" {
		a, err := netip.ParseAddr(strings.TrimSpace(req.IP))
		if err != nil {
			return badField("ip", "want an IPv4 or IPv6 address, got %q", req.IP)
		}
		ip = a
	}
	var sreq *http.Request
	if req.Request != "" {
		if len(req.Request) > webbotauth.MaxRequestBytes {
			return badField("request", "%d bytes, over the limit of %d", len(req.Request), webbotauth.MaxRequestBytes)
		}
		q, err := webbotauth.ReadRequest([]byte(req.Request))
		if err != nil {
			return badField("request", "%s", strings.TrimPrefix(err.Error(), "webbotauth: "))
		}
		sreq = q
	}
	if !ip.IsValid() && sreq == nil {
		return badField("ip", "give ip (with user_agent), request (a raw signed request), or both")
	}
	ua := req.UserAgent
	if ua == "" && sreq != nil {
		ua = sreq.Header.Get("User-Agent")
	}
	var c *robotstxt.Crawler
	if i := catalogue().Identify(ua); i >= 0 {
		cr := *catalogue().Crawler(i)
		c = &cr
	}
	client := s.clientKeyOf(r)
	if !s.verifying.enter(client, VerifyPerClient) {
		return &Error{Status: http.StatusTooManyRequests, Retry: int(verifyWait / time.Second), Message: fmt.Sprintf(
			"this client has %d questions to /v1/verify in flight already (at most %d at once); retry later", VerifyPerClient, VerifyPerClient)}
	}
	defer s.verifying.leave(client)
	ev := s.identifier.IdentifyWithin(r.Context(), sreq, ip, c, verifyWait)
	writeJSON(w, http.StatusOK, ev)
	return nil
}
