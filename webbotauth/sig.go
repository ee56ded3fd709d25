package webbotauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/dunglas/httpsfv"
)

// Signature is one member of a message's Signature-Input field with its
// value from the Signature field (RFC 9421 §4).
type Signature struct {
	// Label is the member's key in both fields ("sig1").
	Label string
	// Input is the member: the covered components and the parameters,
	// serialized into the base's @signature-params line.
	Input httpsfv.InnerList
	// Value is the signature's bytes (nil when Signature has no member of
	// this label).
	Value []byte
	// The parameters (zero when absent; Has* say which were present).
	Created, Expires       int64
	HasCreated, HasExpires bool
	KeyID, Alg, Nonce, Tag string
	// Err says why the member cannot be checked (a parameter of the wrong
	// type, a component that is not a string), nil when it can.
	Err error
}

// MaxSignatures bounds the signatures of one message that are looked at:
// past it, the rest are ignored (each costs a verification).
const MaxSignatures = 8

// MaxComponents bounds the components one signature covers: a signature
// that covers more is refused before its base is built.
const MaxComponents = 64

// ParseSignatures reads the Signature-Input and Signature fields of h, in
// Signature-Input's order. An error means a field is not a structured
// dictionary; a member that is malformed has its Err set instead.
func ParseSignatures(h map[string][]string) ([]*Signature, error) {
	inVals := h["Signature-Input"]
	if len(inVals) == 0 {
		return nil, nil
	}
	in, err := httpsfv.UnmarshalDictionary(inVals)
	if err != nil {
		return nil, fmt.Errorf("Signature-Input is not a structured dictionary: %v", err)
	}
	var sigs *httpsfv.Dictionary
	if vs := h["Signature"]; len(vs) > 0 {
		if sigs, err = httpsfv.UnmarshalDictionary(vs); err != nil {
			return nil, fmt.Errorf("Signature is not a structured dictionary: %v", err)
		}
	}
	var out []*Signature
	for _, label := range in.Names() {
		if len(out) == MaxSignatures {
			break
		}
		mem, _ := in.Get(label)
		s := &Signature{Label: label}
		out = append(out, s)
		il, ok := mem.(httpsfv.InnerList)
		if !ok {
			s.Err = errors.New("Signature-Input member is not an inner list")
			continue
		}
		s.Input = il
		if len(il.Items) > MaxComponents {
			s.Err = fmt.Errorf("covers %d components, over the %d allowed", len(il.Items), MaxComponents)
		}
		for _, it := range il.Items {
			if _, ok := it.Value.(string); !ok {
				s.Err = fmt.Errorf("covered component %v is not a string", it.Value)
			}
		}
		s.readParams(il.Params)
		if sigs != nil {
			if v, ok := sigs.Get(label); ok {
				if it, ok := v.(httpsfv.Item); ok {
					if b, ok := it.Value.([]byte); ok {
						s.Value = b
					}
				}
				if s.Value == nil && s.Err == nil {
					s.Err = errors.New("Signature member is not a byte sequence")
				}
			}
		}
	}
	return out, nil
}

func (s *Signature) readParams(p *httpsfv.Params) {
	if p == nil {
		return
	}
	for _, name := range p.Names() {
		v, _ := p.Get(name)
		bad := false
		switch name {
		case "created", "expires":
			n, ok := v.(int64)
			if !ok {
				bad = true
				break
			}
			if name == "created" {
				s.Created, s.HasCreated = n, true
			} else {
				s.Expires, s.HasExpires = n, true
			}
		case "keyid", "alg", "nonce", "tag":
			str, ok := v.(string)
			if !ok {
				bad = true
				break
			}
			switch name {
			case "keyid":
				s.KeyID = str
			case "alg":
				s.Alg = str
			case "nonce":
				s.Nonce = str
			case "tag":
				s.Tag = str
			}
		}
		if bad && s.Err == nil {
			s.Err = fmt.Errorf("parameter %s of the wrong type", name)
		}
	}
}

// errUnsupported marks a component this package cannot build: the
// signature can be neither confirmed nor refuted.
var errUnsupported = errors.New("not supported")

// errMissing marks a covered component the message lacks.
var errMissing = errors.New("absent from the message")

// SignatureBase returns the signature base of s over m (RFC 9421 §2.5):
// one line per covered component, then the @signature-params line.
func SignatureBase(m *Message, s *Signature) ([]byte, error) {
	var b strings.Builder
	seen := make(map[string]bool, len(s.Input.Items))
	for _, it := range s.Input.Items {
		id, err := httpsfv.Marshal(it)
		if err != nil {
			return nil, fmt.Errorf("component %v: %v", it.Value, err)
		}
		if seen[id] {
			return nil, fmt.Errorf("component %s covered twice", id)
		}
		seen[id] = true
		vals, err := componentValues(m, it)
		if err != nil {
			return nil, fmt.Errorf("component %s: %w", id, err)
		}
		for _, v := range vals {
			b.WriteString(id)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	params, err := httpsfv.Marshal(s.Input)
	if err != nil {
		return nil, fmt.Errorf("@signature-params: %v", err)
	}
	b.WriteString(`"@signature-params": `)
	b.WriteString(params)
	return []byte(b.String()), nil
}

// componentValues returns the value lines of one covered component.
func componentValues(m *Message, it httpsfv.Item) ([]string, error) {
	name, _ := it.Value.(string)
	if name == "" || name != strings.ToLower(name) {
		return nil, errors.New("component names are lower case and not empty")
	}
	var key, qname string
	hasKey, hasName, req := false, false, false
	if it.Params != nil {
		for _, p := range it.Params.Names() {
			v, _ := it.Params.Get(p)
			switch p {
			case "req":
				if v != true {
					return nil, errors.New(`"req" is not true`)
				}
				req = true
			case "key":
				key, hasKey = v.(string)
				if !hasKey {
					return nil, errors.New(`"key" is not a string`)
				}
			case "name":
				qname, hasName = v.(string)
				if !hasName {
					return nil, errors.New(`"name" is not a string`)
				}
			case "sf", "bs", "tr":
				return nil, fmt.Errorf("parameter %q: %w", p, errUnsupported)
			default:
				return nil, fmt.Errorf("unknown parameter %q", p)
			}
		}
	}
	if req {
		if m.Request == nil {
			return nil, errors.New(`"req" on a request`)
		}
		m = m.Request
	}
	if strings.HasPrefix(name, "@") {
		if hasKey || hasName && name != "@query-param" {
			return nil, errors.New("parameter not allowed on a derived component")
		}
		one := func(s string) ([]string, error) { return []string{s}, nil }
		switch name {
		case "@method":
			return one(m.Method)
		case "@target-uri":
			return one(m.targetURI())
		case "@authority":
			return one(m.Authority)
		case "@scheme":
			return one(m.Scheme)
		case "@request-target":
			return one(m.requestTarget())
		case "@path":
			return one(m.Path)
		case "@query":
			return one("?" + m.RawQuery)
		case "@query-param":
			if !hasName {
				return nil, errors.New(`@query-param without "name"`)
			}
			vals := m.queryParams(qname)
			if len(vals) == 0 {
				return nil, fmt.Errorf("query parameter %q %w", qname, errMissing)
			}
			return vals, nil
		case "@signature-params":
			return nil, errors.New("@signature-params cannot be covered")
		}
		return nil, fmt.Errorf("derived component %s: %w", name, errUnsupported)
	}
	if hasName {
		return nil, errors.New(`"name" on a field`)
	}
	v, ok := m.field(name)
	if !ok {
		return nil, fmt.Errorf("field %w", errMissing)
	}
	if !hasKey {
		return []string{v}, nil
	}
	d, err := httpsfv.UnmarshalDictionary([]string{v})
	if err != nil {
		return nil, fmt.Errorf("field is not a structured dictionary: %v", err)
	}
	mem, ok := d.Get(key)
	if !ok {
		return nil, fmt.Errorf("member %q %w", key, errMissing)
	}
	var sv httpsfv.StructuredFieldValue
	switch x := mem.(type) {
	case httpsfv.Item:
		sv = x
	case httpsfv.InnerList:
		sv = x
	}
	out, err := httpsfv.Marshal(sv)
	if err != nil {
		return nil, err
	}
	return []string{out}, nil
}

// verifyWith checks sig over base with key k by algorithm alg ("" for
// the key's own, when it has one).
func verifyWith(k *Key, alg string, base, sig []byte) error {
	if alg == "" {
		if len(k.Algs) != 1 {
			return errors.New(`the signature names no "alg" and the RSA key none either`)
		}
		alg = k.Algs[0]
	}
	if alg == algHMACSHA256 {
		return errors.New("hmac-sha256: shared secrets are forbidden by the draft")
	}
	allowed := false
	for _, a := range k.Algs {
		allowed = allowed || a == alg
	}
	if !allowed {
		return fmt.Errorf("algorithm %q does not fit the key (%s)", alg, strings.Join(k.Algs, ", "))
	}
	bad := errors.New("the signature does not verify")
	switch alg {
	case AlgEd25519:
		if len(sig) != ed25519.SignatureSize || !ed25519.Verify(k.pub.(ed25519.PublicKey), base, sig) {
			return bad
		}
	case AlgECDSAP256, AlgECDSAP384:
		pub := k.pub.(*ecdsa.PublicKey)
		size := 32
		var digest []byte
		if alg == AlgECDSAP256 {
			h := sha256.Sum256(base)
			digest = h[:]
		} else {
			size = 48
			h := sha512.Sum384(base)
			digest = h[:]
		}
		if len(sig) != 2*size {
			return bad
		}
		r := new(big.Int).SetBytes(sig[:size])
		s := new(big.Int).SetBytes(sig[size:])
		if !ecdsa.Verify(pub, digest, r, s) {
			return bad
		}
	case AlgRSAPSS:
		h := sha512.Sum512(base)
		if rsa.VerifyPSS(k.pub.(*rsa.PublicKey), crypto.SHA512, h[:], sig, &rsa.PSSOptions{SaltLength: 64}) != nil {
			return bad
		}
	case AlgRSAv15:
		h := sha256.Sum256(base)
		if rsa.VerifyPKCS1v15(k.pub.(*rsa.PublicKey), crypto.SHA256, h[:], sig) != nil {
			return bad
		}
	default:
		return fmt.Errorf("algorithm %q is not supported", alg)
	}
	return nil
}

// VerifySignature checks signature s of message m with key k, as RFC 9421
// §3.2 says, without the Web Bot Auth profile's checks (tag, times,
// keyid): the check RFC 9421's own examples pass.
func VerifySignature(m *Message, s *Signature, k *Key) error {
	if s.Err != nil {
		return s.Err
	}
	if s.Value == nil {
		return errors.New("no Signature member of this label")
	}
	base, err := SignatureBase(m, s)
	if err != nil {
		return err
	}
	return verifyWith(k, s.Alg, base, s.Value)
}
