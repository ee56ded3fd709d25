package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// ErrRefusedAddress is wrapped by the error of a live fetch whose host
// resolves to an address the service does not connect to (see Guard).
var ErrRefusedAddress = errors.New("refused address")

// AddressError is a connection the guard refused: it names the address and
// its class ("loopback", "private", "cloud metadata", ...).
type AddressError struct {
	Addr  netip.Addr
	Class string
	// Via names the IPv4 address an IPv6 address carries when that is
	// what made it refused ("NAT64 of 10.0.0.1"); "" otherwise.
	Via string
}

func (e *AddressError) Error() string {
	return fmt.Sprintf("server: %v: %s", ErrRefusedAddress, e.Refusal())
}

// Refusal says why the guard refused, in words: it makes an AddressError a
// cache.Refusal, a fetch this side refused, of which the cache stores
// nothing (nor the history).
func (e *AddressError) Refusal() string {
	via := ""
	if e.Via != "" {
		via = " (" + e.Via + ")"
	}
	return fmt.Sprintf("%s is a %s address%s (start the server with --allow-private to fetch from it)", e.Addr, e.Class, via)
}

// Unwrap returns ErrRefusedAddress.
func (e *AddressError) Unwrap() error { return ErrRefusedAddress }

var (
	metadataV4 = netip.MustParseAddr("169.254.169.254")
	metadataV6 = netip.MustParseAddr("fd00:ec2::254")
	cgnat      = netip.MustParsePrefix("100.64.0.0/10")
	// Ranges the standard library's predicates miss.
	extraRefused = []struct {
		prefix netip.Prefix
		class  string
	}{
		{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},  // "this network"
		{netip.MustParsePrefix("192.0.0.0/24"), "private"},   // IETF protocol assignments
		{netip.MustParsePrefix("198.18.0.0/15"), "private"},  // benchmarking
		{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},   // and 255.255.255.255
		{netip.MustParsePrefix("64:ff9b:1::/48"), "private"}, // NAT64 for local use (RFC 8215): all of it
		{netip.MustParsePrefix("2001:db8::/32"), "reserved"}, // documentation
		{netip.MustParsePrefix("fec0::/10"), "site-local"},   // deprecated (RFC 3879), still routed by some networks
	}
	// IPv6 prefixes whose addresses carry an IPv4 address that a
	// translator or relay forwards to.
	nat64   = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the IPv4 address in the low 32 bits
	sixToV4 = netip.MustParsePrefix("2002::/16")    // RFC 3056: the IPv4 address in bits 16-48
	teredo  = netip.MustParsePrefix("2001::/32")    // RFC 4380: the server's IPv4 in bits 32-64, the client's in the low 32, inverted
)

// AddressClass returns the class of an address a live fetch must not
// reach ("loopback", "private", "link-local", "site-local", "cgnat",
// "multicast", "unspecified", "cloud metadata", "reserved"), or "" for a
// public one. IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as
// the IPv4 address they carry, and so are the IPv6 addresses that reach an
// IPv4 address through a translator or a tunnel: NAT64 (64:ff9b::/96; all
// of the local-use 64:ff9b:1::/48 is refused), 6to4 (2002::/16) and Teredo
// (2001::/32, whose server and client addresses are both judged).
func AddressClass(a netip.Addr) string {
	class, _ := addressClass(a)
	return class
}

// addressClass is AddressClass, and for an IPv6 address refused for the
// IPv4 address it carries, what carries which.
func addressClass(a netip.Addr) (class, via string) {
	a = a.Unmap()
	if class := directClass(a); class != "" {
		return class, ""
	}
	if !a.Is6() {
		return "", ""
	}
	a = a.WithZone("")
	b := a.As16()
	v4 := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[i+1], b[i+2], b[i+3]}) }
	var carried []carriedAddr
	switch {
	case nat64.Contains(a):
		carried = []carriedAddr{{v4(12), "NAT64 of"}}
	case sixToV4.Contains(a):
		carried = []carriedAddr{{v4(2), "6to4 of"}}
	case teredo.Contains(a):
		client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		carried = []carriedAddr{{v4(4), "Teredo server"}, {client, "Teredo client"}}
	}
	for _, c := range carried {
		if class := directClass(c.addr); class != "" {
			return class, c.how + " " + c.addr.String()
		}
	}
	return "", ""
}

// carriedAddr is an IPv4 address an IPv6 address carries, and how.
type carriedAddr struct {
	addr netip.Addr
	how  string
}

// directClass is the class of a itself, not of an address it carries.
func directClass(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "invalid"
	case a == metadataV4 || a.WithZone("") == metadataV6:
		return "cloud metadata"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	case a.Is4() && cgnat.Contains(a):
		return "cgnat"
	}
	for _, r := range extraRefused {
		if r.prefix.Contains(a.WithZone("")) {
			return r.class
		}
	}
	if a.Is6() && a.As16()[0] == 0 && a.As16()[1] == 0 && !a.Is4In6() {
		// ::/16 (IPv4-compatible and other obsolete forms) holds nothing
		// public.
		return "reserved"
	}
	return ""
}

// Guard opens the connections of live fetches, refusing the addresses
// AddressClass names. The check is made on the address actually dialled,
// after resolution, in the dialer's Control hook: a name that resolves to a
// private address, a redirect to one, or a DNS answer that changes between
// two lookups (rebinding) are all refused.
type Guard struct {
	// AllowPrivate turns the check off (--allow-private).
	AllowPrivate bool
	// Resolver resolves host names; nil means net.DefaultResolver. Tests
	// map names to addresses here.
	Resolver interface {
		LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	}
	// Dialer dials; its Control is replaced by the guard's. The zero
	// value is used when nil.
	Dialer *net.Dialer

	// exempt are addresses treated as public: tests stand a "public"
	// site on loopback with it.
	exempt map[netip.AddrPort]bool
	// outbound, when set, bounds the new connections to each address.
	outbound *outbound
}

// DialContext resolves addr's host, drops the refused addresses and dials
// the others in turn; every address is checked again when the socket is
// connected. It has the signature of fetch.Fetcher.DialContext.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("server: dial %s: %w", addr, err)
	}
	ipNet := "ip"
	switch network {
	case "tcp4":
		ipNet = "ip4"
	case "tcp6":
		ipNet = "ip6"
	}
	addrs, err := g.lookup(ctx, ipNet, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{}
	if g.Dialer != nil {
		d = *g.Dialer
	}
	d.Control = g.control
	var firstErr error
	for _, a := range addrs {
		if !g.AllowPrivate && !g.exempt[netip.AddrPortFrom(a, portNum(port))] {
			if class, via := addressClass(a); class != "" {
				if firstErr == nil {
					firstErr = &AddressError{Addr: a.Unmap(), Class: class, Via: via}
				}
				continue
			}
		}
		if err := g.outbound.dialAllowed(ctx, a.Unmap()); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("server: no address for %s", host)
	}
	return nil, firstErr
}

// lookup returns host's addresses: host itself when it is an IP address,
// else what g.Resolver (net.DefaultResolver when nil) resolves it to on
// network "ip", "ip4" or "ip6".
func (g *Guard) lookup(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	var r interface {
		LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	} = net.DefaultResolver
	if g.Resolver != nil {
		r = g.Resolver
	}
	return r.LookupNetIP(ctx, network, host)
}

// control runs on the socket about to connect: the last word on the
// address, whatever resolved it.
func (g *Guard) control(network, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("server: dial %s: %w", address, err)
	}
	if class, via := addressClass(ap.Addr()); class != "" && !g.exempt[ap] {
		return &AddressError{Addr: ap.Addr().Unmap(), Class: class, Via: via}
	}
	return nil
}

// checkRedirect is the fetchers' CheckRedirect: a redirect to a host
// whose addresses the guard refuses, every one, is refused before it is
// requested, with an error that is not a cache.Refusal. The site was
// asked, and answered with a redirect this server will not follow: that
// is its answer (unreachable: disallow all), stored and retried with the
// cache's backoff, not asked again at every question as a refusal of this
// side would be. (The dialer still checks the address it connects to: a
// name whose answer changes is refused there.)
func (g *Guard) checkRedirect(ctx context.Context, _, to *url.URL) error {
	if g.AllowPrivate {
		return nil
	}
	addrs, err := g.lookup(ctx, "ip", to.Hostname())
	if err != nil || len(addrs) == 0 {
		return nil // the request says why
	}
	port := to.Port()
	if port == "" {
		port = "80"
		if to.Scheme == "https" {
			port = "443"
		}
	}
	var refused *AddressError
	for _, a := range addrs {
		class, via := addressClass(a)
		if class == "" || g.exempt[netip.AddrPortFrom(a, portNum(port))] {
			return nil
		}
		if refused == nil {
			refused = &AddressError{Addr: a.Unmap(), Class: class, Via: via}
		}
	}
	return fmt.Errorf("%w: %s", ErrRefusedAddress, refused.Refusal())
}

// webhookClient is the client of the watches' webhooks: through the
// guard (the server's transport), and following no redirect to an address
// the guard refuses: such a redirect is the receiver's answer (the 3xx,
// which the watch engine does not try again), not a failure to connect
// tried again and again.
func (s *Server) webhookClient() *http.Client {
	return &http.Client{Transport: s.transport, Timeout: 30 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			if s.guard.checkRedirect(req.Context(), nil, req.URL) != nil {
				return http.ErrUseLastResponse
			}
			return nil
		}}
}

func portNum(s string) uint16 {
	n, _ := strconv.ParseUint(s, 10, 16)
	return uint16(n)
}
