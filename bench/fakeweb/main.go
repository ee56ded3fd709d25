// Command fakeweb stands in for the web in bench/bulk.sh: an HTTP proxy on a
// loopback port that answers for every host itself. Host sN.test serves a
// small robots.txt; one in ten answers 404 (allow all), one in fifty 503
// (disallow all). Point HTTP_PROXY at it.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.Addr().String())
	log.Fatal(http.Serve(l, http.HandlerFunc(serve)))
}

func serve(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Hostname()
	if host == "" {
		host, _, _ = strings.Cut(r.Host, ":")
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "s"), ".test"))
	switch {
	case n%50 == 7:
		w.WriteHeader(http.StatusServiceUnavailable)
	case n%10 == 3:
		http.NotFound(w, r)
	default:
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "User-agent: *\nDisallow: /private\nDisallow: /tmp/*.php$\nAllow: /private/ok\n\nUser-agent: Bingbot\nDisallow: /\n\nSitemap: http://"+host+"/sitemap.xml\n")
	}
}
