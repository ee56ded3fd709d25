package accesslog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Format is a log format.
type Format int

// The formats a Parser reads.
const (
	// Auto is no format yet: Detect names one from the first lines.
	Auto Format = iota
	// Combined is Apache's and nginx's combined format.
	Combined
	// Common is the common log format, without referer and user agent.
	Common
	// JSON is JSON lines with mappable field names.
	JSON
	// Cloudflare is JSON lines with Cloudflare's field names.
	Cloudflare
	// Guard is the decision log of the guard package (robotstxt guard):
	// JSON lines, one decision a line (GuardFields).
	Guard

	numFormats
)

var formatNames = []string{"auto", "combined", "common", "json", "cloudflare", "guard"}

// String returns the format's name, as ParseFormat takes it.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the format a name names: auto, combined, common
// (also "clf"), json, cloudflare or guard (also "decisions"), ignoring
// case.
func ParseFormat(name string) (Format, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "clf", "apache", "nginx":
		if n == "clf" {
			return Common, nil
		}
		return Combined, nil
	case "jsonl", "ndjson":
		return JSON, nil
	case "decisions":
		return Guard, nil
	}
	for i, s := range formatNames {
		if s == n {
			return Format(i), nil
		}
	}
	return Auto, fmt.Errorf("accesslog: unknown format %q (auto, combined, common, json, cloudflare, guard)", name)
}

// Entry is one request of a log. Its byte slices point into the line
// given to Parse, or into the parser's scratch space: they are valid until
// the next Parse and must be copied to be kept.
type Entry struct {
	IP     []byte
	Time   time.Time // zero when the line has none
	Method []byte
	// Target is the request target as logged: a path with its query
	// ("/a?b=1"), or an absolute URL.
	Target    []byte
	Status    int // 0 when the line has none
	Host      []byte
	UserAgent []byte
	// SignatureAgent is the Signature-Agent header, where a JSON log
	// carries it (Web Bot Auth).
	SignatureAgent []byte
	// Decision is what the guard's decision log records of the request
	// (Format Guard; nil for the other formats), valid as the slices are.
	Decision *Decision
}

// Reset clears e.
func (e *Entry) Reset() { *e = Entry{} }

// Errors of a line. Parse wraps them with what it found wrong.
var (
	// ErrMalformed is a line that is not in the parser's format.
	ErrMalformed = errors.New("accesslog: malformed line")
	// ErrEmpty is an empty line (or one of blanks only).
	ErrEmpty = errors.New("accesslog: empty line")
)

// lineError is a malformed line's error: what was wrong, with no
// allocation for the common cases (the reasons are constants).
type lineError struct{ reason string }

func (e *lineError) Error() string        { return "accesslog: malformed line: " + e.reason }
func (e *lineError) Is(target error) bool { return target == ErrMalformed }

func malformed(reason string) error { return &lineError{reason} }

// Preallocated errors of the byte scanner: a malformed line costs no
// allocation either.
var (
	errNoIP      = malformed("no client address")
	errNoTime    = malformed("no [time]")
	errBadTime   = malformed("a time that does not read as dd/Mon/yyyy:hh:mm:ss +zzzz")
	errNoRequest = malformed("no quoted request")
	errNoStatus  = malformed("no status code after the request")
	errNotObject = malformed("not a JSON object")
	errBadJSON   = malformed("JSON that does not parse")
)

// Parser parses the lines of one format. The zero value is not usable:
// make one with NewParser. A Parser is not safe for concurrent use; its
// time cache and scratch space are its own.
type Parser struct {
	format Format
	fields *FieldMap

	// The last time read, and its text: log lines come in time order,
	// and many share their second.
	lastTime []byte
	lastT    time.Time

	scratch []byte // JSON strings with escapes, decoded
	jvals   [numFields]jsonValue
	dec     Decision // Entry.Decision of the guard's lines
}

// NewParser returns a parser of format f (Auto is not a format: Detect
// one first). fields maps the JSON fields; nil takes DefaultFields for
// JSON, CloudflareFields for Cloudflare and GuardFields for Guard.
func NewParser(f Format, fields *FieldMap) (*Parser, error) {
	p := &Parser{format: f, fields: fields}
	switch f {
	case Combined, Common:
	case JSON:
		if p.fields == nil {
			p.fields = DefaultFields()
		}
	case Cloudflare:
		if p.fields == nil {
			p.fields = CloudflareFields()
		}
	case Guard:
		if p.fields == nil {
			p.fields = GuardFields()
		}
	default:
		return nil, fmt.Errorf("accesslog: no parser for format %v (detect the format first)", f)
	}
	return p, nil
}

// Format returns the parser's format.
func (p *Parser) Format() Format { return p.format }

// Parse reads line (without its line end; a trailing "\r" is ignored)
// into e. The error is ErrEmpty for a blank line, or one that wraps
// ErrMalformed and says what was wrong; e is then partly filled.
func (p *Parser) Parse(line []byte, e *Entry) error {
	*e = Entry{}
	line = trimSpace(line)
	if len(line) == 0 {
		return ErrEmpty
	}
	switch p.format {
	case JSON, Cloudflare, Guard:
		return p.parseJSON(line, e)
	default:
		return p.parseCLF(line, e)
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\r' || b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// parseCLF reads the common and combined formats:
//
//	IP ident user [time] "request" status bytes ["referer" "user-agent"]
func (p *Parser) parseCLF(line []byte, e *Entry) error {
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return errNoIP
	}
	e.IP = line[:sp]
	rest := line[sp+1:]
	open := bytes.IndexByte(rest, '[')
	if open < 0 {
		return errNoTime
	}
	rest = rest[open+1:]
	end := bytes.IndexByte(rest, ']')
	if end < 0 {
		return errNoTime
	}
	ts := rest[:end]
	rest = rest[end+1:]
	if !bytes.Equal(ts, p.lastTime) || p.lastTime == nil {
		t, ok := parseCLFTime(ts)
		if !ok {
			return errBadTime
		}
		p.lastTime = append(p.lastTime[:0], ts...)
		p.lastT = t
	}
	e.Time = p.lastT
	req, rest, ok := quoted(rest)
	if !ok {
		return errNoRequest
	}
	splitRequest(req, e)
	// status
	rest = skipSpaces(rest)
	n, i := 0, 0
	for i < len(rest) && i < 4 && '0' <= rest[i] && rest[i] <= '9' {
		n = n*10 + int(rest[i]-'0')
		i++
	}
	if i != 3 {
		return errNoStatus
	}
	e.Status = n
	rest = rest[i:]
	if p.format == Common {
		return nil
	}
	// size, then up to two quoted fields: referer and user agent, or the
	// user agent alone.
	rest = skipSpaces(rest)
	if j := bytes.IndexByte(rest, ' '); j >= 0 {
		rest = rest[j:]
	} else {
		return nil
	}
	first, rest, ok := quoted(rest)
	if !ok {
		return nil
	}
	second, _, ok := quoted(rest)
	if !ok {
		e.UserAgent = first
		return nil
	}
	e.UserAgent = second
	return nil
}

func skipSpaces(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return b
}

// quoted finds the next quoted field of b, after blanks: its content
// (escapes left as written: \" and \x22) and the rest after the closing
// quote.
func quoted(b []byte) (field, rest []byte, ok bool) {
	b = skipSpaces(b)
	if len(b) == 0 || b[0] != '"' {
		return nil, b, false
	}
	b = b[1:]
	off := 0
	for {
		q := bytes.IndexByte(b[off:], '"')
		if q < 0 {
			return nil, nil, false
		}
		q += off
		// An odd run of backslashes before the quote escapes it.
		bs := 0
		for k := q - 1; k >= 0 && b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return b[:q], b[q+1:], true
		}
		off = q + 1
	}
}

// splitRequest splits "METHOD TARGET PROTO" into e's Method and Target;
// a request that is not of that form ("-", garbage) leaves the target
// empty.
func splitRequest(req []byte, e *Entry) {
	sp := bytes.IndexByte(req, ' ')
	if sp <= 0 {
		return
	}
	e.Method = req[:sp]
	t := req[sp+1:]
	if sp2 := bytes.LastIndexByte(t, ' '); sp2 >= 0 && bytes.HasPrefix(t[sp2+1:], []byte("HTTP/")) {
		t = t[:sp2]
	}
	e.Target = t
}

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// parseCLFTime reads "10/Oct/2026:13:55:36 +0000" (the zone is
// optional: UTC without it).
func parseCLFTime(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' {
		return time.Time{}, false
	}
	day, ok1 := num(b[0:2])
	year, ok2 := num(b[7:11])
	hh, ok3 := num(b[12:14])
	mm, ok4 := num(b[15:17])
	ss, ok5 := num(b[18:20])
	if !(ok1 && ok2 && ok3 && ok4 && ok5) {
		return time.Time{}, false
	}
	mon := 0
	for i, m := range months {
		if string(b[3:6]) == m {
			mon = i + 1
			break
		}
	}
	if mon == 0 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60 {
		return time.Time{}, false
	}
	offset := 0
	if z := b[20:]; len(z) > 0 {
		if len(z) != 6 || z[0] != ' ' || (z[1] != '+' && z[1] != '-') {
			return time.Time{}, false
		}
		zh, ok1 := num(z[2:4])
		zm, ok2 := num(z[4:6])
		if !ok1 || !ok2 {
			return time.Time{}, false
		}
		offset = zh*3600 + zm*60
		if z[1] == '-' {
			offset = -offset
		}
	}
	secs := daysFromCivil(year, mon, day)*86400 + int64(hh*3600+mm*60+ss) - int64(offset)
	return time.Unix(secs, 0).UTC(), true
}

func num(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysFromCivil returns the days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
