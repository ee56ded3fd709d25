package server

import (
	"context"
	"errors"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// e2eEngine answers the page's POST routes in the end-to-end tests through
// package tester, for inline files.
func e2eEngine() Engine { return testerEngine{} }

type testerEngine struct{}

func source(sub Subject) (*tester.Source, error) {
	if sub.Live != nil {
		return nil, errors.New("server: the test engine reads inline files only")
	}
	return tester.NewSource("robots.txt", sub.Robots), nil
}

func names(cs []robotstxt.Crawler) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func (testerEngine) Check(ctx context.Context, in *CheckInput) (any, error) {
	src, err := source(in.Subject)
	if err != nil {
		return nil, err
	}
	return tester.Check(&tester.CheckRequest{Source: src, URLs: in.URLs, Subjects: tester.Subjects{Crawlers: names(in.Crawlers), Agents: in.Agents}, Dialect: in.Dialect})
}

func (testerEngine) Lint(ctx context.Context, in *LintInput) (any, error) {
	src, err := source(in.Subject)
	if err != nil {
		return nil, err
	}
	return tester.Lint(src, &tester.LintOptions{Disable: in.Disable})
}

func (testerEngine) Compare(ctx context.Context, in *CompareInput) (any, error) {
	src, err := source(in.Subject)
	if err != nil {
		return nil, err
	}
	return tester.Compare(&tester.CompareRequest{Source: src, URLs: in.URLs, Subjects: tester.Subjects{Crawlers: names(in.Crawlers), Agents: in.Agents}})
}

func (testerEngine) Diff(ctx context.Context, in *DiffInput) (any, error) {
	return tester.Diff(&tester.DiffRequest{Old: tester.NewSource("old", in.Old), New: tester.NewSource("new", in.New), URLs: in.URLs,
		Subjects: tester.Subjects{Crawlers: names(in.Crawlers), Agents: in.Agents}, Dialect: in.Dialect})
}
