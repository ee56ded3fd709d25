package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bulkSite is a site on loopback: its robots.txt disallows /private to
// every crawler and everything to Bingbot; with slow set, it answers only
// once released. It counts its robots.txt requests.
type bulkSite struct {
	*httptest.Server
	robots  atomic.Int64
	asked   chan struct{} // a robots.txt request came (capacity 1)
	release chan struct{}
	once    sync.Once
}

func newBulkSite(t *testing.T, slow bool, robots string) *bulkSite {
	s := &bulkSite{asked: make(chan struct{}, 1), release: make(chan struct{})}
	if !slow {
		s.free()
	}
	if robots == "" {
		robots = "User-agent: *\nDisallow: /private\n\nUser-agent: Bingbot\nDisallow: /\n"
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s.robots.Add(1)
		select {
		case s.asked <- struct{}{}:
		default:
		}
		select {
		case <-s.release:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, robots)
	}))
	t.Cleanup(func() {
		s.free()
		s.CloseClientConnections()
		s.Close()
	})
	return s
}

// free lets a slow site answer.
func (s *bulkSite) free() { s.once.Do(func() { close(s.release) }) }

type bulkLine struct {
	InputLine *int   `json:"input_line"`
	URL       string `json:"url"`
	ID        *int   `json:"id"`
	Crawler   string `json:"crawler"`
	Agent     string `json:"agent"`
	Allowed   *bool  `json:"allowed"`
	Line      int    `json:"line"`
	Rule      string `json:"rule"`
	Origin    string `json:"origin"`
	Policy    string `json:"policy"`
	Source    string `json:"source"`
	Error     string `json:"error"`
}

func bulkLines(t *testing.T, body []byte) []bulkLine {
	t.Helper()
	var out []bulkLine
	for i, l := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
		var b bulkLine
		if err := json.Unmarshal([]byte(l), &b); err != nil {
			t.Fatalf("answer line %d is not JSON: %v: %q", i+1, err, l)
		}
		out = append(out, b)
	}
	return out
}

// TestBulkLocalSite: a frontier on a site on loopback, as one JSON object:
// every URL for every crawler in input order, the answer JSON Lines; the
// site's robots.txt fetched once for two requests (the server's cache).
func TestBulkLocalSite(t *testing.T) {
	site := newBulkSite(t, false, "")
	ts := newTestServer(t, &Options{AllowPrivate: true})
	urls := []string{site.URL + "/", site.URL + "/private/a", "example.com/no-scheme", site.URL + "/b?q=1"}
	body, _ := json.Marshal(BulkRequest{URLs: urls, Crawlers: []string{"Googlebot", "bingbot"}, Agents: []string{"MyBot"}})
	for run := range 2 {
		r := post(t, ts.URL+"/v1/bulk", string(body))
		if r.status != 200 || r.header.Get("Content-Type") != "application/x-ndjson" {
			t.Fatalf("run %d: %d %s: %s", run, r.status, r.header.Get("Content-Type"), r.body)
		}
		lines := bulkLines(t, r.body)
		if len(lines) != 3*len(urls) {
			t.Fatalf("run %d: %d lines for %d URLs x 3:\n%s", run, len(lines), len(urls), r.body)
		}
		for i, l := range lines {
			u, who := urls[i/3], []string{"Googlebot", "Bingbot", "MyBot"}[i%3]
			if l.URL != u || l.Crawler+l.Agent != who {
				t.Fatalf("line %d is %s for %s, want %s for %s (input order)", i+1, l.URL, l.Crawler+l.Agent, u, who)
			}
			if u == "example.com/no-scheme" {
				if l.Allowed != nil || !strings.Contains(l.Error, "not an absolute URL") {
					t.Errorf("line %d: %+v, want an error", i+1, l)
				}
				continue
			}
			want := who != "Bingbot" && !strings.Contains(u, "/private")
			source := "cache"
			if run == 0 && i < 3 { // the first URL's results, one a subject
				source = "network"
			}
			if l.Allowed == nil || *l.Allowed != want || l.Policy != "rules" || l.Origin != site.URL || l.Source != source {
				t.Errorf("run %d line %d: %+v; want allowed %v, source %s", run, i+1, l, want, source)
			}
		}
	}
	if n := site.robots.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times for two requests, want once (the server's cache)", n)
	}
	if n := ts.admit.bodies.held.Load() + ts.admit.work.held.Load(); n != 0 {
		t.Errorf("%d bytes still held after the answers", n)
	}
}

// TestBulkGuard: the origins are fetched through the server's guard: a
// site on loopback is not reached unless private addresses are allowed.
func TestBulkGuard(t *testing.T) {
	site := newBulkSite(t, false, "")
	ts := newTestServer(t, nil)
	r := post(t, ts.URL+"/v1/bulk", fmt.Sprintf(`{"urls": [%q]}`, site.URL+"/a"))
	if r.status != 200 {
		t.Fatalf("%d: %s", r.status, r.body)
	}
	l := bulkLines(t, r.body)
	if len(l) != 1 || l[0].Policy == "rules" || site.robots.Load() != 0 {
		t.Errorf("the loopback site was asked %d times; answer %s", site.robots.Load(), r.body)
	}
}

// TestBulkJSONLines: a body of JSON Lines, the input of robotstxt bulk,
// with the options in the query: the members of each line copied to its
// results, in any order with each line's number.
func TestBulkJSONLines(t *testing.T) {
	site := newBulkSite(t, false, "")
	ts := newTestServer(t, &Options{AllowPrivate: true})
	var body strings.Builder
	for i := range 5 {
		fmt.Fprintf(&body, "{\"url\": %q, \"id\": %d}\n", fmt.Sprintf("%s/private/%d", site.URL, i), i)
	}
	body.WriteString("# a comment\n\n" + site.URL + "/plain\n")
	r := post(t, ts.URL+"/v1/bulk?crawlers=Googlebot,Bingbot&order=any&dialect=rfc9309", body.String())
	if r.status != 200 {
		t.Fatalf("%d: %s", r.status, r.body)
	}
	lines := bulkLines(t, r.body)
	if len(lines) != 12 {
		t.Fatalf("%d lines, want 12:\n%s", len(lines), r.body)
	}
	seen := map[string]int{}
	for _, l := range lines {
		seen[l.URL]++
		if l.InputLine == nil || l.Allowed == nil {
			t.Fatalf("line %+v: no input_line or verdict", l)
		}
		if strings.Contains(l.URL, "/private/") {
			if l.ID == nil || *l.InputLine != *l.ID+1 || *l.Allowed {
				t.Errorf("line %+v: id not copied, or wrong line, or allowed", l)
			}
		} else if *l.InputLine != 8 || l.ID != nil || *l.Allowed != (l.Crawler == "Googlebot") {
			t.Errorf("plain line %+v", l)
		}
	}
	if len(seen) != 6 {
		t.Errorf("URLs answered: %v", seen)
	}
}

// TestBulkBadRequests: options and bodies refused, each naming its field.
func TestBulkBadRequests(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, tc := range []struct {
		query, body, field string
		status             int
	}{
		{"", `{"urls": []}`, "urls", 400},
		{"", `{"urls": ["http://a.test/"], "crawlers": ["Googlebott"]}`, "crawlers[0]", 400},
		{"", `{"urls": ["http://a.test/"], "order": "random"}`, "order", 400},
		{"", `{"urls": ["http://a.test/"], "dialect": "gogle"}`, "dialect", 400},
		{"", `{"urls": ["http://a.test/"], "agents": [""]}`, "agents[0]", 400},
		{"", `{"urlz": ["http://a.test/"]}`, "urlz", 400},
		{"", `http://a.test/`, "", 400},
		{"?crawlers=Googlebot", `{"urls": ["http://a.test/"]}`, "crawlers", 400},
		{"?usage=maybe", `{"url": "http://a.test/"}`, "usage", 400},
		{"?limit=3", `{"url": "http://a.test/"}`, "limit", 400},
		{"?crawlers=Nobot", `{"url": "http://a.test/"}`, "crawlers[0]", 400},
	} {
		r := post(t, ts.URL+"/v1/bulk"+tc.query, tc.body)
		r.wantError(t, tc.status, tc.field)
	}
	r := post(t, ts.URL+"/v1/bulk", `{"url": "http://a.test/"}`, "Content-Type", "text/plain")
	r.wantError(t, 415, "")
}

// TestBulkNDJSONContentType: a frontier sent as what it is, JSON Lines
// (curl --data-binary @frontier.jsonl -H 'Content-Type:
// application/x-ndjson'), is read as the JSON Lines body it is.
func TestBulkNDJSONContentType(t *testing.T) {
	site := newBulkSite(t, false, "")
	ts := newTestServer(t, &Options{AllowPrivate: true})
	body := fmt.Sprintf("{\"url\": %q}\n{\"url\": %q}\n", site.URL+"/private/a", site.URL+"/b")
	for _, ct := range []string{"application/x-ndjson", "application/jsonl"} {
		r := post(t, ts.URL+"/v1/bulk?crawlers=Googlebot", body, "Content-Type", ct)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", ct, r.status, r.body)
		}
		lines := bulkLines(t, r.body)
		if len(lines) != 2 || lines[0].Allowed == nil || *lines[0].Allowed || lines[1].Allowed == nil || !*lines[1].Allowed {
			t.Errorf("%s: %s", ct, r.body)
		}
	}
}

// TestBulkLimits: the questions, the answer's bytes, the body's and the
// memory in flight are bounded, with the answers the other routes give.
func TestBulkLimits(t *testing.T) {
	urls := make([]string, 6)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://s%d.test/", i)
	}
	body, _ := json.Marshal(BulkRequest{URLs: urls, Crawlers: []string{"Googlebot", "Bingbot"}})
	ts := newTestServer(t, &Options{MaxQuestions: 10})
	r := post(t, ts.URL+"/v1/bulk", string(body))
	r.wantError(t, 413, "urls")
	if !strings.Contains(r.json(t)["error"].(string), "12 questions (6 URLs x 2 crawlers") {
		t.Errorf("413: %s", r.body)
	}
	r = post(t, ts.URL+"/v1/bulk?crawlers=Googlebot,Bingbot", strings.Repeat("{\"url\": \"http://a.test/\"}\n", 6))
	r.wantError(t, 413, "urls")

	ts = newTestServer(t, &Options{MaxAnswerBytes: 2000})
	post(t, ts.URL+"/v1/bulk", string(body)).wantError(t, 413, "urls")

	// An answer found past the limit as it is written: one result whose
	// rule is 20 KB (a wildcard run, matching a short URL), estimated at a
	// few hundred bytes.
	site := newBulkSite(t, false, "User-agent: *\nDisallow: /a"+strings.Repeat("*", 20_000)+"\n")
	ts = newTestServer(t, &Options{MaxAnswerBytes: 10_000, AllowPrivate: true})
	r = post(t, ts.URL+"/v1/bulk", fmt.Sprintf(`{"urls": [%q]}`, site.URL+"/a"))
	r.wantError(t, 413, "")
	if !strings.Contains(r.json(t)["error"].(string), "--max-answer-bytes") {
		t.Errorf("413: %s", r.body)
	}

	ts = newTestServer(t, nil)
	big := `{"urls": ["` + strings.Repeat("a", MaxBodyBytes) + `"]}`
	post(t, ts.URL+"/v1/bulk", big).wantError(t, 413, "")

	// Memory: more than the whole, 413; more than is free, 503 after a
	// wait, with Retry-After.
	ts = newTestServer(t, &Options{RequestTimeout: 400 * time.Millisecond})
	ts.admit = &admission{bodies: newPool(1 << 30), work: newPool(1 << 20)}
	r = post(t, ts.URL+"/v1/bulk", string(body))
	r.wantError(t, 413, "")
	if !strings.Contains(r.json(t)["error"].(string), "--max-inflight-bytes") {
		t.Errorf("413: %s", r.body)
	}
	ts.admit = &admission{bodies: newPool(1 << 30), work: newPool(1 << 30)}
	if err := ts.admit.work.sem.Acquire(context.Background(), 1<<30); err != nil {
		t.Fatal(err)
	}
	r = post(t, ts.URL+"/v1/bulk", string(body))
	ts.admit.work.sem.Release(1 << 30)
	r.wantError(t, 503, "")
	if r.header.Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After: %v", r.header)
	}
}

// TestBulkStreams: the answer is streamed: with order any, the results of
// a fast site reach the client while a slow site, asked first, has not
// answered; the slow one's come last.
func TestBulkStreams(t *testing.T) {
	slow, fast := newBulkSite(t, true, ""), newBulkSite(t, false, "")
	ts := newTestServer(t, &Options{AllowPrivate: true, RequestTimeout: 5 * time.Minute})
	urls := []string{slow.URL + "/private/x"}
	for i := range 300 {
		urls = append(urls, fmt.Sprintf("%s/p%d", fast.URL, i))
	}
	body, _ := json.Marshal(BulkRequest{URLs: urls, Order: "any"})
	req, _ := http.NewRequest("POST", ts.URL+"/v1/bulk", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// A watchdog: should the answer wait for the slow site, the test fails
	// instead of hanging.
	var held atomic.Bool
	watchdog := time.AfterFunc(60*time.Second, func() { held.Store(true); slow.free() })
	defer watchdog.Stop()
	sc := bufio.NewScanner(resp.Body)
	for i := range 300 {
		if !sc.Scan() {
			t.Fatalf("the answer ended after %d lines: %v", i, sc.Err())
		}
		var l bulkLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Origin != fast.URL {
			t.Fatalf("line %d: %v: %s", i+1, err, sc.Text())
		}
	}
	if held.Load() {
		t.Fatal("the fast site's results were held back until the slow one answered")
	}
	slow.free()
	if !sc.Scan() {
		t.Fatalf("no result for the slow site: %v", sc.Err())
	}
	var l bulkLine
	if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.URL != urls[0] || l.InputLine == nil || *l.InputLine != 1 || l.Allowed == nil || *l.Allowed {
		t.Errorf("last line: %v: %s", err, sc.Text())
	}
	if sc.Scan() {
		t.Errorf("more: %s", sc.Text())
	}
}

// TestBulkClientGone: a client that goes away stops the run: the request's
// memory is given back while the slow site it waits for has not answered.
func TestBulkClientGone(t *testing.T) {
	slow := newBulkSite(t, true, "")
	ts := newTestServer(t, &Options{AllowPrivate: true, RequestTimeout: 5 * time.Minute})
	body, _ := json.Marshal(BulkRequest{URLs: []string{slow.URL + "/a", slow.URL + "/b"}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/bulk", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-slow.asked // the run waits for the slow site
	if ts.admit.work.held.Load() == 0 {
		t.Fatal("the run holds no memory")
	}
	cancel()
	<-done
	deadline := time.Now().Add(60 * time.Second)
	for ts.admit.work.held.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the run went on after the client went away")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case <-slow.release:
		t.Fatal("the slow site answered: the run may have ended by itself")
	default:
	}
}

// TestBulkDeadline: at the request's deadline, an answer not started is a
// 504; one started is cut, the connection closed, so that the client
// does not take the part for the whole.
func TestBulkDeadline(t *testing.T) {
	slow, fast := newBulkSite(t, true, ""), newBulkSite(t, false, "")
	ts := newTestServer(t, &Options{AllowPrivate: true, RequestTimeout: time.Second})
	body, _ := json.Marshal(BulkRequest{URLs: []string{slow.URL + "/a", fast.URL + "/b"}})
	post(t, ts.URL+"/v1/bulk", string(body)).wantError(t, 504, "")

	body, _ = json.Marshal(BulkRequest{URLs: []string{fast.URL + "/a", slow.URL + "/b"}, Order: "any"})
	req, _ := http.NewRequest("POST", ts.URL+"/v1/bulk", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || err == nil || !strings.HasPrefix(string(got), `{"input_line":1,"url":"`+fast.URL) {
		t.Errorf("status %d, read error %v (want one: the answer cut), body %q", resp.StatusCode, err, got)
	}
}

// FuzzBulkInput reads any body and query as POST /v1/bulk does: an error
// is the client's (400 or 413, naming what is wrong), else the run's input
// has its subjects and a line a URL.
func FuzzBulkInput(f *testing.F) {
	for _, tc := range [][2]string{
		{`{"urls": ["http://a.test/", "#x", "{", " b ", "c\nd"]}`, ""},
		{`{"url": "http://a.test/", "id": 1}` + "\nhttp://b.test/\n", "crawlers=Googlebot,Bingbot&order=any"},
		{`{"urls": []}`, ""}, {`{"url": 5}`, "usage=1"}, {`[1,2]`, ""}, {"", "crawlers=,"}, {`{"urls": ["\u2028"]}`, "x=y"},
	} {
		f.Add(tc[0], tc[1])
	}
	s, err := New(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body, query string) {
		r := httptest.NewRequest("POST", "/v1/bulk?"+url.PathEscape(query), strings.NewReader(body))
		r.URL.RawQuery = query
		in, e := s.bulkInput(httptest.NewRecorder(), r)
		if e != nil {
			if e.Status != 400 && e.Status != 413 || e.Message == "" {
				t.Fatalf("error %d %q", e.Status, e.Message)
			}
			return
		}
		if len(in.subjects) == 0 || in.urls < 0 || in.urls > strings.Count(string(in.body), "\n")+1 {
			t.Fatalf("input of %d subjects, %d URLs, body %q", len(in.subjects), in.urls, in.body)
		}
	})
}
