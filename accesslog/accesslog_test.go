package accesslog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

const (
	combinedLine = `66.249.66.1 - - [10/Nov/2026:13:55:36 +0100] "GET /private/a?x=1 HTTP/1.1" 200 2326 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	commonLine   = `203.0.113.7 - frank [10/Nov/2026:13:55:36 -0700] "POST /login HTTP/1.0" 302 -`
	jsonLine     = `{"time":"2026-11-10T12:55:36Z","remote_addr":"2001:db8::1","request":"GET /a%20b HTTP/2.0","status":"404","http_user_agent":"GPTBot/1.2 \"quoted\" \u00e9"}`
	cfLine       = `{"ClientIP":"192.0.2.9","ClientRequestHost":"example.com","ClientRequestMethod":"GET","ClientRequestURI":"/x?y","ClientRequestUserAgent":"bingbot/2.0","EdgeResponseStatus":200,"EdgeStartTimestamp":1794315336000000000,"RequestHeaders":{"signature-agent":"\"https://chatgpt.com\""}}`
)

func parse(t *testing.T, f Format, fields *FieldMap, line string) Entry {
	t.Helper()
	p, err := NewParser(f, fields)
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	if err := p.Parse([]byte(line), &e); err != nil {
		t.Fatalf("%v: %q: %v", f, line, err)
	}
	return e
}

func TestFormats(t *testing.T) {
	want := time.Date(2026, 11, 10, 12, 55, 36, 0, time.UTC)
	cases := []struct {
		name                   string
		f                      Format
		line                   string
		ip, method, target, ua string
		status                 int
		t                      time.Time
	}{
		{"combined", Combined, combinedLine, "66.249.66.1", "GET", "/private/a?x=1", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 200, want},
		{"common", Common, commonLine, "203.0.113.7", "POST", "/login", "", 302, time.Date(2026, 11, 10, 20, 55, 36, 0, time.UTC)},
		{"common with agent", Combined, `203.0.113.7 - - [10/Nov/2026:12:55:36 +0000] "GET / HTTP/1.1" 200 5 "curl/8.5"`, "203.0.113.7", "GET", "/", "curl/8.5", 200, want},
		{"nginx escapes", Combined, `10.0.0.1 - - [10/Nov/2026:12:55:36 +0000] "GET /q?a=\"b\" HTTP/1.1" 200 5 "-" "x \"y\" z" "extra"`, "10.0.0.1", "GET", `/q?a=\"b\"`, `x \"y\" z`, 200, want},
		{"json", JSON, jsonLine, "2001:db8::1", "GET", "/a%20b", `GPTBot/1.2 "quoted" é`, 404, want},
		{"cloudflare", Cloudflare, cfLine, "192.0.2.9", "GET", "/x?y", "bingbot/2.0", 200, want},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := parse(t, c.f, nil, c.line)
			if string(e.IP) != c.ip || string(e.Method) != c.method || string(e.Target) != c.target || string(e.UserAgent) != c.ua || e.Status != c.status || !e.Time.Equal(c.t) {
				t.Errorf("got ip %q method %q target %q ua %q status %d time %v", e.IP, e.Method, e.Target, e.UserAgent, e.Status, e.Time)
			}
		})
	}
	e := parse(t, Cloudflare, nil, cfLine)
	if string(e.SignatureAgent) != `"https://chatgpt.com"` || string(e.Host) != "example.com" {
		t.Errorf("cloudflare: signature agent %q host %q", e.SignatureAgent, e.Host)
	}
}

func TestFieldMap(t *testing.T) {
	m, err := ParseFieldMap("ip=client,ua=agent_string,time=when,path=u")
	if err != nil {
		t.Fatal(err)
	}
	e := parse(t, JSON, m, `{"client":"192.0.2.1","ip":"10.0.0.1","agent_string":"CCBot/2.0","when":1794315336.5,"u":"/a","nested":{"x":[1,{"y":"}"}]}}`)
	if string(e.IP) != "192.0.2.1" || string(e.UserAgent) != "CCBot/2.0" || string(e.Target) != "/a" || e.Time.UnixMilli() != 1794315336500 {
		t.Errorf("got %q %q %q %v", e.IP, e.UserAgent, e.Target, e.Time)
	}
	for _, bad := range []string{"ip", "nosuch=x", "ip="} {
		if _, err := ParseFieldMap(bad); err == nil {
			t.Errorf("ParseFieldMap(%q): no error", bad)
		}
	}
}

func TestMalformed(t *testing.T) {
	p, _ := NewParser(Combined, nil)
	var e Entry
	for _, line := range []string{
		"garbage", `1.2.3.4 - - [99/Foo/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1`,
		`1.2.3.4 - - [10/Nov/2026:12:55:36 +0000] "GET / HTTP/1.1`, `1.2.3.4 - - [10/Nov/2026:12:55:36 +0000] "GET /" abc`,
		"1.2.3.4 - - [10/Nov/2026", "\x00\xff[]\"\"",
	} {
		if err := p.Parse([]byte(line), &e); !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: err %v, want ErrMalformed", line, err)
		}
	}
	if err := p.Parse([]byte("  \r"), &e); err != ErrEmpty {
		t.Errorf("blank: %v", err)
	}
	j, _ := NewParser(JSON, nil)
	for _, line := range []string{`{"ip":"1.2.3.4"`, `["a"]`, `{"ip":}`, `{"a":1}`, `{"ip":"x\`} {
		if err := j.Parse([]byte(line), &e); !errors.Is(err, ErrMalformed) {
			t.Errorf("json %q: err %v, want ErrMalformed", line, err)
		}
	}
}

func TestParseNoAllocs(t *testing.T) {
	p, _ := NewParser(Combined, nil)
	line := []byte(combinedLine)
	var e Entry
	if n := testing.AllocsPerRun(100, func() { _ = p.Parse(line, &e) }); n != 0 {
		t.Errorf("combined: %v allocations a line, want 0", n)
	}
	j, _ := NewParser(JSON, nil)
	jl := []byte(jsonLine)
	if n := testing.AllocsPerRun(100, func() { _ = j.Parse(jl, &e) }); n != 0 {
		t.Errorf("json: %v allocations a line, want 0", n)
	}
}

func TestDetect(t *testing.T) {
	for want, lines := range map[Format][]string{
		Combined:   {combinedLine, "junk", combinedLine},
		Common:     {commonLine},
		JSON:       {jsonLine, ""},
		Cloudflare: {cfLine},
		Auto:       {"junk", ""},
	} {
		var bs [][]byte
		for _, l := range lines {
			bs = append(bs, []byte(l))
		}
		if got := Detect(bs); got != want {
			t.Errorf("Detect(%.30q...) = %v, want %v", lines[0], got, want)
		}
	}
	for _, n := range []string{"combined", "CLF", "jsonl", "Cloudflare"} {
		if _, err := ParseFormat(n); err != nil {
			t.Errorf("ParseFormat(%q): %v", n, err)
		}
	}
	if _, err := ParseFormat("w3c"); err == nil {
		t.Error("ParseFormat(w3c): no error")
	}
}

func TestCompressed(t *testing.T) {
	plain := combinedLine + "\n" + commonLine + "\n" + "last line without end"
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, plain)
	zw.Close()
	var zs bytes.Buffer
	enc, _ := zstd.NewWriter(&zs)
	io.WriteString(enc, plain)
	enc.Close()
	for name, data := range map[string][]byte{"a.log": []byte(plain), "a.log.gz": gz.Bytes(), "a.log.zst": zs.Bytes(), "misnamed.txt": gz.Bytes()} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		rc, err := Open(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := NewScanner(rc, 0)
		var got []string
		for s.Scan() {
			got = append(got, string(s.Bytes()))
		}
		rc.Close()
		if s.Err() != nil || strings.Join(got, "\n") != plain {
			t.Errorf("%s: read %q (err %v)", name, got, s.Err())
		}
	}
	// A truncated gzip stream is a read error, not a crash.
	rc, err := Open("-", bytes.NewReader(gz.Bytes()[:len(gz.Bytes())/2]))
	if err != nil {
		t.Fatal(err)
	}
	s := NewScanner(rc, 0)
	for s.Scan() {
	}
	if s.Err() == nil {
		t.Error("truncated gzip: no error")
	}
	if _, err := Open(filepath.Join(dir, "missing.log"), nil); err == nil {
		t.Error("missing file: no error")
	}
}

func TestLongLines(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 300) + "\nafter\n"
	s := NewScanner(strings.NewReader(in), 100)
	var got []string
	var long int
	for s.Scan() {
		if s.Long() {
			long++
			continue
		}
		got = append(got, string(s.Bytes()))
	}
	if long != 1 || strings.Join(got, ",") != "short,after" {
		t.Errorf("got %q and %d long", got, long)
	}
}

func FuzzParse(f *testing.F) {
	for _, l := range []string{combinedLine, commonLine, jsonLine, cfLine} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var e Entry
		for _, fm := range []Format{Combined, Common, JSON, Cloudflare} {
			p, _ := NewParser(fm, nil)
			_ = p.Parse([]byte(line), &e)
		}
		Detect([][]byte{[]byte(line)})
	})
}

// TestCloseEarly: closing a compressed log before its end stops the
// read-ahead (Close returns), and reads after it fail.
func TestCloseEarly(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for range 20000 {
		io.WriteString(zw, combinedLine+"\n")
	}
	zw.Close()
	rc, err := Decompress(bytes.NewReader(gz.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1000)
	if _, err := io.ReadFull(rc, buf); err != nil {
		t.Fatal(err)
	}
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := rc.Read(buf); err != nil {
			break
		}
	}
}
