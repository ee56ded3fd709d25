package webbotauth

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Message is what a signature base is built from (RFC 9421 §2): the
// request line's parts and the header fields, and for a response (a key
// directory's own signature) the request it answers.
type Message struct {
	// Method is the request method, as sent ("GET").
	Method string
	// Scheme is "https" or "http".
	Scheme string
	// Authority is the host, lower case, with the port when it is not the
	// scheme's default (RFC 9421 §2.2.3).
	Authority string
	// Path is the absolute path, escaped as sent ("/" when empty).
	Path string
	// RawQuery is the query without its "?" ("" when none).
	RawQuery string
	// HasQuery reports a "?" in the target, even with nothing after it.
	HasQuery bool
	// Header holds the message's header fields.
	Header http.Header
	// Request is, for a response, the request it answers (the "req"
	// flag's message); nil for a request.
	Request *Message
}

// FromRequest returns the Message of r. scheme is used when r does not
// say (r.URL.Scheme empty: a server's request); "" means "https" when r
// came over TLS or names no scheme, as Web Bot Auth requires TLS and a
// TLS-terminating proxy hands the server plain HTTP.
func FromRequest(r *http.Request, scheme string) *Message {
	m := &Message{Method: r.Method, Header: r.Header}
	switch {
	case r.URL != nil && r.URL.Scheme != "":
		m.Scheme = strings.ToLower(r.URL.Scheme)
	case scheme != "":
		m.Scheme = strings.ToLower(scheme)
	default:
		m.Scheme = "https"
	}
	host := r.Host
	if host == "" && r.URL != nil {
		host = r.URL.Host
	}
	m.Authority = NormalizeAuthority(m.Scheme, host)
	if r.URL != nil {
		m.Path = r.URL.EscapedPath()
		m.RawQuery = r.URL.RawQuery
		m.HasQuery = r.URL.RawQuery != "" || r.URL.ForceQuery
	}
	if m.Path == "" {
		m.Path = "/"
	}
	return m
}

// NormalizeAuthority returns host ("Example.COM:443") as RFC 9421 §2.2.3
// compares it: lower case, without the scheme's default port.
func NormalizeAuthority(scheme, host string) string {
	host = strings.ToLower(strings.TrimSpace(host))
	if h, port, err := net.SplitHostPort(host); err == nil {
		if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
			if strings.Contains(h, ":") {
				return "[" + h + "]"
			}
			return h
		}
	}
	return host
}

// MaxRequestBytes bounds the request ReadRequest reads: its request line
// and header fields (the body is not read).
const MaxRequestBytes = 64 << 10

// ReadRequest parses a raw HTTP/1.1 request, its request line and header
// fields (a body, if any, is left unread), as a file of
// "robotstxt verify --request" holds it. Line ends may be CRLF or LF.
func ReadRequest(raw []byte) (*http.Request, error) {
	if len(raw) > MaxRequestBytes {
		return nil, fmt.Errorf("request of %d bytes: over %d", len(raw), MaxRequestBytes)
	}
	raw = bytes.TrimLeft(raw, "\r\n")
	if len(raw) == 0 {
		return nil, errors.New("empty request")
	}
	// A file cut after the last header line still ends the header.
	if !bytes.Contains(raw, []byte("\n\n")) && !bytes.Contains(raw, []byte("\n\r\n")) {
		raw = append(bytes.TrimRight(raw, "\r\n"), "\r\n\r\n"...)
	}
	r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return nil, fmt.Errorf("not an HTTP/1.1 request: %v", err)
	}
	return r, nil
}

// targetURI returns @target-uri: scheme, authority, path and query.
func (m *Message) targetURI() string {
	return m.Scheme + "://" + m.Authority + m.requestTarget()
}

func (m *Message) requestTarget() string {
	if m.HasQuery || m.RawQuery != "" {
		return m.Path + "?" + m.RawQuery
	}
	return m.Path
}

// field returns the value of header field name as RFC 9421 §2.1 says:
// each field line's value trimmed, joined with ", "; ok is false when the
// message has no such field.
func (m *Message) field(name string) (string, bool) {
	vs, ok := m.Header[http.CanonicalHeaderKey(name)]
	if !ok || len(vs) == 0 {
		return "", false
	}
	if len(vs) == 1 {
		return strings.TrimSpace(vs[0]), true
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strings.TrimSpace(v)
	}
	return strings.Join(parts, ", "), true
}

// queryParams returns the values of query parameter name, each
// re-encoded as RFC 9421 §2.2.8 says (decoded, then percent-encoded).
func (m *Message) queryParams(name string) []string {
	var out []string
	for part := range strings.SplitSeq(m.RawQuery, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		dk, err := url.QueryUnescape(k)
		if err != nil || dk != name {
			continue
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			continue
		}
		out = append(out, strings.ReplaceAll(url.QueryEscape(dv), "+", "%20"))
	}
	return out
}
