package webbotauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"testing"
)

// TestAlgorithms: each algorithm the draft's registry lists, but HMAC,
// verifies a signature made by the standard library, and refuses one over
// a changed base; ECDSA signatures are r‖s, as RFC 9421 §3.3.4 says.
func TestAlgorithms(t *testing.T) {
	base := []byte(`"@authority": example.com` + "\n" + `"@signature-params": ("@authority")`)
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rawECDSA := func(k *ecdsa.PrivateKey, digest []byte, size int) []byte {
		r, s, err := ecdsa.Sign(rand.Reader, k, digest)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, 2*size)
		r.FillBytes(out[:size])
		s.FillBytes(out[size:])
		return out
	}
	h256 := sha256.Sum256(base)
	h384 := sha512.Sum384(base)
	h512 := sha512.Sum512(base)
	pss, _ := rsa.SignPSS(rand.Reader, rsaKey, crypto.SHA512, h512[:], &rsa.PSSOptions{SaltLength: 64})
	v15, _ := rsa.SignPKCS1v15(rand.Reader, rsaKey, crypto.SHA256, h256[:])
	for _, c := range []struct {
		alg, jwkAlg string
		pub         crypto.PublicKey
		sig         []byte
	}{
		{AlgECDSAP256, "", &p256.PublicKey, rawECDSA(p256, h256[:], 32)},
		{AlgECDSAP384, "", &p384.PublicKey, rawECDSA(p384, h384[:], 48)},
		{AlgRSAPSS, "PS512", &rsaKey.PublicKey, pss},
		{AlgRSAv15, "RS256", &rsaKey.PublicKey, v15},
		{AlgRSAPSS, "", &rsaKey.PublicKey, pss},
	} {
		j, err := PublicJWK(c.pub)
		if err != nil {
			t.Fatal(err)
		}
		j.Alg = c.jwkAlg
		k, err := ParseJWK(j)
		if err != nil {
			t.Fatalf("%s: %v", c.alg, err)
		}
		if err := verifyWith(k, c.alg, base, c.sig); err != nil {
			t.Errorf("%s: %v", c.alg, err)
		}
		if c.jwkAlg != "" {
			if err := verifyWith(k, "", base, c.sig); err != nil {
				t.Errorf("%s named by the key only: %v", c.alg, err)
			}
		}
		changed := append([]byte(nil), base...)
		changed[1] ^= 1
		if verifyWith(k, c.alg, changed, c.sig) == nil {
			t.Errorf("%s: a changed base verifies", c.alg)
		}
	}
	// An RSA key that names no alg, with a signature that names none
	// either: the algorithm cannot be told.
	j, _ := PublicJWK(&rsaKey.PublicKey)
	k, _ := ParseJWK(j)
	if verifyWith(k, "", base, pss) == nil {
		t.Error("an RSA signature with no algorithm named verifies")
	}
	// Keys that cannot verify.
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	sj, _ := PublicJWK(&small.PublicKey)
	for _, j := range []JWK{sj, {Kty: "oct"}, {Kty: "OKP", Crv: "X25519", X: "AAAA"}, {Kty: "EC", Crv: "P-256", X: "AA", Y: "AA"}, {}} {
		if _, err := ParseJWK(j); err == nil {
			t.Errorf("%+v parses", j)
		}
	}
}
