package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/seed53c283f5/robotstxt/tester"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
)

// Limits of the JSON API's requests.
const (
	MaxBodyBytes = 8 << 20 // a request body, in bytes
	MaxURLs      = 10000   // URLs in one request
	MaxURLBytes  = 8 << 10 // one URL
	MaxNames     = 256     // crawlers or agents in one request
	MaxNameBytes = 256     // one crawler name or product token
)

// Engine answers the POST routes: the same code as the CLI's check, lint,
// compare, diff, ai and policy. Each method returns the value the route
// answers with, encoded as JSON (the same object as the command's --json
// output).
// Its input is validated already; its error is answered as 500 (or 504
// past the request's deadline), unless it is an *Error, answered as it
// says.
type Engine interface {
	Check(ctx context.Context, in *CheckInput) (any, error)
	Lint(ctx context.Context, in *LintInput) (any, error)
	Compare(ctx context.Context, in *CompareInput) (any, error)
	Diff(ctx context.Context, in *DiffInput) (any, error)
	AI(ctx context.Context, in *AIInput) (any, error)
	Policy(ctx context.Context, in *PolicyInput) (any, error)
}

// Error is an API error: the HTTP status, and the JSON body
// {"error": Message, "field": Field}; Retry, when positive, is the seconds
// of its Retry-After header.
type Error struct {
	Status  int    `json:"-"`
	Message string `json:"error"`
	Field   string `json:"field,omitempty"`
	Retry   int    `json:"-"`
}

func (e *Error) Error() string { return e.Message }

func badField(field, format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Message: field + ": " + plainText(fmt.Sprintf(format, args...)), Field: field}
}

// plainText is msg without the Go package names that lead it ("fetch: ",
// "robotstxt: "): they mean nothing to a client.
func plainText(msg string) string {
	for {
		rest, ok := cutPackagePrefix(msg)
		if !ok {
			return msg
		}
		msg = rest
	}
}

// nearCrawler is the crawler of the table (by name or token) closest to
// name, or "".
func nearCrawler(name string) string { return suggest.Crawler(name) }

// didYouMean is ` (did you mean "near"?)`, or "" when near is.
func didYouMean(near string) string {
	if near == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", near)
}

// The bodies of the POST routes, as decoded: the JSON names are the API's
// (see openapi.json, which a test checks against these types).

// CheckRequest is the body of POST /v1/check.
type CheckRequest struct {
	Robots   *string  `json:"robots"`
	Origin   string   `json:"origin"`
	URLs     []string `json:"urls"`
	Crawlers []string `json:"crawlers"`
	Agents   []string `json:"agents"`
	Dialect  string   `json:"dialect"`
	// Usage adds to each result the AI usage preferences that apply
	// (usage, signals), as "robotstxt eval" answers them.
	Usage bool `json:"usage"`
}

// LintRequest is the body of POST /v1/lint.
type LintRequest struct {
	Robots  *string  `json:"robots"`
	Origin  string   `json:"origin"`
	Disable []string `json:"disable"`
	// Original reports on the original dialect too (the strict 1996
	// draft, which no crawler follows), as lint --original does.
	Original bool `json:"original"`
}

// CompareRequest is the body of POST /v1/compare.
type CompareRequest struct {
	Robots   *string  `json:"robots"`
	Origin   string   `json:"origin"`
	URLs     []string `json:"urls"`
	Crawlers []string `json:"crawlers"`
	Agents   []string `json:"agents"`
	// Original compares the original dialect too, as compare --original
	// does.
	Original bool `json:"original"`
}

// DiffRequest is the body of POST /v1/diff.
type DiffRequest struct {
	Old      *string  `json:"old"`
	New      *string  `json:"new"`
	URLs     []string `json:"urls"`
	Crawlers []string `json:"crawlers"`
	Agents   []string `json:"agents"`
	Dialect  string   `json:"dialect"`
}

// Subject is the robots.txt a request is about: given inline, or the live
// file of an origin.
type Subject struct {
	// Robots is the inline file, whole (the engine's parser reads the
	// first robotstxt.DefaultMaxBytes, as crawlers do, and knows the size
	// for Yandex, which ignores a larger file); nil with Live. Its bytes
	// may be shared with the request's: an engine reads them only.
	Robots []byte
	// Truncated is true when Robots is longer than DefaultMaxBytes: the
	// answer carries a note saying so.
	Truncated bool
	// Live is the origin to fetch, nil for an inline file.
	Live *Live
}

// Live is an origin whose robots.txt is fetched through the server's cache
// (and its address guard), each dialect with its own fetch policy.
type Live struct {
	Origin fetch.Origin
	s      *Server
}

// Answer fetches (or finds in the cache) the robots.txt of the origin with
// the fetch policy of d, and reports it as GET /v1/fetch does. A live fetch
// that finds a new version records it in the history.
func (l *Live) Answer(ctx context.Context, d robotstxt.Dialect) (*cache.Answer, tester.FetchInfo, error) {
	return l.s.answer(ctx, l.Origin, d)
}

// CheckInput is a validated POST /v1/check.
type CheckInput struct {
	Subject
	URLs     []string
	Crawlers []robotstxt.Crawler
	Agents   []string
	// Dialect is robotstxt.DefaultDialect when the request names none:
	// each crawler's own.
	Dialect robotstxt.Dialect
	// Usage asks for each result's usage preferences (see usage.go).
	Usage bool
}

// LintInput is a validated POST /v1/lint.
type LintInput struct {
	Subject
	Disable  []string
	Original bool // the original dialect too (tester.Dialects)
}

// CompareInput is a validated POST /v1/compare.
type CompareInput struct {
	Subject
	URLs     []string
	Crawlers []robotstxt.Crawler
	Agents   []string
	Original bool // the original dialect too (tester.Dialects)
}

// DiffInput is a validated POST /v1/diff.
type DiffInput struct {
	Old, New                   []byte
	OldTruncated, NewTruncated bool
	URLs                       []string
	Crawlers                   []robotstxt.Crawler
	Agents                     []string
	Dialect                    robotstxt.Dialect
}

// decode reads a request body of JSON into v: one object, no unknown
// field, no value of the wrong type, nothing after it, at most
// MaxBodyBytes. (Its Content-Type is checked before: postGate.)
func decode(w http.ResponseWriter, r *http.Request, v any) *Error {
	return decodeFrom(http.MaxBytesReader(w, r.Body, MaxBodyBytes), v)
}

// decodeFrom is decode of a body read from r. Member names are matched
// exactly, as the API spells them, and a member given twice is refused
// (checkMembers): encoding/json alone would take "URLs" for "urls" and
// keep the last of two.
func decodeFrom(r io.Reader, v any) *Error {
	body, err := io.ReadAll(r)
	if err != nil {
		return readFailure(err, "")
	}
	if e := decodeBody(body, v); e != nil {
		return e
	}
	return checkMembers(body, v)
}

// decodeBody is decodeFrom's decoding, with encoding/json's rules.
func decodeBody(body []byte, v any) *Error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if err2 := dec.Decode(new(json.RawMessage)); err2 != io.EOF {
			if err2 == nil {
				return &Error{Status: http.StatusBadRequest, Message: "the body holds more than one JSON value"}
			}
			err = err2
		}
	}
	if err == nil {
		return nil
	}
	var (
		maxErr    *http.MaxBytesError
		refused   *bodyRefused
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
	)
	switch {
	case errors.As(err, &maxErr), errors.As(err, &refused):
		return readFailure(err, "")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("the body must be a JSON object, not %s", typeErr.Value)}
		}
		return badField(field, "want %s, got %s", jsonType(typeErr.Type.String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("the body is not JSON: %v (at byte %d)", err, syntaxErr.Offset)}
	case errors.Is(err, io.EOF):
		return &Error{Status: http.StatusBadRequest, Message: "the body is empty; want a JSON object"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Status: http.StatusBadRequest, Message: "the body is not JSON: it ends too early"}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		if near := suggest.Nearest(name, jsonFields(v)); near != "" {
			return badField(name, "unknown field; did you mean %q?", near)
		}
		return badField(name, "unknown field")
	}
	return &Error{Status: http.StatusBadRequest, Message: "the body cannot be read: " + err.Error()}
}

// jsonFields lists the JSON names of the fields of the struct v points to.
func jsonFields(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// jsonType names a Go type as JSON does.
func jsonType(goType string) string {
	switch {
	case goType == "string", goType == "*string":
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "an array of " + strings.TrimPrefix(jsonType(goType[2:]), "a ")
	case goType == "bool":
		return "a boolean"
	}
	return goType
}

// subject validates the robots/origin pair of a request.
func (s *Server) subject(robots *string, origin string) (Subject, *Error) {
	switch {
	case robots != nil && origin != "":
		return Subject{}, badField("origin", "give robots (the file) or origin (to fetch it), not both")
	case robots != nil:
		return inline(*robots), nil
	case origin == "":
		return Subject{}, badField("robots", "give robots (the file) or origin (to fetch it)")
	}
	o, err := parseOrigin(origin)
	if err != nil {
		return Subject{}, badField("origin", "%v", err)
	}
	return Subject{Live: &Live{Origin: o, s: s}}, nil
}

// inline is the subject of a file given in the request. Its bytes are
// the string's (no copy): they are only read.
func inline(body string) Subject {
	return Subject{Robots: unsafe.Slice(unsafe.StringData(body), len(body)), Truncated: len(body) > robotstxt.DefaultMaxBytes}
}

// parseOrigin reads an origin as the CLI does: a bare host means https.
func parseOrigin(raw string) (fetch.Origin, error) {
	if len(raw) > MaxURLBytes {
		return fetch.Origin{}, fmt.Errorf("longer than %d bytes", MaxURLBytes)
	}
	if tester.NeedsScheme(raw) {
		raw = "https://" + raw
	}
	o, err := fetch.OriginOf(raw)
	if err != nil {
		return o, err
	}
	// No DNS name is longer: such a host is the client's mistake, not a
	// site that cannot be reached.
	if len(o.Host) > MaxHostBytes {
		return fetch.Origin{}, fmt.Errorf("the host name is %d bytes, longer than %d (the limit of DNS)", len(o.Host), MaxHostBytes)
	}
	for label := range strings.SplitSeq(o.Host, ".") {
		if len(label) > MaxLabelBytes {
			return fetch.Origin{}, fmt.Errorf("the host name has a label of %d bytes, longer than %d (the limit of DNS)", len(label), MaxLabelBytes)
		}
	}
	return o, nil
}

// The limits of a host name in DNS (RFC 1035): 253 bytes written out
// (255 on the wire), labels of 63.
const (
	MaxHostBytes  = 253
	MaxLabelBytes = 63
)

func checkURLs(urls []string, required bool) *Error {
	switch {
	case len(urls) == 0 && required:
		return badField("urls", "give at least one URL")
	case len(urls) > MaxURLs:
		return badField("urls", "%d URLs, more than %d", len(urls), MaxURLs)
	}
	for i, u := range urls {
		if u != "" && len(u) <= MaxURLBytes && plainURL(u) {
			continue // the common case, without building the field's name
		}
		field := fmt.Sprintf("urls[%d]", i)
		switch {
		case u == "":
			return badField(field, "empty")
		case len(u) > MaxURLBytes:
			return badField(field, "longer than %d bytes", MaxURLBytes)
		case !tester.IsURL(u):
			return badField(field, "%q is neither an absolute URL (http, https or ftp) nor a path starting with /", clip(u))
		case strings.ContainsFunc(u, isControl):
			return badField(field, "holds control characters")
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// plainURL reports whether u starts as a URL must and holds no control
// character: checkURLs takes it as it is.
func plainURL(u string) bool {
	return tester.IsURL(u) && !hasControl(u)
}

// hasControl reports whether s holds a control character (below 0x20, or
// 0x7f), eight bytes at a time: a batch's URLs are most of its body.
func hasControl(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := load8(s, i)
		del := w ^ (swarOnes * 0x7f)
		// A byte below 0x20 borrows from its high bit, as does a byte
		// of del that is 0; bytes of 0x80 and more are masked by ^w.
		if ((w-swarOnes*0x20)&^w|(del-swarOnes)&^del)&swarHigh != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}

// clip shortens a value quoted in an error.
func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	i := 64
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

func checkCrawlers(names []string) ([]robotstxt.Crawler, *Error) {
	if len(names) > MaxNames {
		return nil, badField("crawlers", "%d crawlers, more than %d", len(names), MaxNames)
	}
	var out []robotstxt.Crawler
	for i, n := range names {
		c, ok := robotstxt.LookupCrawler(n)
		if !ok {
			return nil, badField(fmt.Sprintf("crawlers[%d]", i), "unknown crawler %q%s (GET /v1/crawlers lists the table; ask about a product token with \"agents\")", clip(n), didYouMean(nearCrawler(n)))
		}
		out = append(out, c)
	}
	return out, nil
}

func checkAgents(field string, tokens []string) *Error {
	if len(tokens) > MaxNames {
		return badField(field, "%d tokens, more than %d", len(tokens), MaxNames)
	}
	for i, t := range tokens {
		f := fmt.Sprintf("%s[%d]", field, i)
		switch {
		case strings.TrimSpace(t) == "":
			return badField(f, "empty")
		case len(t) > MaxNameBytes:
			return badField(f, "longer than %d bytes", MaxNameBytes)
		case strings.ContainsFunc(t, isControl):
			return badField(f, "holds control characters")
		}
	}
	return nil
}

func checkDialect(name string) (robotstxt.Dialect, *Error) {
	if name == "" {
		return robotstxt.DefaultDialect, nil
	}
	d, err := robotstxt.ParseDialect(name)
	if err != nil {
		if near := suggest.Dialect(name); near != "" {
			return 0, badField("dialect", "unknown dialect %q (did you mean %q?)", clip(name), near)
		}
		return 0, badField("dialect", "%v", err)
	}
	return d, nil
}

func (s *Server) checkInput(req *CheckRequest) (*CheckInput, *Error) {
	sub, e := s.subject(req.Robots, req.Origin)
	if e != nil {
		return nil, e
	}
	if e := checkURLs(req.URLs, true); e != nil {
		return nil, e
	}
	crawlers, e := checkCrawlers(req.Crawlers)
	if e != nil {
		return nil, e
	}
	if e := checkAgents("agents", req.Agents); e != nil {
		return nil, e
	}
	d, e := checkDialect(req.Dialect)
	if e != nil {
		return nil, e
	}
	return &CheckInput{Subject: sub, URLs: req.URLs, Crawlers: crawlers, Agents: req.Agents, Dialect: d, Usage: req.Usage}, nil
}

func (s *Server) lintInput(req *LintRequest) (*LintInput, *Error) {
	sub, e := s.subject(req.Robots, req.Origin)
	if e != nil {
		return nil, e
	}
	if e := checkAgents("disable", req.Disable); e != nil {
		return nil, e
	}
	return &LintInput{Subject: sub, Disable: req.Disable, Original: req.Original}, nil
}

func (s *Server) compareInput(req *CompareRequest) (*CompareInput, *Error) {
	sub, e := s.subject(req.Robots, req.Origin)
	if e != nil {
		return nil, e
	}
	if e := checkURLs(req.URLs, false); e != nil {
		return nil, e
	}
	crawlers, e := checkCrawlers(req.Crawlers)
	if e != nil {
		return nil, e
	}
	if e := checkAgents("agents", req.Agents); e != nil {
		return nil, e
	}
	return &CompareInput{Subject: sub, URLs: req.URLs, Crawlers: crawlers, Agents: req.Agents, Original: req.Original}, nil
}

func (s *Server) diffInput(req *DiffRequest) (*DiffInput, *Error) {
	if req.Old == nil {
		return nil, badField("old", "give the old file")
	}
	if req.New == nil {
		return nil, badField("new", "give the new file")
	}
	if e := checkURLs(req.URLs, false); e != nil {
		return nil, e
	}
	crawlers, e := checkCrawlers(req.Crawlers)
	if e != nil {
		return nil, e
	}
	if e := checkAgents("agents", req.Agents); e != nil {
		return nil, e
	}
	d, e := checkDialect(req.Dialect)
	if e != nil {
		return nil, e
	}
	if n := len(req.Crawlers) + len(req.Agents); req.URLs == nil && n > MaxDerivedDiffRows {
		return nil, &Error{Status: http.StatusRequestEntityTooLarge, Field: "urls", Message: fmt.Sprintf(
			"a diff that derives its URLs from the rules asks about at most %d crawlers and agents, not %d (it lists every change for every one); give urls, or name fewer",
			MaxDerivedDiffRows, n)}
	}
	oldS, newS := inline(*req.Old), inline(*req.New)
	return &DiffInput{
		Old: oldS.Robots, New: newS.Robots, OldTruncated: oldS.Truncated, NewTruncated: newS.Truncated,
		URLs: req.URLs, Crawlers: crawlers, Agents: req.Agents, Dialect: d,
	}, nil
}

// truncationNotes are the notes of an answer about files past the size
// limit.
func truncationNotes(files ...struct {
	name string
	cut  bool
	size int
}) []string {
	var notes []string
	for _, f := range files {
		if f.cut {
			notes = append(notes, fmt.Sprintf("%s is %d bytes: crawlers read the first %d (500 KiB) and ignore the rest; Yandex ignores the whole file", f.name, f.size, robotstxt.DefaultMaxBytes))
		}
	}
	return notes
}

// checkMembers refuses, in a body that decoded into v, a member whose
// name is not spelled as the API spells it (encoding/json matches names
// in any case: "URLs" would be taken for "urls") and a member given twice
// in one object (encoding/json keeps the last): the rule of every JSON
// body of the API, at every depth of the request's type.
func checkMembers(body []byte, v any) *Error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return walkMembers(dec, reflect.TypeOf(v), "")
}

// walkMembers reads one value from dec, checking the members of the
// objects that t (a struct, or a slice of them, at any depth) decodes.
func walkMembers(dec *json.Decoder, t reflect.Type, path string) *Error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return nil // decoded before: cannot happen
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch {
	case d == '{' && t != nil && t.Kind() == reflect.Struct:
		fields := map[string]reflect.Type{}
		var names []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fields[name] = f.Type
			names = append(names, name)
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil
			}
			key, _ := tok.(string)
			at := path + key
			ft, known := fields[key]
			if !known {
				for _, n := range names {
					if strings.EqualFold(n, key) {
						return badField(at, "unknown field; member names are matched exactly: did you mean %q?", path+n)
					}
				}
			}
			if seen[key] {
				return badField(at, "given twice; give each member once")
			}
			seen[key] = true
			if e := walkMembers(dec, ft, at+"."); e != nil {
				return e
			}
		}
	case d == '[' && t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := 0; dec.More(); i++ {
			if e := walkMembers(dec, t.Elem(), fmt.Sprintf("%s[%d].", strings.TrimSuffix(path, "."), i)); e != nil {
				return e
			}
		}
	default:
		// A value whose members the type does not name: skipped.
		for depth := 1; depth > 0; {
			tok, err := dec.Token()
			if err != nil {
				return nil
			}
			if d, ok := tok.(json.Delim); ok {
				if d == '{' || d == '[' {
					depth++
				} else {
					depth--
				}
			}
		}
		return nil
	}
	dec.Token() // the closing delimiter
	return nil
}
