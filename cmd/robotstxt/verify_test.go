package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/verify"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// signedRequestFile writes a raw request signed at now by a new Ed25519
// key, and that key's JWK Set; it returns both paths. tamper changes the
// request after signing.
func signedRequestFile(t *testing.T, now time.Time, tamper bool) (reqFile, keysFile string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := webbotauth.PublicJWK(pub)
	tp, _ := webbotauth.Thumbprint(j)
	j.Kid = tp
	r, _ := http.NewRequest("GET", "https://example.com/page", nil)
	r.Header.Set("Signature-Agent", `bot="https://bot.example"`)
	r.Header.Set("Signature-Input", fmt.Sprintf(`sig1=("@authority" "signature-agent";key="bot");created=%d;expires=%d;keyid=%q;tag="web-bot-auth"`, now.Unix(), now.Add(5*time.Minute).Unix(), tp))
	sigs, err := webbotauth.ParseSignatures(r.Header)
	if err != nil {
		t.Fatal(err)
	}
	base, err := webbotauth.SignatureBase(webbotauth.FromRequest(r, "https"), sigs[0])
	if err != nil {
		t.Fatal(err)
	}
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(priv, base))
	host := "example.com"
	if tamper {
		host = "example.org"
	}
	raw := "GET /page HTTP/1.1\r\nHost: " + host + "\r\n" +
		"Signature-Agent: " + r.Header.Get("Signature-Agent") + "\r\n" +
		"Signature-Input: " + r.Header.Get("Signature-Input") + "\r\n" +
		"Signature: sig1=:" + sig + ":\r\n\r\n"
	dir := t.TempDir()
	reqFile, keysFile = filepath.Join(dir, "req.txt"), filepath.Join(dir, "jwks.json")
	ks, _ := json.Marshal(map[string]any{"keys": []webbotauth.JWK{j}})
	if err := os.WriteFile(reqFile, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keysFile, ks, 0o644); err != nil {
		t.Fatal(err)
	}
	return reqFile, keysFile
}

// TestVerifyRequest: verify --request gives verified (exit 0), spoofed or
// unverified (exit 1), with the evidence in text and in --json.
func TestVerifyRequest(t *testing.T) {
	now := time.Now()
	req, keys := signedRequestFile(t, now, false)
	code, out, stderr := runCmd(t, "", "verify", "--request", req, "--keys", keys)
	if code != 0 || !strings.HasPrefix(out, "verified\n") || !strings.Contains(out, "https://bot.example/.well-known/http-message-signatures-directory") {
		t.Errorf("verified: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = runCmd(t, "", "verify", "--request", req, "--keys", keys, "--json")
	var res struct{ Outcome, Method, Agent, KeyID, Reason string }
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Outcome != "verified" || res.Method != "web-bot-auth" || res.KeyID == "" {
		t.Errorf("--json: exit %d, %v, %+v", code, err, res)
	}
	code, out, _ = runCmd(t, "", "verify", "--request", req, "--keys", keys, "--at", fmt.Sprint(now.Add(time.Hour).Unix()))
	if code != 1 || !strings.HasPrefix(out, "spoofed\n") || !strings.Contains(out, "expired") {
		t.Errorf("an hour later: exit %d\n%s", code, out)
	}
	bad, badKeys := signedRequestFile(t, now, true)
	code, out, _ = runCmd(t, "", "verify", "--request", bad, "--keys", badKeys)
	if code != 1 || !strings.HasPrefix(out, "spoofed\n") {
		t.Errorf("tampered: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "GET / HTTP/1.1\nHost: example.com\n", "verify", "--request", "-", "--json")
	if code != 1 || !strings.Contains(out, `"outcome": "unverified"`) || !strings.Contains(out, `"method": "web-bot-auth"`) {
		t.Errorf("unsigned: exit %d\n%s", code, out)
	}
}

// TestVerifyPublishedVector: the draft's Ed25519 vector, as a raw request
// with its key: spoofed by default (RFC 9421's test key), verified with
// --allow-test-keys.
func TestVerifyPublishedVector(t *testing.T) {
	b, err := os.ReadFile("../../webbotauth/testdata/web_bot_auth_architecture_v2.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Key            json.RawMessage `json:"key"`
		Signature      string          `json:"signature"`
		SignatureInput string          `json:"signature_input"`
		SignatureAgent string          `json:"signature_agent"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	v := vs[len(vs)-1]
	dir := t.TempDir()
	req, keys := filepath.Join(dir, "req"), filepath.Join(dir, "key.json")
	raw := "GET /path/to/resource HTTP/1.1\nHost: example.com\nSignature-Agent: " + v.SignatureAgent +
		"\nSignature-Input: " + v.SignatureInput + "\nSignature: " + v.Signature + "\n"
	os.WriteFile(req, []byte(raw), 0o644)
	os.WriteFile(keys, v.Key, 0o644)
	code, out, stderr := runCmd(t, "", "verify", "--request", req, "--keys", keys)
	if code != 1 || !strings.Contains(out, "test keys") {
		t.Errorf("test key refused: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCmd(t, "", "verify", "--request", req, "--keys", keys, "--allow-test-keys")
	if code != 0 {
		t.Errorf("--allow-test-keys: exit %d\n%s%s", code, out, stderr)
	}
}

// TestVerifyDirectory: verify --directory lints a key directory on
// loopback: clean (exit 0), findings (exit 1), unreachable (exit 2).
func TestVerifyDirectory(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	j, _ := webbotauth.PublicJWK(pub)
	tp, _ := webbotauth.Thumbprint(j)
	kid := tp
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != webbotauth.WellKnownPath {
			http.NotFound(w, r)
			return
		}
		k := j
		k.Kid = kid
		w.Header().Set("Content-Type", webbotauth.DirectoryMediaType)
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("ETag", `"1"`)
		json.NewEncoder(w).Encode(map[string]any{"keys": []webbotauth.JWK{k}})
	}))
	defer srv.Close()
	old := verifyClient
	verifyClient = func() *http.Client { return srv.Client() }
	defer func() { verifyClient = old }()

	code, out, stderr := runCmd(t, "", "verify", "--directory", srv.URL)
	// Only a warning: the response carries no signature of its own.
	if code != 0 || !strings.Contains(out, "1 keys") || !strings.Contains(out, "no-self-signature") {
		t.Errorf("clean: exit %d\n%s%s", code, out, stderr)
	}
	kid = "my-key"
	code, out, _ = runCmd(t, "", "verify", "--directory", srv.URL, "--json")
	var rep struct {
		Outcome, Method string
		Findings        []struct{ Severity, Code string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.Outcome != "findings" || rep.Method != "directory-lint" {
		t.Fatalf("kid not a thumbprint: exit %d, %v\n%s", code, err, out)
	}
	if rep.Findings[0].Code != "kid-not-thumbprint" {
		t.Errorf("findings %+v", rep.Findings)
	}
	srv.Close()
	if code, _, stderr := runCmd(t, "", "verify", "--directory", srv.URL); code != 2 || stderr == "" {
		t.Errorf("unreachable: exit %d, %q", code, stderr)
	}
}

// TestVerifyUsage: bad usage exits 2 with one line.
func TestVerifyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"verify"},
		{"verify", "--request", "a", "--directory", "https://x"},
		{"verify", "--request", filepath.Join(t.TempDir(), "none")},
		{"verify", "--directory", "https://x", "--keys", "k"},
		{"verify", "--request", "-", "--at", "yesterday"},
		{"verify", "66.249.66.1"},
		{"verify", "not-an-ip", "Googlebot"},
		{"verify", "66.249.66.1", "Googlebot", "--dns=false", "--resolver", "127.0.0.1:53"},
		{"verify", "66.249.66.1", "Googlebot", "--request", "x"},
		{"verify", "66.249.66.1", "Googlebot", "--ip-ranges", "NoSuchBot=x.json"},
	} {
		code, out, stderr := runCmd(t, "GET / HTTP/1.1\nHost: x\n", args...)
		if code != 2 || out != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, %q, %q", args, code, out, stderr)
		}
	}
}

// TestVerifyAddress: verify IP USER-AGENT decides as audit does, by
// reverse DNS through a resolver on loopback and by an address list, with
// the evidence record in --json and the exit status of the outcome.
func TestVerifyAddress(t *testing.T) {
	resolver := auditDNS(t, map[string]string{
		"66.249.66.1": "crawl-66-249-66-1.googlebot.com.",
		"203.0.113.9": "crawl-203-0-113-9.googlebot.com.",
	}, map[string][]string{
		"crawl-66-249-66-1.googlebot.com.": {"66.249.66.1"},
		"crawl-203-0-113-9.googlebot.com.": {"66.249.66.99"}, // does not confirm
	})
	ranges := writeTemp(t, "gptbot.json", `{"creationTime":"2026-11-20T00:00:00","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`)
	gb := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, c := range []struct {
		ip, ua        string
		code          int
		outcome, meth string
		want          string // in the JSON
	}{
		{"66.249.66.1", gb, 0, "verified", "reverse-dns", `"crawl-66-249-66-1.googlebot.com"`},
		{"203.0.113.9", gb, 1, "spoofed", "reverse-dns", "does not resolve back"},
		{"20.171.206.5", "GPTBot/1.1", 0, "verified", "ip-ranges", `"creation_time": "2026-11-20T00:00:00"`},
		{"192.0.2.50", "GPTBot/1.1", 1, "spoofed", "ip-ranges", ranges},
		{"192.0.2.51", "ClaudeBot/1.0", 1, "unverified", "none", "no address list and no DNS answer"},
		{"192.0.2.52", "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0", 1, "unverified", "none", "names no crawler"},
	} {
		code, out, stderr := runCmd(t, "", "verify", c.ip, c.ua, "--resolver", resolver, "--store", "memory", "--ip-ranges", "GPTBot="+ranges, "--json")
		var e verify.Evidence
		if err := json.Unmarshal([]byte(out), &e); err != nil || code != c.code || e.Outcome != c.outcome || e.Method != c.meth || !strings.Contains(out, c.want) || e.Checked.IsZero() {
			t.Errorf("%s %s: exit %d (%v) %s%s", c.ip, c.ua, code, err, out, stderr)
		}
	}
	code, out, _ := runCmd(t, "", "verify", "20.171.206.5", "GPTBot/1.1", "--dns=false", "--ip-ranges", "GPTBot="+ranges)
	if code != 0 || !strings.HasPrefix(out, "verified\n") || !strings.Contains(out, "list") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("wider than 80 columns: %q", l)
		}
	}
}

// toLoopback sends every request to a loopback server, whatever its URL:
// the published lists' real hosts are never asked.
type toLoopback struct{ target string }

func (l toLoopback) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	u, _ := url.Parse(l.target)
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestVerifyPublished: --published fetches the lists the crawler's
// operator publishes (here served on loopback), and warns of a stale
// one.
func TestVerifyPublished(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		w.Write([]byte(`{"creationTime":"2020-01-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	}))
	defer srv.Close()
	old := auditHTTPClient
	auditHTTPClient = &http.Client{Transport: toLoopback{srv.URL}}
	defer func() { auditHTTPClient = old }()
	code, out, stderr := runCmd(t, "", "verify", "192.0.2.7", "GPTBot/1.1", "--published", "--dns=false", "--store", "memory", "--json")
	if code != 0 || !strings.Contains(out, `"url": "https://openai.com/gptbot.json"`) || !strings.Contains(stderr, "older than 30 days") {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
	mu.Lock()
	if len(paths) != 1 || paths[0] != "/gptbot.json" {
		t.Errorf("fetched %v, want GPTBot's one list", paths)
	}
	mu.Unlock()
	code, out, _ = runCmd(t, "", "verify", "203.0.113.7", "GPTBot/1.1", "--published", "--dns=false", "--store", "memory", "--json")
	if code != 1 || !strings.Contains(out, `"outcome": "spoofed"`) {
		t.Errorf("outside: exit %d\n%s", code, out)
	}
}

// TestVerifyRequestLoopbackDirectory: the CLI, as check -u does, reaches
// a key directory on loopback (a test server the operator runs), where
// the service refuses it without --allow-private.
func TestVerifyRequestLoopbackDirectory(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	j, _ := webbotauth.PublicJWK(pub)
	tp, _ := webbotauth.Thumbprint(j)
	var hits int
	var mu sync.Mutex
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		w.Header().Set("Content-Type", webbotauth.DirectoryMediaType)
		json.NewEncoder(w).Encode(map[string]any{"keys": []webbotauth.JWK{j}})
	}))
	defer srv.Close()
	old := verifyClient
	verifyClient = func() *http.Client { return srv.Client() }
	defer func() { verifyClient = old }()

	now := time.Now()
	r, _ := http.NewRequest("GET", "https://example.com/page", nil)
	r.Header.Set("Signature-Agent", fmt.Sprintf("bot=%q", srv.URL))
	r.Header.Set("Signature-Input", fmt.Sprintf(`sig1=("@authority" "signature-agent";key="bot");created=%d;expires=%d;keyid=%q;tag="web-bot-auth"`, now.Unix(), now.Add(5*time.Minute).Unix(), tp))
	sigs, err := webbotauth.ParseSignatures(r.Header)
	if err != nil {
		t.Fatal(err)
	}
	base, err := webbotauth.SignatureBase(webbotauth.FromRequest(r, "https"), sigs[0])
	if err != nil {
		t.Fatal(err)
	}
	raw := "GET /page HTTP/1.1\r\nHost: example.com\r\n" +
		"Signature-Agent: " + r.Header.Get("Signature-Agent") + "\r\n" +
		"Signature-Input: " + r.Header.Get("Signature-Input") + "\r\n" +
		"Signature: sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(priv, base)) + ":\r\n\r\n"
	code, out, stderr := runCmd(t, raw, "verify", "--request", "-", "--json")
	var res struct{ Outcome, Agent string }
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Outcome != "verified" || res.Agent != srv.URL+webbotauth.WellKnownPath {
		t.Errorf("exit %d, %v: %s%s", code, err, out, stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 1 {
		t.Errorf("the directory on loopback was fetched %d times, want 1", hits)
	}
}
