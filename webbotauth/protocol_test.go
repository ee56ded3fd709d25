package webbotauth

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests of docs/protocol.md's "Web Bot Auth: unclear points"; each
// names the point it decides.

// TestAgentAttribution: a signature is attributed to the Signature-Agent
// member it covers by key (whatever its label), to the one keyed to its
// label when it covers several, and to none when it covers several and
// none is keyed to its label.
func TestAgentAttribution(t *testing.T) {
	s := newSigner(t)
	clk := newClock()
	v := New(Options{Keys: NewKeySet(mustKey(t, s.jwk)), Now: clk.Now})
	for _, c := range []struct {
		field, components, label string
		want                     Outcome
		agent                    string
	}{
		{`agent2="https://a.example"`, `"@authority" "signature-agent";key="agent2"`, "sig2", Verified, "https://a.example"},
		{`sig1="https://a.example", b="https://b.example"`, `"@authority" "signature-agent";key="b" "signature-agent";key="sig1"`, "sig1", Verified, "https://a.example"},
		{`a="https://a.example", b="https://b.example"`, `"@authority" "signature-agent";key="a" "signature-agent";key="b"`, "sig1", Verified, ""},
		{`sig1="https://a.example", b="https://b.example"`, `"@authority" "signature-agent"`, "sig1", Verified, "https://a.example"},
		{`only="https://a.example"`, `"@authority" "signature-agent"`, "sig1", Verified, "https://a.example"},
	} {
		r := request(t)
		r.Header.Set("Signature-Agent", c.field)
		s.sign(t, r, "", clk.Now(), sigSpec{label: c.label, components: c.components})
		res := v.Verify(context.Background(), r)
		want := ""
		if c.agent != "" {
			want = c.agent + WellKnownPath
		}
		if res.Outcome != c.want || res.Agent != want {
			t.Errorf("%s / %s: %s, agent %q (%s); want agent %q", c.field, c.components, res.Outcome, res.Agent, res.Reason, want)
		}
	}
	// Without keys given, an ambiguous signature names no directory.
	d := newDirServer(t, s)
	vd, _ := d.verifier(clk, DirectoryOptions{})
	r := request(t)
	r.Header.Set("Signature-Agent", `a="`+d.srv.URL+`", b="`+d.srv.URL+`"`)
	s.sign(t, r, "", clk.Now(), sigSpec{components: `"@authority" "signature-agent";key="a" "signature-agent";key="b"`})
	if res := vd.Verify(context.Background(), r); res.Outcome != Unverified || !strings.Contains(res.Reason, "none is keyed") {
		t.Errorf("ambiguous: %s: %s", res.Outcome, res.Reason)
	}
}

// TestMultipleSignatures: one signature that verifies makes the request
// Verified, whatever the others; a wrong one beside no good one makes it
// Spoofed.
func TestMultipleSignatures(t *testing.T) {
	s := newSigner(t)
	clk := newClock()
	v := New(Options{Keys: NewKeySet(mustKey(t, s.jwk)), Now: clk.Now})
	r := request(t)
	s.sign(t, r, "https://a.example", clk.Now(), sigSpec{})
	good := [2]string{r.Header.Get("Signature-Input"), r.Header.Get("Signature")}
	r.Header.Set("Signature-Input", strings.Replace(good[0], "sig1=", "bad=", 1)+", "+good[0])
	r.Header.Set("Signature", "bad=:"+strings.Repeat("A", 86)+"==:, "+good[1])
	if res := v.Verify(context.Background(), r); res.Outcome != Verified || res.Label != "sig1" {
		t.Errorf("a bad and a good signature: %s: %s", res.Outcome, res.Reason)
	}
	r.Header.Set("Signature-Input", strings.Replace(good[0], "sig1=", "bad=", 1))
	r.Header.Set("Signature", "bad=:"+strings.Repeat("A", 86)+"==:")
	if res := v.Verify(context.Background(), r); res.Outcome != Spoofed {
		t.Errorf("a bad signature alone: %s: %s", res.Outcome, res.Reason)
	}
}

// TestUnsupportedComponent: a covered component this verifier cannot
// build (the sf, bs and tr flags) leaves the request Unverified, not
// Spoofed: nothing was found wrong.
func TestUnsupportedComponent(t *testing.T) {
	s := newSigner(t)
	clk := newClock()
	v := New(Options{Keys: NewKeySet(mustKey(t, s.jwk)), Now: clk.Now})
	r := request(t)
	r.Header.Set("X-List", "a, b")
	r.Header.Set("Signature-Agent", `agent="https://a.example"`)
	// Signed by hand: sign() cannot build the base either.
	r.Header.Set("Signature-Input", `sig1=("@authority" "x-list";sf "signature-agent";key="agent");created=`+
		itoa(clk.Now().Unix())+`;expires=`+itoa(clk.Now().Add(time.Minute).Unix())+`;keyid="`+s.tp+`";tag="web-bot-auth"`)
	r.Header.Set("Signature", "sig1=:"+strings.Repeat("A", 86)+"==:")
	if res := v.Verify(context.Background(), r); res.Outcome != Unverified || !strings.Contains(res.Reason, "not supported") {
		t.Errorf("%s: %s", res.Outcome, res.Reason)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestKeyValidityMembers: a key's nbf and exp members (the draft's
// directory example carries them) bound when it verifies.
func TestKeyValidityMembers(t *testing.T) {
	s := newSigner(t)
	clk := newClock()
	for _, c := range []struct {
		nbf, exp time.Duration
		want     Outcome
	}{
		{-time.Hour, time.Hour, Verified},
		{time.Hour, 2 * time.Hour, Spoofed},
		{-2 * time.Hour, -time.Hour, Spoofed},
	} {
		j := s.jwk
		j.Nbf, j.Exp = clk.Now().Add(c.nbf).Unix(), clk.Now().Add(c.exp).Unix()
		v := New(Options{Keys: NewKeySet(mustKey(t, j)), Now: clk.Now})
		r := request(t)
		s.sign(t, r, "https://a.example", clk.Now(), sigSpec{})
		if res := v.Verify(context.Background(), r); res.Outcome != c.want {
			t.Errorf("nbf %s exp %s: %s: %s", c.nbf, c.exp, res.Outcome, res.Reason)
		}
	}
}

// TestRequestScheme: a raw request names no scheme; @target-uri is built
// with https unless told otherwise.
func TestRequestScheme(t *testing.T) {
	r, err := ReadRequest([]byte("GET /a?b=c HTTP/1.1\nHost: Example.COM:443\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := FromRequest(r, ""); m.targetURI() != "https://example.com/a?b=c" || m.Authority != "example.com" {
		t.Errorf("%q %q", m.targetURI(), m.Authority)
	}
	if m := FromRequest(r, "http"); m.targetURI() != "http://example.com:443/a?b=c" {
		t.Errorf("%q", m.targetURI())
	}
}

// TestTooManyComponents: a signature covering more than MaxComponents
// components is refused (Spoofed) before its base is built.
func TestTooManyComponents(t *testing.T) {
	s := newSigner(t)
	clk := newClock()
	v := New(Options{Keys: NewKeySet(mustKey(t, s.jwk)), Now: clk.Now})
	r := request(t)
	comps := `"@authority" "signature-agent";key="agent"`
	for i := range MaxComponents {
		name := "x-h" + strconv.Itoa(i)
		r.Header.Set(name, "v")
		comps += ` "` + name + `"`
	}
	s.sign(t, r, "https://a.example", clk.Now(), sigSpec{components: comps})
	if res := v.Verify(context.Background(), r); res.Outcome != Spoofed || !strings.Contains(res.Reason, "components") {
		t.Errorf("%s: %s", res.Outcome, res.Reason)
	}
}
