package audit

import (
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// Catalogue finds the crawler a User-Agent header names. It is built once
// from the crawler catalogue and is safe for concurrent use.
type Catalogue struct {
	crawlers []robotstxt.Crawler
	byName   map[string]int // lower-case name, token and aliases -> index
	tokens   []catToken     // the tokens to look for inside headers
}

type catToken struct {
	lower string
	index int
}

// NewCatalogue returns the finder of the crawlers in table; nil takes
// robotstxt.Crawlers(). Control tokens (Google-Extended), which fetch
// nothing, are left out: no request comes from them.
func NewCatalogue(table []robotstxt.Crawler) *Catalogue {
	if table == nil {
		table = robotstxt.Crawlers()
	}
	c := &Catalogue{crawlers: table, byName: map[string]int{}}
	for i := range table {
		cr := &table[i]
		if cr.Control {
			continue
		}
		for _, k := range append([]string{cr.Name, cr.Token}, cr.Aliases...) {
			k = strings.ToLower(k)
			if k == "" {
				continue
			}
			if _, ok := c.byName[k]; !ok {
				c.byName[k] = i
			}
			if robotstxt.ValidToken(k) {
				c.tokens = append(c.tokens, catToken{k, i})
			}
		}
	}
	return c
}

// Crawler returns the catalogue's crawler i, as Identify numbers them.
func (c *Catalogue) Crawler(i int) *robotstxt.Crawler { return &c.crawlers[i] }

// Len returns the number of crawlers in the table.
func (c *Catalogue) Len() int { return len(c.crawlers) }

// Identify returns the index of the crawler userAgent names, or -1 for
// none. It reads the header's product token as robots.txt matching does
// (robotstxt.ProductToken: "Googlebot/2.1", and the browser-compatible
// "Mozilla/5.0 (compatible; bingbot/2.0; ...)"); when that names no
// known crawler, it looks for a catalogue token standing as a product
// anywhere in the header ("... Safari/605.1.15 (Applebot/0.1; ...)",
// "...; compatible; ChatGPT-User/1.0; ..."), the longest first.
func (c *Catalogue) Identify(userAgent string) int {
	tok := robotstxt.ProductToken(userAgent)
	if tok != "" {
		if i, ok := c.byName[strings.ToLower(tok)]; ok {
			return i
		}
	}
	lower := strings.ToLower(userAgent)
	best, bestLen := -1, 0
	for _, t := range c.tokens {
		if len(t.lower) <= bestLen {
			continue
		}
		if productAt(lower, t.lower) {
			best, bestLen = t.index, len(t.lower)
		}
	}
	return best
}

// productAt reports whether tok stands in ua as a product: not inside a
// longer token, and followed by '/', ';', ')', a blank or the end.
func productAt(ua, tok string) bool {
	for off := 0; ; {
		i := strings.Index(ua[off:], tok)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(tok)
		before := i == 0 || !isTokenByte(ua[i-1])
		after := end == len(ua) || ua[end] == '/' || ua[end] == ';' || ua[end] == ')' || ua[end] == ' '
		if before && after {
			return true
		}
		off = i + 1
	}
}

func isTokenByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '-' || b == '_' || b == '.'
}

// botWords mark a User-Agent that is not a known crawler as a bot all
// the same: for the unknown-bots list.
var botWords = []string{"bot", "crawl", "spider", "slurp", "scrap", "fetch", "archiver", "curl/", "wget/", "python", "go-http-client", "java/", "okhttp", "axios", "libwww", "httpclient", "headless", "http.rb", "aiohttp"}

// BotLike reports whether a User-Agent that names no known crawler looks
// like a program's all the same: a bot word ("bot", "crawler",
// "spider", an HTTP library's name), an empty header, or a first product
// that is not a browser's "Mozilla" or "Opera".
func BotLike(userAgent string) bool {
	ua := strings.TrimSpace(userAgent)
	if ua == "" || ua == "-" {
		return true
	}
	lower := strings.ToLower(ua)
	for _, w := range botWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	tok := strings.ToLower(robotstxt.ExtractToken(ua))
	return tok != "mozilla" && tok != "opera" && tok != "dalvik"
}
