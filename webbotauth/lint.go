package webbotauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Finding is one thing Lint found wrong or worth saying about a directory.
type Finding struct {
	// Severity is "error" (the directory breaks the draft or cannot be
	// used) or "warning" (it works, but not as well as it should).
	Severity string `json:"severity"`
	// Code names the check ("media-type", "kid-not-thumbprint").
	Code string `json:"code"`
	// Message says what was found, in words.
	Message string `json:"message"`
}

// LintReport is what Lint found about one key directory.
type LintReport struct {
	// URL is the URL fetched.
	URL string `json:"url"`
	// Status is the HTTP status (0 when no response came).
	Status int `json:"status"`
	// ContentType is the response's Content-Type.
	ContentType string `json:"content_type,omitempty"`
	// CacheControl, ETag and LastModified are the caching headers.
	CacheControl string `json:"cache_control,omitempty"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	// Keys lists the keys that parsed: thumbprint, kid and algorithm.
	Keys []LintKey `json:"keys"`
	// SelfSignature is the directory's own signature (see DirInfo).
	SelfSignature string `json:"self_signature,omitempty"`
	// Findings are the problems, errors first.
	Findings []Finding `json:"findings"`
}

// LintKey is one key of a linted directory.
type LintKey struct {
	Thumbprint string   `json:"thumbprint"`
	Kid        string   `json:"kid,omitempty"`
	Kty        string   `json:"kty"`
	Algs       []string `json:"algs"`
}

// Errors returns how many findings are errors.
func (r *LintReport) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == "error" {
			n++
		}
	}
	return n
}

// DirectoryURL returns the URL a linter fetches for target: an origin
// ("https://bot.example") means its well-known directory; any other URL
// is fetched as given.
func DirectoryURL(target string) (string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return "", err
	}
	if u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute URL", target)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = WellKnownPath
	}
	return u.String(), nil
}

// Lint fetches the key directory at target (an origin or a URL) once, with
// d's client and limits (no cache, no redirect), and checks it: status,
// media type, a "keys" array within the key limit, each key usable, its
// kid its thumbprint, no private members, no RFC 9421 test key, the
// directory's own signature, and caching headers. The error is for a
// directory that could not be fetched at all (no HTTP response).
func (d *Directories) Lint(ctx context.Context, target string) (*LintReport, error) {
	u, err := DirectoryURL(target)
	if err != nil {
		return nil, err
	}
	rep := &LintReport{URL: u, Keys: []LintKey{}, Findings: []Finding{}}
	add := func(sev, code, format string, a ...any) {
		rep.Findings = append(rep.Findings, Finding{sev, code, fmt.Sprintf(format, a...)})
	}
	defer func() {
		// Errors first, each group in the order found.
		var errs, warns []Finding
		for _, f := range rep.Findings {
			if f.Severity == "error" {
				errs = append(errs, f)
			} else {
				warns = append(warns, f)
			}
		}
		rep.Findings = append(errs, warns...)
	}()
	if !strings.HasPrefix(u, "https://") {
		add("error", "not-https", "the directory is not served over https, as the draft requires")
	}
	f, err := d.get(ctx, u, acceptKeys, "", "")
	if f == nil {
		var de *DiscoveryError
		if errors.As(err, &de) {
			return rep, errors.New(de.Reason)
		}
		return rep, err
	}
	rep.Status = f.status
	rep.ContentType = f.header.Get("Content-Type")
	rep.CacheControl = f.header.Get("Cache-Control")
	rep.ETag = f.header.Get("ETag")
	rep.LastModified = f.header.Get("Last-Modified")
	if err != nil {
		var de *DiscoveryError
		code := "status"
		if f.status >= 300 && f.status < 400 {
			code = "redirect"
		} else if f.status == http.StatusOK {
			code = "too-large"
		}
		reason := err.Error()
		if errors.As(err, &de) {
			reason = de.Reason
		}
		add("error", code, "%s", reason)
		return rep, nil
	}
	mt, _, perr := mime.ParseMediaType(rep.ContentType)
	switch {
	case perr != nil || rep.ContentType == "":
		add("error", "media-type", "no usable Content-Type (%q); want %s", rep.ContentType, DirectoryMediaType)
	case mt == DirectoryMediaType:
	case strings.HasSuffix(u, WellKnownPath):
		add("error", "media-type", "served as %s; the draft requires %s at the well-known URI", mt, DirectoryMediaType)
	case mt == "application/jwk-set+json" || mt == "application/json":
		add("warning", "media-type", "served as %s; %s says what it is", mt, DirectoryMediaType)
	default:
		add("error", "media-type", "served as %s, not JSON", mt)
	}
	var doc struct {
		Keys *[]json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(f.body, &doc); err != nil {
		add("error", "not-json", "the body is not JSON: %v", err)
		return rep, nil
	}
	if doc.Keys == nil {
		var bare JWK
		if json.Unmarshal(f.body, &bare) == nil && bare.Kty != "" {
			add("error", "no-keys", `the body is a bare JWK, not a JWK Set ({"keys": [...]})`)
		} else {
			add("error", "no-keys", `the body has no "keys" array`)
		}
		return rep, nil
	}
	raw := *doc.Keys
	if len(raw) == 0 {
		add("error", "no-keys", `the "keys" array is empty`)
	}
	if len(raw) > d.o.MaxKeys {
		add("error", "too-many-keys", "%d keys, over the limit of %d verifiers are told to enforce here", len(raw), d.o.MaxKeys)
	}
	seen := map[string]bool{}
	var parsed []*Key
	now := d.o.Now()
	for i, r := range raw {
		var j JWK
		if err := json.Unmarshal(r, &j); err != nil {
			add("error", "bad-key", "key %d is not a JWK: %v", i+1, err)
			continue
		}
		name := fmt.Sprintf("key %d", i+1)
		if j.Kid != "" {
			name += fmt.Sprintf(" (kid %q)", j.Kid)
		}
		var members map[string]json.RawMessage
		json.Unmarshal(r, &members)
		private := false
		for _, m := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
			_, has := members[m]
			private = private || has
		}
		if private {
			add("error", "private-key", "%s carries private key members: the private key is published", name)
		}
		k, err := ParseJWK(j)
		if err != nil {
			add("error", "bad-key", "%s: %v", name, err)
			continue
		}
		parsed = append(parsed, k)
		rep.Keys = append(rep.Keys, LintKey{Thumbprint: k.Thumbprint, Kid: j.Kid, Kty: j.Kty, Algs: k.Algs})
		if j.Kid != "" && j.Kid != k.Thumbprint {
			add("error", "kid-not-thumbprint", "%s: the kid is not the key's JWK SHA-256 thumbprint %s (the draft requires it; signatures must name the thumbprint)", name, k.Thumbprint)
		}
		if IsTestKey(k.Thumbprint) {
			add("error", "test-key", "%s is one of RFC 9421's published test keys: anyone can sign with it", name)
		}
		if seen[k.Thumbprint] {
			add("warning", "duplicate-key", "%s appears twice", name)
		}
		seen[k.Thumbprint] = true
		if j.Use != "" && j.Use != "sig" {
			add("warning", "use", "%s has use %q, not \"sig\"", name, j.Use)
		}
		if j.Exp != 0 && now.After(time.Unix(j.Exp, 0)) {
			add("warning", "key-expired", "%s expired at %s (exp) and is still published", name, time.Unix(j.Exp, 0).UTC().Format(time.RFC3339))
		}
	}
	ks := NewKeySet(parsed...)
	rep.SelfSignature = SelfSignature(f, ks, now)
	switch {
	case rep.SelfSignature == "absent":
		add("warning", "no-self-signature", "the response carries no signature of its own (tag %q); the draft recommends one per key", DirectoryTag)
	case strings.HasPrefix(rep.SelfSignature, "invalid"):
		add("error", "bad-self-signature", "the directory's own signature: %s", strings.TrimPrefix(rep.SelfSignature, "invalid: "))
	}
	if rep.SelfSignature == "valid" {
		signed := map[string]bool{}
		if sigs, err := ParseSignatures(f.header); err == nil {
			for _, s := range sigs {
				if s.Tag == DirectoryTag {
					signed[s.KeyID] = true
				}
			}
		}
		for _, k := range parsed {
			if !signed[k.Thumbprint] {
				add("warning", "key-not-self-signed", "key %s has no signature of its own on the response", k.Thumbprint)
			}
		}
	}
	cc := strings.ToLower(rep.CacheControl)
	switch {
	case strings.Contains(cc, "no-store"):
		add("warning", "cache", "Cache-Control: no-store makes verifiers fetch the directory again and again")
	case !strings.Contains(cc, "max-age") && f.header.Get("Expires") == "":
		add("warning", "cache", "no Cache-Control max-age or Expires: verifiers guess how long to keep the keys")
	}
	if rep.ETag == "" && rep.LastModified == "" {
		add("warning", "validator", "no ETag or Last-Modified: every refresh downloads the whole directory")
	}
	return rep, nil
}
