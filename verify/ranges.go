package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// MaxRangesBytes bounds a published list of addresses, read from a file
// or fetched: Google's largest is about 100 KB.
const MaxRangesBytes = 8 << 20

// RangesTTL is how long a fetched list is kept in the store before it is
// fetched again (the operators update theirs about daily).
const RangesTTL = 24 * time.Hour

// Ranges is a set of address prefixes: the addresses an operator says
// its crawler fetches from. The zero value is empty.
type Ranges struct {
	v4 []span // sorted, merged: [lo, hi] as 128-bit values of 4-in-6
	v6 []span
	// Source is where the list was read: its URL or file name ("" for
	// a set built by NewRanges).
	Source string
	// CreationTime is the list's own "creationTime" as written (""
	// when it has none); Created is it parsed (zero when it does not
	// parse: Google writes it without a zone, taken as UTC).
	CreationTime string
	Created      time.Time
}

type span struct{ lo, hi netip.Addr }

// ParseRanges reads an operator's published list:
//
//	{"creationTime": "...", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"},
//	  {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
//
// the shape Google, Bing, OpenAI, Perplexity and others publish. A
// prefix that does not parse is an error naming it; a list with no
// prefix is empty, not an error.
func ParseRanges(data []byte) (*Ranges, error) {
	var doc struct {
		CreationTime string `json:"creationTime"`
		Prefixes     []struct {
			IPv4 string `json:"ipv4Prefix"`
			IPv6 string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &doc); err != nil {
		return nil, fmt.Errorf("verify: address list: %w", err)
	}
	var ps []netip.Prefix
	for _, p := range doc.Prefixes {
		for _, s := range []string{p.IPv4, p.IPv6} {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			pf, err := netip.ParsePrefix(s)
			if err != nil {
				return nil, fmt.Errorf("verify: address list: prefix %q: %w", s, err)
			}
			ps = append(ps, pf)
		}
	}
	r := NewRanges(ps)
	r.CreationTime = doc.CreationTime
	r.Created = parseCreation(doc.CreationTime)
	return r, nil
}

// parseCreation reads a list's creationTime: RFC 3339, or the same
// without a zone (UTC), with or without fractions of a second.
func parseCreation(s string) time.Time {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	if t, err := time.Parse("2006-01-02T15:04:05.999999999", s); err == nil {
		return t
	}
	return time.Time{}
}

// NewRanges returns the set of the prefixes.
func NewRanges(prefixes []netip.Prefix) *Ranges {
	r := &Ranges{}
	for _, p := range prefixes {
		p = p.Masked()
		lo := p.Addr()
		hi := lastAddr(p)
		if lo.Is4() {
			r.v4 = append(r.v4, span{lo, hi})
		} else {
			r.v6 = append(r.v6, span{lo, hi})
		}
	}
	r.v4 = merge(r.v4)
	r.v6 = merge(r.v6)
	return r
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	bits := p.Bits()
	for i := range b {
		for k := 0; k < 8; k++ {
			if i*8+k >= bits {
				b[i] |= 0x80 >> k
			}
		}
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func merge(s []span) []span {
	slices.SortFunc(s, func(a, b span) int { return a.lo.Compare(b.lo) })
	var out []span
	for _, x := range s {
		if n := len(out); n > 0 && (x.lo.Compare(out[n-1].hi) <= 0 || x.lo == out[n-1].hi.Next()) {
			if x.hi.Compare(out[n-1].hi) > 0 {
				out[n-1].hi = x.hi
			}
			continue
		}
		out = append(out, x)
	}
	return out
}

// Contains reports whether ip is in one of the prefixes (an IPv4 address
// mapped in IPv6 is taken as IPv4).
func (r *Ranges) Contains(ip netip.Addr) bool {
	if r == nil || !ip.IsValid() {
		return false
	}
	ip = ip.Unmap()
	s := r.v6
	if ip.Is4() {
		s = r.v4
	}
	i, _ := slices.BinarySearchFunc(s, ip, func(x span, t netip.Addr) int { return x.lo.Compare(t) })
	// s[i-1] is the last span starting at or before ip (or s[i] starts at ip).
	if i < len(s) && s[i].lo == ip {
		return true
	}
	return i > 0 && s[i-1].hi.Compare(ip) >= 0
}

// Len returns how many separate spans the set holds.
func (r *Ranges) Len() int {
	if r == nil {
		return 0
	}
	return len(r.v4) + len(r.v6)
}

// LoadRanges reads a published list from a file, or fetches it when src
// is an http(s) URL: through a ListFetcher on st, when st is not nil,
// where a copy fetched in the last RangesTTL is taken instead (key
// "iplist URL"), and whose last good copy serves when the fetch fails.
// client nil takes a client with a 30-second timeout. Warnings (a
// failed fetch, a stale creationTime) are dropped: use a ListFetcher to
// see them.
func LoadRanges(ctx context.Context, src string, client *http.Client, st store.Store) (*Ranges, error) {
	if !strings.HasPrefix(src, "http://") && !strings.HasPrefix(src, "https://") {
		f, err := os.Open(src)
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, MaxRangesBytes+1))
		if err != nil {
			return nil, fmt.Errorf("verify: %s: %w", src, err)
		}
		if len(data) > MaxRangesBytes {
			return nil, fmt.Errorf("verify: %s: larger than %d bytes", src, MaxRangesBytes)
		}
		r, err := parseList(src, data)
		if err != nil {
			return nil, fmt.Errorf("%w (in %s)", err, src)
		}
		return r, nil
	}
	res, err := NewListFetcher(ListOptions{Client: client, Store: st, Interval: RangesTTL}).Get(ctx, src)
	if err != nil {
		return nil, err
	}
	return res.Ranges, nil
}
