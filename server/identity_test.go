package server

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/seed53c283f5/robotstxt/store"
)

const gptUA = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"

func gptLine(ip string) string {
	return ip + ` - - [10/Nov/2026:12:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "` + gptUA + `"` + "\n"
}

// TestAuditIdentityListURL: a list at a URL is fetched through the SSRF
// guard: on loopback, refused by default (the claims stay unverified),
// fetched with AllowPrivate, and once for many requests (kept in the
// store, fresh for a day).
func TestAuditIdentityListURL(t *testing.T) {
	var fetches atomic.Int32
	lists := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Write([]byte(`{"creationTime":"2026-11-20T00:00:00Z","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`))
	}))
	defer lists.Close()
	id := &Identity{NoDNS: true, Lists: []IdentityList{{Crawlers: []string{"GPTBot"}, Source: lists.URL + "/gptbot.json"}}}
	log := gptLine("20.171.206.5") + gptLine("192.0.2.1")
	body := auditBody(t, AuditRequest{Log: log, Robots: "User-agent: *\nDisallow: /private/\n"})

	guarded := newTestServer(t, &Options{Identity: id})
	rep := auditReport(t, post(t, guarded.URL+"/v1/audit", body))
	if fetches.Load() != 0 || rep.Crawlers[0].Unverified != 2 {
		t.Errorf("guarded: %d fetches of a loopback list, report %+v", fetches.Load(), rep.Crawlers[0])
	}
	open := newTestServer(t, &Options{Identity: id, AllowPrivate: true, Store: store.NewMemory(nil)})
	for range 3 {
		rep = auditReport(t, post(t, open.URL+"/v1/audit", body))
		if c := rep.Crawlers[0]; c.Verified != 1 || c.Spoofed != 1 || len(rep.Spoofers) != 1 || rep.Spoofers[0].Evidence.Lists[0].CreationTime != "2026-11-20T00:00:00Z" {
			t.Errorf("--allow-private: %+v, spoofers %+v", c, rep.Spoofers)
		}
	}
	if fetches.Load() != 1 {
		t.Errorf("%d fetches for 3 audits, want 1", fetches.Load())
	}
}

// TestAuditIdentityBudget: a resolver that never answers costs an audit
// at most the DNS budget, however many addresses claim a crawler; their
// claims are unverified.
func TestAuditIdentityBudget(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	silent := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(dns.ResponseWriter, *dns.Msg) {})}
	go silent.ActivateAndServe()
	defer silent.Shutdown()
	ts := newTestServer(t, &Options{Identity: &Identity{Resolver: pc.LocalAddr().String(), Timeout: time.Minute, Budget: 300 * time.Millisecond}})
	log := ""
	for i := range 200 {
		log += auditLogLineFrom(net.IPv4(192, 0, 2, byte(i)).String())
	}
	start := time.Now()
	rep := auditReport(t, post(t, ts.URL+"/v1/audit", auditBody(t, AuditRequest{Log: log, Robots: "User-agent: *\nDisallow:\n"})))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("200 addresses on a silent resolver took %v with a 300ms budget", d)
	}
	if c := rep.Crawlers[0]; c.Unverified != 200 || !rep.Verification.Enabled {
		t.Errorf("%+v", c)
	}
}

func auditLogLineFrom(ip string) string {
	return ip + ` - - [10/Nov/2026:12:00:00 +0000] "GET /a HTTP/1.1" 200 512 "-" "` + auditUA + `"` + "\n"
}
