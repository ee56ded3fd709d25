package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/testweb"
)

// TestBulkHostileWebServe is not a test: with ROBOTSTXT_HOSTILE_WEB=FILE
// set it serves the hostile web on loopback, writes its address to FILE
// and the input of ROBOTSTXT_HOSTILE_ORIGINS origins (default 500), four
// URLs each, to FILE.urls, and runs until SIGTERM. bench/bulk.sh --hostile
// measures robotstxt bulk's peak RSS against it.
func TestBulkHostileWebServe(t *testing.T) {
	file := os.Getenv("ROBOTSTXT_HOSTILE_WEB")
	if file == "" {
		t.Skip("set ROBOTSTXT_HOSTILE_WEB to serve the hostile web (bench/bulk.sh --hostile)")
	}
	origins := 500
	if s := os.Getenv("ROBOTSTXT_HOSTILE_ORIGINS"); s != "" {
		var err error
		if origins, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	hw := &testweb.Hostile{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: hw}
	go srv.Serve(l)
	defer srv.Close()
	if err := os.WriteFile(file+".urls", []byte(testweb.HostileInput(origins, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(l.Addr().String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	t.Logf("%d robots.txt requests answered", hw.Robots())
}
