// Package webbotauth verifies Web Bot Auth signatures: HTTP Message
// Signatures (RFC 9421) that automated clients attach to their requests,
// profiled by draft-ietf-webbotauth-httpsig-protocol-01, with the keys
// published in a key directory that the request's Signature-Agent field
// names.
//
// A Verifier reads a request's Signature-Input, Signature and
// Signature-Agent fields (RFC 9651 structured fields), builds each Web Bot
// Auth signature's base as RFC 9421 §2.5 says, checks its parameters
// (created and expires within a stated clock skew, tag="web-bot-auth",
// keyid the RFC 7638 thumbprint of the key), finds the key by the pair
// (directory URL, key id) and checks the signature with the standard
// library's crypto (Ed25519, ECDSA P-256 and P-384, RSA-PSS SHA-512, RSA
// PKCS#1 v1.5 SHA-256; never HMAC, which the draft forbids).
//
// Every check ends in one of three outcomes, with its evidence (the
// agent's URL, the key id, created and expires, and the reason):
//
//   - Verified: a Web Bot Auth signature checked against a key that the
//     directory the signature covers publishes.
//   - Spoofed: a Web Bot Auth signature is present and wrong: it does not
//     verify, it has expired or is dated in the future, the directory
//     resolved and does not hold its key, its key id is not the key's
//     thumbprint, its key is one of RFC 9421's published test keys, or its
//     nonce was seen before (a replay).
//   - Unverified: nothing to decide on: no Web Bot Auth signature, no
//     Signature-Agent member it covers, or the directory could not be
//     fetched (unreachable, redirected, over the limits, not a key set).
//
// Directories is the key-directory client: it fetches through an
// injectable http.Client (the service passes its SSRF-guarded one), never
// follows a redirect, bounds each response's bytes, keys and time, caches
// by the response's Cache-Control, ETag and Last-Modified with
// stale-if-error, makes one fetch per directory at a time, and at most one
// per directory per rate window, however many requests name it.
//
// Lint checks a key directory as its operator would want: media type, a
// keys array, thumbprint key ids, algorithms, private members, test keys,
// the directory's own signature and its caching headers.
package webbotauth
