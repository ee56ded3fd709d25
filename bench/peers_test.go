package bench

import (
	"errors"
	"net/url"
	"sync"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/seed53c283f5/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

var (
	sampleOnce sync.Once
	sampleData *corpus
	sampleErr  error
)

// sample returns the 1,000-file sample, loaded once. It skips when the
// shared data is absent and fails when it is unreadable.
func sample(tb testing.TB) *corpus {
	tb.Helper()
	sampleOnce.Do(func() { sampleData, sampleErr = loadCorpus(sampleSize) })
	return mustData(tb, sampleData, sampleErr)
}

func mustData(tb testing.TB, c *corpus, err error) *corpus {
	tb.Helper()
	if errors.Is(err, errNoData) {
		tb.Skipf("skipping: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// nopHandler is a grobotstxt.ParseHandler that does nothing: with it,
// grobotstxt.Parse measures grobotstxt's parser alone (line splitting, key
// recognition and escaping of allow/disallow values), storing nothing.
type nopHandler struct{}

func (nopHandler) HandleRobotsStart()                      {}
func (nopHandler) HandleRobotsEnd()                        {}
func (nopHandler) HandleUserAgent(int, string)             {}
func (nopHandler) HandleAllow(int, string)                 {}
func (nopHandler) HandleDisallow(int, string)              {}
func (nopHandler) HandleSitemap(int, string)               {}
func (nopHandler) HandleUnknownAction(int, string, string) {}

var _ grobotstxt.ParseHandler = nopHandler{}

// temotoPath returns the path temoto's Group.Test wants for a URL: what
// net/url calls the request URI (escaped path and query). For the few URLs
// net/url rejects it falls back to the path, params and query that Google's
// library extracts.
func temotoPath(u string) string {
	if pu, err := url.Parse(u); err == nil {
		return pu.RequestURI()
	}
	return robotstxt.PathParamsQuery(u)
}

// temotoAllowed asks temoto, parsed once, about a path. A file temoto
// refused to parse (r == nil) is taken as allowing everything.
func temotoAllowed(r *temoto.RobotsData, ua, path string) bool {
	if r == nil {
		return true
	}
	return r.FindGroup(ua).Test(path)
}

// temotoAllowedURL is temotoAllowed with the URL parsed on each call, as a
// caller holding a URL string has to. A URL net/url rejects is disallowed.
func temotoAllowedURL(r *temoto.RobotsData, ua, u string) bool {
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	return temotoAllowed(r, ua, pu.RequestURI())
}

// parsedQuestions holds every implementation's parse-once state for the
// questions of a corpus.
type parsedQuestions struct {
	ours        []*robotstxt.Robots
	temoto      []*temoto.RobotsData // nil where temoto returned an error
	temotoErrs  int
	temotoPaths []string // temotoPath of each question's URL
	queries     []robotstxt.Query
}

func parseAll(c *corpus) *parsedQuestions {
	p := &parsedQuestions{
		ours:        make([]*robotstxt.Robots, len(c.files)),
		temoto:      make([]*temoto.RobotsData, len(c.files)),
		temotoPaths: make([]string, len(c.questions)),
		queries:     make([]robotstxt.Query, len(c.questions)),
	}
	for i, f := range c.files {
		p.ours[i] = robotstxt.Parse(f.body)
		r, err := temoto.FromBytes(f.body)
		if err != nil {
			p.temotoErrs++
			r = nil
		}
		p.temoto[i] = r
	}
	for i, q := range c.questions {
		p.temotoPaths[i] = temotoPath(q.url)
		p.queries[i] = robotstxt.Query{URL: q.url, Agents: []string{q.ua}}
	}
	return p
}
