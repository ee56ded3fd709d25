package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The names the answers give the files of a request: the request's
// fields. The CLI names them by their paths.
const (
	inlineName = "robots"
	oldName    = "old"
	newName    = "new"
)

// testerEngine is the engine a server has when Options.Engine is nil: the
// code of the CLI's check, lint, compare and diff (package tester), so
// that the routes answer with the same objects as the commands' --json.
type testerEngine struct {
	s *Server
}

// source is the robots.txt a request is about: the inline file, cut at
// robotstxt.DefaultMaxBytes as crawlers cut it, or the live file of the
// origin through the server's cache and address guard, fetched with the
// fetch policy of d. With d DefaultDialect the fetch is Google's and each
// question reads the answer with its own crawler's fetch policy, as
// "robotstxt check -u" does.
func (e *testerEngine) source(ctx context.Context, sub *Subject, d robotstxt.Dialect) (*tester.Source, error) {
	if sub.Live == nil {
		return e.s.parsed.source(inlineName, sub.Robots), nil
	}
	a, info, err := sub.Live.Answer(ctx, d)
	if err != nil {
		return nil, err
	}
	var body []byte
	if a.Policy == fetch.Rules && a.Robots != nil {
		body = []byte(a.Robots.Body())
	}
	return tester.FetchedSource(body, &info, d), nil
}

// Check answers POST /v1/check with tester.CheckStream: the object of
// "robotstxt check --json", written as the results come.
func (e *testerEngine) Check(ctx context.Context, in *CheckInput) (any, error) {
	src, err := e.source(ctx, &in.Subject, in.Dialect)
	if err != nil {
		return nil, err
	}
	req := &tester.CheckRequest{Source: src, URLs: in.URLs, Subjects: subjects(in.Crawlers, in.Agents), Dialect: in.Dialect}
	// Answered as it is written, result by result (writeCheck): the
	// answer is not held whole.
	cs := &checkStream{req: req}
	if in.Usage {
		cs.usage = newCheckUsage(src, in.Dialect)
	}
	return cs, nil
}

// Lint answers POST /v1/lint with tester.Lint: the object of "robotstxt
// lint --json". A live origin that cannot be read (a fetch policy of
// disallow all) has nothing to lint: a 400 naming the origin.
func (e *testerEngine) Lint(ctx context.Context, in *LintInput) (any, error) {
	src, err := e.source(ctx, &in.Subject, robotstxt.DefaultDialect)
	if err != nil {
		return nil, err
	}
	rep, err := tester.Lint(src, &tester.LintOptions{Disable: in.Disable, Original: in.Original})
	if err != nil {
		return nil, apiError(err)
	}
	return rep, nil
}

// Compare answers POST /v1/compare with tester.Compare: the object of
// "robotstxt compare --json".
func (e *testerEngine) Compare(ctx context.Context, in *CompareInput) (any, error) {
	src, err := e.source(ctx, &in.Subject, robotstxt.DefaultDialect)
	if err != nil {
		return nil, err
	}
	cmp, err := tester.Compare(&tester.CompareRequest{Source: src, URLs: in.URLs, Subjects: subjects(in.Crawlers, in.Agents),
		Dialects: tester.Dialects(in.Original)})
	if err != nil {
		return nil, apiError(err)
	}
	return cmp, nil
}

// Diff answers POST /v1/diff with tester.Diff: the object of "robotstxt
// diff --json". No urls (null or absent) derives them from the rules; an
// empty list asks about none, as diff --urls with an empty file.
func (e *testerEngine) Diff(ctx context.Context, in *DiffInput) (any, error) {
	rep, err := tester.Diff(&tester.DiffRequest{
		Old: e.s.parsed.source(oldName, in.Old), New: e.s.parsed.source(newName, in.New),
		URLs: in.URLs, Subjects: subjects(in.Crawlers, in.Agents), Dialect: in.Dialect,
	})
	if err != nil {
		return nil, apiError(err)
	}
	for _, f := range []struct {
		name string
		body []byte
	}{{"old", in.Old}, {"new", in.New}} {
		if note := grouplessNote(f.name, f.body); note != "" {
			rep.Notes = append(rep.Notes, note)
		}
	}
	return rep, nil
}

// grouplessNote says, as lint's rule-before-user-agent does, that the
// file called name has allow or disallow lines before any user-agent
// line: no crawler reads them, so a diff that changes only them finds no
// change. It is "" when there are none.
func grouplessNote(name string, body []byte) string {
	n, first, firstLine := 0, "", 0
lines:
	for i, line := range strings.Split(string(body), "\n") {
		line, _, _ = strings.Cut(line, "#")
		key, _, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "user-agent":
			break lines
		case "allow", "disallow":
			if n == 0 {
				first, firstLine = strings.TrimSpace(line), i+1
			}
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%s: %q (line %d) comes before any user-agent line: it belongs to no group and every crawler ignores it; put a User-agent line above it", name, clipNote(first), firstLine)
	}
	return fmt.Sprintf("%s: %d allow and disallow lines, the first %q (line %d), come before any user-agent line: they belong to no group and every crawler ignores them; put a User-agent line above them", name, n, clipNote(first), firstLine)
}

// clipNote shortens a line quoted in a note.
func clipNote(s string) string {
	if len(s) <= 60 {
		return s
	}
	for i := 60; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "..."
		}
	}
	return s[:60]
}

// subjects are the crawlers (already looked up) and tokens of a request,
// as the tester takes them.
func subjects(crawlers []robotstxt.Crawler, agents []string) tester.Subjects {
	var names []string
	for _, c := range crawlers {
		names = append(names, c.Name)
	}
	return tester.Subjects{Crawlers: names, Agents: agents}
}

// apiError answers a *tester.Error (bad input the server's own checks let
// through, such as a value that is not a product token) as a 400 naming
// the field, with its place in a list: {"error", "field": "agents[1]"}.
func apiError(err error) error {
	var te *tester.Error
	if !errors.As(err, &te) {
		return err
	}
	field := te.Field
	switch field {
	case "crawlers", "agents", "agent_sets", "urls", "disable":
		if te.Value != "" || te.Index > 0 {
			field = fmt.Sprintf("%s[%d]", field, te.Index)
		}
	}
	return &Error{Status: http.StatusBadRequest, Message: field + ": " + plainText(te.Error()), Field: field}
}
