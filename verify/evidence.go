package verify

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// The methods an Evidence names.
const (
	MethodSignature = "web-bot-auth" // a Web Bot Auth signature
	MethodRanges    = "ip-ranges"    // a published address list
	MethodDNS       = "reverse-dns"  // forward-confirmed reverse DNS
	MethodNone      = "none"         // nothing decided (unverified)
)

// Evidence is the record of one identity decision, the same wherever one
// is made: the audit's reports (JSON and CSV), POST /v1/audit and
// robotstxt verify --json. Its JSON names are a contract.
type Evidence struct {
	// Crawler is the catalogue crawler claimed ("" when the claim is a
	// signature's agent alone); IP the address checked ("" for a
	// signature).
	Crawler string `json:"crawler,omitempty"`
	IP      string `json:"ip,omitempty"`
	// Outcome is "verified", "spoofed" or "unverified".
	Outcome string `json:"outcome"`
	// Method is what decided: MethodSignature, MethodRanges, MethodDNS,
	// or MethodNone.
	Method string `json:"method"`

	// A signature's evidence (Method MethodSignature): the agent it is
	// attributed to (a URL), the member's type, the key id, and the
	// signature's label, algorithm, times and nonce; the directory
	// fetch.
	Agent     string              `json:"agent,omitempty"`
	AgentType string              `json:"agent_type,omitempty"`
	KeyID     string              `json:"keyid,omitempty"`
	Label     string              `json:"label,omitempty"`
	Alg       string              `json:"alg,omitempty"`
	Created   time.Time           `json:"created,omitzero"`
	Expires   time.Time           `json:"expires,omitzero"`
	Nonce     string              `json:"nonce,omitempty"`
	Directory *webbotauth.DirInfo `json:"directory,omitempty"`

	// Lists are the address lists that decided (Method MethodRanges):
	// for a verified address the list that holds it, for a spoofed one
	// every list of the crawler.
	Lists []ListEvidence `json:"lists,omitempty"`
	// Names are the reverse DNS names of the address that the decision
	// read.
	Names []string `json:"names,omitempty"`

	// Pending is set on an unverified answer given while what decides
	// (a reverse DNS lookup, a key directory) was still being had: a
	// later request from the address may get a definite one
	// (Identifier).
	Pending bool `json:"pending,omitempty"`

	// Reason says why, in words; Checked is when the check was made.
	Reason  string    `json:"reason"`
	Checked time.Time `json:"checked"`
}

// ListEvidence is an address list: where it was read, and the
// creationTime it states.
type ListEvidence struct {
	URL          string `json:"url"`
	CreationTime string `json:"creation_time,omitempty"`
}

// FromSignature is the evidence of a Web Bot Auth check.
func FromSignature(r webbotauth.Result) Evidence {
	m := r.Method
	if m == "" {
		m = MethodSignature
	}
	return Evidence{
		Outcome: r.Outcome.String(), Method: m, Agent: r.Agent, AgentType: r.AgentType,
		KeyID: r.KeyID, Label: r.Label, Alg: r.Alg, Created: r.Created, Expires: r.Expires,
		Nonce: r.Nonce, Directory: r.Directory, Pending: r.Pending, Reason: r.Reason, Checked: r.Checked,
	}
}

// Evidence is the record of r, the result of checking ip as crawler c at
// checked: with the lists that decided, read from v.
func (v *Verifier) Evidence(c *robotstxt.Crawler, ip netip.Addr, r Result, checked time.Time) Evidence {
	e := Evidence{Outcome: r.Outcome.String(), Method: r.Method, Reason: r.Reason, Checked: checked}
	if c != nil {
		e.Crawler = c.Name
	}
	if ip.IsValid() {
		e.IP = ip.Unmap().String()
	}
	if e.Method == "" {
		e.Method = MethodNone
	}
	if r.Name != "" {
		e.Names = []string{r.Name}
	}
	if r.Method == MethodRanges && c != nil {
		v.mu.Lock()
		rs := v.ranges[strings.ToLower(c.Name)]
		v.mu.Unlock()
		e.Lists = listEvidence(rs, ip, r.Outcome)
	}
	return e
}

// listEvidence names the lists rs that decided on ip: for a verified
// address the first that holds it, for a spoofed one every list.
func listEvidence(rs []*Ranges, ip netip.Addr, o Outcome) []ListEvidence {
	var out []ListEvidence
	for _, l := range rs {
		if o == Verified && !l.Contains(ip) {
			continue
		}
		src := l.Source
		if src == "" {
			src = "(given)"
		}
		out = append(out, ListEvidence{URL: src, CreationTime: l.CreationTime})
		if o == Verified {
			break
		}
	}
	return out
}

// Decide checks ip as crawler c (Check) and returns the evidence,
// checked now.
func (v *Verifier) Decide(ctx context.Context, ip netip.Addr, c *robotstxt.Crawler) Evidence {
	r := v.Check(ctx, ip, c)
	return v.Evidence(c, ip, r, time.Now())
}

// ShareRanges adds every address list of from to v: a service keeps its
// lists in one Verifier and gives them to the Verifier of each request.
func (v *Verifier) ShareRanges(from *Verifier) {
	if from == nil || from == v {
		return
	}
	from.mu.Lock()
	cp := make(map[string][]*Ranges, len(from.ranges))
	for k, rs := range from.ranges {
		cp[k] = append([]*Ranges(nil), rs...)
	}
	from.mu.Unlock()
	v.mu.Lock()
	for k, rs := range cp {
		v.ranges[k] = append(v.ranges[k], rs...)
	}
	v.mu.Unlock()
}

// errDNSBudget is the error of a DNS exchange past the deadline.
var errDNSBudget = errors.New("verify: the DNS time budget is spent")

// SetDNSDeadline bounds all of v's DNS work by t: no DNS exchange starts
// after t, and those under way are cut at t (their addresses stay
// unverified, counted in Stats.Failures). Call it before v's first
// check. It makes v use Go's own resolver (with the system's servers
// when Options.Resolver is empty).
func (v *Verifier) SetDNSDeadline(t time.Time) {
	server := v.opts.Resolver
	if server != "" {
		if _, _, err := net.SplitHostPort(server); err != nil {
			server = net.JoinHostPort(strings.Trim(server, "[]"), "53")
		}
	}
	v.resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if !time.Now().Before(t) {
			return nil, errDNSBudget
		}
		if server != "" {
			addr = server
		}
		ctx, cancel := context.WithDeadline(ctx, t)
		defer cancel()
		var d net.Dialer
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		_ = conn.SetDeadline(t)
		// The resolver sets its own deadlines on the connection: each is
		// held to t.
		if u, ok := conn.(*net.UDPConn); ok {
			return budgetUDP{u, t}, nil
		}
		return budgetConn{conn, t}, nil
	}}
}

// budgetConn holds a connection's deadlines to end.
type budgetConn struct {
	net.Conn
	end time.Time
}

func capDeadline(d, end time.Time) time.Time {
	if d.IsZero() || d.After(end) {
		return end
	}
	return d
}

func (c budgetConn) SetDeadline(d time.Time) error { return c.Conn.SetDeadline(capDeadline(d, c.end)) }
func (c budgetConn) SetReadDeadline(d time.Time) error {
	return c.Conn.SetReadDeadline(capDeadline(d, c.end))
}
func (c budgetConn) SetWriteDeadline(d time.Time) error {
	return c.Conn.SetWriteDeadline(capDeadline(d, c.end))
}

// budgetUDP is budgetConn for UDP: it stays a net.PacketConn, which the
// resolver needs to frame its messages as datagrams.
type budgetUDP struct {
	*net.UDPConn
	end time.Time
}

func (c budgetUDP) SetDeadline(d time.Time) error {
	return c.UDPConn.SetDeadline(capDeadline(d, c.end))
}
func (c budgetUDP) SetReadDeadline(d time.Time) error {
	return c.UDPConn.SetReadDeadline(capDeadline(d, c.end))
}
func (c budgetUDP) SetWriteDeadline(d time.Time) error {
	return c.UDPConn.SetWriteDeadline(capDeadline(d, c.end))
}
