package tester

import (
	"fmt"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/words"
)

// Error is a request the tester cannot answer: it names the request's
// field at fault, so that a service can answer {"error", "field"}.
type Error struct {
	// Field is the request field at fault: "crawlers", "agents",
	// "agent_sets", "urls", "dialect", "origin", "robots", "disable".
	Field string
	// Index is the place of the value in its list, for a list field.
	Index int
	// Value is the value at fault, as given.
	Value string
	// Msg says what is wrong, without the package's prefix.
	Msg string
	// Suggestion is, for a User-Agent header given as a product token,
	// the token it names ("Googlebot" for "Googlebot/2.1"); else "".
	Suggestion string
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	if e.Suggestion != "" {
		return "tester: " + e.Msg + "; did you mean " + e.Suggestion + "?"
	}
	return "tester: " + e.Msg
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ParseDialect reads a dialect's name: google, rfc9309, bing, yandex,
// baidu or original; "" means DefaultDialect (each crawler's own). Its
// error is an *Error with Field "dialect".
func ParseDialect(s string) (robotstxt.Dialect, error) {
	if s == "" {
		return robotstxt.DefaultDialect, nil
	}
	d, err := robotstxt.ParseDialect(s)
	if err != nil {
		return 0, &Error{Field: "dialect", Value: s, Msg: fmt.Sprintf("unknown dialect %q (google, rfc9309, bing, yandex, baidu, original)", s), Err: err}
	}
	return d, nil
}

// CheckURL reports whether u is something a robots.txt question can be
// about (IsURL): an absolute http, https or ftp URL or a path starting
// with '/'. Its error is an *Error with Field "urls".
func CheckURL(u string) error {
	if IsURL(u) {
		return nil
	}
	return &Error{Field: "urls", Value: u, Msg: fmt.Sprintf("URL %q: give an absolute URL (https://example.com/path) or a path starting with /", u)}
}

// IsURL reports whether u starts as the URL of a question must: a path
// ('/'), or the scheme http, https or ftp, in any case (schemes are
// case-insensitive, RFC 3986 section 3.1), then "://". What follows is
// read as given (its origin from its scheme and authority alone, see
// robotstxt.URLHead; a bare '%' in its path is no error). The command's
// check, eval, compare and diff and the service's routes accept URLs by
// it; bulk, which needs each URL's origin, takes the absolute ones.
func IsURL(u string) bool {
	if strings.HasPrefix(u, "/") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		return true // the usual spellings, at once
	}
	for _, p := range [...]string{"http://", "https://", "ftp://"} {
		if len(u) >= len(p) && strings.EqualFold(u[:len(p)], p) {
			return true
		}
	}
	return false
}

// checkURLs checks every URL, with its index in errors.
func checkURLs(urls []string) error {
	for i, u := range urls {
		if err := CheckURL(u); err != nil {
			err.(*Error).Index = i
			return err
		}
	}
	return nil
}

// Subjects are who the questions are asked about: crawlers from the
// table, product tokens, and crawlers that obey several tokens at once.
type Subjects struct {
	// Crawlers are names from the crawler table (robotstxt.Crawlers),
	// case-insensitive: each brings its fallback tokens, whether it
	// ignores the * group, and its engine's dialect.
	Crawlers []string
	// Agents are product tokens, each asked about as a crawler of its
	// own, with Google's semantics: a custom crawler, paced by the
	// file's crawl-delay.
	Agents []string
	// AgentSets are crawlers that obey several tokens at once (Google's
	// semantics: every group naming any of them applies).
	AgentSets [][]string
}

// empty reports whether no subject is named.
func (s *Subjects) empty() bool {
	return len(s.Crawlers)+len(s.Agents)+len(s.AgentSets) == 0
}

// Validate reports the first subject that is not one: an unknown crawler,
// a value that is not a product token, an empty agent set. Its error is
// an *Error.
func (s *Subjects) Validate() error {
	_, err := s.resolve()
	return err
}

// subject is one row or column of the questions: a known crawler or
// tokens, with the user-agent line that named it when it comes from the
// file.
type subject struct {
	label   string
	crawler *robotstxt.Crawler
	agents  []string
	line    int
}

// query is the question of the subject about url in dialect d.
func (s *subject) query(url string, d robotstxt.Dialect) robotstxt.Query {
	return robotstxt.Query{URL: url, Crawler: s.crawler, Agents: s.agents, Dialect: d}
}

// resolve turns the subjects into rows, crawlers first, then tokens, then
// sets; none means Googlebot.
func (s *Subjects) resolve() ([]subject, error) {
	var out []subject
	seen := map[string]bool{}
	for i, n := range s.Crawlers {
		c, ok := robotstxt.LookupCrawler(n)
		if !ok {
			return nil, &Error{Field: "crawlers", Index: i, Value: n, Msg: fmt.Sprintf("unknown crawler %q", n)}
		}
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			out = append(out, subject{label: c.Name, crawler: &c})
		}
	}
	for i, t := range s.Agents {
		if err := validToken("agents", i, t); err != nil {
			return nil, err
		}
		out = append(out, subject{label: t, agents: []string{t}})
	}
	for i, set := range s.AgentSets {
		var toks []string
		for _, t := range set {
			if err := validToken("agent_sets", i, t); err != nil {
				return nil, err
			}
			toks = append(toks, t)
		}
		if len(toks) == 0 {
			return nil, &Error{Field: "agent_sets", Index: i, Msg: "an agent set names no token"}
		}
		out = append(out, subject{label: strings.Join(toks, "+"), agents: toks})
	}
	if len(out) == 0 {
		c, _ := robotstxt.LookupCrawler("Googlebot")
		out = append(out, subject{label: c.Name, crawler: &c})
	}
	return out, nil
}

// validToken reports a value asked about as a product token that is not
// one, with the token it names when it is a User-Agent header.
func validToken(field string, i int, t string) error {
	if robotstxt.ValidToken(t) {
		return nil
	}
	e := &Error{Field: field, Index: i, Value: t,
		Msg: fmt.Sprintf("%q is not a product token: tokens are letters, '-' and '_' only (Googlebot, not Googlebot/2.1)", t)}
	if pt := robotstxt.ProductToken(t); pt != "" && !strings.EqualFold(pt, "Mozilla") {
		e.Suggestion = pt
	}
	return e
}

// plural is s as it goes with a count of n (words.Plural, the one helper).
func plural(n int, s string) string { return words.Plural(n, s) }
