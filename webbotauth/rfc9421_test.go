package webbotauth

import (
	"net/http"
	"testing"
)

// rfc9421Request is RFC 9421 Appendix B.2's test-request.
const rfc9421Request = "POST /foo?param=Value&Pet=dog HTTP/1.1\r\n" +
	"Host: example.com\r\n" +
	"Date: Tue, 20 Apr 2021 02:07:55 GMT\r\n" +
	"Content-Type: application/json\r\n" +
	"Content-Digest: sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\r\n" +
	"Content-Length: 18\r\n"

// rfc9421Ed25519 is RFC 9421 Appendix B.1.4's test-key-ed25519.
var rfc9421Ed25519 = JWK{Kty: "OKP", Crv: "Ed25519", X: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}

// TestRFC9421B26: Appendix B.2.6's Ed25519 signature of the test-request
// verifies, over the base the RFC prints; one changed byte does not.
func TestRFC9421B26(t *testing.T) {
	r, err := ReadRequest([]byte(rfc9421Request))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Signature-Input", `sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`)
	r.Header.Set("Signature", `sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:`)
	m := FromRequest(r, "https")
	sigs, err := ParseSignatures(r.Header)
	if err != nil || len(sigs) != 1 {
		t.Fatalf("ParseSignatures: %v, %d", err, len(sigs))
	}
	base, err := SignatureBase(m, sigs[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `"date": Tue, 20 Apr 2021 02:07:55 GMT
"@method": POST
"@path": /foo
"@authority": example.com
"content-type": application/json
"content-length": 18
"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	if string(base) != want {
		t.Fatalf("base:\n%s\nwant:\n%s", base, want)
	}
	k, err := ParseJWK(rfc9421Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifySignature(m, sigs[0], k); err != nil {
		t.Fatalf("B.2.6 does not verify: %v", err)
	}
	if !IsTestKey(k.Thumbprint) {
		t.Errorf("test-key-ed25519 (%s) is not known as a test key", k.Thumbprint)
	}
	r.Header.Set("Content-Type", "application/jsom")
	if err := VerifySignature(FromRequest(r, "https"), sigs[0], k); err == nil {
		t.Error("a changed Content-Type still verifies")
	}
	r.Header = http.Header{}
	if err := VerifySignature(FromRequest(r, "https"), sigs[0], k); err == nil {
		t.Error("a request without the covered fields verifies")
	}
}
