package main

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/verify"
)

// verifyIPFlags are the flags of "verify IP USER-AGENT".
type verifyIPFlags struct {
	ranges    []string
	published bool
	dns       bool
	resolver  string
	store     string
	json      bool
}

// verifyAddress answers "verify IP USER-AGENT": is ip the crawler ua
// names? It decides with the verify package, as audit does.
func verifyAddress(ipText, ua string, f verifyIPFlags, stdout, stderr io.Writer) int {
	ip, err := netip.ParseAddr(strings.TrimSpace(ipText))
	if err != nil {
		complain(stderr, "verify", "%q is not an IP address", ipText)
		return 2
	}
	if !f.dns && f.resolver != "" {
		complain(stderr, "verify", "--resolver applies only with DNS on (it is the server reverse DNS asks)")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var st store.Store
	openSt := func() (store.Store, error) {
		if st == nil {
			s, err := openStore(f.store, stderr)
			if err != nil {
				return nil, err
			}
			st = s
		}
		return st, nil
	}
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	vopts := &verify.Options{NoDNS: !f.dns, Resolver: f.resolver}
	if f.dns {
		if s, err := openSt(); err == nil {
			vopts.Store = s
		}
	}
	v := verify.New(vopts)
	if _, err := auditLoadRanges(ctx, v, f.ranges, openSt); err != nil {
		complain(stderr, "verify", "--ip-ranges: %v", err)
		return 2
	}
	cat := audit.NewCatalogue(nil)
	var ev verify.Evidence
	if i := cat.Identify(ua); i < 0 {
		ev = verify.Evidence{IP: ip.Unmap().String(), Outcome: verify.Unverified.String(), Method: verify.MethodNone,
			Reason: "the User-Agent names no crawler of the catalogue (robotstxt crawlers lists it)", Checked: time.Now()}
	} else {
		c := cat.Crawler(i)
		if f.published {
			s, err := openSt()
			if err != nil {
				complain(stderr, "verify", "%v", err)
				return 2
			}
			lf := verify.NewListFetcher(verify.ListOptions{Client: auditHTTPClient, Store: s})
			lists := verify.ListsFor(c)
			if len(lists) == 0 {
				fmt.Fprintf(stderr, "robotstxt verify: warning: %s's operator publishes no address list\n", c.Name)
			}
			for _, l := range lists {
				res, err := lf.Get(ctx, l.URL)
				if err != nil {
					complain(stderr, "verify", "--published: %v", strings.TrimPrefix(err.Error(), "verify: "))
					return 2
				}
				for _, w := range res.Warnings {
					fmt.Fprintf(stderr, "robotstxt verify: warning: %s\n", strings.TrimPrefix(w, "verify: "))
				}
				v.AddRanges(c.Name, res.Ranges)
			}
		}
		ev = v.Decide(ctx, ip, c)
	}
	if f.json {
		if err := writeJSON(stdout, ev); err != nil {
			complain(stderr, "verify", "%v", err)
			return 2
		}
	} else {
		writeEvidenceText(stdout, ev)
	}
	if ev.Outcome == verify.Verified.String() {
		return 0
	}
	return 1
}

// writeEvidenceText writes an identity decision for people: the outcome,
// then a row for each thing known.
func writeEvidenceText(w io.Writer, e verify.Evidence) {
	var b strings.Builder
	b.WriteString(e.Outcome + "\n")
	row := func(k, v string) {
		if v != "" {
			b.WriteString(wrapIndent(esc(v), termWidth, fmt.Sprintf("  %-9s ", k), strings.Repeat(" ", 12)))
		}
	}
	row("reason", e.Reason)
	row("crawler", e.Crawler)
	row("ip", e.IP)
	row("method", e.Method)
	for _, l := range e.Lists {
		s := l.URL
		if l.CreationTime != "" {
			s += " (created " + l.CreationTime + ")"
		}
		row("list", s)
	}
	row("names", strings.Join(e.Names, ", "))
	row("checked", e.Checked.UTC().Format(time.RFC3339))
	io.WriteString(w, b.String())
}
