package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/tester"
)

// hostileCheck is the body of issue 25's request: urls URLs of ulen bytes
// asked about for agents agents.
func hostileCheck(urls, ulen, agents int, robots string) string {
	u := make([]string, urls)
	for i := range u {
		p := fmt.Sprintf("https://example.com/private/%d/", i)
		u[i] = p + strings.Repeat("a", max(0, ulen-len(p)))
	}
	a := make([]string, agents)
	for i := range a {
		a[i] = fmt.Sprintf("Bot%c%c", 'a'+i%26, 'a'+i/26)
	}
	b, _ := json.Marshal(map[string]any{"robots": robots, "urls": u, "agents": a})
	return string(b)
}

// TestHostileCheckRefused: issue 25's 1.6 MB check (2,000 URLs of 800
// bytes, 256 agents) asked for a 961 MB answer and got it; now it is
// refused at once, naming the limit, and so are its compare and diff.
func TestHostileCheckRefused(t *testing.T) {
	ts := newTestServer(t, nil)
	body := hostileCheck(2000, 800, 256, "User-agent: *\nDisallow: /private/\n")
	r := post(t, ts.URL+"/v1/check", body)
	r.wantError(t, 413, "urls")
	if msg := r.json(t)["error"].(string); !strings.Contains(msg, "512000 questions") || !strings.Contains(msg, "--max-questions") {
		t.Errorf("the error does not name the limit: %s", msg)
	}
	post(t, ts.URL+"/v1/compare", body).wantError(t, 413, "urls")
	post(t, ts.URL+"/v1/diff", strings.Replace(body, `"robots":`, `"old":"","new":`, 1)).wantError(t, 413, "urls")
}

// TestQuestionsLimit: MaxQuestions counts URLs x subjects for a check,
// x 7 readings for a compare, x 2 files for a diff; the limit itself is
// answered.
func TestQuestionsLimit(t *testing.T) {
	ts := newTestServer(t, &Options{MaxQuestions: 14})
	body := func(urls, agents int) string {
		return hostileCheck(urls, 30, agents, "User-agent: *\nDisallow: /private/\n")
	}
	for _, c := range []struct {
		route        string
		urls, agents int
		want         int
	}{
		{"check", 7, 2, 200},
		{"check", 5, 3, 413},
		{"check", 14, 0, 200}, // Googlebot
		{"check", 15, 0, 413},
		{"compare", 2, 1, 200},
		{"compare", 3, 1, 413},
		{"diff", 7, 1, 200},
		{"diff", 5, 2, 413},
	} {
		b := body(c.urls, c.agents)
		if c.route == "diff" {
			b = strings.Replace(b, `"robots":`, `"old":"","new":`, 1)
		}
		if r := post(t, ts.URL+"/v1/"+c.route, b); r.status != c.want {
			t.Errorf("%s of %d URLs x %d agents: %d, want %d: %.300s", c.route, c.urls, c.agents, r.status, c.want, r.body)
		}
	}
}

// manyMatches is a file whose every rule matches every URL: a check's
// result lists them all, so a small request gets a large answer that no
// estimate before the work sees.
func manyMatches(rules int) string {
	return "User-agent: *\n" + strings.Repeat("Disallow: /\n", rules)
}

// TestAnswerBytesLimit: an answer estimated past MaxAnswerBytes is refused
// before any work; one found past it while written is refused if nothing
// was sent yet, and cut, the connection broken, if a part was.
func TestAnswerBytesLimit(t *testing.T) {
	ts := newTestServer(t, &Options{MaxAnswerBytes: 3 << 20})
	r := post(t, ts.URL+"/v1/check", hostileCheck(2000, 800, 1, "User-agent: *\n"))
	r.wantError(t, 413, "urls")
	if msg := r.json(t)["error"].(string); !strings.Contains(msg, "--max-answer-bytes") {
		t.Errorf("%s", msg)
	}
	// 4,000 matches of about 60 bytes a result: 240 KB each.
	robots := manyMatches(4000)
	one := hostileCheck(1, 30, 0, robots)
	if r := post(t, ts.URL+"/v1/check", one); r.status != 200 {
		t.Fatalf("one URL: %d %.300s", r.status, r.body)
	}
	// Past the limit within the first buffer: refused.
	small := newTestServer(t, &Options{MaxAnswerBytes: 300 << 10})
	post(t, small.URL+"/v1/check", hostileCheck(2, 30, 0, robots)).wantError(t, 413, "")
	// Past it after the first buffer went out: the answer is cut and the
	// connection broken, so that no client takes the part for the whole.
	resp, err := http.Post(ts.URL+"/v1/check", "application/json", strings.NewReader(hostileCheck(40, 30, 0, robots)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || err == nil || n > 3<<20 {
		t.Errorf("status %d, %d bytes read, error %v: want a cut answer, at most the limit", resp.StatusCode, n, err)
	}
	// The other routes: measured when built.
	lint := newTestServer(t, &Options{MaxAnswerBytes: 64 << 10})
	b, _ := json.Marshal(map[string]any{"robots": strings.Repeat("Disalow: /a\n", 1000)})
	post(t, lint.URL+"/v1/lint", string(b)).wantError(t, 413, "")
}

// TestWriteCheckStops: the writer of a check stops at the deadline:
// before anything is sent, with the deadline's error and nothing written;
// after, with the part written and started set (the caller breaks the
// connection).
func TestWriteCheckStops(t *testing.T) {
	src := tester.NewSource("robots", []byte(manyMatches(2000)))
	urls := make([]string, 400)
	for i := range urls {
		urls[i] = fmt.Sprintf("/p/%d", i)
	}
	req := &tester.CheckRequest{Source: src, URLs: urls}
	for _, c := range []struct {
		after   int // the calls to expired before it reports true
		started bool
	}{{0, false}, {5, true}} {
		calls := 0
		w := httptest.NewRecorder()
		started, err := writeCheck(w, &checkStream{req: req}, nil, 1<<40, func() bool { calls++; return calls > c.after })
		if !errors.Is(err, context.DeadlineExceeded) || started != c.started || (w.Body.Len() > 0) != c.started {
			t.Errorf("expired after %d calls: started %v, %v, %d bytes written", c.after, started, err, w.Body.Len())
		}
	}
	// The same source answers again: nothing was left locked.
	if _, err := writeCheck(httptest.NewRecorder(), &checkStream{req: req}, nil, 1<<40, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
}

// TestInFlightLimit: a request holds its memory while it runs; one that
// cannot get it waits, for at most half its deadline, then gets 503 with
// Retry-After; one that needs more than the whole gets 413.
func TestInFlightLimit(t *testing.T) {
	e := &fakeEngine{block: make(chan struct{}), started: make(chan struct{})}
	ts := newTestServer(t, &Options{Engine: e, RequestTimeout: 400 * time.Millisecond})
	body := `{"robots": "User-agent: *", "urls": ["/"]}`
	ts.admit = &admission{bodies: newPool(bodyWeight(int64(len(body))) + 1000), work: newPool(1 << 30)} // one body
	first := make(chan reply, 1)
	go func() { first <- post(t, ts.URL+"/v1/check", body) }()
	<-e.started
	r := post(t, ts.URL+"/v1/lint", `{"robots": ""}`)
	r.wantError(t, 503, "")
	if r.header.Get("Retry-After") == "" || !strings.Contains(r.json(t)["error"].(string), "--max-inflight-bytes") {
		t.Errorf("503 without Retry-After or the limit's name: %v %s", r.header, r.body)
	}
	close(e.block)
	if r := <-first; r.status != 200 {
		t.Errorf("the first request: %d %s", r.status, r.body)
	}
	if r := post(t, ts.URL+"/v1/lint", `{"robots": ""}`); r.status != 200 {
		t.Errorf("after the first finished: %d %s", r.status, r.body)
	}
	if n := ts.admit.bodies.held.Load() + ts.admit.work.held.Load(); n != 0 {
		t.Errorf("%d bytes still held", n)
	}

	// A waiting request goes on when the memory is given back.
	e2 := &fakeEngine{block: make(chan struct{}), started: make(chan struct{})}
	ts2 := newTestServer(t, &Options{Engine: e2, RequestTimeout: time.Minute})
	ts2.admit = &admission{bodies: newPool(bodyWeight(int64(len(body))) + 1000), work: newPool(1 << 30)}
	go func() { first <- post(t, ts2.URL+"/v1/check", body) }()
	<-e2.started
	second := make(chan reply, 1)
	go func() { second <- post(t, ts2.URL+"/v1/lint", `{"robots": ""}`) }()
	for ts2.admit.bodies.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(e2.block)
	if r := <-second; r.status != 200 {
		t.Errorf("the waiting request: %d %s", r.status, r.body)
	}
	<-first

	// More than the whole: 413 at once.
	ts.admit = &admission{bodies: newPool(1 << 10), work: newPool(1 << 30)}
	r = post(t, ts.URL+"/v1/lint", `{"robots": ""}`)
	r.wantError(t, 413, "")
	if !strings.Contains(r.json(t)["error"].(string), "--max-inflight-bytes") {
		t.Errorf("%s", r.body)
	}
}

// TestInFlightNoHoldAndWait: requests waiting for the memory of their work
// hold their bodies' but never work's, so that the one admitted finishes
// and the others follow (with one semaphore for both, requests holding
// bodies while waiting could starve the head of the queue until they all
// timed out).
func TestInFlightNoHoldAndWait(t *testing.T) {
	e := &fakeEngine{lintGate: make(chan struct{})}
	ts := newTestServer(t, &Options{Engine: e, RequestTimeout: time.Minute})
	body := `{"robots": ""}`
	work := lintCost(&LintInput{}).memory
	ts.admit = &admission{bodies: newPool(3 * bodyWeight(int64(len(body)))), work: newPool(work)}
	done := make(chan reply, 3)
	for range 3 {
		go func() { done <- post(t, ts.URL+"/v1/lint", body) }()
	}
	for ts.admit.work.waiting.Load() != 2 {
		time.Sleep(time.Millisecond)
	}
	close(e.lintGate)
	for range 3 {
		if r := <-done; r.status != 200 {
			t.Errorf("%d %s", r.status, r.body)
		}
	}
}

// allowRules is a file of n allow rules under a group that names many
// crawlers: a diff derives a few probe URLs from each rule, and lists a
// change for every row that reads the group, for every probe.
func allowRules(n int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range n {
		fmt.Fprintf(&b, "Allow: /p%d/*/x\n", i)
	}
	return b.String()
}

// TestDerivedDiffBounded: a diff that derives its URLs is bounded by the
// tester's questions, but lists a change for every row of a reading: it may
// name at most MaxDerivedDiffRows crawlers and agents (256 agents made a
// 33 KB request hold 1.4 GB), and it holds the memory its worst case
// needs, at most all of the work's.
func TestDerivedDiffBounded(t *testing.T) {
	ts := newTestServer(t, nil)
	agents := make([]string, MaxDerivedDiffRows+1)
	for i := range agents {
		agents[i] = fmt.Sprintf("Bot%c", 'a'+i)
	}
	body := func(agents []string, urls []string) string {
		m := map[string]any{"old": "User-agent: *\nDisallow: /\n", "new": allowRules(200), "agents": agents}
		if urls != nil {
			m["urls"] = urls
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	r := post(t, ts.URL+"/v1/diff", body(agents, nil))
	r.wantError(t, 413, "urls")
	if msg := r.json(t)["error"].(string); !strings.Contains(msg, fmt.Sprint(MaxDerivedDiffRows)) {
		t.Errorf("%s", msg)
	}
	if r := post(t, ts.URL+"/v1/diff", body(agents[:MaxDerivedDiffRows], nil)); r.status != 200 {
		t.Errorf("%d rows: %d %.300s", MaxDerivedDiffRows, r.status, r.body)
	}
	if r := post(t, ts.URL+"/v1/diff", body(agents, []string{"/p1/a/x", "/q"})); r.status != 200 {
		t.Errorf("with urls: %d %.300s", r.status, r.body)
	}

	// The memory held: the worst case of the files, at most the whole.
	in := func(newFile string, agents []string) *DiffInput {
		return &DiffInput{Old: []byte("User-agent: *\nDisallow: /\n"), New: []byte(newFile), Agents: agents}
	}
	small := ts.diffCost(in("User-agent: *\nAllow: /a\n", agents[:MaxDerivedDiffRows]))
	large := ts.diffCost(in(allowRules(3000), agents[:MaxDerivedDiffRows]))
	all := ts.diffCost(in(allowRules(3000), nil)) // the 41 rows of the default set
	if small.memory > 4<<20 || large.memory < 100<<20 || large.memory >= ts.admit.work.capacity || all.memory != ts.admit.work.capacity {
		t.Errorf("derived diffs hold %d (a small file), %d (3,000 rules, 16 rows) and %d (41 rows; want all, %d)", small.memory, large.memory, all.memory, ts.admit.work.capacity)
	}
}
