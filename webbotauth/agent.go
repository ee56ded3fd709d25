package webbotauth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/dunglas/httpsfv"
)

// The Signature-Agent member types of the draft (§ Key Distribution and
// Discovery).
const (
	TypeDirectory = "directory"
	TypeJWKSURI   = "jwks_uri"
	TypeCIMD      = "cimd"
)

// WellKnownPath is where a "directory" member's origin serves its keys.
const WellKnownPath = "/.well-known/http-message-signatures-directory"

// DirectoryMediaType is the media type a directory at WellKnownPath must
// be served with.
const DirectoryMediaType = "application/http-message-signatures-directory+json"

// Agent is one Signature-Agent member: where a signature's keys are.
type Agent struct {
	// Member is the member's key in the dictionary; for the legacy string
	// form, the label of the signature that covers it.
	Member string `json:"member,omitempty"`
	// Value is the URL as sent.
	Value string `json:"value"`
	// Type is TypeDirectory, TypeJWKSURI or TypeCIMD.
	Type string `json:"type"`
	// Legacy reports the bare-string form of earlier drafts.
	Legacy bool `json:"legacy,omitempty"`
	// Fetch is the URL fetched: the well-known URI of a directory's
	// origin, else Value.
	Fetch string `json:"fetch"`
	// ID is the identifier: Fetch normalized (RFC 3986 §6.2.2 and
	// §6.2.3), without query or fragment. Keys are looked up by the pair
	// (ID, key id), never by the key id alone.
	ID string `json:"id"`
}

// ParseAgentValue reads one member of Signature-Agent (an sf-string with
// an optional type token) into an Agent. allowHTTP admits http URLs (tests
// and linting a test server); the draft requires https.
func ParseAgentValue(member string, it httpsfv.Item, allowHTTP bool) (Agent, error) {
	s, ok := it.Value.(string)
	if !ok {
		return Agent{}, fmt.Errorf("member %q is not a string", member)
	}
	a := Agent{Member: member, Value: s, Type: TypeDirectory}
	if it.Params != nil {
		if v, ok := it.Params.Get("type"); ok {
			tok, ok := v.(httpsfv.Token)
			if !ok {
				return a, fmt.Errorf("member %q: type is not a token", member)
			}
			a.Type = string(tok)
		}
	}
	switch a.Type {
	case TypeDirectory, TypeJWKSURI, TypeCIMD:
	default:
		return a, fmt.Errorf("member %q: type %q is not one this verifier supports (directory, jwks_uri, cimd)", member, a.Type)
	}
	u, err := url.Parse(s)
	if err != nil {
		return a, fmt.Errorf("member %q: not a URI: %v", member, err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "https" && !(allowHTTP && u.Scheme == "http") {
		return a, fmt.Errorf("member %q: scheme %q, not https", member, u.Scheme)
	}
	if u.Host == "" || u.User != nil || u.Opaque != "" {
		return a, fmt.Errorf("member %q: %q is not an absolute URL with a host and no user", member, s)
	}
	u.Host = NormalizeAuthority(u.Scheme, u.Host)
	if a.Type == TypeDirectory {
		if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
			return a, fmt.Errorf("member %q: a directory member is an origin, not %q", member, s)
		}
		a.Fetch = u.Scheme + "://" + u.Host + WellKnownPath
		a.ID = a.Fetch
		return a, nil
	}
	f := *u
	f.Fragment, f.RawFragment = "", ""
	a.Fetch = f.String()
	f.RawQuery, f.ForceQuery = "", false
	if f.Path == "" {
		f.Path = "/"
	}
	a.ID = f.String()
	return a, nil
}

// ParseSignatureAgent reads a Signature-Agent field: a dictionary of
// members, or the legacy bare string (returned under key "", as the
// signature covering it names it). Members that do not parse are left out
// with why, in bad.
func ParseSignatureAgent(vals []string, allowHTTP bool) (agents map[string]Agent, bad map[string]error, err error) {
	joined := strings.TrimSpace(strings.Join(vals, ", "))
	agents, bad = map[string]Agent{}, map[string]error{}
	if joined == "" {
		return agents, bad, nil
	}
	if strings.HasPrefix(joined, `"`) {
		it, err := httpsfv.UnmarshalItem(vals)
		if err != nil {
			return nil, nil, fmt.Errorf("Signature-Agent is neither a dictionary nor a string: %v", err)
		}
		a, err := ParseAgentValue("", it, allowHTTP)
		a.Legacy = true
		if err != nil {
			bad[""] = err
		} else {
			agents[""] = a
		}
		return agents, bad, nil
	}
	d, err := httpsfv.UnmarshalDictionary(vals)
	if err != nil {
		return nil, nil, fmt.Errorf("Signature-Agent is not a structured dictionary: %v", err)
	}
	for _, k := range d.Names() {
		m, _ := d.Get(k)
		it, ok := m.(httpsfv.Item)
		if !ok {
			bad[k] = fmt.Errorf("member %q is an inner list, not a string", k)
			continue
		}
		a, err := ParseAgentValue(k, it, allowHTTP)
		if err != nil {
			bad[k] = err
			continue
		}
		agents[k] = a
	}
	return agents, bad, nil
}

// agentOf returns the Signature-Agent member signature s is attributed
// to: the member it covers ("signature-agent";key=K, or the whole field),
// preferring the one keyed to its label when it covers several. ok is
// false when it covers none, or several and none keyed to its label.
func agentOf(s *Signature, agents map[string]Agent, bad map[string]error) (Agent, error) {
	var keys []string
	whole := false
	for _, it := range s.Input.Items {
		if name, _ := it.Value.(string); name != "signature-agent" {
			continue
		}
		if it.Params != nil {
			if k, ok := it.Params.Get("key"); ok {
				if ks, ok := k.(string); ok {
					keys = append(keys, ks)
				}
				continue
			}
		}
		whole = true
	}
	if whole {
		if a, ok := agents[""]; ok { // the legacy string form
			a.Member = s.Label
			return a, nil
		}
		if err, ok := bad[""]; ok {
			return Agent{}, err
		}
		// The whole dictionary is covered: its member of this label, or
		// its only member.
		if _, ok := agents[s.Label]; ok {
			keys = append(keys, s.Label)
		} else if _, ok := bad[s.Label]; ok {
			keys = append(keys, s.Label)
		} else if len(agents)+len(bad) == 1 {
			for k := range agents {
				keys = append(keys, k)
			}
			for k := range bad {
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		if whole {
			return Agent{}, errors.New("covers Signature-Agent, which has no member of its label")
		}
		return Agent{}, errors.New("covers no Signature-Agent member: nothing names its keys")
	}
	pick := keys[0]
	if len(keys) > 1 {
		pick = ""
		for _, k := range keys {
			if k == s.Label {
				pick = k
			}
		}
		if pick == "" {
			return Agent{}, fmt.Errorf("covers %d Signature-Agent members and none is keyed to its label %q", len(keys), s.Label)
		}
	}
	if err, ok := bad[pick]; ok {
		return Agent{}, err
	}
	a, ok := agents[pick]
	if !ok {
		return Agent{}, fmt.Errorf("covers Signature-Agent member %q, which the field lacks", pick)
	}
	return a, nil
}
