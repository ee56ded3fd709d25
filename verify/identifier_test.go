package verify

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// googleDNS is the fake DNS of a real Googlebot (66.249.66.1) and of a
// spoofer whose name is elsewhere (203.0.113.9).
func googleDNS(t *testing.T, hold chan struct{}) *fakeDNS {
	return startDNSHeld(t, map[string]string{
		"66.249.66.1": "crawl-66-249-66-1.googlebot.com.",
		"203.0.113.9": "host-9.example.net.",
	}, map[string][]string{
		"crawl-66-249-66-1.googlebot.com.": {"66.249.66.1"},
		"host-9.example.net.":              {"203.0.113.9"},
	}, hold)
}

// eventually polls f until it is true or 5 s pass.
func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if f() {
			return
		}
	}
	t.Fatalf("%s: not within 5 s", what)
}

// TestIdentifyDeadline: an address whose reverse DNS is slow is answered
// unverified (pending) within the deadline, the lookup goes on in the
// background, and a later request gets its answer, checked when DNS
// answered; the address is looked up once.
func TestIdentifyDeadline(t *testing.T) {
	hold := make(chan struct{})
	f := googleDNS(t, hold)
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), NoSignatures: true, Deadline: 30 * time.Millisecond})
	gb := googlebot(t)
	ip := netip.MustParseAddr("66.249.66.1")
	start := time.Now()
	ev := id.Identify(context.Background(), nil, ip, gb)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Identify took %s with DNS held (deadline 30 ms)", took)
	}
	if ev.Outcome != "unverified" || !ev.Pending || ev.Method != MethodNone || ev.Crawler != "Googlebot" || ev.IP != "66.249.66.1" {
		t.Fatalf("while DNS is held: %+v", ev)
	}
	// A second request while the lookup is under way waits on it; it
	// starts none of its own.
	if ev := id.Identify(context.Background(), nil, ip, gb); !ev.Pending {
		t.Errorf("second request while held: %+v", ev)
	}
	answered := time.Now()
	close(hold)
	eventually(t, "the background answer", func() bool {
		return id.Identify(context.Background(), nil, ip, gb).Outcome == "verified"
	})
	ev = id.Identify(context.Background(), nil, ip, gb)
	if ev.Method != MethodDNS || len(ev.Names) != 1 || ev.Names[0] != "crawl-66-249-66-1.googlebot.com" || ev.Pending {
		t.Errorf("after the answer: %+v", ev)
	}
	if ev.Checked.Before(answered) || ev.Checked.After(time.Now()) {
		t.Errorf("Checked %s: not when DNS answered (after %s)", ev.Checked, answered)
	}
	if n := f.ptrAsks("66.249.66.1"); n != 1 {
		t.Errorf("%d PTR lookups of the address, want 1", n)
	}
	if s := id.Stats(); s.Lookups != 1 || s.Pending < 2 || s.Hits == 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestIdentifyFastAnswer: a lookup that answers within the deadline is
// the first request's answer.
func TestIdentifyFastAnswer(t *testing.T) {
	f := googleDNS(t, nil)
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), NoSignatures: true, Deadline: 2 * time.Second})
	gb := googlebot(t)
	if ev := id.Identify(context.Background(), nil, netip.MustParseAddr("66.249.66.1"), gb); ev.Outcome != "verified" || ev.Method != MethodDNS {
		t.Errorf("real Googlebot: %+v", ev)
	}
	ev := id.Identify(context.Background(), nil, netip.MustParseAddr("203.0.113.9"), gb)
	if ev.Outcome != "spoofed" || ev.Method != MethodDNS || len(ev.Names) != 1 || ev.Names[0] != "host-9.example.net" {
		t.Errorf("spoofer: %+v", ev)
	}
	// A context whose deadline is sooner than the Identifier's is kept:
	// with the DNS holding its answers (else a quick answer may come
	// first, and is rightly given), the question is pending at once.
	hold := make(chan struct{})
	defer close(hold)
	held := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: googleDNS(t, hold).addr}), NoSignatures: true, Deadline: 2 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	start := time.Now()
	if ev := held.Identify(ctx, nil, netip.MustParseAddr("198.51.100.20"), gb); !ev.Pending {
		t.Errorf("expired context: %+v", ev)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("an expired context waited %s (the Identifier's deadline is 2 s)", took)
	}
}

// TestIdentifyFloodOneAddress: a thousand concurrent fake Googlebots from
// one address cost one lookup; all get an answer without waiting for it
// beyond the deadline.
func TestIdentifyFloodOneAddress(t *testing.T) {
	hold := make(chan struct{})
	f := googleDNS(t, hold)
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), NoSignatures: true, Deadline: 10 * time.Millisecond})
	gb := googlebot(t)
	ip := netip.MustParseAddr("203.0.113.9")
	var wg sync.WaitGroup
	var pending atomic.Int64
	start := time.Now()
	for range 1000 {
		wg.Go(func() {
			if id.Identify(context.Background(), nil, ip, gb).Pending {
				pending.Add(1)
			}
		})
	}
	wg.Wait()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("1000 requests took %s while DNS was held", took)
	}
	if pending.Load() != 1000 {
		t.Errorf("%d of 1000 answered pending while DNS was held", pending.Load())
	}
	close(hold)
	eventually(t, "the spoofer's answer", func() bool {
		return id.Identify(context.Background(), nil, ip, gb).Outcome == "spoofed"
	})
	for range 1000 {
		id.Identify(context.Background(), nil, ip, gb)
	}
	if n := f.ptrAsks("203.0.113.9"); n != 1 {
		t.Errorf("%d PTR lookups for one address, want 1", n)
	}
	if s := id.Stats(); s.Lookups != 1 {
		t.Errorf("stats %+v: want 1 lookup", s)
	}
}

// TestIdentifyFloodManyAddresses: fake Googlebots from 300 addresses,
// each claiming five times (and as two crawlers), cost at most one lookup
// per address.
func TestIdentifyFloodManyAddresses(t *testing.T) {
	f := googleDNS(t, nil)
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), NoSignatures: true, Deadline: time.Millisecond})
	gb := googlebot(t)
	gi, _ := robotstxt.LookupCrawler("Googlebot-Image")
	var wg sync.WaitGroup
	for i := range 300 {
		ip := netip.AddrFrom4([4]byte{198, 51, 100 + byte(i/250), byte(i % 250)})
		for k := range 5 {
			c := gb
			if k%2 == 1 {
				c = &gi
			}
			wg.Go(func() { id.Identify(context.Background(), nil, ip, c) })
		}
	}
	wg.Wait()
	eventually(t, "every lookup done", func() bool { return id.Stats().Entries == 300 && len(id.slots) == 0 })
	for i := range 300 {
		ip := netip.AddrFrom4([4]byte{198, 51, 100 + byte(i/250), byte(i % 250)})
		if n := f.ptrAsks(ip.String()); n > 1 {
			t.Fatalf("%s looked up %d times", ip, n)
		}
	}
	s := id.Stats()
	if s.Lookups > 300 || int64(f.totalAsks()) != s.Lookups {
		t.Errorf("stats %+v, %d PTR questions: want at most one per address", s, f.totalAsks())
	}
}

// TestIdentifyBounds: the cache holds at most MaxEntries addresses (plus
// those being looked up), and at most MaxPending lookups are under way:
// past them, an address is unverified and not looked up.
func TestIdentifyBounds(t *testing.T) {
	hold := make(chan struct{})
	f := googleDNS(t, hold)
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), NoSignatures: true,
		Deadline: time.Millisecond, Concurrency: 2, MaxPending: 4, MaxEntries: 64})
	gb := googlebot(t)
	before := runtime.NumGoroutine()
	for i := range 20 {
		ev := id.Identify(context.Background(), nil, netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}), gb)
		if !ev.Pending {
			t.Fatalf("address %d: %+v", i, ev)
		}
	}
	s := id.Stats()
	if s.Lookups != 4 || s.Dropped != 16 {
		t.Errorf("stats %+v: want 4 lookups and 16 dropped", s)
	}
	if g := runtime.NumGoroutine() - before; g > 8 {
		t.Errorf("%d goroutines more with 4 lookups pending", g)
	}
	close(hold)
	eventually(t, "the lookups done", func() bool { return len(id.slots) == 0 })
	// A dropped address is looked up by a later request.
	ip := netip.AddrFrom4([4]byte{198, 51, 100, 19})
	eventually(t, "a dropped address answered", func() bool {
		return id.Identify(context.Background(), nil, ip, gb).Outcome == "spoofed"
	})

	// Entries: addresses decided without DNS (a crawler with no domains).
	cb, _ := robotstxt.LookupCrawler("ClaudeBot")
	for i := range 1000 {
		id.Identify(context.Background(), nil, netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), &cb)
		if n := id.Stats().Entries; n > 64 {
			t.Fatalf("%d entries after %d addresses, over the limit of 64", n, i+1)
		}
	}
}

// TestIdentifyTTL: an answer is kept for TTL, then the address is looked
// up again; an answer DNS could not give is kept for RetryTTL only.
func TestIdentifyTTL(t *testing.T) {
	f := googleDNS(t, nil)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), NoSignatures: true,
		Deadline: 2 * time.Second, TTL: time.Hour, Now: clock})
	gb := googlebot(t)
	ip := netip.MustParseAddr("66.249.66.1")
	for range 3 {
		if ev := id.Identify(context.Background(), nil, ip, gb); ev.Outcome != "verified" {
			t.Fatalf("%+v", ev)
		}
	}
	advance(59 * time.Minute)
	id.Identify(context.Background(), nil, ip, gb)
	if n := f.ptrAsks(ip.String()); n != 1 {
		t.Errorf("%d lookups within the TTL, want 1", n)
	}
	advance(2 * time.Minute)
	if ev := id.Identify(context.Background(), nil, ip, gb); ev.Outcome != "verified" {
		t.Fatalf("%+v", ev)
	}
	if n := f.ptrAsks(ip.String()); n != 2 {
		t.Errorf("%d lookups after the TTL, want 2", n)
	}
}

// TestIdentifyLists: a crawler's lists (given to the Verifier, or
// fetched by the Identifier's fetcher) decide without DNS; a list that
// changes changes the answers already kept.
func TestIdentifyLists(t *testing.T) {
	f := googleDNS(t, nil)
	var mu sync.Mutex
	body := `{"creationTime": "2026-11-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Cache-Control", "no-cache")
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	var clk atomic.Int64
	clk.Store(time.Now().UnixNano())
	now := func() time.Time { return time.Unix(0, clk.Load()) }
	fetcher := NewListFetcher(ListOptions{Interval: time.Minute, Now: now})
	v := New(&Options{Resolver: f.addr})
	given, err := ParseRanges([]byte(`{"prefixes": [{"ipv4Prefix": "66.249.64.0/19"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	v.AddRanges("Googlebot", given)
	id := NewIdentifier(IdentifierOptions{Verifier: v, NoSignatures: true, Now: now,
		Lists: []IdentifierList{{URL: srv.URL + "/bots.json", Crawlers: []string{"ClaudeBot"}}}, Fetcher: fetcher})
	id.Refresh(context.Background())
	gb := googlebot(t)
	cb, _ := robotstxt.LookupCrawler("ClaudeBot")
	ev := id.Identify(context.Background(), nil, netip.MustParseAddr("66.249.66.1"), gb)
	if ev.Outcome != "verified" || ev.Method != MethodRanges || len(ev.Lists) != 1 || ev.Lists[0].URL != "(given)" {
		t.Errorf("given list: %+v", ev)
	}
	ev = id.Identify(context.Background(), nil, netip.MustParseAddr("192.0.2.7"), &cb)
	if ev.Outcome != "verified" || ev.Method != MethodRanges || len(ev.Lists) != 1 || ev.Lists[0].URL != srv.URL+"/bots.json" || ev.Lists[0].CreationTime == "" {
		t.Errorf("fetched list: %+v", ev)
	}
	ev = id.Identify(context.Background(), nil, netip.MustParseAddr("198.51.100.1"), &cb)
	if ev.Outcome != "spoofed" || ev.Method != MethodRanges {
		t.Errorf("outside the fetched list: %+v", ev)
	}
	if n := f.totalAsks(); n != 0 {
		t.Errorf("%d DNS lookups, want none (the lists decided)", n)
	}
	// The list moves: the kept answers follow it.
	mu.Lock()
	body = `{"creationTime": "2026-11-02T00:00:00Z", "prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}`
	mu.Unlock()
	clk.Add(int64(2 * time.Minute))
	id.Refresh(context.Background())
	if ev := id.Identify(context.Background(), nil, netip.MustParseAddr("198.51.100.1"), &cb); ev.Outcome != "verified" {
		t.Errorf("after the list moved: %+v", ev)
	}
	if ev := id.Identify(context.Background(), nil, netip.MustParseAddr("192.0.2.7"), &cb); ev.Outcome != "spoofed" {
		t.Errorf("after the list moved: %+v", ev)
	}
}

// TestIdentifyListsBackground: the lists are fetched in the background,
// never while a request waits.
func TestIdentifyListsBackground(t *testing.T) {
	release := make(chan struct{})
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		<-release
		fmt.Fprint(w, `{"prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]}`)
	}))
	defer srv.Close()
	defer close(release)
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{NoDNS: true}), NoSignatures: true,
		Lists: []IdentifierList{{URL: srv.URL, Crawlers: []string{"ClaudeBot"}}}})
	cb, _ := robotstxt.LookupCrawler("ClaudeBot")
	start := time.Now()
	ev := id.Identify(context.Background(), nil, netip.MustParseAddr("192.0.2.7"), &cb)
	if time.Since(start) > time.Second || ev.Outcome != "unverified" {
		t.Errorf("first request, list held: %+v after %s", ev, time.Since(start))
	}
	eventually(t, "the list fetched in the background", func() bool { return hits.Load() == 1 })
}

// idSigner signs requests for the Identifier's tests.
type idSigner struct {
	priv ed25519.PrivateKey
	keys *webbotauth.KeySet
	tp   string
}

func newIDSigner(t testing.TB) *idSigner {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	j, err := webbotauth.PublicJWK(pub)
	if err != nil {
		t.Fatal(err)
	}
	k, err := webbotauth.ParseJWK(j)
	if err != nil {
		t.Fatal(err)
	}
	return &idSigner{priv: priv, keys: webbotauth.NewKeySet(k), tp: k.Thumbprint}
}

// sign signs r as agent, covering @authority and the agent member.
func (s *idSigner) sign(t testing.TB, r *http.Request, agent string) {
	t.Helper()
	now := time.Now()
	r.Header.Set("Signature-Agent", fmt.Sprintf("agent=%q", agent))
	r.Header.Set("Signature-Input", fmt.Sprintf(`sig1=("@authority" "signature-agent";key="agent");created=%d;expires=%d;keyid=%q;tag="web-bot-auth"`,
		now.Unix(), now.Add(5*time.Minute).Unix(), s.tp))
	sigs, err := webbotauth.ParseSignatures(r.Header)
	if err != nil || len(sigs) != 1 {
		t.Fatalf("sign: %v", err)
	}
	base, err := webbotauth.SignatureBase(webbotauth.FromRequest(r, "https"), sigs[0])
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(ed25519.Sign(s.priv, base))+":")
}

func signedRequest(t testing.TB, s *idSigner, agent string) *http.Request {
	r := httptest.NewRequest("GET", "https://site.example/page", nil)
	r.Header.Set("User-Agent", "Google-Agent")
	s.sign(t, r, agent)
	return r
}

const wellKnown = "/.well-known/http-message-signatures-directory"

// TestIdentifySignature: a signature by the crawler's signing agent
// verifies the claim before any address check; a tampered one is spoofed;
// one by another agent does not speak for the crawler, and the address
// decides.
func TestIdentifySignature(t *testing.T) {
	f := googleDNS(t, nil)
	s := newIDSigner(t)
	sv := webbotauth.New(webbotauth.Options{Keys: s.keys, Scheme: "https"})
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{Resolver: f.addr}), Signatures: sv, Deadline: 2 * time.Second})
	ga, ok := robotstxt.LookupCrawler("Google-Agent")
	if !ok {
		t.Fatal("no Google-Agent in the catalogue")
	}
	spoofer := netip.MustParseAddr("203.0.113.9")

	ev := id.Identify(context.Background(), signedRequest(t, s, "https://agent.bot.goog"), spoofer, &ga)
	if ev.Outcome != "verified" || ev.Method != MethodSignature || ev.Agent != "https://agent.bot.goog"+wellKnown || ev.KeyID != s.tp || ev.Crawler != "Google-Agent" || ev.IP != "203.0.113.9" {
		t.Errorf("Google's agent: %+v", ev)
	}
	if n := f.totalAsks(); n != 0 {
		t.Errorf("%d DNS lookups for a signed request", n)
	}

	r := signedRequest(t, s, "https://agent.bot.goog")
	r.Host = "other.example" // a covered component changed
	if ev := id.Identify(context.Background(), r, spoofer, &ga); ev.Outcome != "spoofed" || ev.Method != MethodSignature {
		t.Errorf("tampered: %+v", ev)
	}

	// (Google-Agent has an address list and no DNS domain: with no list
	// loaded, the address says nothing.)
	ev = id.Identify(context.Background(), signedRequest(t, s, "https://bots.example.org"), spoofer, &ga)
	if ev.Outcome != "unverified" || ev.Method != MethodNone {
		t.Errorf("another agent's signature, spoofer's address: %+v", ev)
	}
	if !strings.Contains(ev.Reason, "does not speak for Google-Agent") {
		t.Errorf("reason %q does not say the signature was another agent's", ev.Reason)
	}

	// No claim: the signature alone says who signed.
	if ev := id.Identify(context.Background(), signedRequest(t, s, "https://bots.example.org"), spoofer, nil); ev.Outcome != "verified" || ev.Agent != "https://bots.example.org"+wellKnown {
		t.Errorf("no claim: %+v", ev)
	}
}

// TestIdentifySlowDirectory: a key directory that does not answer within
// the deadline leaves the request to the address checks (unverified,
// pending); the fetch goes on, and a later request verifies.
func TestIdentifySlowDirectory(t *testing.T) {
	s := newIDSigner(t)
	release := make(chan struct{})
	var fetches atomic.Int64
	dir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		<-release
		w.Header().Set("Content-Type", webbotauth.DirectoryMediaType)
		k := s.keys.Find(s.tp)
		b, _ := json.Marshal(map[string]any{"keys": []webbotauth.JWK{k.JWK}})
		w.Write(b)
	}))
	defer dir.Close()
	dirs := webbotauth.NewDirectories(webbotauth.DirectoryOptions{AllowHTTP: true})
	sv := webbotauth.New(webbotauth.Options{Directories: dirs, AllowHTTP: true, Scheme: "https"})
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{NoDNS: true}), Signatures: sv, Deadline: 20 * time.Millisecond,
		SigningAgents: map[string][]string{"Google-Agent": {"127.0.0.1"}}})
	ga, _ := robotstxt.LookupCrawler("Google-Agent")
	ip := netip.MustParseAddr("203.0.113.9")
	start := time.Now()
	ev := id.Identify(context.Background(), signedRequest(t, s, dir.URL), ip, &ga)
	if took := time.Since(start); took > 2*time.Second || ev.Outcome != "unverified" || !ev.Pending || !strings.Contains(ev.Reason, "still being fetched") {
		t.Errorf("directory held: %+v after %s", ev, took)
	}
	for range 50 {
		id.Identify(context.Background(), signedRequest(t, s, dir.URL), ip, &ga)
	}
	close(release)
	eventually(t, "the signature verified", func() bool {
		return id.Identify(context.Background(), signedRequest(t, s, dir.URL), ip, &ga).Outcome == "verified"
	})
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d directory fetches, want 1", n)
	}
}

// TestIdentifyMemory: the cache's memory is bounded whatever the number
// of distinct clients: 200,000 addresses through a cache of 10,000 hold
// the heap to the cache's size (the bytes per address logged).
func TestIdentifyMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a cache")
	}
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{NoDNS: true}), NoSignatures: true, MaxEntries: 10000})
	cb, _ := robotstxt.LookupCrawler("ClaudeBot")
	gb := googlebot(t)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	var peak uint64
	for i := range 200000 {
		ip := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		id.Identify(context.Background(), nil, ip, &cb)
		id.Identify(context.Background(), nil, ip, gb)
		if i%20000 == 19999 {
			peak = max(peak, heap())
		}
	}
	n := id.Stats().Entries
	if n > 10000 {
		t.Errorf("%d entries, over the limit of 10,000", n)
	}
	grown := int64(peak) - int64(base)
	t.Logf("heap %d bytes over %d entries (2 claims each): %d bytes an address", grown, 10000, grown/10000)
	if grown > 40<<20 {
		t.Errorf("heap grew %d bytes for a cache of 10,000 addresses", grown)
	}
}

// TestIdentifyPublished: Published adds the operators' lists, each with
// the crawlers it covers.
func TestIdentifyPublished(t *testing.T) {
	id := NewIdentifier(IdentifierOptions{Verifier: New(&Options{NoDNS: true}), NoSignatures: true, Published: true})
	want := map[string]string{
		googleLists + "common-crawlers.json":     "Googlebot",
		"https://claude.com/crawling/bots.json":  "ClaudeBot",
		"https://openai.com/gptbot.json":         "GPTBot",
		"https://openai.com/chatgpt-agents.json": "ChatGPT-User",
	}
	for _, l := range id.o.Lists {
		if c, ok := want[l.URL]; ok && containsFold(l.Crawlers, c) {
			delete(want, l.URL)
		}
	}
	if len(want) > 0 {
		t.Errorf("lists missing: %v (have %+v)", want, id.o.Lists)
	}
	if id.o.Fetcher == nil {
		t.Error("no fetcher for the published lists")
	}
}
