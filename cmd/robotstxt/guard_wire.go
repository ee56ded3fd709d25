package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/server"
)

// guardSetup is what buildGuard makes a guard of.
type guardSetup struct {
	robots     func() *robotsNow
	policyFile string
	mode       string // "log", "enforce", or "" for the policy's
	decisions  string // a file, "-" for out, "" for none
	out        io.Writer
	metrics    bool
	ipRanges   []string
	published  bool // the operators' own lists too (verify.PublishedLists)
	dns        bool
	resolver   string
	log        *slog.Logger
}

// guardRuntime is package guard's Guard as the command runs it: the
// middleware both faces share, the policy file it watches, the decision
// log and the metrics.
type guardRuntime struct {
	g              *guard.Guard
	middleware     func(http.Handler) http.Handler
	metricsHandler http.Handler
	setup          guardSetup
	sink           *guard.FileSink
	identity       guardIdentityChecker
	policySeen     os.FileInfo
}

// buildGuard builds the guard of s: its policy (the file's, with --mode
// over its mode), its identity checks, its decision log and metrics.
func buildGuard(ctx context.Context, s guardSetup) (*guardRuntime, error) {
	rt := &guardRuntime{setup: s}
	var pol *guard.Policy
	if s.policyFile != "" {
		fi, err := os.Stat(s.policyFile)
		if err != nil {
			return nil, fmt.Errorf("--policy: %v", err)
		}
		p, err := guard.LoadPolicy(s.policyFile)
		if err != nil {
			return nil, fmt.Errorf("--policy: %v", strings.TrimPrefix(err.Error(), "guard: policy: "))
		}
		pol, rt.policySeen = p, fi
	}
	opts := guard.Options{
		Robots: guard.SourceFunc(func(context.Context, string) (*guard.Rules, error) { return s.robots(), nil }),
		Policy: rt.withMode(pol),
	}
	switch s.decisions {
	case "":
	case "-":
		rt.sink = guard.NewWriterSink(s.out, 0)
	default:
		sink, err := guard.OpenFileSink(s.decisions, 0)
		if err != nil {
			return nil, fmt.Errorf("--decisions: %v", err)
		}
		rt.sink = sink
	}
	if rt.sink != nil {
		opts.Decisions = rt.sink
	}
	if s.metrics {
		reg := prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		opts.Metrics = reg
		rt.metricsHandler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	}
	id, err := newGuardIdentity(ctx, s.ipRanges, s.published, s.dns, s.resolver, s.log)
	if err != nil {
		rt.close()
		return nil, fmt.Errorf("--ip-ranges: %v", err)
	}
	if id != nil {
		rt.identity = id
		opts.Identity = id
	}
	g, err := guard.Build(opts)
	if err != nil {
		rt.close()
		return nil, err
	}
	rt.g, rt.middleware = g, g.Handler
	return rt, nil
}

// guardFetchClient fetches the third-party files the guard reads (address
// lists given as URLs) through the service's address guard: never a
// loopback, private or metadata address, whatever a name resolves to.
var guardFetchClient = &http.Client{
	Timeout:   30 * time.Second,
	Transport: &http.Transport{DialContext: (&server.Guard{}).DialContext, TLSHandshakeTimeout: 10 * time.Second},
}

// guardIdentityChecker is the identity check the command gives the
// guard, and how it stops.
type guardIdentityChecker interface {
	guard.Identity
	close()
}

// withMode is p (nil: the default policy) with --mode over its mode.
func (rt *guardRuntime) withMode(p *guard.Policy) *guard.Policy {
	if p == nil {
		p = guard.DefaultPolicy()
	}
	if rt.setup.mode == "" {
		return p
	}
	m, err := guard.ParseMode(rt.setup.mode)
	if err != nil || m == p.Mode {
		return p
	}
	c := *p
	c.Mode = m
	return &c
}

// modeName is the mode in force: "log" or "enforce".
func (rt *guardRuntime) modeName() string { return rt.g.Policy().Mode.String() }

// close writes what the decision log holds and stops the lookups.
func (rt *guardRuntime) close() {
	if rt.sink != nil {
		if err := rt.sink.Close(); err != nil {
			rt.setup.log.Error("decision log not written", "err", err)
		}
	}
	if rt.identity != nil {
		rt.identity.close()
	}
}

// watchPolicy reads the policy file again when it changes (checked every
// guardPollEvery), until ctx ends. A file that no longer reads or parses
// keeps the policy in force, with a warning naming its line.
func (rt *guardRuntime) watchPolicy(ctx context.Context) {
	t := rt.setup
	tick := time.NewTicker(guardPollEvery)
	defer tick.Stop()
	var failed string
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		fi, err := os.Stat(t.policyFile)
		if err == nil && rt.policySeen != nil && os.SameFile(fi, rt.policySeen) && fi.Size() == rt.policySeen.Size() && fi.ModTime().Equal(rt.policySeen.ModTime()) {
			continue
		}
		var p *guard.Policy
		if err == nil {
			p, err = guard.LoadPolicy(t.policyFile)
		}
		if err != nil {
			if msg := err.Error(); msg != failed {
				t.log.Warn("policy not read; the last good one stays in force", "err", msg)
				failed = msg
			}
			continue
		}
		failed = ""
		rt.policySeen = fi
		rt.g.SetPolicy(rt.withMode(p))
		t.log.Info("policy read again", "file", t.policyFile, "mode", rt.modeName())
	}
}
