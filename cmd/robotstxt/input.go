package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/tester"
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

// robotsFile is a robots.txt file loaded for a command: a file, standard
// input, or a live site's.
type robotsFile = tester.Source

// robotsSource is where a command's robots.txt comes from when it is not a
// file: a live site (-u), fetched through the cache on --store. check, lint
// and compare define these flags through addSourceFlags, so that they take
// the same values and say the same things.
//
// A site owner checks the file as it is now: -u fetches it (conditionally
// when the cache holds a copy, which a 304 renews), unless --cached asks
// for the cache's copy, as a crawler would use it.
type robotsSource struct {
	URL       string
	Store     string
	Cached    bool
	storeSet  bool
	cachedSet bool
}

// addSourceFlags defines -u, --store and --cached on fs.
func addSourceFlags(fs *flag.FlagSet) *robotsSource {
	s := &robotsSource{}
	fs.StringVar(&s.URL, "u", "", "fetch the robots.txt of URL's origin")
	fs.StringVar(&s.Store, "store", defaultStoreSpec, "the cache's store (with -u)")
	fs.BoolVar(&s.Cached, "cached", false, "with -u, use the cache's copy when it is fresh")
	return s
}

// check validates the flags once fs is parsed: -u excludes a file (what
// names it is fileWhat, "-f" or "a file argument"), and --store and
// --cached need -u.
func (s *robotsSource) check(fs *flag.FlagSet, haveFile bool, fileWhat string) error {
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "store":
			s.storeSet = true
		case "cached":
			s.cachedSet = true
		}
	})
	switch {
	case s.URL != "" && haveFile:
		return fmt.Errorf("-u and %s are exclusive: give the robots.txt as a site's URL or as a file, not both", fileWhat)
	case s.URL == "" && s.storeSet:
		return errors.New("--store applies only with -u (it is where fetched robots.txt files are cached)")
	case s.URL == "" && s.cachedSet:
		return errors.New("--cached applies only with -u (it answers from the cache's copy of the site's robots.txt)")
	}
	return nil
}

// load fetches the robots.txt of the site s.URL names through the cache,
// with the fetch policy of dialect d (DefaultDialect: Google's): now,
// unless s.Cached takes a fresh copy from the cache. The file's name is
// its robots.txt URL. An unreachable site is not an error: the file's
// Fetched says which policy applies and why, and where the answer came
// from. The error is for a URL with no origin or a store that cannot be
// opened.
//
// With d DefaultDialect the fetch uses Google's policy, and the file's
// answer(d) reads the same answer with each dialect's own policy.
func (s *robotsSource) load(ctx context.Context, d robotstxt.Dialect, stderr io.Writer) (*robotsFile, error) {
	body, info, err := fetchRobotsWith(ctx, s.URL, fetchOptions{store: s.Store, dialect: d, now: fetchClock, fresh: !s.Cached}, stderr)
	if err != nil {
		return nil, fmt.Errorf("-u %s: %v", s.URL, err)
	}
	return tester.FetchedSource(body, &info, d), nil
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
	f := tester.NewSource(shown, body)
	f.Size, f.CutLines = int64(len(body))+restBytes, restLines
	return f, nil
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
		typed := typedFlag(args, name)
		msg = "unknown flag " + typed
		var u *unknownFlagError
		if errors.As(err, &u) && u.near != "" {
			dashes := typed[:len(typed)-len(strings.TrimLeft(typed, "-"))]
			msg += "; did you mean " + dashes + u.near + "?"
		}
	} else if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		msg = typedFlag(args, name) + " needs a value"
	}
	complain(stderr, cmd, "%s (robotstxt %s -h lists the flags)", msg, cmd)
	return 2
}

// unknownFlagError is the flag package's error for a flag fs does not
// define, with the defined flag the user probably meant ("" when none is
// near).
type unknownFlagError struct {
	err  error
	near string
}

func (e *unknownFlagError) Error() string { return e.err.Error() }
func (e *unknownFlagError) Unwrap() error { return e.err }

// nearFlag returns the flag of fs nearest to name, "" when none is near.
// One-letter names are left out on both sides: any letter is one edit
// from any other.
func nearFlag(fs *flag.FlagSet, name string) string {
	if len(name) < 2 {
		// Only the same letter in the other case: -C for -c.
		near := ""
		fs.VisitAll(func(f *flag.Flag) {
			if strings.EqualFold(f.Name, name) {
				near = f.Name
			}
		})
		return near
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) > 1 {
			names = append(names, f.Name)
		}
	})
	return suggest.Nearest(name, names)
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
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
				err = &unknownFlagError{err, nearFlag(fs, name)}
			}
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
	return cliError(tester.CheckURL(u), nil)
}

// cliError turns an error of package tester into the command's words: the
// flags to use (-a, --agents) and where to look. agentLists are the
// --agents values as typed.
func cliError(err error, agentLists []string) error {
	var e *tester.Error
	if !errors.As(err, &e) {
		return err
	}
	switch {
	case e.Field == "crawlers":
		did := ""
		if near := nearCrawler(e.Value); near != "" {
			did = "; did you mean -c " + near + "?"
		}
		return fmt.Errorf("unknown crawler %q%s (robotstxt check --crawlers lists the known ones; -a %s asks about any product token)", e.Value, did, exampleToken(e.Value))
	case e.Field == "dialect":
		if near := nearDialect(e.Value); near != "" {
			return errors.New(e.Msg + "; did you mean " + near + "?")
		}
		return errors.New(e.Msg)
	case e.Field == "agent_sets" && e.Value == "" && e.Index < len(agentLists):
		return fmt.Errorf("--agents %q names no token", agentLists[e.Index])
	case e.Suggestion != "":
		return errors.New(e.Msg + "; did you mean -a " + e.Suggestion + "?")
	}
	return errors.New(e.Msg)
}

// nearCrawler returns the name of the known crawler nearest to name (by
// its name or its product token), "" when none is near.
func nearCrawler(name string) string { return suggest.Crawler(name) }

// nearDialect returns the dialect name nearest to name, "" when none is
// near.
func nearDialect(name string) string { return suggest.Dialect(name) }

// agentSets splits --agents values ("A,B") into token sets, blanks dropped.
func agentSets(lists []string) [][]string {
	var sets [][]string
	for _, l := range lists {
		var toks []string
		for _, t := range strings.Split(l, ",") {
			if t = strings.TrimSpace(t); t != "" {
				toks = append(toks, t)
			}
		}
		sets = append(sets, toks)
	}
	return sets
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
	d, err := tester.ParseDialect(s)
	return d, cliError(err, nil)
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

// termWidth is the width, in columns, that help texts and the default text
// outputs fit.
const termWidth = 80

// wrapIndent breaks text into lines of at most width display columns, each
// ending in a newline: the first starts with first, the others with rest.
// It breaks at spaces (a run of spaces within a line is kept). A URL
// longer than a line is kept whole, on a line of its own, to be copied:
// the one kind of line wider than width. Any other word longer than a
// line is cut where the line ends. It is linear in the text's length.
func wrapIndent(text string, width int, first, rest string) string {
	var b, line strings.Builder
	line.WriteString(first)
	lineWidth := displayWidth(first)
	empty := true // nothing but the prefix on the line yet
	flush := func() {
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
		line.Reset()
		line.WriteString(rest)
		lineWidth, empty = displayWidth(rest), true
	}
	for _, w := range strings.Split(strings.TrimSpace(text), " ") {
		if w == "" {
			// One more space of a run: kept within a line.
			if !empty && lineWidth+1 < width {
				line.WriteByte(' ')
				lineWidth++
			}
			continue
		}
		ww := displayWidth(w)
		if !empty && lineWidth+1+ww > width {
			flush()
		}
		if !empty {
			line.WriteByte(' ')
			lineWidth++
		}
		if lineWidth+ww <= width {
			line.WriteString(w)
			lineWidth += ww
			empty = false
			continue
		}
		if strings.Contains(w, "://") {
			// A URL: whole, alone on its line.
			if !empty {
				flush()
			}
			line.WriteString(w)
			lineWidth += ww
			empty = false
			continue
		}
		// Too long for any line: cut it where each line ends.
		for i := 0; i < len(w); {
			if esc := ansiEscape(w[i:]); esc > 0 {
				line.WriteString(w[i : i+esc])
				i += esc
				continue
			}
			r, size := utf8.DecodeRuneInString(w[i:])
			rw := runeWidth(r)
			if lineWidth+rw > width && !empty {
				flush()
			}
			line.WriteString(w[i : i+size])
			lineWidth += rw
			empty = false
			i += size
		}
	}
	if !empty || b.Len() == 0 {
		flush()
	}
	return b.String()
}

// ansiEscape is the length of the ANSI escape sequence s starts with, 0
// when it starts with none.
func ansiEscape(s string) int {
	if len(s) < 2 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	j := 2
	for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
		j++
	}
	return min(j+1, len(s))
}

// cutWidth returns how many bytes of s fit in n display columns (at least
// one rune, so that wrapping always moves on).
func cutWidth(s string, n int) int {
	w, i := 0, 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		rw := runeWidth(r)
		if w+rw > n && i > 0 {
			break
		}
		w += rw
		i += size
	}
	return i
}

// nearPurposes is "; did you mean P?" for the first name of a purpose list
// ("search,ai-trainng") that is no purpose but near one, else "".
func nearPurposes(list string) string {
	var names []string
	for _, p := range robotstxt.AllPurposes() {
		names = append(names, p.String())
	}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if _, err := robotstxt.ParsePurpose(n); err == nil {
			continue
		}
		if near := suggest.Nearest(n, names); near != "" {
			return "; did you mean " + near + "?"
		}
	}
	return ""
}

// fitLine is first+text as one line when it fits termWidth, else text
// wrapped by wrapIndent; it ends in a newline. A line that fits keeps its
// spacing as it is.
func fitLine(text, first, rest string) string {
	if displayWidth(first)+displayWidth(text) <= termWidth {
		return first + text + "\n"
	}
	return wrapIndent(text, termWidth, first, rest)
}
