package verify

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/miekg/dns"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/store"
)

// fakeDNS is a DNS server on loopback that answers PTR, A and AAAA
// questions from its tables, NXDOMAIN otherwise, and counts the PTR
// questions of each address.
type fakeDNS struct {
	addr string
	ptr  map[string]string   // reverse name ("1.66.249.66.in-addr.arpa.") -> name
	fwd  map[string][]string // name (with dot) -> addresses

	// hold, when not nil, holds every PTR answer until it is closed.
	hold chan struct{}

	mu   sync.Mutex
	asks map[string]int
}

func startDNS(t testing.TB, ptr map[string]string, fwd map[string][]string) *fakeDNS {
	return startDNSHeld(t, ptr, fwd, nil)
}

// startDNSHeld is startDNS with PTR answers held until hold closes.
func startDNSHeld(t testing.TB, ptr map[string]string, fwd map[string][]string, hold chan struct{}) *fakeDNS {
	t.Helper()
	f := &fakeDNS{ptr: map[string]string{}, fwd: fwd, asks: map[string]int{}, hold: hold}
	for ip, name := range ptr {
		rev, err := dns.ReverseAddr(ip)
		if err != nil {
			t.Fatal(err)
		}
		f.ptr[rev] = name
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: f}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	f.addr = pc.LocalAddr().String()
	return f
}

func (f *fakeDNS) ServeDNS(w dns.ResponseWriter, r *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(r)
	found := false
	for _, q := range r.Question {
		switch q.Qtype {
		case dns.TypePTR:
			f.mu.Lock()
			f.asks[q.Name]++
			f.mu.Unlock()
			if f.hold != nil {
				<-f.hold
			}
			if n, ok := f.ptr[q.Name]; ok {
				found = true
				m.Answer = append(m.Answer, &dns.PTR{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypePTR, Class: dns.ClassINET, Ttl: 60}, Ptr: n})
			}
		case dns.TypeA, dns.TypeAAAA:
			addrs, ok := f.fwd[strings.ToLower(q.Name)]
			if ok {
				found = true
			}
			for _, a := range addrs {
				ip := net.ParseIP(a)
				if ip.To4() != nil && q.Qtype == dns.TypeA {
					m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}, A: ip.To4()})
				} else if ip.To4() == nil && q.Qtype == dns.TypeAAAA {
					m.Answer = append(m.Answer, &dns.AAAA{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeAAAA, Class: dns.ClassINET, Ttl: 60}, AAAA: ip})
				}
			}
		}
	}
	if !found {
		m.Rcode = dns.RcodeNameError
	}
	_ = w.WriteMsg(m)
}

// totalAsks is the PTR questions asked, over all addresses.
func (f *fakeDNS) totalAsks() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, k := range f.asks {
		n += k
	}
	return n
}

func (f *fakeDNS) ptrAsks(ip string) int {
	rev, _ := dns.ReverseAddr(ip)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asks[rev]
}

func googlebot(t *testing.T) *robotstxt.Crawler {
	c, ok := robotstxt.LookupCrawler("Googlebot")
	if !ok {
		t.Fatal("no Googlebot in the catalogue")
	}
	return &c
}

func TestReverseDNS(t *testing.T) {
	f := startDNS(t, map[string]string{
		"66.249.66.1":          "crawl-66-249-66-1.googlebot.com.",
		"2001:4860:4801:10::1": "crawl-2001-4860-4801-10--1.googlebot.com.",
		"203.0.113.9":          "crawl-203-0-113-9.googlebot.com.", // the spoofer's own PTR
		"198.51.100.7":         "host-7.example.net.",
	}, map[string][]string{
		"crawl-66-249-66-1.googlebot.com.":          {"66.249.66.1"},
		"crawl-2001-4860-4801-10--1.googlebot.com.": {"2001:4860:4801:10::1"},
		"crawl-203-0-113-9.googlebot.com.":          {"66.249.66.200"}, // not the spoofer's address
		"host-7.example.net.":                       {"198.51.100.7"},
	})
	v := New(&Options{Resolver: f.addr})
	gb := googlebot(t)
	ctx := context.Background()
	cases := []struct {
		ip     string
		want   Outcome
		method string
	}{
		{"66.249.66.1", Verified, "reverse-dns"},
		{"2001:4860:4801:10::1", Verified, "reverse-dns"},
		{"203.0.113.9", Spoofed, "reverse-dns"},  // PTR claims googlebot.com, forward does not confirm
		{"198.51.100.7", Spoofed, "reverse-dns"}, // another domain
		{"192.0.2.55", Spoofed, "reverse-dns"},   // no PTR at all
	}
	for _, c := range cases {
		got := v.Check(ctx, netip.MustParseAddr(c.ip), gb)
		if got.Outcome != c.want || got.Method != c.method {
			t.Errorf("%s: got %v by %q (%s), want %v by %q", c.ip, got.Outcome, got.Method, got.Reason, c.want, c.method)
		}
	}
	// Once per address: a second round asks DNS nothing.
	for _, c := range cases {
		v.Check(ctx, netip.MustParseAddr(c.ip), gb)
	}
	for _, c := range cases {
		if n := f.ptrAsks(c.ip); n != 1 {
			t.Errorf("%s: %d PTR questions, want 1", c.ip, n)
		}
	}
	// A crawler with no domains is unverified however DNS answers.
	gpt, _ := robotstxt.LookupCrawler("GPTBot")
	if got := v.Check(ctx, netip.MustParseAddr("66.249.66.1"), &gpt); got.Outcome != Unverified {
		t.Errorf("GPTBot without ranges: %v, want unverified", got.Outcome)
	}
}

func TestRangesOutcomes(t *testing.T) {
	r, err := ParseRanges([]byte(`{"creationTime":"2026-11-20T00:00:00","prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"},{"ipv4Prefix":"66.249.64.32/27"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 2 {
		t.Errorf("Len = %d, want 2 (the two v4 prefixes merge)", r.Len())
	}
	v := New(&Options{NoDNS: true})
	gb := googlebot(t)
	ctx := context.Background()
	if got := v.Check(ctx, netip.MustParseAddr("66.249.64.5"), gb); got.Outcome != Unverified {
		t.Errorf("no ranges, no DNS: %v, want unverified", got.Outcome)
	}
	v.AddRanges("Googlebot", r)
	for ip, want := range map[string]Outcome{
		"66.249.64.5": Verified, "66.249.64.63": Verified, "66.249.64.64": Spoofed,
		"2001:4860:4801:10::abcd": Verified, "2001:4860:4801:11::1": Spoofed, "::ffff:66.249.64.1": Verified,
	} {
		if got := v.Check(ctx, netip.MustParseAddr(ip), gb); got.Outcome != want {
			t.Errorf("%s: %v, want %v", ip, got.Outcome, want)
		}
	}
	if _, err := ParseRanges([]byte(`{"prefixes":[{"ipv4Prefix":"66.249.64/27"}]}`)); err == nil || !strings.Contains(err.Error(), "66.249.64/27") {
		t.Errorf("bad prefix: err %v, want one naming it", err)
	}
}

func TestDNSFailureIsUnverified(t *testing.T) {
	// A resolver that does not answer: nothing listens there.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	v := New(&Options{Resolver: addr, Timeout: 200_000_000})
	got := v.Check(context.Background(), netip.MustParseAddr("66.249.66.1"), googlebot(t))
	if got.Outcome != Unverified {
		t.Errorf("no DNS answer: %v (%s), want unverified", got.Outcome, got.Reason)
	}
	if v.Stats().Failures == 0 {
		t.Error("the failed lookup was not counted")
	}
}

func TestStoreCache(t *testing.T) {
	f := startDNS(t, map[string]string{"66.249.66.1": "crawl-66-249-66-1.googlebot.com."},
		map[string][]string{"crawl-66-249-66-1.googlebot.com.": {"66.249.66.1"}})
	st := store.NewMemory(nil)
	ip := netip.MustParseAddr("66.249.66.1")
	for range 2 {
		v := New(&Options{Resolver: f.addr, Store: st})
		if got := v.Check(context.Background(), ip, googlebot(t)); got.Outcome != Verified {
			t.Fatalf("got %v, want verified", got.Outcome)
		}
	}
	if n := f.ptrAsks("66.249.66.1"); n != 1 {
		t.Errorf("%d PTR questions over two runs sharing a store, want 1", n)
	}
}

// TestLoadRangesURL: a list fetched once, then taken from the store.
func TestLoadRangesURL(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/googlebot.json" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"prefixes":[{"ipv4Prefix":"66.249.64.0/27"}]}`))
	}))
	defer srv.Close()
	st := store.NewMemory(nil)
	for range 2 {
		r, err := LoadRanges(context.Background(), srv.URL+"/googlebot.json", srv.Client(), st)
		if err != nil || !r.Contains(netip.MustParseAddr("66.249.64.1")) {
			t.Fatalf("%v, %v", r, err)
		}
	}
	if hits.Load() != 1 {
		t.Errorf("%d fetches, want 1 (the second from the store)", hits.Load())
	}
	if _, err := LoadRanges(context.Background(), srv.URL+"/missing.json", srv.Client(), st); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a 404: %v", err)
	}
	if _, err := LoadRanges(context.Background(), "/no/such/file.json", nil, nil); err == nil {
		t.Error("a missing file: no error")
	}
}

func FuzzParseRanges(f *testing.F) {
	f.Add([]byte(`{"prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"}]}`))
	f.Add([]byte(`{"prefixes":[{"ipv4Prefix":"0.0.0.0/0"},{"ipv6Prefix":"::/0"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRanges(data)
		if err != nil {
			return
		}
		// The slow, obviously right answer: any prefix contains the address.
		var doc struct {
			Prefixes []map[string]string `json:"prefixes"`
		}
		json.Unmarshal(data, &doc)
		var ps []netip.Prefix
		for _, m := range doc.Prefixes {
			for _, k := range []string{"ipv4Prefix", "ipv6Prefix"} {
				if p, err := netip.ParsePrefix(strings.TrimSpace(m[k])); err == nil {
					ps = append(ps, p)
				}
			}
		}
		ips := []netip.Addr{netip.MustParseAddr("0.0.0.0"), netip.MustParseAddr("255.255.255.255"), netip.MustParseAddr("::"), netip.MustParseAddr("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")}
		for _, p := range ps {
			ips = append(ips, p.Masked().Addr(), lastAddr(p), lastAddr(p).Next(), p.Masked().Addr().Prev())
		}
		for _, ip := range ips {
			if !ip.IsValid() {
				continue
			}
			want := false
			for _, p := range ps {
				want = want || p.Masked().Contains(ip)
			}
			if got := r.Contains(ip); got != want {
				t.Fatalf("Contains(%v) = %v, want %v (prefixes %v)", ip, got, want, ps)
			}
		}
	})
}
