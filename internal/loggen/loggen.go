// Package loggen writes generated access logs of real-looking combined
// lines, for the audit's tests, benchmarks and the 1 GB run: browsers,
// real and spoofed Googlebots, Bingbot, AI crawlers, SEO tools and
// scripts, on a site's usual paths and some it disallows.
package loggen

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
	"time"
)

// Start is the time of a generated log's first line.
var Start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// agent is a User-Agent and where its requests come from.
type agent struct {
	ua     string
	weight int
	ip     func(r *rand.Rand, b []byte) []byte
}

func ipIn(a, b int) func(r *rand.Rand, buf []byte) []byte {
	return func(r *rand.Rand, buf []byte) []byte {
		buf = strconv.AppendInt(buf, int64(a), 10)
		buf = append(buf, '.')
		buf = strconv.AppendInt(buf, int64(b), 10)
		buf = append(buf, '.')
		buf = strconv.AppendInt(buf, int64(r.IntN(4)+64), 10)
		buf = append(buf, '.')
		return strconv.AppendInt(buf, int64(r.IntN(250)+1), 10)
	}
}

// spooferIP is one of a hundred addresses of the documentation ranges,
// the first ones the busiest: scrapers that claim Googlebot's name come
// back.
func spooferIP(r *rand.Rand, buf []byte) []byte {
	i := r.IntN(r.IntN(100) + 1)
	if i < 60 {
		buf = append(buf, "203.0.113."...)
		return strconv.AppendInt(buf, int64(i+1), 10)
	}
	buf = append(buf, "198.51.100."...)
	return strconv.AppendInt(buf, int64(i-59), 10)
}

func anyIP(r *rand.Rand, buf []byte) []byte {
	for i := range 4 {
		if i > 0 {
			buf = append(buf, '.')
		}
		buf = strconv.AppendInt(buf, int64(r.IntN(223)+1), 10)
	}
	return buf
}

var agents = []agent{
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", 40, anyIP},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", 20, anyIP},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:132.0) Gecko/20100101 Firefox/132.0", 10, anyIP},
	{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 6, ipIn(66, 249)},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 2, spooferIP}, // spoofers
	{"Googlebot-Image/1.0", 1, ipIn(66, 249)},
	{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", 4, ipIn(157, 55)},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", 3, ipIn(20, 171)},
	{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", 3, ipIn(160, 79)},
	{"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", 2, ipIn(54, 36)},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", 1, ipIn(17, 58)},
	{"CCBot/2.0 (https://commoncrawl.org/faq/)", 1, ipIn(18, 97)},
	{"python-requests/2.32.3", 2, anyIP},
	{"Mozilla/5.0 (compatible; DataMinerX/3.1; +http://dataminer.example/bot)", 1, anyIP},
}

var paths = []string{
	"/", "/blog/", "/blog/robots-txt-explained", "/blog/2026/11/crawl-budget", "/products/widget-42",
	"/products/widget-7?color=blue", "/search?q=robots", "/private/report.pdf", "/admin/login",
	"/cart/checkout", "/static/app.js", "/static/style.css", "/images/logo.png", "/robots.txt",
	"/tmp/cache-1", "/api/v1/items?page=2", "/about", "/contact",
}

var statuses = []string{"200", "200", "200", "200", "304", "301", "404"}

// Generator writes lines one at a time.
type Generator struct {
	r     *rand.Rand
	t     time.Time
	total int
	buf   []byte
}

// New returns a generator seeded with seed, its first line at Start.
func New(seed uint64) *Generator {
	g := &Generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), t: Start}
	for _, a := range agents {
		g.total += a.weight
	}
	return g
}

// Line returns the next line, with its "\n" (valid until the next call).
func (g *Generator) Line() []byte {
	r := g.r
	w := r.IntN(g.total)
	var a agent
	for _, a = range agents {
		if w < a.weight {
			break
		}
		w -= a.weight
	}
	g.t = g.t.Add(time.Duration(r.IntN(40)) * time.Millisecond)
	b := a.ip(r, g.buf[:0])
	b = append(b, " - - ["...)
	b = g.t.AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, "] \"GET "...)
	p := paths[r.IntN(len(paths))]
	b = append(b, p...)
	if p == "/blog/" {
		b = strconv.AppendInt(b, int64(r.IntN(5000)), 10)
	}
	b = append(b, " HTTP/1.1\" "...)
	b = append(b, statuses[r.IntN(len(statuses))]...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(r.IntN(90000)+200), 10)
	b = append(b, " \"-\" \""...)
	b = append(b, a.ua...)
	b = append(b, "\"\n"...)
	g.buf = b
	return b
}

// Write writes lines to w until at least n bytes are written, and returns
// how many lines.
func Write(w io.Writer, n int64, seed uint64) (lines int64, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := New(seed)
	var written int64
	for written < n {
		l := g.Line()
		if _, err := bw.Write(l); err != nil {
			return lines, err
		}
		written += int64(len(l))
		lines++
	}
	return lines, bw.Flush()
}

// Robots is a robots.txt for the generated log's site: /private/,
// /admin/, /cart/ and /tmp/ closed to all, /search closed to Googlebot,
// and GPTBot and CCBot shut out.
const Robots = `# example.com
User-agent: *
Disallow: /private/
Disallow: /admin/
Disallow: /cart/
Disallow: /tmp/

User-agent: Googlebot
Disallow: /search
Disallow: /private/
Disallow: /admin/

User-agent: GPTBot
User-agent: CCBot
Disallow: /
`
