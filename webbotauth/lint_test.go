package webbotauth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"
)

func codes(r *LintReport) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Severity+":"+f.Code)
	}
	return out
}

// TestLintClean: a directory as the draft wants it (media type, keys with
// thumbprint kids, a signature per key, max-age and ETag) has no finding.
func TestLintClean(t *testing.T) {
	s1, s2 := newSigner(t), newSigner(t)
	d := newDirServer(t, s1, s2)
	d.set(func(d *dirServer) { d.selfSign = true; d.etag = `"k1"` })
	dirs := NewDirectories(DirectoryOptions{Client: d.srv.Client()})
	rep, err := dirs.Lint(context.Background(), d.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || len(rep.Keys) != 2 || rep.SelfSignature != "valid" || rep.URL != d.srv.URL+WellKnownPath {
		t.Errorf("a clean directory: %+v", rep)
	}
}

// TestLintFindings: each fault of a directory is its own finding.
func TestLintFindings(t *testing.T) {
	s := newSigner(t)
	for _, c := range []struct {
		name string
		prep func(d *dirServer)
		want []string
	}{
		{"kid label", func(d *dirServer) { d.kidLabel = "key-1" }, []string{"error:kid-not-thumbprint"}},
		{"media type", func(d *dirServer) { d.ctype = "application/json" }, []string{"error:media-type"}},
		{"private key", func(d *dirServer) {
			j := newSigner(t).jwk
			j.D = "c2VjcmV0"
			d.extra = []JWK{j}
		}, []string{"error:private-key"}},
		{"test key", func(d *dirServer) { d.extra = []JWK{rfc9421Ed25519} }, []string{"error:test-key"}},
		{"too many keys", func(d *dirServer) {
			for range 33 {
				d.extra = append(d.extra, newSigner(t).jwk)
			}
		}, []string{"error:too-many-keys"}},
		{"unsupported key", func(d *dirServer) { d.extra = []JWK{{Kty: "EC", Crv: "secp256k1", X: "AA", Y: "AA"}} }, []string{"error:bad-key"}},
		{"redirect", func(d *dirServer) { d.location = "https://elsewhere.example/keys" }, []string{"error:redirect"}},
		{"status", func(d *dirServer) { d.status = 404 }, []string{"error:status"}},
		{"too large", func(d *dirServer) { d.pad = 70000 }, []string{"error:too-large"}},
		{"no self-signature", func(d *dirServer) { d.selfSign = false }, []string{"warning:no-self-signature"}},
		{"no caching", func(d *dirServer) { d.etag = "" }, []string{"warning:validator"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDirServer(t, s)
			d.set(func(d *dirServer) { d.selfSign = true; d.etag = `"e"` })
			d.set(c.prep)
			dirs := NewDirectories(DirectoryOptions{Client: d.srv.Client(), Now: time.Now})
			rep, err := dirs.Lint(context.Background(), d.srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			got := codes(rep)
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("findings %v lack %s", got, w)
				}
			}
			if c.want[0][:5] == "error" && rep.Errors() == 0 {
				t.Errorf("no error finding: %v", got)
			}
		})
	}
	// A bare JWK and a server that cannot be reached.
	bare := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", DirectoryMediaType)
		json.NewEncoder(w).Encode(s.jwk)
	}))
	dirs := NewDirectories(DirectoryOptions{Client: bare.Client()})
	rep, err := dirs.Lint(context.Background(), bare.URL)
	if err != nil || !slices.Contains(codes(rep), "error:no-keys") {
		t.Errorf("a bare JWK: %v %v", err, codes(rep))
	}
	bare.Close()
	if _, err := dirs.Lint(context.Background(), bare.URL); err == nil {
		t.Error("a closed server lints without error")
	}
}
