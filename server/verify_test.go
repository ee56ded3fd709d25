package server

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/seed53c283f5/robotstxt/clientip"
	"github.com/seed53c283f5/robotstxt/verify"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// keyDirectory is a Web Bot Auth key directory on loopback (TLS) and the
// key that signs for it.
type keyDirectory struct {
	srv   *httptest.Server
	priv  ed25519.PrivateKey
	keyid string
	hits  atomic.Int32
}

func newKeyDirectory(t *testing.T) *keyDirectory {
	t.Helper()
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
	d := &keyDirectory{priv: priv, keyid: k.Thumbprint}
	d.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.hits.Add(1)
		w.Header().Set("Content-Type", webbotauth.DirectoryMediaType)
		json.NewEncoder(w).Encode(map[string]any{"keys": []webbotauth.JWK{j}})
	}))
	t.Cleanup(d.srv.Close)
	return d
}

// trust makes the server's fetches trust the directory's certificate, so
// that only the address guard can refuse it.
func (d *keyDirectory) trust(ts *testServer) {
	pool := x509.NewCertPool()
	pool.AddCert(d.srv.Certificate())
	ts.transport.TLSClientConfig = &tls.Config{RootCAs: pool}
}

// signedRaw is a raw request signed by d's key, naming d as its agent.
func (d *keyDirectory) signedRaw(t *testing.T, ua string) string {
	t.Helper()
	now := time.Now()
	raw := "GET /page HTTP/1.1\r\nHost: site.example\r\nUser-Agent: " + ua + "\r\n" +
		fmt.Sprintf("Signature-Agent: agent=%q\r\n", d.srv.URL) +
		fmt.Sprintf(`Signature-Input: sig1=("@authority" "signature-agent";key="agent");created=%d;expires=%d;keyid=%q;tag="web-bot-auth"`+"\r\n",
			now.Unix(), now.Add(5*time.Minute).Unix(), d.keyid)
	r, err := webbotauth.ReadRequest([]byte(raw + "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	sigs, err := webbotauth.ParseSignatures(r.Header)
	if err != nil || len(sigs) != 1 {
		t.Fatalf("sign: %v", err)
	}
	base, err := webbotauth.SignatureBase(webbotauth.FromRequest(r, "https"), sigs[0])
	if err != nil {
		t.Fatal(err)
	}
	return raw + "Signature: sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(d.priv, base)) + ":\r\n\r\n"
}

func verifyBody(t *testing.T, req VerifyRequest) string {
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func evidence(t *testing.T, r reply) verify.Evidence {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var ev verify.Evidence
	if err := json.Unmarshal(r.body, &ev); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	return ev
}

// TestVerifyDirectoryGuard: the service fetches key directories through
// its address guard: a directory on 127.0.0.1 is refused (the signature
// unverified, the directory never asked) unless the server runs with
// AllowPrivate, which reaches it and verifies.
func TestVerifyDirectoryGuard(t *testing.T) {
	d := newKeyDirectory(t)
	body := verifyBody(t, VerifyRequest{Request: d.signedRaw(t, "Mozilla/5.0 (test)")})

	guarded := newTestServer(t, &Options{})
	d.trust(guarded)
	ev := evidence(t, post(t, guarded.URL+"/v1/verify", body))
	if ev.Outcome != "unverified" || ev.Method != verify.MethodSignature || !strings.Contains(ev.Reason, "loopback address") {
		t.Errorf("guarded: %+v", ev)
	}
	if n := d.hits.Load(); n != 0 {
		t.Errorf("guarded: the directory on loopback was asked %d times", n)
	}

	open := newTestServer(t, &Options{AllowPrivate: true})
	d.trust(open)
	for range 3 {
		ev = evidence(t, post(t, open.URL+"/v1/verify", body))
		if ev.Outcome != "verified" || ev.Method != verify.MethodSignature || ev.Agent != d.srv.URL+"/.well-known/http-message-signatures-directory" || ev.KeyID != d.keyid {
			t.Errorf("--allow-private: %+v", ev)
		}
	}
	if n := d.hits.Load(); n != 1 {
		t.Errorf("--allow-private: %d fetches of the directory for 3 requests, want 1", n)
	}
}

// TestVerifyAddress: an address and a User-Agent are checked against the
// server's lists; the answer is the evidence record.
func TestVerifyAddress(t *testing.T) {
	file := filepath.Join(t.TempDir(), "gptbot.json")
	if err := os.WriteFile(file, []byte(`{"creationTime":"2026-11-20T00:00:00Z","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, &Options{Identity: &Identity{NoDNS: true, Lists: []IdentityList{{Crawlers: []string{"GPTBot"}, Source: file}}}})
	ev := evidence(t, post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: "20.171.206.5", UserAgent: gptUA})))
	if ev.Outcome != "verified" || ev.Method != verify.MethodRanges || ev.Crawler != "GPTBot" || ev.IP != "20.171.206.5" || len(ev.Lists) != 1 || ev.Checked.IsZero() {
		t.Errorf("in the list: %+v", ev)
	}
	ev = evidence(t, post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: "192.0.2.1", UserAgent: gptUA})))
	if ev.Outcome != "spoofed" || ev.Method != verify.MethodRanges {
		t.Errorf("outside the list: %+v", ev)
	}
	// The User-Agent of a raw request names the claim when user_agent
	// does not.
	raw := "GET / HTTP/1.1\r\nHost: site.example\r\nUser-Agent: " + gptUA + "\r\n\r\n"
	ev = evidence(t, post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: "192.0.2.1", Request: raw})))
	if ev.Outcome != "spoofed" || ev.Crawler != "GPTBot" {
		t.Errorf("claim from the request: %+v", ev)
	}
	ev = evidence(t, post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: "192.0.2.1", UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"})))
	if ev.Outcome != "unverified" || ev.Crawler != "" {
		t.Errorf("a browser: %+v", ev)
	}
	post(t, ts.URL+"/v1/verify", `{}`).wantError(t, 400, "ip")
	post(t, ts.URL+"/v1/verify", `{"ip": "1.2.3"}`).wantError(t, 400, "ip")
	post(t, ts.URL+"/v1/verify", `{"ip": "192.0.2.1", "request": "not a request"}`).wantError(t, 400, "request")
}

// TestVerifyPending: on a resolver that never answers, POST /v1/verify
// answers within its wait (3 s), unverified and pending, for many
// addresses at once; the lookups go on in the background, bounded.
func TestVerifyPending(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	silent := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(dns.ResponseWriter, *dns.Msg) {})}
	go silent.ActivateAndServe()
	defer silent.Shutdown()
	// Each lookup may take a minute: past the 3 s wait, the answer is
	// pending. (With the default 2 s per lookup, the failed lookup is the
	// answer: unverified, not pending.)
	// Twenty clients behind a trusted proxy (one client may have only
	// VerifyPerClient questions in flight: TestVerifyPerClient).
	lb, err := clientip.Parse(clientip.Loopback)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, &Options{TrustedProxies: lb, Identity: &Identity{Resolver: pc.LocalAddr().String(), Timeout: time.Minute}})
	const googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			ev := evidence(t, post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: fmt.Sprintf("192.0.2.%d", i), UserAgent: googlebotUA}), "X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i)))
			if ev.Outcome != "unverified" || !ev.Pending || ev.Crawler != "Googlebot" {
				t.Errorf("%+v", ev)
			}
		})
	}
	wg.Wait()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("20 questions on a silent resolver took %s (each waits at most 3 s)", d)
	}
	if s := ts.Identifier().Stats(); s.Lookups != 20 || s.Pending != 20 {
		t.Errorf("stats %+v", s)
	}
}

// TestVerifyPerClient: one client has at most VerifyPerClient questions
// in flight (each may wait 3 s and leave a lookup behind it); past that it
// gets 429 with Retry-After, while another client is answered.
func TestVerifyPerClient(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	silent := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(dns.ResponseWriter, *dns.Msg) {})}
	go silent.ActivateAndServe()
	defer silent.Shutdown()
	lb, err := clientip.Parse(clientip.Loopback)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, &Options{TrustedProxies: lb, Identity: &Identity{Resolver: pc.LocalAddr().String(), Timeout: time.Minute}})
	const googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	var wg sync.WaitGroup
	var ok, refused atomic.Int32
	for i := range 3 * VerifyPerClient {
		wg.Go(func() {
			r := post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: fmt.Sprintf("192.0.2.%d", i), UserAgent: googlebotUA}), "X-Forwarded-For", "203.0.113.9")
			switch {
			case r.status == 200:
				ok.Add(1)
			case r.status == 429 && r.header.Get("Retry-After") != "":
				refused.Add(1)
			default:
				t.Errorf("status %d %s", r.status, r.body)
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // the first ones are waiting on DNS
	other := post(t, ts.URL+"/v1/verify", verifyBody(t, VerifyRequest{IP: "192.0.2.200", UserAgent: googlebotUA}), "X-Forwarded-For", "203.0.113.10")
	wg.Wait()
	if other.status != 200 {
		t.Errorf("another client: %d %s", other.status, other.body)
	}
	if ok.Load() > VerifyPerClient || refused.Load() < 2*VerifyPerClient {
		t.Errorf("one client: %d answered, %d refused; want at most %d answered at once", ok.Load(), refused.Load(), VerifyPerClient)
	}
	if s := ts.Identifier().Stats(); s.Lookups > VerifyPerClient+1 {
		t.Errorf("%d lookups started; the client's share is %d (+1 for the other)", s.Lookups, VerifyPerClient)
	}
}
