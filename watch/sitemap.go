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

// sitemapRead is what a sitemap gave: its <loc> URLs (at most the
// bound asked), and what was left out.
type sitemapRead struct {
	locs []string
	// more counts the <loc>s after the bound; long, those over 4,096
	// bytes; cut is set when the sitemap is over 10 MiB, so that the
	// <loc>s after its first 10 MiB were not read.
	more, long int
	cut        bool
}

// warnings says what a watch lost of the sitemap: over <loc>s past the
// bound of max URLs a watch asks about, off not on the origin.
func (r *sitemapRead) warnings(over, off, max int) []string {
	var out []string
	if over > 0 {
		out = append(out, fmt.Sprintf("sitemap: %d <loc> URLs left out, past the %d URLs a watch asks about", over, max))
	}
	if n := off + r.long; n > 0 {
		out = append(out, fmt.Sprintf("sitemap: %d <loc> URLs left out: not on the origin, or over 2,048 bytes", n))
	}
	if r.cut {
		out = append(out, fmt.Sprintf("sitemap: over %d MiB: the <loc> URLs after its first %d MiB were not read", maxSitemapBytes>>20, maxSitemapBytes>>20))
	}
	return out
}

// sitemapURLs reads the <loc> URLs of the sitemap at raw, which must be
// on origin: at most MaxURLs of them (the others counted), from at most
// 10 MiB in at most 20 s. A sitemap index is refused: name one of its
// sitemaps.
func (e *Engine) sitemapURLs(ctx context.Context, origin, raw string) (*sitemapRead, error) {
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
	lr := &io.LimitedReader{R: resp.Body, N: maxSitemapBytes + 1}
	res, err := readLocs(lr, e.opts.MaxURLs)
	if err == nil && lr.N == 0 {
		res.cut = true
	}
	return res, err
}

// readLocs reads the <loc> elements of a sitemap's <urlset>: at most max
// of them, and counts the others.
func readLocs(r io.Reader, max int) (*sitemapRead, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	res := &sitemapRead{}
	inLoc, root, long := false, "", false
	var b strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(res.locs) > 0 {
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
				inLoc, long = true, false
				b.Reset()
			}
		case xml.CharData:
			if inLoc && b.Len()+len(t) <= 4096 {
				b.Write(t)
			} else if inLoc {
				long = true
			}
		case xml.EndElement:
			if t.Name.Local == "loc" && inLoc {
				inLoc = false
				u := strings.TrimSpace(b.String())
				switch {
				case long:
					res.long++
				case u == "":
				case len(res.locs) < max:
					res.locs = append(res.locs, u)
				default:
					res.more++
				}
			}
		}
	}
	if root == "" {
		return nil, errors.New("not a sitemap: no XML in it")
	}
	return res, nil
}
