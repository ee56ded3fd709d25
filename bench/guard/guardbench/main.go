// Command guardbench runs the two servers bench/guard/wrk.sh compares
// robotstxt guard with, on loopback:
//
//	guardbench upstream ADDR            the site: a 1 KiB page, /robots.txt
//	guardbench bare ADDR UPSTREAM-URL   a bare httputil.ReverseProxy to it
//
// The bare proxy's transport has the settings of robotstxt guard's
// (cmd/robotstxt/guard_proxy.go, upstreamTransport), so that the two
// differ by the guard alone.
package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"time"
)

// robots is the site's robots.txt: GPTBot may fetch /public/.
const robots = "User-agent: GPTBot\nAllow: /public/\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: guardbench upstream ADDR | guardbench bare ADDR UPSTREAM-URL")
		os.Exit(2)
	}
	var h http.Handler
	switch os.Args[1] {
	case "upstream":
		page := []byte(strings.Repeat("x", 1023) + "\n")
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte(robots))
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write(page)
		})
	case "bare":
		up, err := url.Parse(os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
		h = &httputil.ReverseProxy{
			// wrk's connections cut at the end of a run are no news.
			ErrorLog: log.New(io.Discard, "", 0),
			Rewrite: func(pr *httputil.ProxyRequest) {
				pr.SetURL(up)
				pr.Out.Host = pr.In.Host
				pr.SetXForwarded()
			},
			Transport: &http.Transport{
				DialContext: d.DialContext, ForceAttemptHTTP2: true,
				MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: 90 * time.Second,
				TLSHandshakeTimeout: 10 * time.Second, ExpectContinueTimeout: time.Second,
				ResponseHeaderTimeout: 60 * time.Second,
			},
		}
	default:
		fmt.Fprintln(os.Stderr, "guardbench: unknown mode", os.Args[1])
		os.Exit(2)
	}
	srv := &http.Server{Addr: os.Args[2], Handler: h, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
