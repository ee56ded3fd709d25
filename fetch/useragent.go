package fetch

import (
	"context"

	"golang.org/x/net/http/httpguts"
)

type userAgentKey struct{}

// WithUserAgent returns a context under which a Fetcher sends ua as the
// User-Agent header instead of its own: so that one Fetcher (and the cache
// that uses it) fetches each robots.txt as the crawler that asks for it.
// The polite client sets it for its requests. An empty value, or one that
// cannot be sent as a header (control characters), is ignored.
func WithUserAgent(ctx context.Context, ua string) context.Context {
	return context.WithValue(ctx, userAgentKey{}, ua)
}

// userAgentFor is the User-Agent header of a fetch made under ctx.
func (f *Fetcher) userAgentFor(ctx context.Context) string {
	if ua, ok := ctx.Value(userAgentKey{}).(string); ok && ua != "" && httpguts.ValidHeaderFieldValue(ua) {
		return ua
	}
	return f.userAgent()
}
