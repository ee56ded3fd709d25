package accesslog

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Field is a field of an Entry that a JSON log names.
type Field int

// The fields a FieldMap maps.
const (
	FieldIP Field = iota
	FieldTime
	FieldMethod
	FieldTarget  // the path with its query, or the URL
	FieldRequest // "GET /a HTTP/1.1", when the log has no target field
	FieldStatus
	FieldHost
	FieldUserAgent
	FieldSignatureAgent
	// The fields of the guard's decision log beyond the request
	// (GuardFields maps them; Entry.Decision holds them).
	FieldClaimed         // the crawler claimed
	FieldOutcome         // the guard's outcome
	FieldAllowed         // its robots.txt verdict, true or false
	FieldLine            // the deciding line's number
	FieldLineText        // the deciding line's text
	FieldVersion         // the robots.txt version asked
	FieldAction          // what the guard did
	FieldWould           // what the policy says
	FieldMode            // log or enforce
	FieldIdentity        // the identity evidence, an object (kept raw)
	FieldIdentityOutcome // the identity's outcome
	numFields
)

// fieldKeys are the names ParseFieldMap takes for each field.
var fieldKeys = [numFields][]string{
	FieldIP:              {"ip", "client", "addr"},
	FieldTime:            {"time", "timestamp", "ts"},
	FieldMethod:          {"method"},
	FieldTarget:          {"path", "target", "uri", "url"},
	FieldRequest:         {"request"},
	FieldStatus:          {"status", "code"},
	FieldHost:            {"host"},
	FieldUserAgent:       {"ua", "user_agent", "agent", "user-agent"},
	FieldSignatureAgent:  {"signature_agent", "signature-agent"},
	FieldClaimed:         {"claimed"},
	FieldOutcome:         {"outcome"},
	FieldAllowed:         {"allowed"},
	FieldLine:            {"line"},
	FieldLineText:        {"line_text"},
	FieldVersion:         {"version"},
	FieldAction:          {"action"},
	FieldWould:           {"would"},
	FieldMode:            {"mode"},
	FieldIdentity:        {"identity"},
	FieldIdentityOutcome: {"identity_outcome"},
}

// String returns the field's name, as ParseFieldMap takes it.
func (f Field) String() string {
	if f >= 0 && f < numFields {
		return fieldKeys[f][0]
	}
	return fmt.Sprintf("Field(%d)", int(f))
}

// FieldMap says which JSON names hold each field: for each, the names
// in order of preference (the first the object has is read). A name
// with dots ("request.headers.user-agent") reads a field of a nested
// object.
type FieldMap struct {
	Names [numFields][]string

	index    map[string]fieldRank // name -> field, rank
	prefixes map[string]bool      // the objects a dotted name enters
}

type fieldRank struct {
	field Field
	rank  int
}

// DefaultFields returns the names the JSON format looks for: those of
// nginx's and Caddy's JSON logs, Traefik's and the usual ad-hoc ones.
func DefaultFields() *FieldMap {
	m := &FieldMap{}
	m.Names[FieldIP] = []string{"ip", "client_ip", "remote_addr", "remote_ip", "clientip", "client", "ClientHost", "request.remote_ip", "request.client_ip"}
	m.Names[FieldTime] = []string{"time", "timestamp", "@timestamp", "time_local", "time_iso8601", "ts", "StartUTC"}
	m.Names[FieldMethod] = []string{"method", "request_method", "RequestMethod", "request.method"}
	m.Names[FieldTarget] = []string{"path", "uri", "request_uri", "url", "RequestPath", "request.uri"}
	m.Names[FieldRequest] = []string{"request"}
	m.Names[FieldStatus] = []string{"status", "status_code", "DownstreamStatus"}
	m.Names[FieldHost] = []string{"host", "http_host", "server_name", "RequestHost", "request.host"}
	m.Names[FieldUserAgent] = []string{"user_agent", "http_user_agent", "agent", "ua", "userAgent", "useragent", "request_User-Agent", "request.headers.User-Agent"}
	m.Names[FieldSignatureAgent] = []string{"signature_agent", "http_signature_agent", "request.headers.Signature-Agent"}
	m.build()
	return m
}

// CloudflareFields returns the names of Cloudflare's HTTP request logs.
func CloudflareFields() *FieldMap {
	m := &FieldMap{}
	m.Names[FieldIP] = []string{"ClientIP"}
	m.Names[FieldTime] = []string{"EdgeStartTimestamp"}
	m.Names[FieldMethod] = []string{"ClientRequestMethod"}
	m.Names[FieldTarget] = []string{"ClientRequestURI", "ClientRequestPath"}
	m.Names[FieldStatus] = []string{"EdgeResponseStatus", "OriginResponseStatus"}
	m.Names[FieldHost] = []string{"ClientRequestHost"}
	m.Names[FieldUserAgent] = []string{"ClientRequestUserAgent"}
	m.Names[FieldSignatureAgent] = []string{"RequestHeaders.signature-agent"}
	m.build()
	return m
}

// GuardFields returns the names of the guard's decision log (one JSON
// object a decision: guard.Decision): the client's address "ip", the
// time, method, path, host and User-Agent of the request, and the status
// the guard answered with (absent when the request went on to the site);
// and the decision's own fields, read into Entry.Decision: the crawler
// claimed, the outcome, the verdict ("allowed", "line", "line_text"),
// the robots.txt "version", the "action", "would" and "mode", and the
// "identity" evidence (its object kept raw, its outcome read).
func GuardFields() *FieldMap {
	m := &FieldMap{}
	m.Names[FieldIP] = []string{"ip"}
	m.Names[FieldTime] = []string{"time"}
	m.Names[FieldMethod] = []string{"method"}
	m.Names[FieldTarget] = []string{"path"}
	m.Names[FieldStatus] = []string{"status"}
	m.Names[FieldHost] = []string{"host"}
	m.Names[FieldUserAgent] = []string{"user_agent"}
	m.Names[FieldClaimed] = []string{"claimed"}
	m.Names[FieldOutcome] = []string{"outcome"}
	m.Names[FieldAllowed] = []string{"allowed"}
	m.Names[FieldLine] = []string{"line"}
	m.Names[FieldLineText] = []string{"line_text"}
	m.Names[FieldVersion] = []string{"version"}
	m.Names[FieldAction] = []string{"action"}
	m.Names[FieldWould] = []string{"would"}
	m.Names[FieldMode] = []string{"mode"}
	m.Names[FieldIdentity] = []string{"identity"}
	m.Names[FieldIdentityOutcome] = []string{"identity.outcome"}
	m.build()
	return m
}

// ParseFieldMap returns DefaultFields with the names spec gives first:
// "ip=client_ip,ua=agent,time=ts" (names of fields: ip, time, method,
// path, request, status, host, ua, signature_agent, and their aliases).
func ParseFieldMap(spec string) (*FieldMap, error) {
	m := DefaultFields()
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || v == "" {
			return nil, fmt.Errorf("accesslog: field mapping %q: want FIELD=NAME, e.g. ip=client_ip", part)
		}
		f, ok := fieldNamed(k)
		if !ok {
			return nil, fmt.Errorf("accesslog: field mapping %q: unknown field %q (ip, time, method, path, request, status, host, ua, signature_agent)", part, k)
		}
		m.Names[f] = append([]string{v}, m.Names[f]...)
	}
	m.build()
	return m, nil
}

func fieldNamed(k string) (Field, bool) {
	k = strings.ToLower(k)
	for f, keys := range fieldKeys {
		for _, n := range keys {
			if n == k {
				return Field(f), true
			}
		}
	}
	return 0, false
}

func (m *FieldMap) build() {
	m.index = map[string]fieldRank{}
	m.prefixes = map[string]bool{}
	for f, names := range m.Names {
		for rank, n := range names {
			if _, dup := m.index[n]; !dup {
				m.index[n] = fieldRank{Field(f), rank}
			}
			for i := range len(n) {
				if n[i] == '.' {
					m.prefixes[n[:i]] = true
				}
			}
		}
	}
}

// jsonValue is a field's value as found: its bytes and whether it was a
// string; rank is the name's preference (lower is better), -1 unset.
type jsonValue struct {
	b     []byte
	str   bool
	rank  int
	found bool
}

// parseJSON reads one JSON object into e, with p.fields.
func (p *Parser) parseJSON(line []byte, e *Entry) error {
	if line[0] != '{' {
		return errNotObject
	}
	if cap(p.scratch) < len(line) {
		p.scratch = make([]byte, 0, 2*len(line))
	}
	p.scratch = p.scratch[:0]
	for i := range p.jvals {
		p.jvals[i] = jsonValue{}
	}
	var path [128]byte
	if _, ok := p.object(line, 0, path[:0]); !ok {
		return errBadJSON
	}
	v := &p.jvals
	if v[FieldIP].found {
		e.IP = v[FieldIP].b
	}
	e.Method = v[FieldMethod].b
	e.Target = v[FieldTarget].b
	if !v[FieldTarget].found && v[FieldRequest].found {
		splitRequest(v[FieldRequest].b, e)
	}
	e.Host = v[FieldHost].b
	e.UserAgent = v[FieldUserAgent].b
	e.SignatureAgent = v[FieldSignatureAgent].b
	if s := v[FieldStatus]; s.found {
		if n, ok := num(s.b); ok && n < 1000 {
			e.Status = n
		}
	}
	if t := v[FieldTime]; t.found && len(t.b) > 0 {
		e.Time = p.jsonTime(t.b, t.str)
	}
	if p.format == Guard {
		p.decision(e)
	}
	if len(e.IP) == 0 && len(e.Target) == 0 && len(e.UserAgent) == 0 {
		return malformed("a JSON object with none of the mapped fields (ip, path, user agent)")
	}
	return nil
}

// jsonTime reads a time: an RFC 3339 or common-log-format string, or a
// number of seconds, milliseconds, microseconds or nanoseconds. The last
// one read is cached.
func (p *Parser) jsonTime(b []byte, str bool) time.Time {
	if p.lastTime != nil && bytes.Equal(b, p.lastTime) {
		return p.lastT
	}
	var t time.Time
	if !str || (len(b) > 0 && b[0] >= '0' && b[0] <= '9' && bytes.IndexByte(b, '-') < 0 && bytes.IndexByte(b, '/') < 0) {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || f < 0 {
			return time.Time{}
		}
		switch {
		case f > 1e17:
			t = time.Unix(0, int64(f))
		case f > 1e14:
			t = time.UnixMicro(int64(f))
		case f > 1e11:
			t = time.UnixMilli(int64(f))
		default:
			sec := int64(f)
			t = time.Unix(sec, int64((f-float64(sec))*1e9))
		}
	} else if ct, ok := parseCLFTime(b); ok {
		t = ct
	} else if rt, err := time.Parse(time.RFC3339Nano, string(b)); err == nil {
		t = rt
	} else {
		return time.Time{}
	}
	t = t.UTC()
	p.lastTime = append(p.lastTime[:0], b...)
	p.lastT = t
	return t
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// object reads the object at b[i] ('{'), recording the mapped fields; path
// is the names of the objects it is in, joined with dots. It returns the
// index after the object.
func (p *Parser) object(b []byte, i int, path []byte) (int, bool) {
	i++ // '{'
	i = skipWS(b, i)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		key, next, _, ok := p.str(b, i, false)
		if !ok {
			return i, false
		}
		i = skipWS(b, next)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i = skipWS(b, i+1)
		if i >= len(b) {
			return i, false
		}
		name := key
		full := len(path) > 0
		if full {
			name = append(append(path, '.'), key...)
		}
		fr, mapped := p.fields.index[string(name)]
		switch c := b[i]; {
		case c == '"':
			val, n, _, ok := p.str(b, i, mapped)
			if !ok {
				return i, false
			}
			if mapped {
				p.set(fr, val, true)
			}
			i = n
		case c == '{':
			start := i
			if len(name) < 100 && p.fields.prefixes[string(name)] {
				// The object's names are built in path's own array,
				// never appended to name: a top-level name is a slice of
				// the line, and appending to it would write into the line.
				n, ok := p.object(b, i, append(path[:0], name...))
				if !ok {
					return i, false
				}
				i = n
			} else {
				n, ok := skipValue(b, i)
				if !ok {
					return i, false
				}
				i = n
			}
			if mapped && fr.field == FieldIdentity {
				p.set(fr, b[start:i], false) // the object, raw
			}
		case c == '[':
			n, ok := skipValue(b, i)
			if !ok {
				return i, false
			}
			i = n
		default:
			j := i
			for j < len(b) && b[j] != ',' && b[j] != '}' && !isSpace(b[j]) {
				j++
			}
			if j == i {
				return i, false
			}
			if mapped && !bytes.Equal(b[i:j], []byte("null")) {
				p.set(fr, b[i:j], false)
			}
			i = j
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return i, false
		}
		if b[i] == '}' {
			return i + 1, true
		}
		if b[i] != ',' {
			return i, false
		}
		i++
	}
}

func (p *Parser) set(fr fieldRank, val []byte, str bool) {
	v := &p.jvals[fr.field]
	if v.found && v.rank <= fr.rank {
		return
	}
	*v = jsonValue{b: val, str: str, rank: fr.rank, found: true}
}

// str reads the string at b[i] ('"'): its content, decoded into the
// scratch space when it has escapes and decode is set (raw otherwise),
// and the index after it.
func (p *Parser) str(b []byte, i int, decode bool) (s []byte, next int, escaped, ok bool) {
	start := i + 1
	j := start
	for j < len(b) {
		c := b[j]
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			j += 2
			continue
		}
		j++
	}
	if j >= len(b) {
		return nil, j, false, false
	}
	raw := b[start:j]
	if !escaped || !decode {
		return raw, j + 1, escaped, true
	}
	from := len(p.scratch)
	p.scratch = unescape(p.scratch, raw)
	return p.scratch[from:len(p.scratch):len(p.scratch)], j + 1, true, true
}

// unescape appends the JSON string content raw, decoded, to dst. Bad
// escapes are kept as written: a log line is read, not validated.
func unescape(dst, raw []byte) []byte {
	for k := 0; k < len(raw); k++ {
		c := raw[k]
		if c != '\\' || k+1 >= len(raw) {
			dst = append(dst, c)
			continue
		}
		k++
		switch raw[k] {
		case '"', '\\', '/':
			dst = append(dst, raw[k])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := hex4(raw[k+1:])
			if n == 0 {
				dst = append(dst, '\\', 'u')
				continue
			}
			k += n
			if r >= 0xD800 && r < 0xDC00 && k+6 < len(raw) && raw[k+1] == '\\' && raw[k+2] == 'u' {
				if r2, n2 := hex4(raw[k+3:]); n2 > 0 && r2 >= 0xDC00 && r2 < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					k += 2 + n2
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, '\\', raw[k])
		}
	}
	return dst
}

func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, 0
		}
	}
	return r, 4
}

// skipValue skips the object or array at b[i], strings and all, and
// returns the index after it. Nesting is bounded by the line's length.
func skipValue(b []byte, i int) (int, bool) {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
		}
		i++
	}
	return i, false
}

// Decision is what a line of the guard's decision log records beyond the
// request (Format Guard): its byte slices, as Entry's, point into the
// line or the parser's scratch space.
type Decision struct {
	// Claimed is the catalogue name of the crawler claimed ("" for none).
	Claimed []byte
	// Outcome is the guard's outcome ("disallowed-verified", ...).
	Outcome []byte
	// HasVerdict says the line has an "allowed" member; Allowed is it.
	HasVerdict bool
	Allowed    bool
	// Line and LineText are the deciding line (0 and empty for none).
	Line     int
	LineText []byte
	// Version names the robots.txt version asked ("" for none).
	Version []byte
	// Action is what the guard did, Would what its policy says for the
	// outcome, Mode "log" or "enforce".
	Action, Would, Mode []byte
	// Identity is the identity evidence's JSON object, raw
	// (verify.Evidence); IdentityOutcome its "outcome".
	Identity        []byte
	IdentityOutcome []byte
}

// decision fills e.Decision from the fields read.
func (p *Parser) decision(e *Entry) {
	v := &p.jvals
	d := &p.dec
	*d = Decision{
		Claimed: v[FieldClaimed].b, Outcome: v[FieldOutcome].b, LineText: v[FieldLineText].b,
		Version: v[FieldVersion].b, Action: v[FieldAction].b, Would: v[FieldWould].b, Mode: v[FieldMode].b,
		Identity: v[FieldIdentity].b, IdentityOutcome: v[FieldIdentityOutcome].b,
	}
	if a := v[FieldAllowed]; a.found && !a.str {
		switch string(a.b) {
		case "true":
			d.HasVerdict, d.Allowed = true, true
		case "false":
			d.HasVerdict = true
		}
	}
	if l := v[FieldLine]; l.found && !l.str && len(l.b) <= 9 {
		if n, ok := num(l.b); ok {
			d.Line = n
		}
	}
	e.Decision = d
}
