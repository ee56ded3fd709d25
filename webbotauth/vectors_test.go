package webbotauth

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// vector is one entry of the published Web Bot Auth test vectors.
type vector struct {
	Key            JWK    `json:"key"`
	TargetURL      string `json:"target_url"`
	CreatedMS      int64  `json:"created_ms"`
	ExpiresMS      int64  `json:"expires_ms"`
	Label          string `json:"label"`
	Signature      string `json:"signature"`
	SignatureInput string `json:"signature_input"`
	SignatureAgent string `json:"signature_agent"`
}

func readVectors(t *testing.T, file string) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

// vectorRequest is the GET request a vector signs.
func vectorRequest(t *testing.T, v vector) *http.Request {
	t.Helper()
	r, err := http.NewRequest("GET", v.TargetURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Signature-Input", v.SignatureInput)
	r.Header.Set("Signature", v.Signature)
	if v.SignatureAgent != "" {
		r.Header.Set("Signature-Agent", v.SignatureAgent)
	}
	return r
}

// TestPublishedVectors: every Web Bot Auth test vector published with the
// draft (RSA-PSS and Ed25519; no Signature-Agent, the legacy string form,
// the dictionary form) verifies with its key, at a time within its
// lifetime; and, with test keys refused (the default), is Spoofed.
func TestPublishedVectors(t *testing.T) {
	for _, file := range []string{"web_bot_auth_architecture_v1.json", "web_bot_auth_architecture_v2.json"} {
		for i, v := range readVectors(t, file) {
			k, err := ParseJWK(v.Key)
			if err != nil {
				t.Fatalf("%s #%d: key: %v", file, i, err)
			}
			at := time.UnixMilli(v.CreatedMS).Add(10 * time.Minute)
			ver := New(Options{Keys: NewKeySet(k), AllowTestKeys: true, Now: func() time.Time { return at }})
			res := ver.Verify(context.Background(), vectorRequest(t, v))
			if res.Outcome != Verified {
				t.Errorf("%s #%d (%s, %s): %s: %s", file, i, v.Key.Kty, v.Label, res.Outcome, res.Reason)
				continue
			}
			if res.KeyID != k.Thumbprint || res.Method != Method || res.Created.UnixMilli() != v.CreatedMS || res.Expires.UnixMilli() != v.ExpiresMS {
				t.Errorf("%s #%d: evidence %+v", file, i, res)
			}
			if v.SignatureAgent != "" && res.Agent != "https://signature-agent.test"+WellKnownPath {
				t.Errorf("%s #%d: agent %q", file, i, res.Agent)
			}
			prod := New(Options{Keys: NewKeySet(k), Now: func() time.Time { return at }})
			if res := prod.Verify(context.Background(), vectorRequest(t, v)); res.Outcome != Spoofed || !strings.Contains(res.Reason, "test key") {
				t.Errorf("%s #%d with test keys refused: %s: %s", file, i, res.Outcome, res.Reason)
			}
		}
	}
}

// TestPublishedVectorBase: the draft's Ed25519 dictionary-form vector
// gives the signature base the draft prints.
func TestPublishedVectorBase(t *testing.T) {
	vs := readVectors(t, "web_bot_auth_architecture_v2.json")
	v := vs[len(vs)-1]
	r := vectorRequest(t, v)
	sigs, err := ParseSignatures(r.Header)
	if err != nil {
		t.Fatal(err)
	}
	base, err := SignatureBase(FromRequest(r, ""), sigs[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `"@authority": example.com
"signature-agent";key="agent2": "https://signature-agent.test"
"@signature-params": ("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`
	if string(base) != want {
		t.Errorf("base:\n%s\nwant:\n%s", base, want)
	}
}

// TestSignatureAgentVectors: the published Signature-Agent parsing
// vectors give their URL and type.
func TestSignatureAgentVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/web_bot_auth_signature_agent_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Name    string `json:"name"`
		Header  string `json:"header"`
		Entries []struct {
			Label, URI, Type string
		} `json:"entries"`
	}
	if err := json.Unmarshal(b, &vs); err != nil || len(vs) == 0 {
		t.Fatalf("%v, %d", err, len(vs))
	}
	for _, v := range vs {
		agents, bad, err := ParseSignatureAgent([]string{v.Header}, false)
		if err != nil || len(bad) > 0 {
			t.Fatalf("%s: %v %v", v.Name, err, bad)
		}
		for _, e := range v.Entries {
			a, ok := agents[e.Label]
			if !ok || a.Value != e.URI || a.Type != e.Type {
				t.Errorf("%s: %s = %+v, want %s %s", v.Name, e.Label, a, e.URI, e.Type)
			}
		}
	}
}

// TestThumbprintVectors: RFC 7638's example and the published Ed25519
// vector give their thumbprints.
func TestThumbprintVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/jwk_thumbprint_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct{ Name, JWK, Thumbprint string }
	if err := json.Unmarshal(b, &vs); err != nil || len(vs) == 0 {
		t.Fatalf("%v, %d", err, len(vs))
	}
	for _, v := range vs {
		var j JWK
		if err := json.Unmarshal([]byte(v.JWK), &j); err != nil {
			t.Fatal(err)
		}
		if got, err := Thumbprint(j); err != nil || got != v.Thumbprint {
			t.Errorf("%s: %q, %v; want %q", v.Name, got, err, v.Thumbprint)
		}
	}
}

// TestDirectorySelfSignatureVector: the draft's signed directory response
// checks as valid; a changed body or authority does not.
func TestDirectorySelfSignatureVector(t *testing.T) {
	body := `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}`
	h := http.Header{}
	h.Set("Content-Digest", "sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:")
	h.Set("Signature-Input", `binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"`)
	h.Set("Signature", "binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:")
	ks, err := ParseKeySet([]byte(body), 0)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "https://signature-agent.test"+WellKnownPath, nil)
	now := time.Unix(1735689600+3600, 0)
	f := &fetched{header: h, body: []byte(body), req: req}
	if got := SelfSignature(f, ks, now); got != "valid" {
		t.Errorf("the draft's signed directory: %s", got)
	}
	f.body = []byte(strings.Replace(body, `"sig"`, `"enc"`, 1))
	if got := SelfSignature(f, ks, now); !strings.HasPrefix(got, "invalid") {
		t.Errorf("a changed body: %s", got)
	}
	f.body = []byte(body)
	f.req, _ = http.NewRequest("GET", "https://elsewhere.test"+WellKnownPath, nil)
	if got := SelfSignature(f, ks, now); !strings.HasPrefix(got, "invalid") {
		t.Errorf("served under another authority: %s", got)
	}
	f.req = req
	if got := SelfSignature(f, ks, time.Unix(1735689600-3600, 0)); !strings.Contains(got, "future") {
		t.Errorf("checked before it was created: %s", got)
	}
}
