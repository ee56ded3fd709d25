// Package fetchreport is the report of one robots.txt fetch through the
// cache: what "robotstxt fetch --json" prints and what the service's
// GET /v1/fetch answers, built in one place so that both say the same.
package fetchreport

import (
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// Info is the report of one fetch through the cache, also its JSON form.
type Info struct {
	Origin       string          `json:"origin"`
	RobotsURL    string          `json:"robots_url"`
	Dialect      string          `json:"dialect"`
	Policy       string          `json:"policy"`
	Source       string          `json:"source"`
	Reason       string          `json:"reason"`
	Status       int             `json:"status"`
	Bytes        int             `json:"bytes"`
	Truncated    bool            `json:"truncated"`
	Trace        []fetch.Request `json:"trace"`
	FetchedAt    string          `json:"fetched_at"`
	ExpiresAt    string          `json:"expires_at"`
	FailingSince string          `json:"failing_since,omitempty"`
	Error        string          `json:"error,omitempty"`
	Store        string          `json:"store"`
}

// FromAnswer reports a, the cache's answer about one origin; storeName
// names the store that gave it ("memory", "bbolt /x/cache.db", ...). body
// is the robots.txt to obey when the policy is "rules", else nil.
func FromAnswer(a *cache.Answer, storeName string) (body []byte, info Info) {
	info = Info{
		Origin: a.Origin.String(), RobotsURL: a.Origin.RobotsURL(), Dialect: a.Dialect.String(),
		Policy: a.Policy.String(), Source: a.Source.String(), Reason: a.Reason, Status: a.Status,
		Truncated: a.Truncated, Trace: a.Trace, FetchedAt: RFC3339(a.FetchedAt), ExpiresAt: RFC3339(a.ExpiresAt),
		FailingSince: RFC3339(a.FailingSince), Store: storeName,
	}
	if info.Trace == nil {
		info.Trace = []fetch.Request{}
	}
	if a.Err != nil {
		info.Error = a.Err.Error()
	}
	if a.Policy == fetch.Rules && a.Robots != nil {
		body = []byte(a.Robots.Body())
		info.Bytes = len(body)
	}
	return body, info
}

// RFC3339 formats t in UTC, or gives "" for the zero time.
func RFC3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// NeedsScheme reports whether a URL typed by a person is a bare host
// ("example.com", "example.com/a", "localhost:8080", "[::1]:8080"), which
// means https. "mailto:x" and other schemes are kept, and refused.
func NeedsScheme(s string) bool {
	if strings.Contains(s, "://") {
		return false
	}
	if strings.HasPrefix(s, "[") {
		return true
	}
	head, _, _ := strings.Cut(s, "/")
	_, after, found := strings.Cut(head, ":")
	return !found || after != "" && after[0] >= '0' && after[0] <= '9'
}
