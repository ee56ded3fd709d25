// Package clientip decides the address of the client a request comes
// from: the connection's peer, or, when the peer is a proxy the operator
// trusts, the client that proxy forwards in X-Forwarded-For or X-Real-IP.
// Every face of robotstxt that keys anything on a client (the guard and
// its decision endpoint, the service's per-client bounds) asks Of.
package clientip

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// Trusted is the set of proxies whose forwarded headers are believed:
// address prefixes (a single address is a /32 or /128). The zero value
// trusts nobody.
type Trusted []netip.Prefix

// Loopback is this machine's loopback addresses, where a front server
// (nginx, Caddy) on the same machine connects from.
const Loopback = "127.0.0.0/8,::1/128"

// MaxHops bounds the X-Forwarded-For entries read, from the right: a
// chain of trusted proxies longer than this is not a deployment but a
// padded header, and the walk stops at the last entry read.
const MaxHops = 32

// Parse reads a list of trusted proxies: addresses and CIDR prefixes
// ("10.0.0.0/8", "192.0.2.7", "2001:db8::/32"), separated by commas or
// white space. "" and "none" trust nobody. An IPv4-mapped IPv6 entry
// stands for its IPv4 address. The error names the entry it could not
// read.
func Parse(s string) (Trusted, error) {
	if strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	var out Trusted
	for _, item := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n'
	}) {
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, unmapPrefix(p))
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix (such as 10.0.0.0/8)", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// unmapPrefix is p masked, an IPv4-mapped IPv6 prefix (::ffff:a.b.c.d/n,
// n >= 96) as its IPv4 prefix.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	p = p.Masked()
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p
}

// Contains reports whether a is one of the trusted proxies.
func (t Trusted) Contains(a netip.Addr) bool {
	if len(t) == 0 || !a.IsValid() {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// String is the list as Parse reads it; "none" when empty.
func (t Trusted) String() string {
	if len(t) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, p := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Of is the address of the client r comes from. It is the connection's
// peer (r.RemoteAddr), unless the peer is in trusted. Then
// X-Forwarded-For is read from the right (the entry the trusted peer
// added) leftwards, past the trusted proxies of the chain, and the first
// address that is not one of them is the client; an entry that is not an
// address ends the walk (what lies to its left was written by someone
// not trusted), as does the MaxHops-th entry, and the last address read
// is then the client. With no X-Forwarded-For, a trusted peer's
// X-Real-IP names the client. Entries may be bracketed IPv6 addresses and
// may carry a port. The Forwarded header (RFC 7239) is not read. The
// answer is unmapped (an IPv4-mapped IPv6 address is its IPv4 address);
// it is the zero Addr when RemoteAddr is not an address.
func Of(r *http.Request, trusted Trusted) netip.Addr {
	addr := Peer(r.RemoteAddr)
	if !trusted.Contains(addr) {
		return addr
	}
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		hops := 0
		for i := len(xff) - 1; i >= 0; i-- {
			rest := xff[i]
			for {
				j := strings.LastIndexByte(rest, ',')
				entry := rest[j+1:]
				if j < 0 {
					rest = ""
				} else {
					rest = rest[:j]
				}
				if strings.TrimSpace(entry) == "" && j < 0 && i > 0 {
					break // an empty header line: on to the one before
				}
				a, ok := parseEntry(entry)
				if !ok {
					return addr
				}
				addr = a
				if hops++; !trusted.Contains(a) || hops >= MaxHops {
					return addr
				}
				if j < 0 {
					break
				}
			}
		}
		return addr
	}
	if a, ok := parseEntry(r.Header.Get("X-Real-IP")); ok {
		return a
	}
	return addr
}

// Peer is the address of a connection's "host:port" ("[v6]:port"), or of
// a bare address, unmapped; the zero Addr when it is neither. The port is
// not read.
func Peer(remoteAddr string) netip.Addr {
	a, ok := parseEntry(remoteAddr)
	if !ok {
		return netip.Addr{}
	}
	return a
}

// parseEntry reads one forwarded address: "192.0.2.1", "192.0.2.1:80",
// "2001:db8::1", "[2001:db8::1]" or "[2001:db8::1]:443", with white space
// around it; the address is unmapped.
func parseEntry(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return netip.Addr{}, false
	}
	h := s
	switch {
	case s[0] == '[': // "[v6]" or "[v6]:port"
		j := strings.IndexByte(s, ']')
		if j < 0 {
			return netip.Addr{}, false
		}
		if rest := s[j+1:]; rest != "" && !validPort(rest) {
			return netip.Addr{}, false
		}
		h = s[1:j]
		if !strings.Contains(h, ":") {
			return netip.Addr{}, false // "[192.0.2.1]" is no form of an address
		}
	case strings.Count(s, ":") == 1: // "v4:port"; a bare v6 has more
		i := strings.IndexByte(s, ':')
		if !validPort(s[i:]) {
			return netip.Addr{}, false
		}
		h = s[:i]
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// validPort reports whether s is ":" and a port number's digits.
func validPort(s string) bool {
	if len(s) < 2 || len(s) > 6 || s[0] != ':' {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
