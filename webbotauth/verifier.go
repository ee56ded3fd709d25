package webbotauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Outcome is what a check of a request's Web Bot Auth signatures found.
type Outcome int

// The outcomes; see the package documentation.
const (
	Unverified Outcome = iota
	Verified
	Spoofed
)

// String returns "unverified", "verified" or "spoofed".
func (o Outcome) String() string {
	switch o {
	case Verified:
		return "verified"
	case Spoofed:
		return "spoofed"
	}
	return "unverified"
}

// MarshalText writes the outcome as its String.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Method is the Result.Method of a Web Bot Auth check.
const Method = "web-bot-auth"

// Tag is the tag parameter of a Web Bot Auth signature.
const Tag = "web-bot-auth"

// DefaultSkew is the clock skew allowed on created and expires.
const DefaultSkew = time.Minute

// Result is the outcome of a check with its evidence.
type Result struct {
	Outcome Outcome `json:"outcome"`
	// Method is the check that decided: always "web-bot-auth" (the
	// evidence record of other checks names theirs).
	Method string `json:"method"`
	// Label is the signature's label in Signature-Input.
	Label string `json:"label,omitempty"`
	// Agent is the identifier the signature is attributed to: the URL
	// resolved (for a directory, its well-known URI); "" when none.
	Agent string `json:"agent,omitempty"`
	// AgentType is the member's type: directory, jwks_uri or cimd.
	AgentType string `json:"agent_type,omitempty"`
	// KeyID is the signature's keyid.
	KeyID string `json:"keyid,omitempty"`
	// Alg is the algorithm the signature was checked with.
	Alg string `json:"alg,omitempty"`
	// Created and Expires are the signature's times (zero when absent).
	Created time.Time `json:"created,omitzero"`
	Expires time.Time `json:"expires,omitzero"`
	// Nonce is the signature's nonce, when it has one.
	Nonce string `json:"nonce,omitempty"`
	// Directory is what the directory fetch found (nil when keys came
	// from Options.Keys or no fetch was made).
	Directory *DirInfo `json:"directory,omitempty"`
	// Pending is set on an Unverified result given while the directory
	// was still being fetched: a later request may verify.
	Pending bool `json:"pending,omitempty"`
	// Reason says why, in words.
	Reason string `json:"reason"`
	// Checked is when the check was made.
	Checked time.Time `json:"checked"`
}

// Options configure a Verifier. Zero fields take the defaults.
type Options struct {
	// Directories fetches key directories; nil: NewDirectories with
	// default options (no SSRF guard: pass one that has it in a service).
	Directories *Directories
	// Keys, when set, are the keys of every agent (a JWK Set read from a
	// file): nothing is fetched. A signature that covers no
	// Signature-Agent member is then checked against them too, attributed
	// to its key's thumbprint alone.
	Keys *KeySet
	// Skew is the clock skew allowed on created and expires
	// (DefaultSkew).
	Skew time.Duration
	// MaxLifetime, when set, refuses a signature whose expires is further
	// than this past its created (the draft recommends at most 24 hours
	// but its own test vectors live a century: 0 means no bound).
	MaxLifetime time.Duration
	// AllowTestKeys accepts RFC 9421's published test keys. Off
	// (production): a signature by one is Spoofed, since anyone holds
	// their private halves.
	AllowTestKeys bool
	// MaxNonces bounds the replay memory (DefaultMaxNonces).
	MaxNonces int
	// Scheme is the request's scheme when the request does not say (see
	// FromRequest).
	Scheme string
	// AllowHTTP admits http:// Signature-Agent URLs (tests).
	AllowHTTP bool
	// Now is the clock (time.Now).
	Now func() time.Time
}

// Verifier checks Web Bot Auth signatures. It is safe for concurrent use.
type Verifier struct {
	o      Options
	dirs   *Directories
	nonces *nonces
}

// New returns a Verifier with options o.
func New(o Options) *Verifier {
	if o.Skew <= 0 {
		o.Skew = DefaultSkew
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	dirs := o.Directories
	if dirs == nil && o.Keys == nil {
		dirs = NewDirectories(DirectoryOptions{Now: o.Now, AllowHTTP: o.AllowHTTP})
	}
	return &Verifier{o: o, dirs: dirs, nonces: newNonces(o.MaxNonces)}
}

// Verify checks the Web Bot Auth signatures of r.
func (v *Verifier) Verify(ctx context.Context, r *http.Request) Result {
	return v.VerifyMessage(ctx, FromRequest(r, v.o.Scheme))
}

// VerifyMessage checks the Web Bot Auth signatures of m: Verified when
// one verifies; else Spoofed when one is wrong; else Unverified.
func (v *Verifier) VerifyMessage(ctx context.Context, m *Message) Result {
	now := v.o.Now()
	res := Result{Outcome: Unverified, Method: Method, Checked: now}
	sigs, err := ParseSignatures(m.Header)
	if err != nil {
		res.Outcome, res.Reason = Spoofed, err.Error()
		return res
	}
	var others []string
	var best *Result
	for _, s := range sigs {
		if s.Tag != Tag {
			others = append(others, fmt.Sprintf("%s (tag %q)", s.Label, s.Tag))
			continue
		}
		r := v.verifyOne(ctx, m, s, now)
		if r.Outcome == Verified {
			return r
		}
		if best == nil || best.Outcome == Unverified && r.Outcome == Spoofed {
			best = &r
		}
	}
	if best != nil {
		return *best
	}
	switch {
	case len(others) > 0:
		res.Reason = fmt.Sprintf("no signature with tag %q: %s", Tag, joinComma(others))
	case len(m.Header["Signature-Agent"]) > 0:
		res.Reason = "Signature-Agent without a signature"
	default:
		res.Reason = "no signature"
	}
	return res
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// verifyOne checks one Web Bot Auth signature.
func (v *Verifier) verifyOne(ctx context.Context, m *Message, s *Signature, now time.Time) Result {
	r := Result{Outcome: Spoofed, Method: Method, Label: s.Label, KeyID: s.KeyID, Alg: s.Alg, Nonce: s.Nonce, Checked: now}
	if s.HasCreated {
		r.Created = time.Unix(s.Created, 0).UTC()
	}
	if s.HasExpires {
		r.Expires = time.Unix(s.Expires, 0).UTC()
	}
	spoofed := func(format string, a ...any) Result {
		r.Outcome, r.Reason = Spoofed, fmt.Sprintf("signature %s: ", s.Label)+fmt.Sprintf(format, a...)
		return r
	}
	unverified := func(format string, a ...any) Result {
		r.Outcome, r.Reason = Unverified, fmt.Sprintf("signature %s: ", s.Label)+fmt.Sprintf(format, a...)
		return r
	}
	switch {
	case s.Err != nil:
		return spoofed("%v", s.Err)
	case s.Value == nil:
		return spoofed("Signature has no member %q", s.Label)
	case !s.HasCreated:
		return spoofed("no created parameter (the draft requires it)")
	case !s.HasExpires:
		return spoofed("no expires parameter (the draft requires it)")
	case s.KeyID == "":
		return spoofed("no keyid parameter")
	case s.Alg == algHMACSHA256:
		return spoofed("alg hmac-sha256: the draft forbids shared secrets")
	}
	switch {
	case r.Created.After(now.Add(v.o.Skew)):
		return spoofed("created %s is in the future (clock skew allowed: %s)", r.Created.Format(time.RFC3339), v.o.Skew)
	case r.Expires.Before(now.Add(-v.o.Skew)):
		return spoofed("expired at %s (clock skew allowed: %s)", r.Expires.Format(time.RFC3339), v.o.Skew)
	case r.Expires.Before(r.Created):
		return spoofed("expires before it is created")
	case v.o.MaxLifetime > 0 && r.Expires.Sub(r.Created) > v.o.MaxLifetime:
		return spoofed("lives %s, over the %s allowed", r.Expires.Sub(r.Created), v.o.MaxLifetime)
	}
	if !coversTarget(s) {
		return spoofed("covers neither @authority nor @target-uri (the draft requires one)")
	}
	base, err := SignatureBase(m, s)
	if err != nil {
		if errors.Is(err, errUnsupported) {
			return unverified("%v", err)
		}
		return spoofed("%v", err)
	}

	var keys *KeySet
	agents, bad, err := ParseSignatureAgent(m.Header["Signature-Agent"], v.o.AllowHTTP)
	if err != nil {
		return spoofed("%v", err)
	}
	agent, agentErr := agentOf(s, agents, bad)
	switch {
	case agentErr == nil:
		r.Agent, r.AgentType = agent.ID, agent.Type
		if v.o.Keys != nil {
			keys = v.o.Keys
			break
		}
		ks, info, err := v.dirs.Keys(ctx, agent, s.KeyID)
		r.Directory = &info
		if err != nil {
			var de *DiscoveryError
			r.Pending = errors.As(err, &de) && de.Pending
			return unverified("%v", err)
		}
		keys = ks
	case v.o.Keys != nil:
		// No URL: the identifier is the key's thumbprint alone.
		keys = v.o.Keys
	default:
		return unverified("%v", agentErr)
	}

	k := keys.Find(s.KeyID)
	if k == nil {
		where := "the keys given"
		if r.Agent != "" && v.o.Keys == nil {
			where = "directory " + r.Agent
		}
		if byKid := keys.ByKid(s.KeyID); byKid != nil {
			return spoofed("keyid %q is a key's kid in %s, not its JWK thumbprint %s (the draft requires the thumbprint)", s.KeyID, where, byKid.Thumbprint)
		}
		return spoofed("%s holds no key whose JWK thumbprint is keyid %q", where, s.KeyID)
	}
	if !v.o.AllowTestKeys && IsTestKey(k.Thumbprint) {
		return spoofed("key %s is one of RFC 9421's published test keys, which anyone can sign with", k.Thumbprint)
	}
	if k.JWK.Nbf != 0 && now.Add(v.o.Skew).Before(time.Unix(k.JWK.Nbf, 0)) {
		return spoofed("key %s is not valid before %s (its nbf)", k.Thumbprint, time.Unix(k.JWK.Nbf, 0).UTC().Format(time.RFC3339))
	}
	if k.JWK.Exp != 0 && now.Add(-v.o.Skew).After(time.Unix(k.JWK.Exp, 0)) {
		return spoofed("key %s expired at %s (its exp)", k.Thumbprint, time.Unix(k.JWK.Exp, 0).UTC().Format(time.RFC3339))
	}
	if err := verifyWith(k, s.Alg, base, s.Value); err != nil {
		return spoofed("%v: a covered component was changed, or another key signed", err)
	}
	if r.Alg == "" {
		r.Alg = k.Algs[0]
	}
	if s.Nonce != "" {
		id := r.Agent + "\x00" + k.Thumbprint + "\x00" + s.Nonce
		if v.nonces.seen(id, r.Expires.Add(v.o.Skew), now) {
			return spoofed("nonce %q was seen before within the signature's lifetime: a replay", s.Nonce)
		}
	}
	r.Outcome = Verified
	if r.Agent == "" {
		r.Reason = fmt.Sprintf("signature %s verifies with key %s; it names no Signature-Agent, so it is attributed to the key alone", s.Label, k.Thumbprint)
	} else {
		r.Reason = fmt.Sprintf("signature %s verifies with key %s of %s", s.Label, k.Thumbprint, r.Agent)
	}
	return r
}

// coversTarget reports whether s covers @authority or @target-uri, one of
// which the draft requires.
func coversTarget(s *Signature) bool {
	for _, it := range s.Input.Items {
		if name, _ := it.Value.(string); name == "@authority" || name == "@target-uri" {
			return true
		}
	}
	return false
}
