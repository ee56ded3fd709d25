package webbotauth

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"
)

// FuzzVerify: any Signature-Input, Signature and Signature-Agent values
// (the structured-field parsing, the agent's URL, the base) give an
// outcome without panicking, and only a real signature is Verified.
func FuzzVerify(f *testing.F) {
	for _, file := range []string{"web_bot_auth_architecture_v1.json", "web_bot_auth_architecture_v2.json"} {
		b, err := os.ReadFile("testdata/" + file)
		if err != nil {
			f.Fatal(err)
		}
		var vs []vector
		if err := json.Unmarshal(b, &vs); err != nil {
			f.Fatal(err)
		}
		for _, v := range vs {
			f.Add(v.SignatureInput, v.Signature, v.SignatureAgent)
		}
	}
	f.Add(`sig1=("@authority" "signature-agent";key="a" "@query-param";name="x" "x";sf "y";key="z");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig1=:AAAA:`, `a="https://a.example";type=jwks_uri, z=?1`)
	f.Add(`a=(), b=("@method";req);tag="web-bot-auth";created=-1;expires=9999999999999`, `a=:: , b=?0`, `"https://x"`)
	f.Add("sig1=(\"@target-uri\");created=1;expires=2;tag=\"web-bot-auth\";keyid=\"\u00e9\"", `sig1=:=:`, `a=("x" "y")`)
	s := newSigner(f)
	keys := NewKeySet(mustKey(f, s.jwk))
	now := time.Unix(1735689600+60, 0)
	v := New(Options{Keys: keys, AllowTestKeys: true, Now: func() time.Time { return now }})
	f.Fuzz(func(t *testing.T, input, sig, agent string) {
		r, err := http.NewRequest("GET", "https://example.com/path/to/resource?x=1", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Header["Signature-Input"] = []string{input}
		r.Header["Signature"] = []string{sig}
		r.Header["Signature-Agent"] = []string{agent}
		res := v.Verify(context.Background(), r)
		if res.Outcome == Verified {
			t.Fatalf("a fuzzed signature verifies: %+v", res)
		}
		ParseSignatureAgent([]string{agent}, true)
	})
}
