package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
)

// guardSetup is what buildGuard makes a guard of.
type guardSetup struct {
	robots     func() *robotsNow
	policyFile string
	mode       string // "log", "enforce", or "" for the policy's
	decisions  io.Writer
	metrics    bool
	ipRanges   []string
	dns        bool
	resolver   string
	log        *slog.Logger
}

// guardRuntime is a guard built for the command.
type guardRuntime struct {
	middleware     func(http.Handler) http.Handler
	metricsHandler http.Handler
	mode           string
}

// TODO(guardcmd): package guard is not on this branch yet.
func buildGuard(_ context.Context, s guardSetup) (*guardRuntime, error) {
	return &guardRuntime{middleware: func(h http.Handler) http.Handler { return h }, mode: "log"}, nil
}

func (g *guardRuntime) close()                        {}
func (g *guardRuntime) watchPolicy(ctx context.Context) { <-ctx.Done() }
func (g *guardRuntime) modeName() string              { return g.mode }
