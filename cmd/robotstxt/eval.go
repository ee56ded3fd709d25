package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/internal/usagejson"
)

const evalHelp = `Usage: robotstxt eval [-max-bytes N] < questions.jsonl > answers.jsonl

Reads one JSON object per line and writes one answer per line, in order.

Question fields:
  robots | robots_b64 | robots_file   the file: its text, base64 of its exact
                                      bytes, or a path (relative to the working
                                      directory); exactly one
  ua | agents | crawler               who asks: one product token (passed as
                                      given, as to Google's library), several
                                      tokens (Google's semantics), or a crawler
                                      from the table (its fallback tokens, its
                                      '*' handling and its dialect); exactly
                                      one. "agents": [] names no crawler: the
                                      '*' group answers, as Google's library
                                      does
  url                                 an absolute URL or a path starting with
                                      '/' (taken as given, not normalised; "" is
                                      "/"); anything else is an error
  dialect                             optional: google, rfc9309, bing, yandex,
                                      baidu, original; wins over the
                                      crawler's own
  status                              optional: the HTTP status the file was
                                      served with (default 200); the fetch
                                      policy of the dialect that answers
                                      applies, as check -u applies it (e.g.
                                      403: allowed for Google, disallowed
                                      for Baidu)
  usage                               optional: true adds the AI usage
                                      preferences (usage, signals)
  name, id, comment, source, kind,    annotations, ignored (a test case's
  allowed, line, rule, expected       name and expected answer)
Any other field is an error (a misspelt field is never ignored).

Answer fields:
  allowed      true or false
  line         the deciding rule's line (1-based; 0 when none), as Google's
               library reports it
  rule         that line as written, without its line ending
  dialect      the dialect that answered
  crawl_delay  seconds (a number) or null; only for dialects that read it
               (bing, yandex)
  warning      present when a ua or agents value is not a product token
               ("Googlebot/2.1", "My Bot"): it is still asked about as given
               (not in the original dialect, which reads names loosely)
  usage        with "usage": true: null when the URL may not be crawled,
               else {"train-ai", "search" (each "y", "n" or "unknown"),
               any other key the deciding Content-Usage rules set, and
               "lines": their lines, ascending, [] when none}
  signals      with "usage": true: null when the crawler's groups have no
               Content-Signal line, else {"search", "ai-train", "ai-input"
               (each "yes", "no" or null), "line"}
A malformed question gets {"error": "..."} and the run goes on.

Exit status: 0 when every question got an answer, 1 when some got an
error (a line on stderr counts them), 2 on bad usage or when standard
input cannot be read or the answers written.

Example:
  echo '{"robots":"User-agent: *\nDisallow: /x\n","ua":"FooBot",
         "url":"https://example.com/x/y"}' | robotstxt eval
  {"allowed":false,"line":2,"rule":"Disallow: /x","dialect":"google"}
`

// maxQuestionBytes bounds one input line (a question with its body).
const maxQuestionBytes = 64 << 20

type question struct {
	Robots     *string         `json:"robots"`
	RobotsB64  *string         `json:"robots_b64"`
	RobotsFile *string         `json:"robots_file"`
	UA         *string         `json:"ua"`
	Agents     json.RawMessage `json:"agents"`
	Crawler    *string         `json:"crawler"`
	URL        *string         `json:"url"`
	Dialect    *string         `json:"dialect"`
	Status     *int            `json:"status"`
	Usage      *bool           `json:"usage"`

	// Annotations a test case carries: accepted and ignored.
	Name     json.RawMessage `json:"name"`
	ID       json.RawMessage `json:"id"`
	Comment  json.RawMessage `json:"comment"`
	Source   json.RawMessage `json:"source"`
	Kind     json.RawMessage `json:"kind"`
	Allowed  json.RawMessage `json:"allowed"`
	Line     json.RawMessage `json:"line"`
	Rule     json.RawMessage `json:"rule"`
	Expected json.RawMessage `json:"expected"`
}

// questionFields are the fields a question may have, for suggestions.
var questionFields = []string{"robots", "robots_b64", "robots_file", "ua", "agents", "crawler", "url",
	"dialect", "status", "usage", "name", "id", "comment", "source", "kind", "allowed", "line", "rule", "expected"}

type answer struct {
	Allowed    bool     `json:"allowed"`
	Line       int      `json:"line"`
	Rule       string   `json:"rule"`
	Dialect    string   `json:"dialect"`
	CrawlDelay *float64 `json:"crawl_delay,omitempty"`
	// Warning says why a ua or agents value is not a product token.
	Warning string `json:"warning,omitempty"`
	// Usage and Signals, asked for with "usage": true (JSON null kept).
	Usage   json.RawMessage `json:"usage,omitempty"`
	Signals json.RawMessage `json:"signals,omitempty"`
}

// answerWithNullDelay is answer for dialects that read crawl-delay, where a
// missing one is written as null.
type answerWithNullDelay struct {
	Allowed    bool     `json:"allowed"`
	Line       int      `json:"line"`
	Rule       string   `json:"rule"`
	Dialect    string   `json:"dialect"`
	CrawlDelay *float64 `json:"crawl_delay"`
	// Warning says why a ua or agents value is not a product token.
	Warning string          `json:"warning,omitempty"`
	Usage   json.RawMessage `json:"usage,omitempty"`
	Signals json.RawMessage `json:"signals,omitempty"`
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("eval")
	maxBytes := fs.Int("max-bytes", robotstxt.DefaultMaxBytes, "bytes of each robots.txt that are parsed")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "eval", evalHelp, args, err)
	}
	if len(pos) > 0 {
		complain(stderr, "eval", "unexpected argument %q (questions come on standard input)", pos[0])
		return 2
	}
	e := &evaluator{opts: &robotstxt.ParseOptions{MaxBytes: *maxBytes}, cache: newBodyCache(64 << 20)}
	asked, failed := 0, 0 // questions, and those answered with an error
	in := bufio.NewReaderSize(stdin, 1<<20)
	out := bufio.NewWriterSize(stdout, 1<<16)
	enc := json.NewEncoder(jsonWriter{out})
	enc.SetEscapeHTML(false)
	for n := 1; ; n++ {
		line, err := readLine(in, maxQuestionBytes)
		if err == io.EOF {
			break
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			out.Flush()
			complain(stderr, "eval", "reading standard input: %v", err)
			return 2
		}
		if len(line) == 0 && err == nil {
			n-- // blank lines are not questions
			continue
		}
		asked++
		var v any
		if err != nil {
			v = map[string]string{"error": fmt.Sprintf("question %d: longer than %d bytes", n, maxQuestionBytes)}
			failed++
		} else if a, aerr := e.answer(line); aerr != nil {
			v = map[string]string{"error": fmt.Sprintf("question %d: %v", n, aerr)}
			failed++
		} else {
			v = a
		}
		if err := enc.Encode(v); err != nil {
			complain(stderr, "eval", "writing: %v", err)
			return 2
		}
		if in.Buffered() == 0 {
			// About to wait for input: let a reader in a pipeline see
			// the answers so far.
			if err := out.Flush(); err != nil {
				complain(stderr, "eval", "writing: %v", err)
				return 2
			}
		}
	}
	if err := out.Flush(); err != nil {
		complain(stderr, "eval", "writing: %v", err)
		return 2
	}
	if failed > 0 {
		// Every question has its line, the failed ones an error: a
		// pipeline that checks the status learns that some did not get
		// an answer without reading them.
		complain(stderr, "eval", "%d of %d %s got an error, not an answer", failed, asked, plural(asked, "question"))
		return 1
	}
	return 0
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line of at most max bytes, without its line ending. A
// longer line is skipped whole and reported with errLineTooLong.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+2 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && (len(buf) > 0 || tooLong) {
			err = nil
		}
		if err != nil {
			return nil, err
		}
		if tooLong {
			return nil, errLineTooLong
		}
		for len(buf) > 0 && (buf[len(buf)-1] == '\n' || buf[len(buf)-1] == '\r') {
			buf = buf[:len(buf)-1]
		}
		return buf, nil
	}
}

type evaluator struct {
	opts  *robotstxt.ParseOptions
	cache *bodyCache
}

func (e *evaluator) answer(line []byte) (any, error) {
	var q question
	if err := decodeStrict(line, &q, questionFields); err != nil {
		return nil, err
	}
	r, err := e.robots(&q)
	if err != nil {
		return nil, err
	}
	query := robotstxt.Query{}
	who := 0
	if q.UA != nil {
		who++
		query.Agents = []string{*q.UA}
	}
	if len(q.Agents) > 0 && string(q.Agents) != "null" {
		who++
		if err := json.Unmarshal(q.Agents, &query.Agents); err != nil {
			return nil, fmt.Errorf("agents: want a list of strings: %v", err)
		}
		// An empty list names no crawler: the * group answers, as
		// Decide and Google's library answer it.
	}
	if q.Crawler != nil {
		who++
		c, ok := robotstxt.LookupCrawler(*q.Crawler)
		if !ok {
			if near := nearCrawler(*q.Crawler); near != "" {
				return nil, fmt.Errorf("crawler: unknown crawler %q (did you mean %q?)", *q.Crawler, near)
			}
			return nil, fmt.Errorf("crawler: unknown crawler %q", *q.Crawler)
		}
		query.Crawler = &c
	}
	switch who {
	case 0:
		return nil, errors.New("missing ua, agents or crawler")
	case 1:
	default:
		return nil, errors.New("ua, agents and crawler are exclusive: give one")
	}
	if q.URL == nil {
		return nil, errors.New("missing url")
	}
	// An empty URL is "/", as Google's library (and its test suite)
	// reads it; anything else must be absolute or a path.
	if *q.URL != "" {
		if err := checkURL(*q.URL); err != nil {
			return nil, fmt.Errorf("url: %v", err)
		}
	}
	query.URL = *q.URL
	if q.Dialect != nil && *q.Dialect != "" {
		d, err := robotstxt.ParseDialect(*q.Dialect)
		if err != nil {
			if near := nearDialect(*q.Dialect); near != "" {
				return nil, fmt.Errorf("dialect: unknown dialect %q (did you mean %q?)", *q.Dialect, near)
			}
			return nil, fmt.Errorf("dialect: unknown dialect %q", *q.Dialect)
		}
		query.Dialect = d
	}
	var dec robotstxt.Decision
	rules := true // the file's rules answer (not a fetch policy alone)
	if q.Status != nil {
		if *q.Status < 100 || *q.Status > 999 {
			return nil, fmt.Errorf("status: %d is not an HTTP status", *q.Status)
		}
		// The fetch policy first, as the fetcher and check -u apply it;
		// the size is the file's, so that Yandex's size rule holds.
		ans := fetch.Response{Status: *q.Status, Size: r.Size()}.Interpret(query.ReadsIn())
		if ans.Policy == fetch.Rules {
			ans.Robots = r
		} else {
			rules = false
		}
		dec = ans.Decide(query)
	} else {
		dec = r.Decide(query)
	}
	a := answer{Allowed: dec.Allowed, Line: dec.Line(), Dialect: dec.Dialect.String()}
	what := "agents"
	if q.UA != nil {
		what = "ua"
	}
	// The original draft reads a name with its version (a substring
	// match of "webcrawler/3.0" without "/3.0"): no warning there.
	for _, t := range query.Agents {
		if dec.Dialect == robotstxt.Original {
			break
		}
		if a.Warning = tokenWarning(what, t); a.Warning != "" {
			break
		}
	}
	if dec.HasRule() {
		a.Rule = dec.Rule.Text
	}
	if q.Usage != nil && *q.Usage {
		a.Usage, a.Signals = usageJSON(r, query, dec, rules)
	}
	if !dec.Dialect.HonoursCrawlDelay() {
		return a, nil
	}
	if dec.HasCrawlDelay {
		cd := dec.CrawlDelay
		a.CrawlDelay = &cd
	}
	return answerWithNullDelay(a), nil
}

// usageJSON is the usage and signals of an answer asked for with "usage":
// null when dec disallows (no preference applies), else the preferences of
// the file's Content-Usage rules (none when the file's rules do not
// answer, rules false: a fetch policy decided); signals null when the
// crawler's groups have no Content-Signal line.
func usageJSON(r *robotstxt.Robots, q robotstxt.Query, dec robotstxt.Decision, rules bool) (usage, signals json.RawMessage) {
	var ua robotstxt.UsageAnswer
	if rules {
		ua = r.Usage(q)
	}
	return usagejson.Encode(ua, dec.Allowed)
}

// decodeStrict decodes a JSON object into v, refusing a field v does not
// have (fields lists them, for the suggestion) and anything after the
// object.
func decodeStrict(data []byte, v any, fields []string) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			name, _ := strconv.Unquote(f)
			if near := suggest.Nearest(name, fields); near != "" {
				return fmt.Errorf("unknown field %s (did you mean %q?)", f, near)
			}
			return fmt.Errorf("unknown field %s", f)
		}
		var x any
		if jerr := json.Unmarshal(data, &x); jerr != nil {
			err = jerr // its words for a syntax error
		}
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if d.More() {
		return errors.New("not a JSON object: more after the object")
	}
	return nil
}

// robots returns the parsed file a question names.
func (e *evaluator) robots(q *question) (*robotstxt.Robots, error) {
	n := 0
	for _, p := range []*string{q.Robots, q.RobotsB64, q.RobotsFile} {
		if p != nil {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, errors.New("missing robots, robots_b64 or robots_file")
	case n > 1:
		return nil, errors.New("robots, robots_b64 and robots_file are exclusive: give one")
	}
	var body []byte
	switch {
	case q.Robots != nil:
		body = []byte(*q.Robots)
	case q.RobotsB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*q.RobotsB64)
		if err != nil {
			return nil, fmt.Errorf("robots_b64: not standard base64: %v", err)
		}
		body = b
	default:
		b, err := readRobotsFile(*q.RobotsFile, e.opts.MaxBytes)
		if err != nil {
			return nil, fmt.Errorf("robots_file: %v", err)
		}
		body = b
	}
	return e.cache.parse(body, e.opts), nil
}

// readRobotsFile reads a robots.txt file, at most max bytes of it plus one
// (so that the parser knows it was cut).
func readRobotsFile(path string, max int) ([]byte, error) {
	if path == "" {
		return nil, errors.New("empty path")
	}
	// Only a regular file: a FIFO would block the open, a device such as
	// /dev/zero never end. Checked before opening, and again on the file
	// opened.
	st, err := os.Stat(path)
	if err != nil {
		// Say it as opening it would ("open x: no such file ...").
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.Unwrap(err)}
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	// The parser reads max bytes and reports the rest as cut; reading one
	// more tells it there was a rest. With no parse limit (max < 0), a
	// file is read whole up to maxRobotsFile.
	switch {
	case max == 0:
		max = robotstxt.DefaultMaxBytes
	case max < 0:
		b, err := io.ReadAll(io.LimitReader(f, maxRobotsFile+1))
		if err == nil && len(b) > maxRobotsFile {
			return nil, fmt.Errorf("%s is over %d MiB", path, maxRobotsFile>>20)
		}
		return b, err
	}
	// At least one byte past 500 KiB, so that the parse knows whether the
	// file's size reaches past Yandex's limit.
	n := robotstxt.DefaultMaxBytes
	if max > n {
		n = max
	}
	return io.ReadAll(io.LimitReader(f, int64(n)+1))
}

// maxRobotsFile bounds a robots_file read with no parse limit
// (-max-bytes -1).
const maxRobotsFile = 64 << 20

// bodyCache keeps parsed files by content, so that many questions about one
// file parse it once. It holds at most limit bytes of bodies.
type bodyCache struct {
	limit, size int
	m           map[string]*robotstxt.Robots
}

func newBodyCache(limit int) *bodyCache {
	return &bodyCache{limit: limit, m: map[string]*robotstxt.Robots{}}
}

func (c *bodyCache) parse(body []byte, opts *robotstxt.ParseOptions) *robotstxt.Robots {
	if r, ok := c.m[string(body)]; ok {
		return r
	}
	r := robotstxt.ParseWith(body, opts)
	if len(body) > c.limit {
		return r
	}
	if c.size+len(body) > c.limit {
		clear(c.m)
		c.size = 0
	}
	c.m[string(body)] = r
	c.size += len(body)
	return r
}
