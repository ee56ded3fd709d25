package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
)

// answer fetches the robots.txt of o with d's fetch policy through the
// cache, records a new version in the history, and reports it.
func (s *Server) answer(ctx context.Context, o fetch.Origin, d robotstxt.Dialect) (*cache.Answer, tester.FetchInfo, error) {
	return s.fetchAnswer(ctx, o, d, false)
}

// fetchAnswer is answer; with refresh the file is fetched now, whatever
// the cache holds (cache.Cache.RefreshOrigin), as GET /v1/fetch?refresh=true
// asks.
func (s *Server) fetchAnswer(ctx context.Context, o fetch.Origin, d robotstxt.Dialect, refresh bool) (*cache.Answer, tester.FetchInfo, error) {
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	c := s.caches[d]
	if c == nil {
		return nil, tester.FetchInfo{}, fmt.Errorf("server: no cache for dialect %v", d)
	}
	get := c.GetOrigin
	if refresh {
		get = c.RefreshOrigin
	}
	a, err := get(ctx, o)
	if err != nil {
		return nil, tester.FetchInfo{}, err
	}
	body, info := tester.ReportAnswer(a, publicStoreName(storeopen.Health(s.store)))
	if recordable(a) {
		if err := s.history.record(ctx, a, body); err != nil {
			s.metrics.historyErrors.Inc()
			s.log.Warn("history not recorded", "origin", o.String(), "err", err)
		}
	}
	return a, *info, nil
}

func (s *Server) handleFetch(w http.ResponseWriter, r *http.Request) error {
	if e := fromOtherOrigin(r); e != nil {
		return e
	}
	q := r.URL.Query()
	if e := onlyParams(q, "url", "dialect", "refresh"); e != nil {
		return e
	}
	refresh := false
	if v := q.Get("refresh"); v != "" {
		var err error
		if refresh, err = strconv.ParseBool(v); err != nil {
			return badField("refresh", "want true or false, not %q", clip(v))
		}
	}
	raw := q.Get("url")
	if raw == "" {
		return badField("url", "give the URL of a site (?url=https://example.com/)")
	}
	o, err := parseOrigin(raw)
	if err != nil {
		return badField("url", "%v", err)
	}
	d, e := checkDialect(q.Get("dialect"))
	if e != nil {
		return e
	}
	release, e := s.acquire(r.Context(), s.admit.work, liveWeight)
	if e != nil {
		return e
	}
	defer release()
	_, info, err := s.fetchAnswer(r.Context(), o, d, refresh)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, info)
	return nil
}
