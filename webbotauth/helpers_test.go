package webbotauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a settable clock for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// signer is an Ed25519 key that signs test requests.
type signer struct {
	priv ed25519.PrivateKey
	jwk  JWK
	tp   string
}

func newSigner(t testing.TB) *signer {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := PublicJWK(pub)
	tp, _ := Thumbprint(j)
	j.Kid = tp
	return &signer{priv: priv, jwk: j, tp: tp}
}

// sigSpec is what a test signature says; zero fields take the defaults
// of sign.
type sigSpec struct {
	label      string
	components string // inner list contents
	created    int64
	expires    int64
	keyid      string
	tag        *string
	nonce      string
	alg        string
	noExpires  bool
}

// sign adds a Web Bot Auth signature to r at time now: by default
// ("@authority" "signature-agent";key="agent"), created now, expiring in
// five minutes, keyid the thumbprint, tag web-bot-auth, with
// Signature-Agent: agent="agentURL" when agentURL is not "".
func (s *signer) sign(t testing.TB, r *http.Request, agentURL string, now time.Time, sp sigSpec) {
	t.Helper()
	if sp.label == "" {
		sp.label = "sig1"
	}
	if sp.components == "" {
		sp.components = `"@authority" "signature-agent";key="agent"`
	}
	if sp.created == 0 {
		sp.created = now.Unix()
	}
	if sp.expires == 0 {
		sp.expires = now.Add(5 * time.Minute).Unix()
	}
	if sp.keyid == "" {
		sp.keyid = s.tp
	}
	tag := Tag
	if sp.tag != nil {
		tag = *sp.tag
	}
	if agentURL != "" {
		r.Header.Set("Signature-Agent", fmt.Sprintf("agent=%q", agentURL))
	}
	in := fmt.Sprintf("%s=(%s);created=%d", sp.label, sp.components, sp.created)
	if !sp.noExpires {
		in += fmt.Sprintf(";expires=%d", sp.expires)
	}
	in += fmt.Sprintf(";keyid=%q", sp.keyid)
	if sp.alg != "" {
		in += fmt.Sprintf(";alg=%q", sp.alg)
	}
	if sp.nonce != "" {
		in += fmt.Sprintf(";nonce=%q", sp.nonce)
	}
	in += fmt.Sprintf(";tag=%q", tag)
	r.Header.Set("Signature-Input", in)
	sigs, err := ParseSignatures(r.Header)
	if err != nil || len(sigs) != 1 {
		t.Fatalf("sign: %v", err)
	}
	base, err := SignatureBase(FromRequest(r, ""), sigs[0])
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	sig := ed25519.Sign(s.priv, base)
	r.Header.Set("Signature", sp.label+"=:"+base64.StdEncoding.EncodeToString(sig)+":")
}

// dirServer is a key directory on loopback (TLS) whose answers a test
// changes.
type dirServer struct {
	srv  *httptest.Server
	hits atomic.Int64

	mu       sync.Mutex
	keys     []*signer
	kidLabel string // when set, every key's kid
	status   int
	location string
	maxAge   int
	etag     string
	selfSign bool
	extra    []JWK
	sawINM   []string
	pad      int
	ctype    string
	gate     chan struct{} // when set, each answer waits for it to close
}

func newDirServer(t testing.TB, keys ...*signer) *dirServer {
	d := &dirServer{keys: keys, status: 200, maxAge: 3600, ctype: DirectoryMediaType}
	d.srv = httptest.NewTLSServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *dirServer) set(f func(d *dirServer)) {
	d.mu.Lock()
	f(d)
	d.mu.Unlock()
}

func (d *dirServer) serve(w http.ResponseWriter, r *http.Request) {
	d.hits.Add(1)
	d.mu.Lock()
	gate := d.gate
	d.mu.Unlock()
	if gate != nil {
		<-gate
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		d.sawINM = append(d.sawINM, inm)
		if inm == d.etag && d.status == 200 {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if d.location != "" {
		http.Redirect(w, r, d.location, http.StatusFound)
		return
	}
	if d.status != 200 {
		http.Error(w, "down", d.status)
		return
	}
	var keys []JWK
	for _, k := range d.keys {
		j := k.jwk
		if d.kidLabel != "" {
			j.Kid = d.kidLabel
		}
		keys = append(keys, j)
	}
	keys = append(keys, d.extra...)
	doc := map[string]any{"keys": keys}
	if d.pad > 0 {
		doc["padding"] = strings.Repeat("x", d.pad)
	}
	body, _ := json.Marshal(doc)
	w.Header().Set("Content-Type", d.ctype)
	w.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", d.maxAge))
	if d.etag != "" {
		w.Header().Set("ETag", d.etag)
	}
	if d.selfSign {
		sum := sha256.Sum256(body)
		w.Header().Set("Content-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")
		var ins, sigs []string
		for i, k := range d.keys {
			label := fmt.Sprintf("b%d", i)
			in := fmt.Sprintf(`%s=("@authority";req "content-digest");created=%d;expires=%d;keyid=%q;tag=%q`,
				label, time.Now().Add(-time.Hour).Unix(), time.Now().Add(time.Hour).Unix(), k.tp, DirectoryTag)
			h := http.Header{}
			h.Set("Signature-Input", in)
			h.Set("Content-Digest", w.Header().Get("Content-Digest"))
			ps, _ := ParseSignatures(h)
			req := FromRequest(r, "https")
			base, err := SignatureBase(&Message{Header: h, Request: req}, ps[0])
			if err != nil {
				panic(err)
			}
			ins = append(ins, in)
			sigs = append(sigs, label+"=:"+base64.StdEncoding.EncodeToString(ed25519.Sign(k.priv, base))+":")
		}
		w.Header().Set("Signature-Input", strings.Join(ins, ", "))
		w.Header().Set("Signature", strings.Join(sigs, ", "))
	}
	w.Write(body)
}

// verifier returns a Verifier that fetches from d's server with clock c.
func (d *dirServer) verifier(c *clock, o DirectoryOptions) (*Verifier, *Directories) {
	o.Client = d.srv.Client()
	o.Now = c.Now
	dirs := NewDirectories(o)
	return New(Options{Directories: dirs, Now: c.Now}), dirs
}

// request returns a GET of https://example.com/page.
func request(t testing.TB) *http.Request {
	r, err := http.NewRequest("GET", "https://example.com/page?q=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
