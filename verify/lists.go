package verify

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/store"
)

// PublishedList is an address list an operator publishes for its
// crawlers.
type PublishedList struct {
	// Operator publishes it; URL is where.
	Operator string
	URL      string
	// Crawlers are the catalogue names it covers beside those whose
	// robotstxt.Crawler.IPRanges name the URL.
	Crawlers []string
	// HTML: the list is a web page (Amazon's), read by ParseRangesHTML;
	// else the JSON shape ParseRanges reads.
	HTML bool
}

const googleLists = "https://developers.google.com/static/crawling/ipranges/"

// published are the lists the operators publish, as of 2026-11. The
// catalogue's IPRanges name most of them; the others say which crawlers
// they cover. (Mistral documents one list; the issue counts two, and no
// second could be found.)
var published = []PublishedList{
	{Operator: "Google", URL: googleLists + "common-crawlers.json"},
	{Operator: "Google", URL: googleLists + "special-crawlers.json"},
	{Operator: "Google", URL: googleLists + "user-triggered-fetchers.json", Crawlers: []string{"Google-NotebookLM"}},
	{Operator: "Google", URL: googleLists + "user-triggered-fetchers-google.json"},
	{Operator: "Google", URL: googleLists + "user-triggered-agents.json"},
	{Operator: "Microsoft", URL: "https://www.bing.com/toolbox/bingbot.json"},
	{Operator: "OpenAI", URL: "https://openai.com/gptbot.json"},
	{Operator: "OpenAI", URL: "https://openai.com/searchbot.json"},
	{Operator: "OpenAI", URL: "https://openai.com/chatgpt-user.json"},
	{Operator: "OpenAI", URL: "https://openai.com/chatgpt-agents.json", Crawlers: []string{"ChatGPT-User"}},
	{Operator: "Anthropic", URL: "https://claude.com/crawling/bots.json", Crawlers: []string{"ClaudeBot", "Claude-User", "Claude-SearchBot", "Claude-Code"}},
	{Operator: "Perplexity", URL: "https://www.perplexity.ai/perplexitybot.json"},
	{Operator: "Perplexity", URL: "https://www.perplexity.ai/perplexity-user.json"},
	{Operator: "Apple", URL: "https://search.developer.apple.com/applebot.json"},
	{Operator: "DuckDuckGo", URL: "https://duckduckgo.com/duckduckbot.json", Crawlers: []string{"DuckDuckBot"}},
	{Operator: "DuckDuckGo", URL: "https://duckduckgo.com/duckassistbot.json", Crawlers: []string{"DuckAssistBot"}},
	{Operator: "Common Crawl", URL: "https://index.commoncrawl.org/ccbot.json"},
	{Operator: "Mistral", URL: "https://mistral.ai/mistralai-user-ips.json"},
	{Operator: "Amazon", URL: "https://developer.amazon.com/amazonbot/ip-addresses/", HTML: true},
	{Operator: "Amazon", URL: "https://developer.amazon.com/amazonbot/live-ip-addresses/", HTML: true},
}

// PublishedLists returns the address lists the operators of the
// catalogue's crawlers publish.
func PublishedLists() []PublishedList {
	out := slices.Clone(published)
	for i := range out {
		out[i].Crawlers = slices.Clone(out[i].Crawlers)
	}
	return out
}

// ListsFor returns the published lists of crawler c: those its IPRanges
// name, and those that name it.
func ListsFor(c *robotstxt.Crawler) []PublishedList {
	var out []PublishedList
	for _, p := range published {
		if slices.Contains(c.IPRanges, p.URL) || slices.ContainsFunc(p.Crawlers, func(n string) bool { return strings.EqualFold(n, c.Name) }) {
			out = append(out, p)
		}
	}
	return out
}

// isHTMLList reports whether the list at url is a web page.
func isHTMLList(url string) bool {
	for _, p := range published {
		if p.URL == url {
			return p.HTML
		}
	}
	return false
}

// ParseRangesHTML reads a list published as a web page: every IPv4 or
// IPv6 address and prefix written in its text (outside tags) is one
// (an address alone is its /32 or /128). A page with none is an error:
// a page that changed its shape must not pass for an empty list.
func ParseRangesHTML(data []byte) (*Ranges, error) {
	var ps []netip.Prefix
	text := stripTags(data)
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == '.' || r == ':' || r == '/')
	}) {
		w = strings.Trim(w, ".:")
		if p, err := netip.ParsePrefix(w); err == nil {
			ps = append(ps, p)
		} else if a, err := netip.ParseAddr(w); err == nil {
			ps = append(ps, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	if len(ps) == 0 {
		return nil, errors.New("verify: address list page: no address in its text")
	}
	return NewRanges(ps), nil
}

// stripTags returns the text of an HTML page: what is outside tags,
// with entities left as they are (addresses have none), each tag a
// space.
func stripTags(b []byte) string {
	var out strings.Builder
	in := false
	for _, c := range b {
		switch {
		case c == '<':
			in = true
			out.WriteByte(' ')
		case c == '>':
			in = false
		case !in:
			out.WriteByte(c)
		}
	}
	return out.String()
}

// Defaults of ListOptions.
const (
	// DefaultListInterval is how often a list is fetched at most: the
	// operators say to refresh daily.
	DefaultListInterval = 24 * time.Hour
	// DefaultListRetry is how long a list that failed is left before it
	// is fetched again (its last good copy serving meanwhile).
	DefaultListRetry = time.Hour
	// DefaultListMaxAge is the age of a list's creationTime past which
	// it is called stale (a warning: it is still used).
	DefaultListMaxAge = 30 * 24 * time.Hour
	// DefaultListTimeout bounds one fetch.
	DefaultListTimeout = 30 * time.Second
	// listKeep is how long the store keeps a list's last good copy.
	listKeep = 90 * 24 * time.Hour
)

// ListOptions configures a ListFetcher. The zero value works.
type ListOptions struct {
	// Client fetches (nil: a client with Timeout). The service passes
	// its SSRF-guarded client.
	Client *http.Client
	// Store keeps each list's last good copy with its validators (key
	// "iplist URL"), so that a fleet fetches each once per Interval.
	Store store.Store
	// Interval is the freshness of a copy: Cache-Control's max-age when
	// longer (up to 7 Intervals), never shorter (default
	// DefaultListInterval).
	Interval time.Duration
	// Retry is how long a failed fetch is not tried again (default
	// DefaultListRetry).
	Retry time.Duration
	// MaxAge is the creationTime age past which a warning says the list
	// is stale (default DefaultListMaxAge).
	MaxAge time.Duration
	// Timeout bounds a fetch (default DefaultListTimeout).
	Timeout time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// ListFetcher fetches published address lists like robots.txt: with
// their validators (ETag, Last-Modified), at most once per Interval,
// keeping the last good copy on any error. It is safe for concurrent
// use: concurrent callers of one URL share its fetch.
type ListFetcher struct {
	o     ListOptions
	sf    singleflight.Group
	owner string // the name of this fetcher's leases

	mu   sync.Mutex
	mem  map[string]*listCopy
	fail map[string]time.Time // URL -> when its fetch may be tried again
}

// listCopy is a list's last good copy, as kept in the store.
type listCopy struct {
	Data         []byte    `json:"data"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	Fetched      time.Time `json:"fetched"`
	Fresh        time.Time `json:"fresh"` // fetched again after this
	ranges       *Ranges
}

// ListResult is a list and how it was had.
type ListResult struct {
	Ranges *Ranges
	// Fetched is when the copy was fetched (or last revalidated).
	Fetched time.Time
	// Warnings say what is wrong without stopping the list's use: a
	// fetch that failed (the last good copy used), a creationTime older
	// than MaxAge.
	Warnings []string
}

// NewListFetcher returns a fetcher with o.
func NewListFetcher(o ListOptions) *ListFetcher {
	if o.Interval <= 0 {
		o.Interval = DefaultListInterval
	}
	if o.Retry <= 0 {
		o.Retry = DefaultListRetry
	}
	if o.MaxAge <= 0 {
		o.MaxAge = DefaultListMaxAge
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultListTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: o.Timeout}
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	return &ListFetcher{o: o, owner: "iplist-" + hex.EncodeToString(id[:]), mem: map[string]*listCopy{}, fail: map[string]time.Time{}}
}

// Get returns the list at url: the copy in memory or in the store while
// fresh, else fetched (conditionally when a copy is held). When the
// fetch fails and a copy is held, the copy is returned with a warning;
// the error is returned only when there is no copy at all.
func (l *ListFetcher) Get(ctx context.Context, url string) (ListResult, error) {
	now := l.o.Now()
	l.mu.Lock()
	c := l.mem[url]
	l.mu.Unlock()
	if c == nil {
		if c = l.stored(ctx, url); c != nil {
			l.remember(url, c)
		}
	}
	if c != nil && now.Before(c.Fresh) {
		return l.result(c, now, ""), nil
	}
	l.mu.Lock()
	retry := l.fail[url]
	l.mu.Unlock()
	if c != nil && now.Before(retry) {
		return l.result(c, now, "the last fetch failed; using the copy fetched "+c.Fetched.UTC().Format(time.RFC3339)), nil
	}
	ch := l.sf.DoChan(url, func() (any, error) {
		// The fetch outlives a caller that hangs up: the others wait on
		// it, and its copy serves the next caller.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.o.Timeout)
		defer cancel()
		return l.fetchShared(fctx, url, c)
	})
	var v any
	var err error
	select {
	case r := <-ch:
		v, err = r.Val, r.Err
	case <-ctx.Done():
		// The caller does not wait longer than its own deadline.
		if c != nil {
			return l.result(c, now, "the fetch under way outlasted the caller; using the copy fetched "+c.Fetched.UTC().Format(time.RFC3339)), nil
		}
		return ListResult{}, fmt.Errorf("verify: %s: %w", url, ctx.Err())
	}
	if err != nil {
		l.mu.Lock()
		l.fail[url] = l.o.Now().Add(l.o.Retry)
		l.mu.Unlock()
		if c != nil {
			return l.result(c, now, fmt.Sprintf("%v; using the copy fetched %s", err, c.Fetched.UTC().Format(time.RFC3339))), nil
		}
		return ListResult{}, err
	}
	return l.result(v.(*listCopy), now, ""), nil
}

// stored returns the copy of url in the store, or nil.
func (l *ListFetcher) stored(ctx context.Context, url string) *listCopy {
	if l.o.Store == nil {
		return nil
	}
	b, ok, err := l.o.Store.Get(ctx, "iplist "+url)
	if err != nil || !ok {
		return nil
	}
	var sc listCopy
	if json.Unmarshal(b, &sc) != nil {
		return nil
	}
	r, err := parseList(url, sc.Data)
	if err != nil {
		return nil
	}
	sc.ranges = r
	return &sc
}

// fetchShared fetches url, holding the list's lease when the store is
// shared by a fleet (store.Leaser): while another process holds it, that
// process is fetching, so its stored copy is awaited (or the copy held,
// old, is used meanwhile) rather than fetched a second time.
func (l *ListFetcher) fetchShared(ctx context.Context, url string, old *listCopy) (*listCopy, error) {
	ls, ok := l.o.Store.(store.Leaser)
	if !ok {
		return l.fetch(ctx, url, old)
	}
	key := "iplist " + url
	for {
		got, err := ls.Lease(ctx, key, l.owner, l.o.Timeout+5*time.Second)
		if err != nil || got {
			if got {
				defer ls.Release(context.WithoutCancel(ctx), key, l.owner)
				// The last holder may have just stored a fresh copy.
				if c := l.stored(ctx, url); c != nil && l.o.Now().Before(c.Fresh) {
					l.remember(url, c)
					return c, nil
				}
			}
			return l.fetch(ctx, url, old)
		}
		if c := l.stored(ctx, url); c != nil && l.o.Now().Before(c.Fresh) {
			l.remember(url, c)
			return c, nil
		}
		if old != nil {
			return old, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("verify: %s: another process is fetching it: %w", url, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (l *ListFetcher) remember(url string, c *listCopy) {
	l.mu.Lock()
	l.mem[url] = c
	delete(l.fail, url)
	l.mu.Unlock()
}

func (l *ListFetcher) result(c *listCopy, now time.Time, warn string) ListResult {
	r := ListResult{Ranges: c.ranges, Fetched: c.Fetched}
	if warn != "" {
		r.Warnings = append(r.Warnings, warn)
	}
	if cr := c.ranges.Created; !cr.IsZero() && now.Sub(cr) > l.o.MaxAge {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s: its creationTime %s is older than %s: the operator may have stopped updating it", c.ranges.Source, c.ranges.CreationTime, fmtAge(l.o.MaxAge)))
	}
	return r
}

func fmtAge(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + " days"
	}
	return d.String()
}

// fetch gets url, conditionally on old's validators when old is not nil.
func (l *ListFetcher) fetch(ctx context.Context, url string, old *listCopy) (*listCopy, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("verify: %s: %w", url, err)
	}
	if old != nil {
		if old.ETag != "" {
			req.Header.Set("If-None-Match", old.ETag)
		}
		if old.LastModified != "" {
			req.Header.Set("If-Modified-Since", old.LastModified)
		}
	}
	resp, err := l.o.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	defer resp.Body.Close()
	now := l.o.Now()
	var c *listCopy
	switch {
	case resp.StatusCode == http.StatusNotModified && old != nil:
		cp := *old
		c = &cp
		if e := resp.Header.Get("ETag"); e != "" {
			c.ETag = e
		}
	case resp.StatusCode == http.StatusOK:
		data, err := io.ReadAll(io.LimitReader(resp.Body, MaxRangesBytes+1))
		if err != nil {
			return nil, fmt.Errorf("verify: %s: %w", url, err)
		}
		if len(data) > MaxRangesBytes {
			return nil, fmt.Errorf("verify: %s: larger than %d bytes", url, MaxRangesBytes)
		}
		r, err := parseList(url, data)
		if err != nil {
			return nil, fmt.Errorf("%w (from %s)", err, url)
		}
		c = &listCopy{Data: data, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), ranges: r}
	default:
		return nil, fmt.Errorf("verify: %s: status %d", url, resp.StatusCode)
	}
	c.Fetched = now
	c.Fresh = now.Add(l.freshness(resp.Header.Get("Cache-Control")))
	l.remember(url, c)
	if l.o.Store != nil {
		if b, err := json.Marshal(c); err == nil {
			_ = l.o.Store.Put(ctx, "iplist "+url, b, listKeep)
		}
	}
	return c, nil
}

// freshness is a copy's life: max-age when longer than the interval (up
// to 7 intervals), else the interval.
func (l *ListFetcher) freshness(cc string) time.Duration {
	d := l.o.Interval
	for _, dir := range strings.Split(cc, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(strings.ToLower(dir)), "=")
		if k != "max-age" {
			continue
		}
		if n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64); err == nil && n > 0 {
			if ma := time.Duration(min(n, 1<<32)) * time.Second; ma > d {
				d = min(ma, 7*l.o.Interval)
			}
		}
	}
	return d
}

// parseList reads the list at src in its shape, and names its source.
func parseList(src string, data []byte) (*Ranges, error) {
	var r *Ranges
	var err error
	if isHTMLList(src) || looksHTML(data) {
		r, err = ParseRangesHTML(data)
	} else {
		r, err = ParseRanges(data)
	}
	if err != nil {
		return nil, err
	}
	r.Source = src
	return r, nil
}

func looksHTML(b []byte) bool {
	b = bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	return len(b) > 0 && b[0] == '<'
}
