package main

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// trustedProxies are the addresses whose forwarded headers the guard
// believes (--trusted-proxy): a request from one of them may say, in
// X-Forwarded-For or X-Real-IP, which client it forwards. From any other
// peer those headers are the client's own words and are ignored.
type trustedProxies []netip.Prefix

// defaultTrustedProxies is --trusted-proxy's default: this machine's
// loopback addresses, where nginx or Caddy in front of the guard usually
// run. A client on the internet never connects from loopback, so it cannot
// use the default to choose its address.
const defaultTrustedProxies = "127.0.0.0/8,::1/128"

// parseTrustedProxies reads --trusted-proxy: CIDR prefixes or addresses,
// comma-separated; "" or "none" trusts nobody.
func parseTrustedProxies(s string) (trustedProxies, error) {
	var out trustedProxies
	if strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	for _, item := range splitList(s) {
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix (such as 10.0.0.0/8)", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (t trustedProxies) contains(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of the connection's other end: r.RemoteAddr
// without its port; the zero Addr when it cannot be read.
func peerAddr(r *http.Request) netip.Addr {
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	a, _ := netip.ParseAddr(r.RemoteAddr)
	return a.Unmap()
}

// maxForwardedHops bounds the X-Forwarded-For entries read: a chain of
// proxies longer than this is not a deployment, it is a client padding
// the header.
const maxForwardedHops = 32

// clientAddr is the address of the client a request comes from: its peer,
// unless the peer is a trusted proxy. Then X-Forwarded-For is read from
// the right (the entry the trusted peer added) leftwards, skipping the
// trusted proxies of the chain, and the first address that is not one is
// the client; an entry that is not an address ends the walk (what lies to
// its left was written by someone untrusted). With no X-Forwarded-For, a
// trusted peer's X-Real-IP names the client. The Forwarded header (RFC
// 7239) is not read.
func clientAddr(r *http.Request, trusted trustedProxies) netip.Addr {
	addr := peerAddr(r)
	if !addr.IsValid() || !trusted.contains(addr) {
		return addr
	}
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		entries := strings.Split(strings.Join(xff, ","), ",")
		for i, n := len(entries)-1, 0; i >= 0 && n < maxForwardedHops; i, n = i-1, n+1 {
			a, ok := forwardedAddr(entries[i])
			if !ok {
				break
			}
			addr = a
			if !trusted.contains(a) {
				break
			}
		}
		return addr
	}
	if a, ok := forwardedAddr(r.Header.Get("X-Real-IP")); ok {
		return a
	}
	return addr
}

// forwardedAddr reads one X-Forwarded-For or X-Real-IP entry: an address,
// bracketed or not, with or without a port.
func forwardedAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		if a, err := netip.ParseAddr(host); err == nil {
			return a.Unmap(), true
		}
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		if a, err := netip.ParseAddr(s[1 : len(s)-1]); err == nil {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}
