package webbotauth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func ptr(s string) *string { return &s }

// TestOutcomes: each way a signature can be wrong gives the outcome the
// package documentation states, with a reason that says why.
func TestOutcomes(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	agent := d.srv.URL
	for _, c := range []struct {
		name   string
		prep   func(r *http.Request, now time.Time)
		want   Outcome
		reason string
	}{
		{"valid", func(r *http.Request, now time.Time) { s.sign(t, r, agent, now, sigSpec{}) }, Verified, "verifies"},
		{"tampered authority", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{})
			r.Host = "other.example"
		}, Spoofed, "does not verify"},
		{"tampered path", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{components: `"@authority" "@path" "signature-agent";key="agent"`})
			r.URL.Path = "/admin"
		}, Spoofed, "does not verify"},
		{"tampered target-uri", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{components: `"@target-uri" "signature-agent";key="agent"`})
			r.URL.RawQuery = "q=2"
		}, Spoofed, "does not verify"},
		{"covered field removed", func(r *http.Request, now time.Time) {
			r.Header.Set("User-Agent", "ExampleBot/1.0")
			s.sign(t, r, agent, now, sigSpec{components: `"@authority" "user-agent" "signature-agent";key="agent"`})
			r.Header.Del("User-Agent")
		}, Spoofed, "absent"},
		{"expired", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{created: now.Add(-time.Hour).Unix(), expires: now.Add(-10 * time.Minute).Unix()})
		}, Spoofed, "expired"},
		{"expired within the skew", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{created: now.Add(-time.Hour).Unix(), expires: now.Add(-30 * time.Second).Unix()})
		}, Verified, "verifies"},
		{"created in the future", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{created: now.Add(10 * time.Minute).Unix(), expires: now.Add(20 * time.Minute).Unix()})
		}, Spoofed, "future"},
		{"no expires", func(r *http.Request, now time.Time) { s.sign(t, r, agent, now, sigSpec{noExpires: true}) }, Spoofed, "expires"},
		{"wrong tag", func(r *http.Request, now time.Time) { s.sign(t, r, agent, now, sigSpec{tag: ptr("other-protocol")}) }, Unverified, "tag"},
		{"no tag", func(r *http.Request, now time.Time) { s.sign(t, r, agent, now, sigSpec{tag: ptr("")}) }, Unverified, "tag"},
		{"keyid not the thumbprint", func(r *http.Request, now time.Time) {
			d.set(func(d *dirServer) { d.kidLabel = "my-key-2026" })
			s.sign(t, r, agent, now, sigSpec{keyid: "my-key-2026"})
		}, Spoofed, "not its JWK thumbprint"},
		{"unknown keyid", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{keyid: newSigner(t).tp})
		}, Spoofed, "holds no key"},
		{"signed by another key", func(r *http.Request, now time.Time) {
			newSigner(t).sign(t, r, agent, now, sigSpec{keyid: s.tp})
		}, Spoofed, "does not verify"},
		{"wrong alg", func(r *http.Request, now time.Time) { s.sign(t, r, agent, now, sigSpec{alg: AlgRSAPSS}) }, Spoofed, "does not fit"},
		{"hmac", func(r *http.Request, now time.Time) { s.sign(t, r, agent, now, sigSpec{alg: "hmac-sha256"}) }, Spoofed, "shared secrets"},
		{"no authority covered", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{components: `"@path" "signature-agent";key="agent"`})
		}, Spoofed, "@authority"},
		{"no Signature-Agent covered", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{components: `"@authority"`})
		}, Unverified, "Signature-Agent"},
		{"unknown agent type", func(r *http.Request, now time.Time) {
			r.Header.Set("Signature-Agent", fmt.Sprintf("agent=%q;type=magic", agent))
			s.sign(t, r, "", now, sigSpec{})
		}, Unverified, "type"},
		{"agent not https", func(r *http.Request, now time.Time) {
			s.sign(t, r, strings.Replace(agent, "https:", "http:", 1), now, sigSpec{})
		}, Unverified, "not https"},
		{"directory member with a path", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent+"/keys.json", now, sigSpec{})
		}, Unverified, "origin"},
		{"no signature", func(r *http.Request, now time.Time) {}, Unverified, "no signature"},
		{"malformed Signature-Input", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{})
			r.Header.Set("Signature-Input", "sig1=(\"@authority\";created=x")
		}, Spoofed, "structured"},
		{"Signature without the label", func(r *http.Request, now time.Time) {
			s.sign(t, r, agent, now, sigSpec{})
			r.Header.Set("Signature", "other=:AAAA:")
		}, Spoofed, "no member"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d.set(func(d *dirServer) { d.kidLabel = "" })
			clk := newClock()
			clk.t = time.Now()
			v, _ := d.verifier(clk, DirectoryOptions{})
			r := request(t)
			c.prep(r, clk.Now())
			res := v.Verify(context.Background(), r)
			if res.Outcome != c.want || !strings.Contains(res.Reason, c.reason) {
				t.Errorf("%s: %s (%q); want %s with %q", c.name, res.Outcome, res.Reason, c.want, c.reason)
			}
			if c.name == "valid" && (res.Agent != agent+WellKnownPath || res.KeyID != s.tp || res.Method != Method || res.Directory == nil) {
				t.Errorf("evidence: %+v", res)
			}
			if res.Method != Method {
				t.Errorf("method %q for an unsigned request", res.Method)
			}
		})
	}
}

// TestReplay: a signature with a nonce verifies once; the same request
// again, within the signature's lifetime, is Spoofed; a new nonce, or a
// signature without one, verifies.
func TestReplay(t *testing.T) {
	s := newSigner(t)
	clk := newClock()
	v := New(Options{Keys: NewKeySet(mustKey(t, s.jwk)), Now: clk.Now})
	r := request(t)
	s.sign(t, r, "https://bot.example", clk.Now(), sigSpec{nonce: "n-1"})
	if res := v.Verify(context.Background(), r); res.Outcome != Verified {
		t.Fatalf("first use: %s: %s", res.Outcome, res.Reason)
	}
	clk.Add(time.Minute)
	if res := v.Verify(context.Background(), r); res.Outcome != Spoofed || !strings.Contains(res.Reason, "replay") {
		t.Errorf("second use: %s: %s", res.Outcome, res.Reason)
	}
	r2 := request(t)
	s.sign(t, r2, "https://bot.example", clk.Now(), sigSpec{nonce: "n-2"})
	if res := v.Verify(context.Background(), r2); res.Outcome != Verified {
		t.Errorf("a new nonce: %s: %s", res.Outcome, res.Reason)
	}
	r3 := request(t)
	s.sign(t, r3, "https://bot.example", clk.Now(), sigSpec{})
	for i := range 2 {
		if res := v.Verify(context.Background(), r3); res.Outcome != Verified {
			t.Errorf("no nonce, use %d: %s: %s", i+1, res.Outcome, res.Reason)
		}
	}
	// A signature that does not verify leaves no nonce behind.
	r4 := request(t)
	s.sign(t, r4, "https://bot.example", clk.Now(), sigSpec{nonce: "n-3"})
	good := r4.Header.Get("Signature")
	r4.Header.Set("Signature", "sig1=:"+strings.Repeat("A", 86)+"==:")
	if res := v.Verify(context.Background(), r4); res.Outcome != Spoofed {
		t.Fatalf("a bad signature: %s", res.Outcome)
	}
	r4.Header.Set("Signature", good)
	if res := v.Verify(context.Background(), r4); res.Outcome != Verified {
		t.Errorf("after a bad signature with its nonce: %s: %s", res.Outcome, res.Reason)
	}
}

// TestNonceMemoryBounded: the replay memory holds at most its bound, and
// forgets a nonce once its signature has expired.
func TestNonceMemoryBounded(t *testing.T) {
	n := newNonces(100)
	now := time.Now()
	for i := range 10000 {
		if n.seen(fmt.Sprint(i), now.Add(time.Hour), now) {
			t.Fatalf("nonce %d seen", i)
		}
	}
	if n.len() > 100 {
		t.Errorf("%d nonces remembered, bound 100", n.len())
	}
	if !n.seen("9999", now.Add(time.Hour), now) {
		t.Error("the newest nonce is forgotten")
	}
	later := now.Add(2 * time.Hour)
	if n.seen("9999", later.Add(time.Hour), later) {
		t.Error("a nonce is remembered past its signature's lifetime")
	}
}

func mustKey(t testing.TB, j JWK) *Key {
	t.Helper()
	k, err := ParseJWK(j)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestConcurrentVerify: many goroutines verifying through one uncached
// directory make one fetch (run with -race).
func TestConcurrentVerify(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := request(t)
			s.sign(t, r, d.srv.URL, clk.Now(), sigSpec{})
			if res := v.Verify(context.Background(), r); res.Outcome != Verified {
				errs <- res.Reason
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if h := d.hits.Load(); h != 1 {
		t.Errorf("%d fetches for 64 concurrent requests, want 1", h)
	}
}
