package watch

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// maxSitemapBytes bounds the bytes of a sitemap read for a watch.
const maxSitemapBytes = 10 << 20

// sitemapURLs reads the <loc> URLs of the sitemap at raw, which must be
// on origin: at most MaxURLs of them, from at most 10 MiB in at most 20 s.
// A sitemap index is refused: name one of its sitemaps.
func (e *Engine) sitemapURLs(ctx context.Context, origin, raw string) ([]string, error) {
	o, err := fetch.OriginOf(raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %s", raw, strings.TrimPrefix(err.Error(), "fetch: "))
	}
	if o.String() != origin {
		return nil, fmt.Errorf("%q is not on %s", raw, origin)
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "robotstxt-watch")
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", raw, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: %s", raw, resp.Status)
	}
	return readLocs(io.LimitReader(resp.Body, maxSitemapBytes), e.opts.MaxURLs)
}

// readLocs reads the <loc> elements of a sitemap's <urlset>, at most max.
func readLocs(r io.Reader, max int) ([]string, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	var out []string
	inLoc, root := false, ""
	var b strings.Builder
	for len(out) < max {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(out) > 0 {
				break // cut at the size bound: the URLs read so far
			}
			return nil, fmt.Errorf("not a sitemap: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = t.Name.Local
				if root == "sitemapindex" {
					return nil, errors.New("a sitemap index: give one of the sitemaps it lists")
				}
				if root != "urlset" {
					return nil, fmt.Errorf("not a sitemap: its root is <%s>, not <urlset>", root)
				}
			}
			if t.Name.Local == "loc" {
				inLoc = true
				b.Reset()
			}
		case xml.CharData:
			if inLoc && b.Len() < 4096 {
				b.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local == "loc" && inLoc {
				inLoc = false
				if u := strings.TrimSpace(b.String()); u != "" {
					out = append(out, u)
				}
			}
		}
	}
	if root == "" {
		return nil, errors.New("not a sitemap: no XML in it")
	}
	return out, nil
}
