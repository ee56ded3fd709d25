package polite

import (
	"context"
	"net/http"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// Usage is what the site says a response's content may be used for: the
// AI usage preferences of its robots.txt for the request's URL (Content-Usage
// rules) and of the response's Content-Usage header, combined as
// draft-ietf-aipref-vocab combines statements (any n gives n, else any y
// gives y), and the Content-Signal line of the crawler's groups.
type Usage struct {
	// Robots is the preferences of the robots.txt in force when the
	// request was sent (none when the fetch of robots.txt gave no file:
	// a 404, for example), with the deciding rules' lines.
	Robots robotstxt.Usage
	// Header is the response's Content-Usage header as parsed: nil when
	// it has none, or when it fails to parse (HeaderInvalid then).
	Header        []robotstxt.UsagePref
	HeaderInvalid bool
	// Prefs combines Robots and Header, key by key.
	Prefs []robotstxt.UsagePref
	// Signals is the robots.txt's Content-Signal line for the crawler
	// (Line 0: none).
	Signals robotstxt.Signals
}

// Get returns the combined preference for category key ("train-ai",
// "search").
func (u Usage) Get(key string) robotstxt.Preference {
	for _, p := range u.Prefs {
		if p.Key == key {
			return p.Pref
		}
	}
	return robotstxt.PrefUnknown
}

// usageKey is the context key of the robots.txt usage of a request the
// Transport sent.
type usageKey struct{}

// fileUsage is what RoundTrip learns of the robots.txt's usage for a
// request, kept in the context of the request it sends.
type fileUsage struct {
	usage   robotstxt.Usage
	signals robotstxt.Signals
}

// withUsage returns ctx carrying what robots.txt answer a says of the usage
// of q's URL.
func withUsage(ctx context.Context, a *cache.Answer, q robotstxt.Query) context.Context {
	var fu fileUsage
	if a.Policy == fetch.Rules && a.Robots != nil {
		ua := a.Robots.Usage(q)
		fu.usage, fu.signals = ua.Usage, ua.Signals
	}
	return context.WithValue(ctx, usageKey{}, fu)
}

// UsageOf returns what the site says resp's content may be used for: resp
// must be a response the Transport gave (it reports false otherwise). The
// Content-Usage header's field lines are combined into one as HTTP combines
// a Dictionary's (joined with commas) before parsing.
func UsageOf(resp *http.Response) (Usage, bool) {
	if resp == nil || resp.Request == nil {
		return Usage{}, false
	}
	fu, ok := resp.Request.Context().Value(usageKey{}).(fileUsage)
	if !ok {
		return Usage{}, false
	}
	u := Usage{Robots: fu.usage, Signals: fu.signals}
	if vs := resp.Header.Values("Content-Usage"); len(vs) > 0 {
		if prefs, ok := robotstxt.ParseUsagePreference(strings.Join(vs, ", ")); ok {
			u.Header = prefs
		} else {
			u.HeaderInvalid = true
		}
	}
	u.Prefs = robotstxt.CombineUsage(u.Robots.Prefs, u.Header)
	return u, true
}
