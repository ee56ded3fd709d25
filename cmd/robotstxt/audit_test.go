package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/miekg/dns"

	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/internal/loggen"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

// auditBytes sizes the generated log of TestAuditLarge: go test
// ./cmd/robotstxt -run TestAuditLarge -audit.bytes 1e9 runs the 1 GB case.
var auditBytes = flag.Float64("audit.bytes", 40e6, "the size of TestAuditLarge's generated log, in bytes")

const (
	auditGB   = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	auditGPT  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	auditFox  = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0"
	auditRobo = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
)

func auditLine(ip, when, path, ua string) string {
	return ip + ` - - [` + when + `] "GET ` + path + ` HTTP/1.1" 200 512 "-" "` + ua + `"` + "\n"
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func auditJSON(t *testing.T, stdin string, args ...string) (int, *audit.Report, string) {
	t.Helper()
	code, out, stderr := runCmd(t, stdin, append([]string{"audit", "--json", "--dns=false"}, args...)...)
	var r audit.Report
	if code != 2 {
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("exit %d, output not JSON: %v\n%s\n%s", code, err, out, stderr)
		}
	}
	return code, &r, stderr
}

func crawlerOf(r *audit.Report, name string) *audit.CrawlerReport {
	for i := range r.Crawlers {
		if r.Crawlers[i].Crawler == name {
			return &r.Crawlers[i]
		}
	}
	return nil
}

// TestAuditFormats: each log format, detected and named, read the same.
func TestAuditFormats(t *testing.T) {
	robots := writeTemp(t, "robots.txt", auditRobo)
	logs := map[string]struct {
		log  string
		args []string
	}{
		"combined": {auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB) + auditLine("192.0.2.1", "10/Nov/2026:12:00:01 +0000", "/private/a", auditFox), nil},
		"common":   {`66.249.66.1 - - [10/Nov/2026:12:00:00 +0000] "GET /private/a HTTP/1.1" 200 5` + "\n", nil},
		"json": {`{"client_ip":"66.249.66.1","ts":"2026-11-10T12:00:00Z","uri":"/private/a","agent":"` + strings.ReplaceAll(auditGB, "/", `\/`) + `"}` + "\n",
			[]string{"--field", "ip=client_ip", "--field", "ua=agent,path=uri"}},
		"cloudflare": {`{"ClientIP":"66.249.66.1","ClientRequestURI":"/private/a","ClientRequestUserAgent":"` + auditGB + `","EdgeStartTimestamp":1794315600000000000,"EdgeResponseStatus":200}` + "\n", nil},
	}
	for name, c := range logs {
		t.Run(name, func(t *testing.T) {
			log := writeTemp(t, "access.log", c.log)
			code, r, stderr := auditJSON(t, "", append(c.args, "--robots", robots, log)...)
			if r.Format != name || r.Unparsed != 0 {
				t.Fatalf("format %q unparsed %d (%s)", r.Format, r.Unparsed, stderr)
			}
			gb := crawlerOf(r, "Googlebot")
			if name == "common" {
				// No User-Agent: no crawler, nothing to flag.
				if code != 0 || gb != nil || r.Requests != 1 {
					t.Errorf("exit %d, %+v", code, r)
				}
				return
			}
			if code != 1 || gb == nil || gb.Disallowed != 1 || gb.TopDisallowed[0].Line != 2 {
				t.Errorf("exit %d, Googlebot %+v", code, gb)
			}
			// The format named explicitly reads the same.
			code2, r2, _ := auditJSON(t, "", append(c.args, "--format", name, "--robots", robots, log)...)
			if code2 != code || r2.Disallowed != r.Disallowed {
				t.Errorf("--format %s: exit %d, %d disallowed", name, code2, r2.Disallowed)
			}
		})
	}
}

// TestAuditJSONContract: the names the issue makes a contract.
func TestAuditJSONContract(t *testing.T) {
	robots := writeTemp(t, "robots.txt", auditRobo)
	log := writeTemp(t, "a.log", auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB))
	_, out, _ := runCmd(t, "", "audit", "--json", "--dns=false", "--robots", robots, log)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"lines", "unparsed", "crawlers", "spoofers", "versions"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	c := m["crawlers"].([]any)[0].(map[string]any)
	for _, k := range []string{"crawler", "requests", "disallowed", "verified", "spoofed", "unverified", "top_disallowed", "first_seen", "last_seen"} {
		if _, ok := c[k]; !ok {
			t.Errorf("no %q in a crawler: %v", k, c)
		}
	}
}

// TestAuditVersionInForce: a request before the edit is judged by the
// old file, one after by the new.
func TestAuditVersionInForce(t *testing.T) {
	old := writeTemp(t, "old.txt", "User-agent: *\nDisallow: /old/\n")
	cur := writeTemp(t, "new.txt", "User-agent: *\nDisallow: /new/\n")
	log := writeTemp(t, "a.log",
		auditLine("66.249.66.1", "10/Nov/2026:11:59:00 +0000", "/old/x", auditGB)+ // old: disallowed
			auditLine("66.249.66.1", "10/Nov/2026:11:59:30 +0000", "/new/x", auditGB)+ // old: allowed
			auditLine("66.249.66.1", "10/Nov/2026:12:00:30 +0000", "/old/y", auditGB)+ // new: allowed
			auditLine("66.249.66.1", "10/Nov/2026:12:01:00 +0000", "/new/y", auditGB)) // new: disallowed
	code, r, stderr := auditJSON(t, "", "--robots", "2026-11-01="+old, "--robots", "2026-11-10T12:00:00Z="+cur, log)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	gb := crawlerOf(r, "Googlebot")
	paths := map[string]string{}
	for _, p := range gb.TopDisallowed {
		paths[p.Path] = p.Source
	}
	if gb.Disallowed != 2 || paths["/old/x"] != old || paths["/new/y"] != cur || len(paths) != 2 {
		t.Errorf("disallowed %d: %v", gb.Disallowed, paths)
	}
	// Today's file alone would have flagged /new/x and missed /old/x.
	_, r2, _ := auditJSON(t, "", "--robots", cur, log)
	if p := crawlerOf(r2, "Googlebot").TopDisallowed; len(p) != 2 || p[0].Path != "/new/x" && p[1].Path != "/new/x" {
		t.Errorf("one version: %+v", p)
	}
	for _, bad := range [][]string{
		{"--robots", old, "--robots", cur}, // two without a time
		{"--robots", "2026-13-45=" + old},  // not a time
		{"--robots", filepath.Join(t.TempDir(), "none.txt")},
		{}, // no robots.txt at all
	} {
		if code, _, stderr := runCmd(t, "", append(append([]string{"audit", "--dns=false"}, bad...), log)...); code != 2 || !strings.HasPrefix(stderr, "robotstxt audit: ") {
			t.Errorf("%v: exit %d, %q", bad, code, stderr)
		}
	}
}

// TestAuditHistory: --origin --store reads the versions the service's
// history holds, each with its time.
func TestAuditHistory(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "cache.db")
	st, err := storeopen.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	origin := "https://example.com"
	type ver struct {
		FetchedAt string `json:"fetched_at"`
		Status    int    `json:"status"`
		Policy    string `json:"policy"`
		Size      int    `json:"size"`
		Hash      string `json:"hash"`
	}
	var list []ver
	ctx := context.Background()
	for _, v := range []struct{ at, body string }{
		{"2026-11-01T00:00:00Z", "User-agent: *\nDisallow: /old/\n"},
		{"2026-11-10T12:00:00Z", "User-agent: *\nDisallow: /new/\n"},
	} {
		sum := sha256.Sum256([]byte(v.body))
		h := hex.EncodeToString(sum[:])
		list = append(list, ver{v.at, 200, "rules", len(v.body), h})
		st.Put(ctx, "history-body "+origin+" "+h, []byte(v.body), 0)
	}
	b, _ := json.Marshal(list)
	st.Put(ctx, "history "+origin, b, 0)
	st.Close()
	log := writeTemp(t, "a.log",
		auditLine("66.249.66.1", "01/Oct/2026:00:00:00 +0000", "/old/a", auditGB)+ // before both: the oldest
			auditLine("66.249.66.1", "10/Nov/2026:11:00:00 +0000", "/new/a", auditGB)+
			auditLine("66.249.66.1", "10/Nov/2026:13:00:00 +0000", "/new/b", auditGB))
	code, r, stderr := auditJSON(t, "", "--origin", "example.com", "--store", dbPath, log)
	gb := crawlerOf(r, "Googlebot")
	if code != 1 || len(r.Versions) != 2 || gb == nil || gb.Disallowed != 2 || r.Versions[1].From != "2026-11-10T12:00:00Z" {
		t.Fatalf("exit %d (%s): versions %+v, Googlebot %+v", code, stderr, r.Versions, gb)
	}
	if code, _, stderr := runCmd(t, "", "audit", "--dns=false", "--origin", "https://other.example", "--store", dbPath, log); code != 2 || !strings.Contains(stderr, "no history") {
		t.Errorf("no history: exit %d, %q", code, stderr)
	}
}

// TestAuditLive: --origin alone fetches today's file, with a warning.
func TestAuditLive(t *testing.T) {
	site := robotsServer(t).URL
	log := writeTemp(t, "a.log", auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB))
	code, r, stderr := auditJSON(t, "", "--origin", site, log)
	if code != 1 || r.Disallowed != 1 || !strings.Contains(stderr, "warning: every request is judged by today's robots.txt") {
		t.Errorf("exit %d, %d disallowed, stderr %q", code, r.Disallowed, stderr)
	}
}

// auditDNS is a DNS server on loopback answering PTR, A and AAAA from
// tables, NXDOMAIN for the rest.
func auditDNS(t *testing.T, ptr map[string]string, fwd map[string][]string) string {
	t.Helper()
	rev := map[string]string{}
	for ip, n := range ptr {
		r, _ := dns.ReverseAddr(ip)
		rev[r] = n
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		m.Rcode = dns.RcodeNameError
		for _, qq := range q.Question {
			hdr := dns.RR_Header{Name: qq.Name, Rrtype: qq.Qtype, Class: dns.ClassINET, Ttl: 60}
			switch qq.Qtype {
			case dns.TypePTR:
				if n, ok := rev[qq.Name]; ok {
					m.Rcode = dns.RcodeSuccess
					m.Answer = append(m.Answer, &dns.PTR{Hdr: hdr, Ptr: n})
				}
			case dns.TypeA, dns.TypeAAAA:
				if addrs, ok := fwd[qq.Name]; ok {
					m.Rcode = dns.RcodeSuccess
					for _, a := range addrs {
						if ip := net.ParseIP(a); ip.To4() != nil && qq.Qtype == dns.TypeA {
							m.Answer = append(m.Answer, &dns.A{Hdr: hdr, A: ip.To4()})
						} else if ip.To4() == nil && qq.Qtype == dns.TypeAAAA {
							m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr, AAAA: ip})
						}
					}
				}
			}
		}
		w.WriteMsg(m)
	})
	srv := &dns.Server{PacketConn: pc, Handler: h}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	return pc.LocalAddr().String()
}

// TestAuditIdentity: each outcome, by DNS through a resolver on loopback
// and by a published address list.
func TestAuditIdentity(t *testing.T) {
	resolver := auditDNS(t, map[string]string{
		"66.249.66.1":  "crawl-66-249-66-1.googlebot.com.",
		"203.0.113.9":  "crawl-203-0-113-9.googlebot.com.", // claims googlebot.com
		"198.51.100.7": "host.example.net.",
	}, map[string][]string{
		"crawl-66-249-66-1.googlebot.com.": {"66.249.66.1"},
		"crawl-203-0-113-9.googlebot.com.": {"66.249.66.99"}, // does not confirm
		"host.example.net.":                {"198.51.100.7"},
	})
	robots := writeTemp(t, "robots.txt", auditRobo)
	ranges := writeTemp(t, "gptbot.json", `{"creationTime":"2026-11-20T00:00:00","prefixes":[{"ipv4Prefix":"20.171.206.0/24"},{"ipv6Prefix":"2603:1030:a::/48"}]}`)
	log := writeTemp(t, "a.log",
		auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB)+ // verified by DNS
			auditLine("66.249.66.1", "10/Nov/2026:12:00:01 +0000", "/a", auditGB)+
			auditLine("203.0.113.9", "10/Nov/2026:12:00:02 +0000", "/private/b", auditGB)+ // spoofed: forward does not confirm
			auditLine("198.51.100.7", "10/Nov/2026:12:00:03 +0000", "/a", auditGB)+ // spoofed: another domain
			auditLine("20.171.206.5", "10/Nov/2026:12:00:04 +0000", "/a", auditGPT)+ // verified by ranges
			auditLine("192.0.2.50", "10/Nov/2026:12:00:05 +0000", "/a", auditGPT)+ // spoofed: outside ranges
			auditLine("192.0.2.51", "10/Nov/2026:12:00:06 +0000", "/a", "ClaudeBot/1.0")) // unverified: no data
	code, out, stderr := runCmd(t, "", "audit", "--json", "--resolver", resolver, "--store", "memory", "--ip-ranges", "GPTBot="+ranges, "--robots", robots, log)
	var r audit.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d: %v %s", code, err, stderr)
	}
	gb, gpt, claude := crawlerOf(&r, "Googlebot"), crawlerOf(&r, "GPTBot"), crawlerOf(&r, "ClaudeBot")
	if gb.Verified != 2 || gb.Spoofed != 2 || gb.Unverified != 0 || gb.DisallowedSpoofed != 1 || gb.DisallowedVerified != 1 {
		t.Errorf("Googlebot: %+v", gb)
	}
	if gpt.Verified != 1 || gpt.Spoofed != 1 || claude.Unverified != 1 {
		t.Errorf("GPTBot %+v, ClaudeBot %+v", gpt, claude)
	}
	spoofers := map[string]string{}
	for _, s := range r.Spoofers {
		spoofers[s.IP] = s.Method + ": " + s.Reason
	}
	if !strings.Contains(spoofers["203.0.113.9"], "does not resolve back") || !strings.HasPrefix(spoofers["192.0.2.50"], "ip-ranges") || len(spoofers) != 3 {
		t.Errorf("spoofers: %v", spoofers)
	}
	if r.Verification.DNS.Lookups != 3 {
		t.Errorf("%d addresses looked up, want 3 (each once; GPTBot and ClaudeBot have no domains)", r.Verification.DNS.Lookups)
	}
	// The text report names the spoofers, in 80 columns.
	_, text, _ := runCmd(t, "", "audit", "--resolver", resolver, "--store", "memory", "--ip-ranges", "GPTBot="+ranges, "--robots", robots, log)
	if !strings.Contains(text, "203.0.113.9") || !strings.Contains(text, "Spoofed") {
		t.Errorf("text:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line over 80 columns: %q", l)
		}
	}
	if code, _, stderr := runCmd(t, "", "audit", "--ip-ranges", "NoSuchBot="+ranges, "--robots", robots, log); code != 2 || !strings.Contains(stderr, "unknown crawler") {
		t.Errorf("unknown crawler: %d %q", code, stderr)
	}
}

// TestAuditCompressedAndMalformed: .gz and .zst read as they are; bad
// lines counted and quoted, never fatal; standard input.
func TestAuditCompressedAndMalformed(t *testing.T) {
	plain := auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/a", auditGB) +
		"this is not a log line\n" + "\x1b[31mred\n" +
		auditLine("66.249.66.1", "10/Nov/2026:12:00:01 +0000", "/robots.txt", auditGB)
	var gz, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(plain))
	zw.Close()
	enc, _ := zstd.NewWriter(&zs)
	enc.Write([]byte(plain))
	enc.Close()
	robots := writeTemp(t, "robots.txt", auditRobo)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.log.gz"), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "a.log.zst"), zs.Bytes(), 0o644)
	for _, args := range [][]string{{filepath.Join(dir, "a.log.gz")}, {filepath.Join(dir, "a.log.zst")}, {"-"}} {
		code, r, stderr := auditJSON(t, plain, append([]string{"--robots", robots}, args...)...)
		gb := crawlerOf(r, "Googlebot")
		if code != 1 || r.Lines != 4 || r.Unparsed != 2 || len(r.UnparsedSamples) != 2 || gb.Disallowed != 1 || gb.RobotsTxt != 1 {
			t.Errorf("%v: exit %d (%s), %+v", args, code, stderr, r)
		}
	}
	// The terminal escape of a bad line is not written as it is.
	_, text, _ := runCmd(t, plain, "audit", "--dns=false", "--robots", robots, "-")
	if strings.Contains(text, "\x1b") {
		t.Errorf("an escape reached the terminal:\n%q", text)
	}
	// A damaged gzip stream is an error naming the file, exit 2.
	bad := filepath.Join(dir, "bad.log.gz")
	os.WriteFile(bad, gz.Bytes()[:len(gz.Bytes())/2], 0o644)
	if code, _, stderr := runCmd(t, "", "audit", "--dns=false", "--robots", robots, bad); code != 2 || !strings.Contains(stderr, "bad.log.gz") {
		t.Errorf("damaged gzip: exit %d, %q", code, stderr)
	}
}

// TestAuditCSV: a row a crawler, path and spoofer.
func TestAuditCSV(t *testing.T) {
	robots := writeTemp(t, "robots.txt", auditRobo)
	log := writeTemp(t, "a.log", auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/=cmd", auditGB))
	code, out, _ := runCmd(t, "", "audit", "--csv", "--dns=false", "--robots", robots, log)
	rows := strings.Split(strings.TrimSpace(out), "\r\n")
	if code != 1 || len(rows) != 3 || !strings.HasPrefix(rows[0], "record,crawler,requests,disallowed") || !strings.HasPrefix(rows[2], "path,Googlebot,1,1") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestAuditLarge: a generated log read in bounded memory, in a process
// of its own so that its peak RSS is its own. The size is -audit.bytes
// (40 MB by default; 1e9 for the 1 GB case).
func TestAuditLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("a large generated log")
	}
	dir := t.TempDir()
	logPath := filepath.Join(dir, "access.log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := loggen.Write(f, int64(*auditBytes), 1)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	robots := writeTemp(t, "robots.txt", loggen.Robots)
	cmd := exec.Command(os.Args[0], "audit", "--json", "--dns=false", "--unknown-bots", "--robots", robots, logPath)
	cmd.Env = append(os.Environ(), "ROBOTSTXT_RUN_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v", err)
	}
	var r audit.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Lines != lines || r.Unparsed != 0 || len(r.Crawlers) < 8 {
		t.Errorf("%d lines of %d, %d unparsed, %d crawlers", r.Lines, lines, r.Unparsed, len(r.Crawlers))
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB
	t.Logf("%d lines (%d bytes): peak RSS %d MiB", lines, int64(*auditBytes), rss>>20)
	// The bound holds whatever the log's size: the state is bounded
	// (package audit's limits), the log is streamed.
	if rss > 256<<20 {
		t.Errorf("peak RSS %d MiB, want at most 256 MiB", rss>>20)
	}
}

// TestAuditProgress: on a terminal, a bar of the bytes read, on stderr;
// --quiet, none.
func TestAuditProgress(t *testing.T) {
	auditIsTerminal = func(io.Writer) bool { return true }
	t.Cleanup(func() { auditIsTerminal = func(w io.Writer) bool { return isTerminal(w) } })
	robots := writeTemp(t, "robots.txt", auditRobo)
	log := writeTemp(t, "a.log", auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/a", auditGB))
	code, out, stderr := runCmd(t, "", "audit", "--dns=false", "--robots", robots, log)
	if code != 0 || !strings.Contains(stderr, "1/1 "+log) || !strings.Contains(stderr, "100%") || strings.Contains(out, "100%") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, _, stderr := runCmd(t, "", "audit", "--quiet", "--dns=false", "--robots", robots, log); stderr != "" {
		t.Errorf("--quiet: stderr %q", stderr)
	}
}

// TestAuditRangesURL: an address list fetched from a URL; a URL no
// crawler of the catalogue publishes needs a name.
func TestAuditRangesURL(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"prefixes":[{"ipv4Prefix":"66.249.64.0/19"}]}`))
	}))
	defer srv.Close()
	robots := writeTemp(t, "robots.txt", auditRobo)
	log := writeTemp(t, "a.log", auditLine("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/a", auditGB)+
		auditLine("203.0.113.9", "10/Nov/2026:12:00:01 +0000", "/a", auditGB)+
		auditLine("66.249.66.2", "10/Nov/2026:12:00:02 +0000", "/a", "Googlebot-Image/1.0"))
	store := filepath.Join(t.TempDir(), "cache.db")
	for range 2 {
		code, r, stderr := auditJSON(t, "", "--store", store, "--ip-ranges", "Googlebot="+srv.URL+"/googlebot.json", "--robots", robots, log)
		gb, img := crawlerOf(r, "Googlebot"), crawlerOf(r, "Googlebot-Image")
		if code != 0 || gb.Verified != 1 || gb.Spoofed != 1 || img.Verified != 1 {
			t.Fatalf("exit %d (%s): Googlebot %+v, Googlebot-Image %+v", code, stderr, gb, img)
		}
	}
	if hits.Load() != 1 {
		t.Errorf("the list was fetched %d times in two runs sharing a store, want 1", hits.Load())
	}
	if code, _, stderr := runCmd(t, "", "audit", "--dns=false", "--ip-ranges", srv.URL+"/x.json", "--robots", robots, log); code != 2 || !strings.Contains(stderr, "name one") {
		t.Errorf("a bare URL of no crawler: exit %d, %q", code, stderr)
	}
}

// TestAuditBomb: a zstd log that decompresses to 256 MiB of newlines
// from a few hundred KB (issue 34: 4 GiB in 132 KB ran audit past 120 s)
// stops within seconds, exit 2, with an error that says why.
func TestAuditBomb(t *testing.T) {
	robots := writeTemp(t, "robots.txt", auditRobo)
	var buf bytes.Buffer
	z, err := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Repeat([]byte{'\n'}, 1<<20)
	for range 256 {
		z.Write(line)
	}
	z.Close()
	log := writeTemp(t, "bomb.log.zst", buf.String())
	start := time.Now()
	code, _, stderr := runCmd(t, "", "audit", "--dns=false", "--quiet", "--robots", robots, log)
	took := time.Since(start)
	t.Logf("%d bytes: exit %d in %v: %s", buf.Len(), code, took.Round(time.Millisecond), strings.TrimSpace(stderr))
	if code != 2 || !strings.Contains(stderr, "decompression bomb") || !strings.Contains(stderr, "bomb.log.zst") {
		t.Errorf("exit %d, stderr %q; want 2 and the file named as a decompression bomb", code, stderr)
	}
	if took > 20*time.Second {
		t.Errorf("took %v to stop", took)
	}
}

// TestAuditDNSBudget: 300 Googlebot claims from distinct addresses, a
// resolver on loopback that never answers, --dns-budget 1s: the audit ends
// within seconds (without it, 300 x 3 s / 16: about a minute), every claim
// unverified, the addresses not looked up counted in the JSON and said in
// the text.
func TestAuditDNSBudget(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
		}
	}()
	robots := writeTemp(t, "robots.txt", auditRobo)
	var b strings.Builder
	for i := range 300 {
		b.WriteString(auditLine(fmt.Sprintf("66.249.%d.%d", i/250, i%250+1), "10/Nov/2026:12:00:00 +0000", "/a", auditGB))
	}
	log := writeTemp(t, "access.log", b.String())
	start := time.Now()
	_, out, stderr := runCmd(t, "", "audit", "--json", "--resolver", pc.LocalAddr().String(), "--store", "memory", "--dns-budget", "1s", "--robots", robots, log)
	took := time.Since(start)
	var rep audit.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s %s", err, out, stderr)
	}
	r := &rep
	d := r.Verification.DNS
	t.Logf("%v: %+v", took.Round(time.Millisecond), d)
	if took > 15*time.Second {
		t.Errorf("the audit took %v with a 1 s DNS budget", took)
	}
	gb := crawlerOf(r, "Googlebot")
	if gb == nil || gb.Unverified != 300 || d.Skipped == 0 || d.Skipped+d.Lookups != d.Addresses {
		t.Fatalf("Googlebot %+v, DNS %+v (%s)", gb, d, stderr)
	}
	_, text, _ := runCmd(t, "", "audit", "--resolver", pc.LocalAddr().String(), "--store", "memory", "--dns-budget", "1s", "--robots", robots, log)
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "not looked up: the DNS budget (--dns-budget) was spent") {
		t.Errorf("the text does not say the budget was spent:\n%s", text)
	}
}
