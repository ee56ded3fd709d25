package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// maxInputBytes bounds how much of a robots.txt file the CLI reads: what
// crawlers parse plus one byte, so that a cut can be reported.
const maxInputBytes = robotstxt.DefaultMaxBytes + 1

// readInput reads a robots.txt file named on the command line, or standard
// input for "-". Its errors are one line that names the file.
// restBytes and restLines count what follows the first maxInputBytes (line
// ends), up to maxRestBytes.
func readInput(name string, stdin io.Reader) (body []byte, restBytes int64, restLines int, err error) {
	var r io.Reader
	if name == "-" {
		r = stdin
		name = "standard input"
	} else {
		f, err := openFile(name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, 0, 0, fmt.Errorf("%s: no such file", name)
			}
			if errors.Is(err, errIsDir) {
				return nil, 0, 0, fmt.Errorf("%s: is a directory, not a robots.txt file", name)
			}
			return nil, 0, 0, err
		}
		defer f.Close()
		r = f
	}
	body, err = io.ReadAll(io.LimitReader(r, maxInputBytes))
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%s: %v", name, err)
	}
	if isBinary(body) {
		return nil, 0, 0, fmt.Errorf("%s: looks like a binary file, not a robots.txt file", name)
	}
	if len(body) == maxInputBytes {
		// Count what crawlers would not read, so that lint can say what
		// is cut; bounded, so that an endless input cannot hang us.
		buf := make([]byte, 64<<10)
		lr := io.LimitReader(r, maxRestBytes)
		for {
			n, err := lr.Read(buf)
			restBytes += int64(n)
			restLines += bytes.Count(buf[:n], []byte{'\n'})
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, 0, 0, fmt.Errorf("%s: %v", name, err)
			}
		}
	}
	return body, restBytes, restLines, nil
}

// maxRestBytes bounds how much of an over-long file is counted past what is read.
const maxRestBytes = 1 << 30

// robotsFile is a robots.txt file loaded for a command.
type robotsFile struct {
	Name   string // the name to show: the path as given, or "standard input"
	Path   string // the path as given ("-" for standard input)
	Body   []byte // the bytes read: at most maxInputBytes
	Robots *robotstxt.Robots
	// Size is the file's size in bytes (counted up to about 1 GiB) when it
	// is over robotstxt.DefaultMaxBytes; CutLines counts the line ends in
	// what crawlers do not read.
	Size     int64
	CutLines int
	// Fetched is set when the file came from a live site (-u): the fetch's
	// policy, why it applies, and where the answer came from. When its
	// Policy is not "rules", no file applies: Body is empty and the
	// commands answer with the policy (allow all, disallow all).
	Fetched *fetchInfo
	// resp is the answer the fetch got, when every question is to be
	// read with its own crawler's fetch policy (-u without -d); answers
	// holds what it means in each dialect asked about.
	resp    *fetch.Response
	answers map[robotstxt.Dialect]*fetch.Answer
}

// policyNotes say, for a file fetched without -d, which dialects' fetch
// policies read the answer otherwise than Google's, one note per policy
// ("for baidu, original: disallow all: 403 Forbidden: ...").
func (f *robotsFile) policyNotes(ds []robotstxt.Dialect) []string {
	if !f.mixed(ds) {
		return nil
	}
	g := f.answer(robotstxt.Google)
	var order []fetch.Policy
	who := map[fetch.Policy][]string{}
	why := map[fetch.Policy]string{}
	for _, d := range ds {
		a := f.answer(d)
		if a.Policy == g.Policy {
			continue
		}
		if who[a.Policy] == nil {
			order = append(order, a.Policy)
			why[a.Policy] = a.Reason
		}
		who[a.Policy] = append(who[a.Policy], d.String())
	}
	var notes []string
	for _, p := range order {
		notes = append(notes, fmt.Sprintf("for %s: %s: %s", strings.Join(who[p], ", "), strings.ReplaceAll(p.String(), "-", " "), why[p]))
	}
	return notes
}

// mixed reports whether the fetch policies of dialects ds read the
// fetched answer as different policies (always false without perRow).
func (f *robotsFile) mixed(ds []robotstxt.Dialect) bool {
	if !f.perRow() {
		return false
	}
	g := f.answer(robotstxt.Google)
	for _, d := range ds {
		if f.answer(d).Policy != g.Policy {
			return true
		}
	}
	return false
}

// perRow reports whether each question gets its own crawler's fetch
// policy: the file was fetched without -d.
func (f *robotsFile) perRow() bool { return f.resp != nil }

// answer returns what the file means for questions in dialect d: for a
// file read from disk or fetched with -d, the one policy it has; for one
// fetched without -d, the answer read with d's fetch policy (the same
// code the fetcher decides with, fetch.Interpret).
func (f *robotsFile) answer(d robotstxt.Dialect) *fetch.Answer {
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	if a, ok := f.answers[d]; ok {
		return a
	}
	var a *fetch.Answer
	switch {
	case f.resp != nil:
		a = f.resp.Interpret(d)
	case f.Fetched != nil:
		p, _ := fetch.ParsePolicy(f.Fetched.Policy)
		a = &fetch.Answer{Dialect: d, Policy: p, Reason: f.Fetched.Reason}
	default:
		a = &fetch.Answer{Dialect: d, Policy: fetch.Rules}
	}
	if a.Policy == fetch.Rules && (f.resp == nil || f.Fetched.Policy == "rules") {
		a.Robots = f.Robots // parsed once, with the size the source had
	}
	if f.answers == nil {
		f.answers = map[robotstxt.Dialect]*fetch.Answer{}
	}
	f.answers[d] = a
	return a
}

// rowDialect is the dialect a question is read in: -d's, else the
// crawler's own, else Google's.
func rowDialect(q robotstxt.Query) robotstxt.Dialect {
	switch {
	case q.Dialect != robotstxt.DefaultDialect:
		return q.Dialect
	case q.Crawler != nil && q.Crawler.Dialect != robotstxt.DefaultDialect:
		return q.Crawler.Dialect
	}
	return robotstxt.Google
}

// policy returns how the file decides: "rules" for a file read from disk or
// fetched with rules to obey, else the fetch policy, "allow-all" or
// "disallow-all".
func (f *robotsFile) policy() string {
	if f.Fetched == nil {
		return "rules"
	}
	return f.Fetched.Policy
}

// truncated reports whether crawlers read only the first
// robotstxt.DefaultMaxBytes of the file.
func (f *robotsFile) truncated() bool {
	return f.Robots.Truncated() || f.Fetched != nil && f.Fetched.Truncated
}

// fileNotes say what crawlers make of the file where the answers alone
// would hide it: a cut at 500 KiB (and Yandex's size rule).
func (f *robotsFile) fileNotes() []string {
	var notes []string
	if f.policy() == "rules" && len(bytes.TrimSpace(f.Body)) > 0 {
		// What crawlers read from a file they cannot read: nothing
		// usable, so every answer is "allowed"; say why.
		switch {
		case bytes.HasPrefix(f.Body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(f.Body, []byte{0xFE, 0xFF}):
			notes = append(notes, "the file is UTF-16: crawlers read it as bytes and find no usable rule in it, so every answer is \"allowed\"; save it as UTF-8")
		case !hasField(f.Robots):
			notes = append(notes, "no line of the file reads as a robots.txt field (user-agent, allow, disallow, sitemap...): crawlers find nothing usable in it, so every answer is \"allowed\"")
		}
	}
	if f.truncated() {
		notes = append(notes, fmt.Sprintf("the file is over %d bytes: only the first %d are read, as crawlers read them; %s: everything is allowed for Yandex crawlers",
			robotstxt.DefaultMaxBytes, robotstxt.DefaultMaxBytes, robotstxt.OversizedReason))
	}
	return notes
}

// hasField reports whether any line of r reads as a field, in Google's
// reading.
func hasField(r *robotstxt.Robots) bool {
	for _, l := range r.Lines() {
		if l.Field != robotstxt.FieldNone && l.Field != robotstxt.FieldUnknown {
			return true
		}
	}
	return false
}

// originNotes say, for a file fetched from a site, which of the URLs asked
// about are on another origin: its rules do not govern them (docs/protocol.md, Scope;
// Yandex's tester says "URL does not belong to your domain").
func (f *robotsFile) originNotes(urls []string) []string {
	if f.Fetched == nil {
		return nil
	}
	var notes []string
	for _, u := range urls {
		if !strings.Contains(u, "://") {
			continue // a path: on the file's origin
		}
		if o, err := fetch.OriginOf(u); err != nil || o.String() != f.Fetched.Origin {
			notes = append(notes, fmt.Sprintf("%s is not on %s: this robots.txt does not govern it (the answers below are what it would say)", u, f.Fetched.Origin))
		}
	}
	return notes
}

// fetchNotes say, for a file fetched from a site, where the answer came from
// and, when no rules apply, what applies instead: one line each. They are
// nil for a file read from disk.
//
// Questions asked in dialects ds whose fetch policies read the answer
// differently (-u without -d) get a note saying that each row has its own.
func (f *robotsFile) fetchNotes(ds ...robotstxt.Dialect) []string {
	i := f.Fetched
	if i == nil {
		return nil
	}
	src := map[string]string{"network": "fetched now", "cache": "from the cache", "stale-cache": "from the cache (stale: the refresh failed)"}[i.Source]
	if f.mixed(ds) {
		return []string{fmt.Sprintf("%s (store: %s): %s", src, i.Store, i.Reason),
			"each crawler's own engine reads this answer (its fetch policy, row by row); -d sets one for all"}
	}
	notes := []string{fmt.Sprintf("%s with the %s fetch policy (store: %s): %s", src, i.Dialect, i.Store, i.Reason)}
	switch i.Policy {
	case "allow-all":
		notes = append(notes, "no robots.txt rules apply: everything is allowed")
	case "disallow-all":
		notes = append(notes, "no robots.txt rules apply: everything is disallowed")
	}
	return notes
}

// robotsSource is where a command's robots.txt comes from when it is not a
// file: a live site (-u), fetched through the cache on --store. check, lint
// and compare define these flags through addSourceFlags, so that they take
// the same values and say the same things.
type robotsSource struct {
	URL      string
	Store    string
	storeSet bool
}

// addSourceFlags defines -u and --store on fs.
func addSourceFlags(fs *flag.FlagSet) *robotsSource {
	s := &robotsSource{}
	fs.StringVar(&s.URL, "u", "", "fetch the robots.txt of URL's origin")
	fs.StringVar(&s.Store, "store", defaultStoreSpec, "the cache's store (with -u)")
	return s
}

// check validates the flags once fs is parsed: -u excludes a file (what
// names it is fileWhat, "-f" or "a file argument"), and --store needs -u.
func (s *robotsSource) check(fs *flag.FlagSet, haveFile bool, fileWhat string) error {
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "store" {
			s.storeSet = true
		}
	})
	switch {
	case s.URL != "" && haveFile:
		return fmt.Errorf("-u and %s are exclusive: give the robots.txt as a site's URL or as a file, not both", fileWhat)
	case s.URL == "" && s.storeSet:
		return errors.New("--store applies only with -u (it is where fetched robots.txt files are cached)")
	}
	return nil
}

// load fetches the robots.txt of the site s.URL names through the cache,
// with the fetch policy of dialect d (DefaultDialect: Google's). The file's
// name is its robots.txt URL. An unreachable site is not an error: the
// file's Fetched says which policy applies and why. The error is for a URL
// with no origin or a store that cannot be opened.
//
// With d DefaultDialect the fetch uses Google's policy, and the file's
// answer(d) reads the same answer with each dialect's own policy.
func (s *robotsSource) load(ctx context.Context, d robotstxt.Dialect, stderr io.Writer) (*robotsFile, error) {
	body, info, err := fetchRobotsWith(ctx, s.URL, fetchOptions{store: s.Store, dialect: d, now: fetchClock}, stderr)
	if err != nil {
		return nil, fmt.Errorf("-u %s: %v", s.URL, err)
	}
	size := len(body)
	if info.Truncated {
		size = len(body) + 1 // at least: the fetcher read one byte past its limit
	}
	f := &robotsFile{Name: info.RobotsURL, Body: body, Robots: robotstxt.ParseWith(body, &robotstxt.ParseOptions{Size: size}),
		Size: int64(size), Fetched: &info}
	if d == robotstxt.DefaultDialect && info.Source != "stale-cache" && info.Error == "" && info.Status != 0 {
		// One fetch with Google's policy, which keeps the body of every
		// 2xx answer; each question reads the answer with its own
		// crawler's policy. (A stale copy served after a failed refresh
		// is what every crawler keeps using, and no answer at all means
		// the same to every crawler: unreachable.)
		h := http.Header{}
		if n := len(info.Trace); n > 0 && info.Trace[n-1].ContentType != "" {
			h.Set("Content-Type", info.Trace[n-1].ContentType)
		}
		f.resp = &fetch.Response{Status: info.Status, Header: h, Body: body, Size: size}
	}
	return f, nil
}

// loadRobots loads the robots.txt file of a command: a path, or "-" for
// standard input. Every command loads its files through it, so that other
// sources (a live URL through the cache) are added in one place. Its errors
// are one line that names the file.
func loadRobots(name string, stdin io.Reader) (*robotsFile, error) {
	if name == "" {
		return nil, errors.New("empty file name")
	}
	body, restBytes, restLines, err := readInput(name, stdin)
	if err != nil {
		return nil, err
	}
	shown := name
	if name == "-" {
		shown = "standard input"
	}
	return &robotsFile{Name: shown, Path: name, Body: body, Robots: robotstxt.Parse(body),
		Size: int64(len(body)) + restBytes, CutLines: restLines}, nil
}

// newFlagSet returns the flag set of the subcommand name. It prints
// nothing: parseFlags returns its errors and flagFailed reports them.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// flagFailed reports an error of parseFlags for the subcommand cmd and
// returns the exit status: for -h, the help on stderr and 0; otherwise one
// line that names the flag as it was typed and points to -h, and 2.
func flagFailed(stderr io.Writer, cmd, help string, args []string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		io.WriteString(stderr, help)
		return 0
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag " + typedFlag(args, name)
	} else if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		msg = typedFlag(args, name) + " needs a value"
	}
	complain(stderr, cmd, "%s (robotstxt %s -h lists the flags)", msg, cmd)
	return 2
}

// typedFlag returns the flag name as the user typed it in args: "-x",
// "--x" or "--x=value" (shown as "--x").
func typedFlag(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		for _, dashes := range []string{"-", "--"} {
			if a == dashes+name || strings.HasPrefix(a, dashes+name+"=") {
				return dashes + name
			}
		}
	}
	return "-" + name
}

// parseFlags parses flags that may come before, between or after the
// positional arguments ("check URL -c Bingbot"), and returns the positional
// arguments. Everything after "--" is positional.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// readURLList reads URLs one a line: blank lines and lines starting with '#'
// are skipped. At most maxURLs are read.
func readURLList(r io.Reader, name string) ([]string, error) {
	body, err := io.ReadAll(io.LimitReader(r, maxURLListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(body) > maxURLListBytes {
		return nil, fmt.Errorf("%s: longer than %d bytes", name, maxURLListBytes)
	}
	var urls []string
	for _, l := range strings.Split(string(body), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		urls = append(urls, l)
		if len(urls) > maxURLs {
			return nil, fmt.Errorf("%s: more than %d URLs", name, maxURLs)
		}
	}
	return urls, nil
}

// Bounds on URL lists.
const (
	maxURLListBytes = 64 << 20
	maxURLs         = 1_000_000
)

// checkURL reports whether u is something a robots.txt question can be
// about: an absolute URL or a path starting with '/'.
func checkURL(u string) error {
	if strings.HasPrefix(u, "/") || strings.Contains(u, "://") {
		return nil
	}
	return fmt.Errorf("URL %q: give an absolute URL (https://example.com/path) or a path starting with /", u)
}

// lookupCrawlers resolves -c names.
func lookupCrawlers(names []string) ([]robotstxt.Crawler, error) {
	var out []robotstxt.Crawler
	seen := map[string]bool{}
	for _, n := range names {
		c, ok := robotstxt.LookupCrawler(n)
		if !ok {
			return nil, fmt.Errorf("unknown crawler %q (robotstxt check --crawlers lists the known ones; -a %s asks about any product token)", n, exampleToken(n))
		}
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// exampleToken is name if it is a product token, else "TOKEN".
func exampleToken(name string) string {
	if robotstxt.ValidToken(name) {
		return name
	}
	return "TOKEN"
}

// parseDialectFlag reads -d; "" means each crawler's own dialect.
func parseDialectFlag(s string) (robotstxt.Dialect, error) {
	if s == "" {
		return robotstxt.DefaultDialect, nil
	}
	d, err := robotstxt.ParseDialect(s)
	if err != nil {
		return 0, fmt.Errorf("unknown dialect %q (google, rfc9309, bing, yandex, baidu, original)", s)
	}
	return d, nil
}

// paint wraps s in an ANSI colour when color is set.
func paint(color bool, s, code string) string {
	if !color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// errIsDir is returned by openFile for a directory.
var errIsDir = errors.New("is a directory")

// openFile opens a file for reading, refusing directories.
func openFile(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		err = fmt.Errorf("%s %w", name, errIsDir)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// isBinary reports whether body looks like a binary file: NUL bytes in its
// first 8 KiB and no robots.txt field before the first of them, unless it starts with a UTF-16 byte order mark (a UTF-16
// robots.txt is text that crawlers cannot read; the linter says so).
func isBinary(body []byte) bool {
	if bytes.HasPrefix(body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) {
		return false
	}
	head := body[:min(len(body), 8192)]
	nul := bytes.IndexByte(head, 0)
	if nul < 0 {
		return false
	}
	// A robots.txt damaged by NUL bytes is text that lint reports: it has
	// robots.txt fields before its first NUL; a binary file has not.
	before := bytes.ToLower(head[:nul])
	for _, key := range []string{"user-agent", "disallow", "sitemap"} {
		if bytes.Contains(before, []byte(key)) {
			return false
		}
	}
	return true
}

// useColor reports whether w is a terminal and NO_COLOR is not set.
func useColor(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return fmt.Sprint(*s) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
