package webbotauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
)

// JWK is one JSON Web Key (RFC 7517) as a key directory serves it: the
// members this package reads.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv,omitempty"`
	Kid string `json:"kid,omitempty"`
	Alg string `json:"alg,omitempty"`
	Use string `json:"use,omitempty"`
	X   string `json:"x,omitempty"`
	Y   string `json:"y,omitempty"`
	N   string `json:"n,omitempty"`
	E   string `json:"e,omitempty"`
	// D is a private member: a directory that serves it leaks its key
	// (Lint reports it; the verifier ignores it).
	D string `json:"d,omitempty"`
	// Nbf and Exp bound the key's use, in seconds since 1970 (0: none).
	Nbf int64 `json:"nbf,omitempty"`
	Exp int64 `json:"exp,omitempty"`
}

// Key is a public key read from a JWK: its RFC 7638 thumbprint and the
// RFC 9421 algorithms it can verify.
type Key struct {
	JWK JWK
	// Thumbprint is the base64url SHA-256 JWK thumbprint (RFC 7638; RFC
	// 8037 §2 for OKP keys): what a Web Bot Auth keyid must be.
	Thumbprint string
	// Algs are the RFC 9421 algorithm names the key verifies: one for an
	// Ed25519 or EC key, and for an RSA key the one its "alg" names, or
	// both RSA algorithms when it names none.
	Algs []string
	pub  crypto.PublicKey
}

// The RFC 9421 algorithm names this package verifies.
const (
	AlgEd25519    = "ed25519"
	AlgECDSAP256  = "ecdsa-p256-sha256"
	AlgECDSAP384  = "ecdsa-p384-sha384"
	AlgRSAPSS     = "rsa-pss-sha512"
	AlgRSAv15     = "rsa-v1_5-sha256"
	algHMACSHA256 = "hmac-sha256"
)

// RSA modulus bounds: below 2048 bits a key is too weak to mean anything;
// above 8192 bits a verification costs a client's flood too much.
const (
	minRSABits = 2048
	maxRSABits = 8192
)

var b64url = base64.RawURLEncoding

// ParseJWK reads one public key from a JWK. It refuses a key type, curve
// or algorithm it cannot verify with, and malformed members.
func ParseJWK(j JWK) (*Key, error) {
	k := &Key{JWK: j}
	switch j.Kty {
	case "OKP":
		if j.Crv != "Ed25519" {
			return nil, fmt.Errorf("OKP key on curve %q: only Ed25519 is supported", j.Crv)
		}
		x, err := b64url.DecodeString(j.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, errors.New(`Ed25519 key: "x" is not 32 bytes of base64url`)
		}
		k.pub = ed25519.PublicKey(x)
		k.Algs = []string{AlgEd25519}
		if j.Alg != "" && j.Alg != "EdDSA" && j.Alg != "Ed25519" && j.Alg != AlgEd25519 {
			return nil, fmt.Errorf("Ed25519 key with alg %q", j.Alg)
		}
	case "EC":
		var curve elliptic.Curve
		var size int
		switch j.Crv {
		case "P-256":
			curve, size, k.Algs = elliptic.P256(), 32, []string{AlgECDSAP256}
		case "P-384":
			curve, size, k.Algs = elliptic.P384(), 48, []string{AlgECDSAP384}
		default:
			return nil, fmt.Errorf("EC key on curve %q: only P-256 and P-384 are supported", j.Crv)
		}
		x, errX := b64url.DecodeString(j.X)
		y, errY := b64url.DecodeString(j.Y)
		if errX != nil || errY != nil || len(x) != size || len(y) != size {
			return nil, fmt.Errorf(`%s key: "x" and "y" are not %d bytes of base64url`, j.Crv, size)
		}
		point := append(append([]byte{4}, x...), y...)
		pub, err := ecdsa.ParseUncompressedPublicKey(curve, point)
		if err != nil {
			return nil, fmt.Errorf("%s key: %v", j.Crv, err)
		}
		k.pub = pub
	case "RSA":
		n, errN := b64url.DecodeString(j.N)
		e, errE := b64url.DecodeString(j.E)
		if errN != nil || errE != nil || len(n) == 0 || len(e) == 0 || len(e) > 4 {
			return nil, errors.New(`RSA key: "n" or "e" is not base64url`)
		}
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		if bits := pub.N.BitLen(); bits < minRSABits || bits > maxRSABits {
			return nil, fmt.Errorf("RSA key of %d bits: want %d to %d", bits, minRSABits, maxRSABits)
		}
		if pub.E < 3 || pub.E%2 == 0 {
			return nil, fmt.Errorf("RSA key with exponent %d", pub.E)
		}
		k.pub = pub
		switch j.Alg {
		case "":
			k.Algs = []string{AlgRSAPSS, AlgRSAv15}
		case "PS512", AlgRSAPSS:
			k.Algs = []string{AlgRSAPSS}
		case "RS256", AlgRSAv15:
			k.Algs = []string{AlgRSAv15}
		default:
			return nil, fmt.Errorf("RSA key with alg %q: want PS512 or RS256", j.Alg)
		}
	case "oct":
		return nil, errors.New("symmetric (oct) key: the draft forbids shared secrets")
	case "":
		return nil, errors.New(`key with no "kty"`)
	default:
		return nil, fmt.Errorf("key type %q is not supported", j.Kty)
	}
	tp, err := Thumbprint(j)
	if err != nil {
		return nil, err
	}
	k.Thumbprint = tp
	return k, nil
}

// Thumbprint returns the base64url SHA-256 thumbprint of a JWK: the hash
// of the JSON object of its required members in lexicographic order with
// no white space (RFC 7638 §3; for OKP keys the members of RFC 8037 §2).
func Thumbprint(j JWK) (string, error) {
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var s string
	switch j.Kty {
	case "RSA":
		s = `{"e":` + q(j.E) + `,"kty":"RSA","n":` + q(j.N) + `}`
	case "EC":
		s = `{"crv":` + q(j.Crv) + `,"kty":"EC","x":` + q(j.X) + `,"y":` + q(j.Y) + `}`
	case "OKP":
		s = `{"crv":` + q(j.Crv) + `,"kty":"OKP","x":` + q(j.X) + `}`
	default:
		return "", fmt.Errorf("no thumbprint for key type %q", j.Kty)
	}
	sum := sha256.Sum256([]byte(s))
	return b64url.EncodeToString(sum[:]), nil
}

// KeySet is the keys of one directory, found by thumbprint.
type KeySet struct {
	// Keys are the keys that parsed, in the directory's order.
	Keys []*Key
	// Skipped says why each key that did not parse was left out.
	Skipped []string
	byTP    map[string]*Key
}

// Find returns the key whose thumbprint is keyid, or nil.
func (s *KeySet) Find(keyid string) *Key {
	if s == nil {
		return nil
	}
	return s.byTP[keyid]
}

// ByKid returns a key whose "kid" member is kid, or nil: the key a
// signature meant when its keyid is a label rather than a thumbprint.
func (s *KeySet) ByKid(kid string) *Key {
	if s == nil || kid == "" {
		return nil
	}
	for _, k := range s.Keys {
		if k.JWK.Kid == kid {
			return k
		}
	}
	return nil
}

// ErrNotKeySet is the error of ParseKeySet for JSON that is not a JWK Set.
var ErrNotKeySet = errors.New(`not a JWK Set: no "keys" array`)

// ParseKeySet reads a JWK Set ({"keys": [...]}) of at most maxKeys keys
// (0: no bound). Keys that do not parse are skipped and said why; a set
// with none that parses is an error.
func ParseKeySet(body []byte, maxKeys int) (*KeySet, error) {
	var doc struct {
		Keys *[]json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if doc.Keys == nil {
		return nil, ErrNotKeySet
	}
	raw := *doc.Keys
	if maxKeys > 0 && len(raw) > maxKeys {
		return nil, fmt.Errorf("%d keys, over the limit of %d", len(raw), maxKeys)
	}
	set := &KeySet{byTP: map[string]*Key{}}
	for i, r := range raw {
		var j JWK
		if err := json.Unmarshal(r, &j); err != nil {
			set.Skipped = append(set.Skipped, fmt.Sprintf("key %d: not a JWK: %v", i+1, err))
			continue
		}
		k, err := ParseJWK(j)
		if err != nil {
			set.Skipped = append(set.Skipped, fmt.Sprintf("key %d: %v", i+1, err))
			continue
		}
		set.Keys = append(set.Keys, k)
		set.byTP[k.Thumbprint] = k
	}
	if len(set.Keys) == 0 {
		if len(set.Skipped) > 0 {
			return set, fmt.Errorf("no usable key (%s)", strings.Join(set.Skipped, "; "))
		}
		return set, errors.New("no keys")
	}
	return set, nil
}

// NewKeySet returns a key set of the given keys.
func NewKeySet(keys ...*Key) *KeySet {
	s := &KeySet{byTP: map[string]*Key{}}
	for _, k := range keys {
		s.Keys = append(s.Keys, k)
		s.byTP[k.Thumbprint] = k
	}
	return s
}

// The public keys of RFC 9421 Appendix B.1 (test-key-rsa, -rsa-pss,
// -ecc-p256, -ed25519): anyone holds their private halves, so a signature
// by one proves nothing.
const testKeysPEM = `
-----BEGIN RSA PUBLIC KEY-----
MIIBCgKCAQEAhAKYdtoeoy8zcAcR874L8cnZxKzAGwd7v36APp7Pv6Q2jdsPBRrw
WEBnez6d0UDKDwGbc6nxfEXAy5mbhgajzrw3MOEt8uA5txSKobBpKDeBLOsdJKFq
MGmXCQvEG7YemcxDTRPxAleIAgYYRjTSd/QBwVW9OwNFhekro3RtlinV0a75jfZg
kne/YiktSvLG34lw2zqXBDTC5NHROUqGTlML4PlNZS5Ri2U4aCNx2rUPRcKIlE0P
uKxI4T+HIaFpv8+rdV6eUgOrB2xeI1dSFFn/nnv5OoZJEIB+VmuKn3DCUcCZSFlQ
PSXSfBDiUGhwOw76WuSSsf1D4b/vLoJ10wIDAQAB
-----END RSA PUBLIC KEY-----
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAr4tmm3r20Wd/PbqvP1s2
+QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct+Lh1GH45x28Rw3Ry53mm+
oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHq
gDsznjPFmTOtCEcN2Z1FpWgchwuYLPL+Wokqltd11nqqzi+bJ9cvSKADYdUAAN5W
Utzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4
aOT9v6d+nb4bnNkQVklLQ3fVAvJm+xdDOp9LCNCN48V2pnDOkFV6+U9nV5oyc6XI
2wIDAQAB
-----END PUBLIC KEY-----
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lf
w0EkjqF7xB4FivAxzic30tMM4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
-----END PUBLIC KEY-----
-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=
-----END PUBLIC KEY-----
`

var testKeys = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	rest := []byte(testKeysPEM)
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			return out
		}
		var pub any
		var err error
		if b.Type == "RSA PUBLIC KEY" {
			pub, err = x509.ParsePKCS1PublicKey(b.Bytes)
		} else {
			pub, err = x509.ParsePKIXPublicKey(b.Bytes)
		}
		if err != nil {
			panic("webbotauth: test key: " + err.Error())
		}
		j, err := PublicJWK(pub)
		if err != nil {
			panic("webbotauth: test key: " + err.Error())
		}
		tp, _ := Thumbprint(j)
		out[tp] = true
	}
})

// IsTestKey reports whether thumbprint is that of one of RFC 9421's
// published test keys (Appendix B.1).
func IsTestKey(thumbprint string) bool { return testKeys()[thumbprint] }

// PublicJWK returns the JWK of an Ed25519, ECDSA or RSA public key.
func PublicJWK(pub crypto.PublicKey) (JWK, error) {
	switch p := pub.(type) {
	case ed25519.PublicKey:
		return JWK{Kty: "OKP", Crv: "Ed25519", X: b64url.EncodeToString(p)}, nil
	case *ecdsa.PublicKey:
		b, err := p.Bytes()
		if err != nil {
			return JWK{}, err
		}
		size := (len(b) - 1) / 2
		return JWK{Kty: "EC", Crv: p.Curve.Params().Name, X: b64url.EncodeToString(b[1 : 1+size]), Y: b64url.EncodeToString(b[1+size:])}, nil
	case *rsa.PublicKey:
		return JWK{Kty: "RSA", N: b64url.EncodeToString(p.N.Bytes()), E: b64url.EncodeToString(big.NewInt(int64(p.E)).Bytes())}, nil
	}
	return JWK{}, fmt.Errorf("key of type %T", pub)
}
