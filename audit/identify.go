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
	words    map[string]int // the same that are words (see Identify)
}

// NewCatalogue returns the finder of the crawlers in table; nil takes
// robotstxt.Crawlers(). Control tokens (Google-Extended), which fetch
// nothing, are left out: no request comes from them.
func NewCatalogue(table []robotstxt.Crawler) *Catalogue {
	if table == nil {
		table = robotstxt.Crawlers()
	}
	c := &Catalogue{crawlers: table, byName: map[string]int{}, words: map[string]int{}}
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
			if isWord(k) {
				if _, ok := c.words[k]; !ok {
					c.words[k] = i
				}
			}
		}
	}
	return c
}

// Crawler returns the catalogue's crawler i, as Identify numbers them.
func (c *Catalogue) Crawler(i int) *robotstxt.Crawler { return &c.crawlers[i] }

// lookup returns the index of the crawler a catalogue name (or token,
// or alias) names, as a guard's decision log records it; any case.
func (c *Catalogue) lookup(name []byte) (int, bool) {
	var buf [64]byte
	if len(name) > len(buf) {
		return 0, false
	}
	lw := buf[:len(name)]
	for k, b := range name {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		lw[k] = b
	}
	i, ok := c.byName[string(lw)]
	return i, ok
}

// Len returns the number of crawlers in the table.
func (c *Catalogue) Len() int { return len(c.crawlers) }

// Identify returns the index of the crawler userAgent names, or -1 for
// none. It reads the header's product token as robots.txt matching does
// (robotstxt.ProductToken: "Googlebot/2.1", and the browser-compatible
// "Mozilla/5.0 (compatible; bingbot/2.0; ...)"); when that names no
// known crawler, it looks for a catalogue token standing as a word
// anywhere in the header ("... Safari/605.1.15 (Applebot/0.1; ...)",
// "...; compatible; ChatGPT-User/1.0; ..."), the longest first. A word is
// a run of letters, digits, '-', '_' and '.': one pass over the header,
// each word looked up once.
func (c *Catalogue) Identify(userAgent string) int {
	tok := robotstxt.ProductToken(userAgent)
	if tok != "" {
		if i, ok := c.byName[strings.ToLower(tok)]; ok {
			return i
		}
	}
	best, bestLen := -1, 0
	var buf [64]byte
	for i := 0; i < len(userAgent); {
		if !isTokenByte(userAgent[i]) {
			i++
			continue
		}
		j := i
		for j < len(userAgent) && isTokenByte(userAgent[j]) {
			j++
		}
		if w := userAgent[i:j]; len(w) > bestLen && len(w) <= len(buf) {
			lw := buf[:len(w)]
			for k := range len(w) {
				b := w[k]
				if 'A' <= b && b <= 'Z' {
					b += 'a' - 'A'
				}
				lw[k] = b
			}
			if idx, ok := c.words[string(lw)]; ok {
				best, bestLen = idx, len(w)
			}
		}
		i = j
	}
	return best
}

func isWord(s string) bool {
	for i := range len(s) {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return s != ""
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
