// Command servetool is the helper of serve.sh, the load test of "robotstxt
// serve": it writes the request bodies the load generator sends, and runs
// the ceiling, a minimal net/http server answering one fixed JSON body.
//
//	servetool bodies DIR       writes DIR/check1.json and DIR/check1000.json
//	servetool ceiling ADDR     serves a fixed JSON body on ADDR until killed
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: servetool bodies DIR | servetool ceiling ADDR")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "bodies":
		err = writeBodies(os.Args[2])
	case "ceiling":
		err = ceiling(os.Args[2])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "servetool:", err)
		os.Exit(1)
	}
}

// robotsFile is a robots.txt of a few KB, shaped like a large site's: a
// * group, a group for Googlebot, a few for other crawlers, wildcards.
func robotsFile() string {
	var b strings.Builder
	b.WriteString("# bench file\nUser-agent: *\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Disallow: /private-%d/\nAllow: /private-%d/public/*.html$\n", i, i)
	}
	b.WriteString("Disallow: /*?sessionid=\nDisallow: /search\n\nUser-agent: Googlebot\nUser-agent: Bingbot\n")
	for i := range 30 {
		fmt.Fprintf(&b, "Disallow: /g-%d/*/drafts\n", i)
	}
	b.WriteString("\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n")
	return b.String()
}

type checkBody struct {
	Robots   string   `json:"robots"`
	URLs     []string `json:"urls"`
	Crawlers []string `json:"crawlers"`
}

func writeBodies(dir string) error {
	robots := robotsFile()
	one := checkBody{Robots: robots, URLs: []string{"https://example.com/private-7/public/page.html"}, Crawlers: []string{"Googlebot"}}
	var urls []string
	for i := range 1000 {
		switch i % 4 {
		case 0:
			urls = append(urls, fmt.Sprintf("https://example.com/private-%d/x/%d", i%40, i))
		case 1:
			urls = append(urls, fmt.Sprintf("https://example.com/g-%d/a/drafts/%d", i%30, i))
		case 2:
			urls = append(urls, fmt.Sprintf("https://example.com/shop/item-%d?sessionid=%d", i, i))
		default:
			urls = append(urls, fmt.Sprintf("https://example.com/private-%d/public/p%d.html", i%40, i))
		}
	}
	batch := checkBody{Robots: robots, URLs: urls, Crawlers: []string{"Googlebot"}}
	for name, v := range map[string]checkBody{"check1.json": one, "check1000.json": batch} {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// fixedAnswer is about the size of one check result.
const fixedAnswer = `{"results":[{"url":"https://example.com/private-7/public/page.html","crawler":"Googlebot","dialect":"google","allowed":true,"line":16,"rule":"Allow: /private-7/public/*.html$","group":{"line":2,"agents":["*"]}}]}` + "\n"

func ceiling(addr string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(fixedAnswer))
	})
	return http.ListenAndServe(addr, mux)
}
