package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/words"
	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/watch"
)

// WatchOptions configure the server's watches (package watch): the
// routes /v1/watches, and the checks Serve runs.
type WatchOptions struct {
	// Specs are watches kept at start (serve --watch FILE): each gets an
	// id made from its spec, so a restart keeps their state.
	Specs []watch.Spec
	// MinInterval bounds how often an origin is fetched for its watches
	// (0 means watch.DefaultMinInterval, 5 minutes).
	MinInterval time.Duration
	// MaxWatches and MaxPerClient bound the watches the server keeps, in
	// all and per client (IP address); 0 means the defaults of package
	// watch (1,000 and 50).
	MaxWatches, MaxPerClient int
	// PollInterval, Backoff and Jitter are the engine's (watch.Options);
	// tests shorten them.
	PollInterval, Backoff time.Duration
	Jitter                func(time.Duration) time.Duration
}

// initWatches makes the server's watch engine over its store: checks
// fetch through the Google-policy cache, now (a refresh), and record the
// history; webhooks and sitemaps are reached through the guard.
func (s *Server) initWatches() error {
	o := &s.opts.Watch
	client := &http.Client{Transport: s.transport, Timeout: 30 * time.Second}
	e, err := watch.New(&watch.Options{
		Store: s.store,
		Fetch: func(ctx context.Context, origin string) ([]byte, *tester.FetchInfo, error) {
			org, err := fetch.OriginOf(origin)
			if err != nil {
				return nil, nil, err
			}
			a, info, err := s.fetchAnswer(ctx, org, robotstxt.DefaultDialect, true)
			if err != nil {
				return nil, nil, err
			}
			var body []byte
			if a.Policy == fetch.Rules && a.Robots != nil {
				body = []byte(a.Robots.Body())
			}
			return body, &info, nil
		},
		Client:       client,
		CheckWebhook: s.checkWebhook,
		Now:          s.opts.Now,
		MinInterval:  o.MinInterval,
		PollInterval: o.PollInterval,
		Backoff:      o.Backoff,
		Jitter:       o.Jitter,
		MaxWatches:   o.MaxWatches,
		MaxPerClient: o.MaxPerClient,
		Logger:       s.log,
	})
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	s.watches = e
	s.metrics.registry.MustRegister(e.Collector())
	if len(o.Specs) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := e.Load(ctx, o.Specs); err != nil {
			// Said as serve says it: the file is its --watch.
			return errors.New("--watch: " + strings.TrimPrefix(err.Error(), "watch: "))
		}
	}
	return nil
}

// startWatches runs the watch engine until ctx ends; the function it
// returns stops it and waits for it.
func (s *Server) startWatches(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.watches.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// checkWebhook refuses a webhook whose host is, or resolves to, an address
// the guard refuses, as a live fetch would be (unless AllowPrivate). The
// guard checks the address again when the alert is posted.
func (s *Server) checkWebhook(ctx context.Context, u *url.URL) error {
	g := s.guard
	if g.AllowPrivate {
		return nil
	}
	host := u.Hostname()
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := g.lookup(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("%s does not resolve: %v", host, err)
	}
	for _, a := range addrs {
		if g.exempt[netip.AddrPortFrom(a, portNum(port))] {
			continue
		}
		if class, via := addressClass(a); class != "" {
			if via != "" {
				via = " (" + via + ")"
			}
			return fmt.Errorf("%s is a %s address%s: alerts go to public addresses only (start the server with --allow-private to allow it)", a.Unmap(), class, via)
		}
	}
	return nil
}

// watchError is the answer for an error of package watch.
func watchError(err error) *Error {
	var we *watch.Error
	switch {
	case errors.As(err, &we) && we.NotFound:
		return &Error{Status: http.StatusNotFound, Message: we.Msg}
	case errors.As(err, &we) && we.Limit:
		return &Error{Status: http.StatusTooManyRequests, Message: we.Msg}
	case errors.As(err, &we):
		return badField(we.Field, "%s", we.Msg)
	}
	return nil
}

// WatchList is the answer of GET /v1/watches.
type WatchList struct {
	Watches []*watch.Status `json:"watches"`
	// MinInterval is how often an origin is fetched at most.
	MinInterval string `json:"min_interval"`
}

func (s *Server) handleWatchCreate(w http.ResponseWriter, r *http.Request) {
	var sp watch.Spec
	if e := decode(w, r, &sp); e != nil {
		writeError(w, e)
		return
	}
	wt, err := s.watches.Create(r.Context(), &sp, clientIP(r).String())
	if err != nil {
		if e := watchError(err); e != nil {
			writeError(w, e)
			return
		}
		writeError(w, s.failure(r.Context(), err))
		return
	}
	st, err := s.watches.Get(r.Context(), wt.ID)
	if err != nil {
		writeError(w, s.failure(r.Context(), err))
		return
	}
	w.Header().Set("Location", "/v1/watches/"+wt.ID)
	writeJSON(w, http.StatusCreated, st)
}

func (s *Server) handleWatchList(w http.ResponseWriter, r *http.Request) {
	if e := onlyParams(r.URL.Query()); e != nil {
		writeError(w, e)
		return
	}
	ws, err := s.watches.List(r.Context())
	if err != nil {
		writeError(w, s.failure(r.Context(), err))
		return
	}
	writeJSON(w, http.StatusOK, &WatchList{Watches: ws, MinInterval: words.Duration(s.watches.MinInterval())})
}

// watchID reads the id of a watch's path: 16 hexadecimal digits.
func watchID(r *http.Request) (string, *Error) {
	id := r.PathValue("id")
	ok := len(id) == 16
	for _, c := range id {
		ok = ok && ('0' <= c && c <= '9' || 'a' <= c && c <= 'f')
	}
	if !ok {
		return "", badField("id", "%q is not a watch id (16 hexadecimal digits, as POST /v1/watches answers)", clip(id))
	}
	return id, nil
}

func (s *Server) handleWatchGet(w http.ResponseWriter, r *http.Request) {
	if e := onlyParams(r.URL.Query()); e != nil {
		writeError(w, e)
		return
	}
	id, e := watchID(r)
	if e != nil {
		writeError(w, e)
		return
	}
	st, err := s.watches.Get(r.Context(), id)
	if err != nil {
		if e := watchError(err); e != nil {
			writeError(w, e)
			return
		}
		writeError(w, s.failure(r.Context(), err))
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) handleWatchDelete(w http.ResponseWriter, r *http.Request) {
	if err := crossOrigin.Check(r); err != nil {
		writeError(w, &Error{Status: http.StatusForbidden, Message: "this request comes from a page of another origin (" + err.Error() + "); the API answers its own page and clients that are not browsers"})
		return
	}
	id, e := watchID(r)
	if e != nil {
		writeError(w, e)
		return
	}
	if err := s.watches.Delete(r.Context(), id); err != nil {
		if e := watchError(err); e != nil {
			writeError(w, e)
			return
		}
		writeError(w, s.failure(r.Context(), err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"deleted": id})
}
