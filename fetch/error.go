package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
)

// The steps of a fetch, as Error.Step names them.
const (
	StepDNS        = "dns"          // resolving the host name
	StepDial       = "dial"         // connecting
	StepTLS        = "tls"          // the TLS handshake
	StepRequest    = "request"      // sending the request and waiting for the answer's header
	StepRedirect   = "redirect"     // a redirect target refused by the CheckRedirect hook, or unusable
	StepReadBody   = "read body"    // reading the body
	StepDecompress = "decompress"   // decoding a gzip, deflate or br body
	StepFTPLogin   = "ftp login"    // the anonymous FTP login
	StepFTPRetr    = "ftp retr"     // RETR /robots.txt
	StepFTPData    = "ftp data"     // reading the FTP data connection
	StepURL        = "url"          // building the request
	StepContext    = "before start" // the context was done before the fetch began
)

// Error is a fetch that got no usable answer: the origin is unreachable
// (docs/protocol.md, Fetching: DNS failure, refused or reset connection, timeout, TLS failure,
// a body cut short or malformed). It says which origin, which URL and which
// step failed; Unwrap gives the cause, so errors.Is(err,
// context.DeadlineExceeded) reports a timeout.
type Error struct {
	Origin Origin
	URL    string // the request that failed (after redirects)
	Step   string // one of the Step constants
	Err    error
}

func (e *Error) Error() string {
	where := e.URL
	switch {
	case where == "":
		where = e.Origin.String()
	case !e.Origin.IsZero() && where != e.Origin.RobotsURL():
		// After a redirect: the origin is what the caller asked about.
		where = "robots.txt of " + e.Origin.String() + " (at " + where + ")"
	}
	return "fetch: " + where + ": " + e.cause()
}

// cause is the step and the cause's text, "tls: failed to verify
// certificate: ...": the step is not repeated when the cause names it
// itself, as crypto/tls does ("tls: ...").
func (e *Error) cause() string {
	msg := e.Err.Error()
	if !strings.HasPrefix(msg, e.Step+": ") {
		msg = e.Step + ": " + msg
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Timeout reports whether the fetch ran out of time.
func (e *Error) Timeout() bool {
	if errors.Is(e.Err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(e.Err, &ne) && ne.Timeout()
}

// stepOf guesses the step an error comes from when no trace says it.
func stepOf(err error, fallback string) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return StepDNS
	}
	var (
		recErr  tls.RecordHeaderError
		alert   tls.AlertError
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	if errors.As(err, &recErr) || errors.As(err, &alert) || errors.As(err, &verify) ||
		errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) ||
		strings.Contains(err.Error(), "tls: ") {
		return StepTLS
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return StepDial
	}
	return fallback
}
