package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// testServer is a Server behind an httptest server on loopback.
type testServer struct {
	*Server
	URL string
}

func newTestServer(t *testing.T, o *Options) *testServer {
	t.Helper()
	if o == nil {
		o = &Options{}
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return &testServer{Server: s, URL: hs.URL}
}

// reply is an answer: its status, headers and body.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

// wantError checks an error answer: its status and the field it names.
func (r reply) wantError(t *testing.T, status int, field string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	m := r.json(t)
	msg, _ := m["error"].(string)
	if msg == "" || strings.HasPrefix(msg, "server: ") || strings.Contains(msg, "tester: ") {
		t.Errorf("error %q: want a text with no Go package prefix", msg)
	}
	if got, _ := m["field"].(string); got != field {
		t.Errorf("field %q, want %q (error %q)", got, field, msg)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
}

func do(t *testing.T, method, u string, body io.Reader, header ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}
}

func get(t *testing.T, u string, header ...string) reply { return do(t, "GET", u, nil, header...) }

func post(t *testing.T, u, body string, header ...string) reply {
	return do(t, "POST", u, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, header...)...)
}

func TestHealthz(t *testing.T) {
	ts := newTestServer(t, nil)
	r := get(t, ts.URL+"/healthz")
	if r.status != 200 || r.json(t)["status"] != "ok" {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// failingStore answers every call with an error.
type failingStore struct{ store.Store }

func (failingStore) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errors.New("disk on fire")
}

func TestReadyz(t *testing.T) {
	ts := newTestServer(t, nil)
	r := get(t, ts.URL+"/readyz")
	if r.status != 200 || r.json(t)["status"] != "ready" || r.json(t)["store"] != "memory" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	bad := newTestServer(t, &Options{Store: failingStore{store.NewMemory(nil)}})
	r = get(t, bad.URL+"/readyz")
	if r.status != 503 || !strings.Contains(string(r.body), "disk on fire") {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

func TestPage(t *testing.T) {
	ts := newTestServer(t, nil)
	r := get(t, ts.URL+"/")
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !bytes.Contains(r.body, []byte("<html")) {
		t.Fatalf("%d %q %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	csp := r.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "*") || strings.Contains(csp, "http") {
		t.Errorf("CSP %q allows inline script or another origin", csp)
	}
	if r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers %v", r.header)
	}
	if r := get(t, ts.URL+"/nothing-here"); r.status != 404 {
		t.Errorf("/nothing-here: %d", r.status)
	}
	if r := post(t, ts.URL+"/healthz", "{}"); r.status != 405 {
		t.Errorf("POST /healthz: %d", r.status)
	}
}

func TestMetrics(t *testing.T) {
	origin := robotsSite(t, "User-agent: *\nDisallow: /x\n")
	ts := newTestServer(t, &Options{AllowPrivate: true})
	get(t, ts.URL+"/healthz")
	get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(origin.URL))
	get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(origin.URL))
	r := get(t, ts.URL+"/metrics")
	if r.status != 200 {
		t.Fatal(r.status)
	}
	for _, want := range []string{
		`robotstxt_http_requests_total{code="200",route="GET /healthz"} 1`,
		`robotstxt_http_request_duration_seconds_count{code="200",route="GET /v1/fetch"} 2`,
		`robotstxt_cache_hits_total 1`,
		`robotstxt_cache_misses_total 1`,
		`robotstxt_cache_stale_total 0`,
		`robotstxt_fetches_total{outcome="rules"} 1`,
		`robotstxt_store_errors_total{kind="io"} 0`,
		`robotstxt_store_degraded{store="memory"} 0`,
	} {
		if !bytes.Contains(r.body, []byte(want)) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// robotsSite is an origin on loopback serving body at /robots.txt.
func robotsSite(t *testing.T, body string) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(hs.Close)
	return hs
}

func TestFetch(t *testing.T) {
	origin := robotsSite(t, "User-agent: *\nDisallow: /private\n")
	ts := newTestServer(t, &Options{AllowPrivate: true})
	r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(origin.URL+"/some/page"))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	m := r.json(t)
	if m["origin"] != origin.URL || m["policy"] != "rules" || m["source"] != "network" || m["status"] != 200.0 ||
		m["robots_url"] != origin.URL+"/robots.txt" || m["dialect"] != "google" || m["store"] != "memory" || m["expires_at"] == "" {
		t.Errorf("%s", r.body)
	}
	if tr, _ := m["trace"].([]any); len(tr) != 1 {
		t.Errorf("trace %v", m["trace"])
	}
	r = get(t, ts.URL+"/v1/fetch?dialect=yandex&url="+url.QueryEscape(origin.URL))
	if m := r.json(t); m["dialect"] != "yandex" || m["source"] != "network" {
		t.Errorf("yandex: %s", r.body)
	}
	r = get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(origin.URL))
	if m := r.json(t); m["source"] != "cache" {
		t.Errorf("second fetch: %s", r.body)
	}
}

func TestFetchErrors(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct{ query, field string }{
		{"", "url"},
		{"url=", "url"},
		{"url=mailto:x@example.com", "url"},
		{"url=example.com&dialect=klingon", "dialect"},
		{"url=example.com&colour=red", "colour"},
		{"url=a.com&url=b.com", "url"},
	} {
		t.Run(c.query, func(t *testing.T) {
			get(t, ts.URL+"/v1/fetch?"+c.query).wantError(t, 400, c.field)
		})
	}
}

func TestAuth(t *testing.T) {
	ts := newTestServer(t, &Options{Token: "s3cret"})
	u := ts.URL + "/v1/fetch"
	r := get(t, u)
	r.wantError(t, 401, "")
	if r.header.Get("WWW-Authenticate") == "" {
		t.Error("no WWW-Authenticate")
	}
	if msg := r.json(t)["error"].(string); !strings.Contains(msg, "needs a bearer token") {
		t.Errorf("no token: %q", msg)
	}
	r = get(t, u, "Authorization", "Bearer wrong")
	r.wantError(t, 401, "")
	if msg := r.json(t)["error"].(string); !strings.Contains(msg, "not valid") || strings.Contains(msg, "needs") {
		t.Errorf("a wrong token: %q, want it to say the token is not valid", msg)
	}
	get(t, u, "Authorization", "s3cret").wantError(t, 401, "")
	get(t, u, "Authorization", "Basic s3cret").wantError(t, 401, "")
	get(t, u, "Authorization", "Bearer s3cretX").wantError(t, 401, "")
	post(t, ts.URL+"/v1/check", "{}").wantError(t, 401, "")
	// The token lets the request through to its own checks; the scheme's
	// name is case-insensitive (RFC 9110, 11.1).
	for _, h := range []string{"Bearer s3cret", "bearer s3cret", "BEARER s3cret", "Bearer   s3cret"} {
		get(t, u, "Authorization", h).wantError(t, 400, "url")
	}
	for _, open := range []string{"/healthz", "/readyz", "/", "/v1/openapi.json"} {
		if r := get(t, ts.URL+open); r.status != 200 {
			t.Errorf("%s: %d without a token", open, r.status)
		}
	}
	off := newTestServer(t, nil)
	get(t, off.URL+"/v1/fetch").wantError(t, 400, "url")
}

// TestAuthMetricsAndReadyz: with a token set, /metrics needs it (a scraper
// sends it as any client does), and /readyz says only whether the server
// is ready unless it is given; without a token set both are open.
func TestAuthMetricsAndReadyz(t *testing.T) {
	ts := newTestServer(t, &Options{Token: "s3cret"})
	get(t, ts.URL+"/metrics").wantError(t, 401, "")
	if r := get(t, ts.URL+"/metrics", "Authorization", "Bearer s3cret"); r.status != 200 || !bytes.Contains(r.body, []byte("robotstxt_store_degraded")) {
		t.Errorf("metrics with the token: %d %.200s", r.status, r.body)
	}
	r := get(t, ts.URL+"/readyz")
	if m := r.json(t); r.status != 200 || m["status"] != "ready" || len(m) != 1 {
		t.Errorf("readyz without the token names more than its state: %d %s", r.status, r.body)
	}
	r = get(t, ts.URL+"/readyz", "Authorization", "Bearer s3cret")
	if m := r.json(t); r.status != 200 || m["store"] != "memory" {
		t.Errorf("readyz with the token: %d %s", r.status, r.body)
	}
	get(t, ts.URL+"/readyz", "Authorization", "Bearer wrong").wantError(t, 401, "")
	bad := newTestServer(t, &Options{Token: "s3cret", Store: failingStore{store.NewMemory(nil)}})
	r = get(t, bad.URL+"/readyz")
	if m := r.json(t); r.status != 503 || m["status"] != "unavailable" || len(m) != 1 {
		t.Errorf("an unready server without the token: %d %s", r.status, r.body)
	}

	open := newTestServer(t, nil)
	if r := get(t, open.URL+"/metrics"); r.status != 200 {
		t.Errorf("metrics without a token set: %d", r.status)
	}
}

// TestAuthFailuresLimited: wrong tokens are limited per client: past
// AuthFailureBurst of them, every request bearing a token (the right one
// too, so that guessing learns nothing) gets 429 until the bucket refills;
// a request with no token is still told it needs one.
func TestAuthFailuresLimited(t *testing.T) {
	clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	ts := newTestServer(t, &Options{Token: "s3cret", Now: clk.Now, Rate: -1})
	u := ts.URL + "/v1/fetch"
	for i := range AuthFailureBurst {
		if r := get(t, u, "Authorization", fmt.Sprintf("Bearer guess%d", i)); r.status != 401 {
			t.Fatalf("guess %d: %d %s", i, r.status, r.body)
		}
	}
	r := get(t, u, "Authorization", "Bearer guess-again")
	r.wantError(t, 429, "")
	if r.header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	get(t, u, "Authorization", "Bearer s3cret").wantError(t, 429, "")
	get(t, ts.URL+"/metrics", "Authorization", "Bearer s3cret").wantError(t, 429, "")
	get(t, u).wantError(t, 401, "")
	clk.Add(AuthFailureEvery)
	get(t, u, "Authorization", "Bearer s3cret").wantError(t, 400, "url")
}

func TestRateLimit(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ts := newTestServer(t, &Options{Rate: 1, Burst: 2, Now: clock})
	u := ts.URL + "/v1/fetch"
	get(t, u).wantError(t, 400, "url")
	get(t, u).wantError(t, 400, "url")
	r := get(t, u)
	r.wantError(t, 429, "")
	if r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	if r := get(t, ts.URL+"/healthz"); r.status != 200 {
		t.Errorf("healthz limited: %d", r.status)
	}
	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	get(t, u).wantError(t, 400, "url")

	off := newTestServer(t, &Options{Rate: -1, Burst: 1})
	for range 5 {
		get(t, off.URL+"/v1/fetch").wantError(t, 400, "url")
	}
}

func TestLimiterBounded(t *testing.T) {
	l := newLimiter(1, 1, 3)
	now := time.Now()
	for i := range 10 {
		l.allow(netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}), now)
	}
	if l.len() != 3 {
		t.Fatalf("%d clients remembered, want 3", l.len())
	}
	// The most recent clients are kept: 192.0.2.9 is still limited.
	if ok, _ := l.allow(netip.AddrFrom4([4]byte{192, 0, 2, 9}), now); ok {
		t.Error("a remembered client got a second request")
	}
	// One IPv6 /64 is one client.
	a, b := netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	l.allow(a, now)
	if ok, _ := l.allow(b, now); ok {
		t.Error("two addresses of one /64 counted apart")
	}
}

// fakeEngine records its inputs and answers with a fixed object.
type fakeEngine struct {
	mu       sync.Mutex
	check    *CheckInput
	lint     *LintInput
	compare  *CompareInput
	diff     *DiffInput
	ai       *AIInput
	policy   *PolicyInput
	err      error
	block    chan struct{} // when set, Check waits for it or the deadline
	started  chan struct{}
	lintGate chan struct{} // when set, Lint waits for it
}

func (e *fakeEngine) Check(ctx context.Context, in *CheckInput) (any, error) {
	e.mu.Lock()
	e.check = in
	e.mu.Unlock()
	if e.block != nil {
		if e.started != nil {
			close(e.started)
		}
		select {
		case <-e.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return map[string]any{"results": []any{}}, e.err
}

func (e *fakeEngine) Lint(ctx context.Context, in *LintInput) (any, error) {
	if e.lintGate != nil {
		<-e.lintGate
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lint = in
	return map[string]any{"findings": []any{}}, e.err
}

func (e *fakeEngine) Compare(ctx context.Context, in *CompareInput) (any, error) {
	e.compare = in
	return map[string]any{"rows": []any{}}, e.err
}

func (e *fakeEngine) Diff(ctx context.Context, in *DiffInput) (any, error) {
	e.diff = in
	return map[string]any{"changes": []any{}}, e.err
}

func (e *fakeEngine) AI(ctx context.Context, in *AIInput) (any, error) {
	e.ai = in
	return map[string]any{"crawlers": []any{}}, e.err
}

func (e *fakeEngine) Policy(ctx context.Context, in *PolicyInput) (any, error) {
	e.policy = in
	return map[string]any{"body": ""}, e.err
}

// TestDefaultEngine: a server with no Engine answers the four POST routes
// with the tester's objects (the 501 of an unwired build is gone), and
// validation still comes first.
func TestDefaultEngine(t *testing.T) {
	ts := newTestServer(t, nil)
	for route, c := range map[string]struct{ body, member string }{
		"check":   {`{"robots": "User-agent: *\nDisallow: /", "urls": ["/a"]}`, "results"},
		"lint":    {`{"robots": "User-agent: *"}`, "findings"},
		"compare": {`{"robots": "User-agent: *\nDisallow: /a"}`, "rows"},
		"diff":    {`{"old": "", "new": "Disallow: /"}`, "changes"},
	} {
		r := post(t, ts.URL+"/v1/"+route, c.body)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", route, r.status, r.body)
		}
		if _, ok := r.json(t)[c.member]; !ok {
			t.Errorf("%s: no %q in %s", route, c.member, r.body)
		}
		// Validation comes first.
		post(t, ts.URL+"/v1/"+route, `{"bogus": 1}`).wantError(t, 400, "bogus")
	}
}

func TestCheckValidation(t *testing.T) {
	e := &fakeEngine{}
	ts := newTestServer(t, &Options{Engine: e})
	u := ts.URL + "/v1/check"
	many := `"/a"` + strings.Repeat(`,"/a"`, MaxURLs)
	for _, c := range []struct {
		name, body string
		status     int
		field      string
	}{
		{"unknown field", `{"robots": "", "urls": ["/"], "colour": "red"}`, 400, "colour"},
		{"wrong type", `{"robots": "", "urls": "/"}`, 400, "urls"},
		{"wrong item type", `{"robots": "", "urls": [1]}`, 400, "urls"},
		{"robots a number", `{"robots": 5, "urls": ["/"]}`, 400, "robots"},
		{"not an object", `["/"]`, 400, ""},
		{"not JSON", `{"robots": `, 400, ""},
		{"syntax", `{"robots" "x"}`, 400, ""},
		{"empty", ``, 400, ""},
		{"two values", `{"robots": "", "urls": ["/"]} {}`, 400, ""},
		{"neither", `{"urls": ["/"]}`, 400, "robots"},
		{"both", `{"robots": "", "origin": "example.com", "urls": ["/"]}`, 400, "origin"},
		{"bad origin", `{"origin": "mailto:x@y", "urls": ["/"]}`, 400, "origin"},
		{"long host", `{"origin": "https://` + strings.Repeat("a.", 130) + `com", "urls": ["/"]}`, 400, "origin"},
		{"long label", `{"origin": "https://` + strings.Repeat("a", 64) + `.com", "urls": ["/"]}`, 400, "origin"},
		{"no urls", `{"robots": ""}`, 400, "urls"},
		{"empty urls", `{"robots": "", "urls": []}`, 400, "urls"},
		{"too many urls", `{"robots": "", "urls": [` + many + `]}`, 400, "urls"},
		{"empty url", `{"robots": "", "urls": ["/", ""]}`, 400, "urls[1]"},
		{"relative url", `{"robots": "", "urls": ["/", "a/b"]}`, 400, "urls[1]"},
		{"control url", `{"robots": "", "urls": ["/a\u0000"]}`, 400, "urls[0]"},
		{"long url", `{"robots": "", "urls": ["/` + strings.Repeat("a", MaxURLBytes) + `"]}`, 400, "urls[0]"},
		{"unknown crawler", `{"robots": "", "urls": ["/"], "crawlers": ["Googlebot", "Nobot"]}`, 400, "crawlers[1]"},
		{"empty agent", `{"robots": "", "urls": ["/"], "agents": [" "]}`, 400, "agents[0]"},
		{"bad dialect", `{"robots": "", "urls": ["/"], "dialect": "klingon"}`, 400, "dialect"},
	} {
		t.Run(c.name, func(t *testing.T) {
			post(t, u, c.body).wantError(t, c.status, c.field)
		})
	}
	do(t, "POST", u, strings.NewReader(`{}`), "Content-Type", "text/plain").wantError(t, 415, "")
	big := `{"robots": "` + strings.Repeat("a", MaxBodyBytes) + `", "urls": ["/"]}`
	post(t, u, big).wantError(t, 413, "")
	if e.check != nil {
		t.Fatal("the engine saw an invalid request")
	}

	r := post(t, u, `{"robots": "User-agent: *\nDisallow: /", "urls": ["/a", "https://example.com/b"], "crawlers": ["Googlebot"], "agents": ["MyBot"], "dialect": "yandex"}`)
	if r.status != 200 || string(r.body) != `{"results":[]}`+"\n" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	in := e.check
	if string(in.Robots) != "User-agent: *\nDisallow: /" || in.Live != nil || in.Truncated || len(in.URLs) != 2 ||
		len(in.Crawlers) != 1 || in.Crawlers[0].Name != "Googlebot" || in.Agents[0] != "MyBot" || in.Dialect.String() != "yandex" {
		t.Errorf("engine got %+v", in)
	}
	// The limit itself is accepted.
	if r := post(t, u, `{"robots": "", "urls": [`+many[5:]+`]}`); r.status != 200 || len(e.check.URLs) != MaxURLs {
		t.Errorf("%d URLs: %d %s", MaxURLs, r.status, r.body)
	}
}

func TestCheckTruncated(t *testing.T) {
	e := &fakeEngine{}
	ts := newTestServer(t, &Options{Engine: e})
	body, _ := json.Marshal(map[string]any{"robots": strings.Repeat("#", 600<<10), "urls": []string{"/"}})
	r := post(t, ts.URL+"/v1/check", string(body))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	notes, _ := r.json(t)["size_notes"].([]any)
	if len(notes) != 1 || !strings.Contains(notes[0].(string), "614400 bytes") || !strings.Contains(notes[0].(string), "first 512000") {
		t.Errorf("notes %v", notes)
	}
	if !e.check.Truncated || len(e.check.Robots) != 600<<10 {
		t.Errorf("engine got truncated=%v, %d bytes", e.check.Truncated, len(e.check.Robots))
	}
	if _, ok := r.json(t)["results"]; !ok {
		t.Error("the engine's answer is lost")
	}
}

func TestCheckOrigin(t *testing.T) {
	site := robotsSite(t, "User-agent: *\nDisallow: /p\n")
	e := &fakeEngine{}
	ts := newTestServer(t, &Options{Engine: e, AllowPrivate: true})
	r := post(t, ts.URL+"/v1/check", `{"origin": "`+site.URL+`/x", "urls": ["/p"]}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if e.check.Live == nil || e.check.Live.Origin.String() != site.URL || e.check.Robots != nil {
		t.Fatalf("engine got %+v", e.check)
	}
	a, info, err := e.check.Live.Answer(context.Background(), 0)
	if err != nil || a.Robots == nil || info.Policy != "rules" || info.Bytes != len("User-agent: *\nDisallow: /p\n") {
		t.Errorf("%v %+v %v", a, info, err)
	}
}

func TestOtherValidation(t *testing.T) {
	e := &fakeEngine{}
	ts := newTestServer(t, &Options{Engine: e})
	for _, c := range []struct {
		route, body string
		field       string
	}{
		{"lint", `{}`, "robots"},
		{"lint", `{"robots": "", "disable": [""]}`, "disable[0]"},
		{"lint", `{"robots": "", "disable": "L001"}`, "disable"},
		{"compare", `{"robots": "", "urls": ["x"]}`, "urls[0]"},
		{"compare", `{"robots": "", "crawlers": ["Nobot"]}`, "crawlers[0]"},
		{"compare", `{"robots": "", "dialect": "google"}`, "dialect"},
		{"diff", `{"new": ""}`, "old"},
		{"diff", `{"old": ""}`, "new"},
		{"diff", `{"old": "", "new": "", "robots": ""}`, "robots"},
		{"diff", `{"old": "", "new": "", "dialect": "x"}`, "dialect"},
		{"diff", `{"old": "", "new": "", "agents": [1]}`, "agents"},
	} {
		t.Run(c.route+" "+c.body, func(t *testing.T) {
			post(t, ts.URL+"/v1/"+c.route, c.body).wantError(t, 400, c.field)
		})
	}
	if r := post(t, ts.URL+"/v1/lint", `{"robots": "Disalow: /", "disable": ["L001"]}`); r.status != 200 || e.lint.Disable[0] != "L001" {
		t.Errorf("lint: %d %s", r.status, r.body)
	}
	if r := post(t, ts.URL+"/v1/compare", `{"robots": "", "urls": ["/a"], "agents": ["x"]}`); r.status != 200 || e.compare.URLs[0] != "/a" {
		t.Errorf("compare: %d %s", r.status, r.body)
	}
	big := strings.Repeat("#", 501<<10)
	r := post(t, ts.URL+"/v1/diff", `{"old": "Disallow: /", "new": "`+big+`", "dialect": "bing"}`)
	if r.status != 200 || string(e.diff.Old) != "Disallow: /" || !e.diff.NewTruncated || e.diff.OldTruncated {
		t.Errorf("diff: %d %s", r.status, r.body)
	}
	if notes, _ := r.json(t)["size_notes"].([]any); len(notes) != 1 || !strings.HasPrefix(notes[0].(string), "new is") {
		t.Errorf("diff notes %v", notes)
	}
}

func TestEngineErrors(t *testing.T) {
	e := &fakeEngine{err: errors.New("tester: boom")}
	ts := newTestServer(t, &Options{Engine: e})
	post(t, ts.URL+"/v1/lint", `{"robots": ""}`).wantError(t, 500, "")
	e.err = &Error{Status: 422, Message: "server: urls[0]: not on the origin", Field: "urls[0]"}
	post(t, ts.URL+"/v1/lint", `{"robots": ""}`).wantError(t, 422, "urls[0]")
}

func TestDeadline(t *testing.T) {
	e := &fakeEngine{block: make(chan struct{})}
	ts := newTestServer(t, &Options{Engine: e, RequestTimeout: 50 * time.Millisecond})
	post(t, ts.URL+"/v1/check", `{"robots": "", "urls": ["/"]}`).wantError(t, 504, "")
}

func TestShutdownFinishesInFlight(t *testing.T) {
	e := &fakeEngine{block: make(chan struct{}), started: make(chan struct{})}
	s, err := New(&Options{Engine: e})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	u := "http://" + ln.Addr().String()
	answered := make(chan reply, 1)
	go func() { answered <- post(t, u+"/v1/check", `{"robots": "", "urls": ["/"]}`) }()
	<-e.started
	cancel()
	select {
	case err := <-served:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	// New connections are refused while the old request finishes.
	if c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		c.Close()
		t.Error("a new connection was accepted after shutdown began")
	}
	close(e.block)
	if r := <-answered; r.status != 200 {
		t.Errorf("in-flight request: %d %s", r.status, r.body)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestHistory(t *testing.T) {
	var body atomic.Value
	body.Store("User-agent: *\nDisallow:\n")
	var status atomic.Int32
	status.Store(200)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(int(status.Load()))
		io.WriteString(w, body.Load().(string))
	}))
	defer site.Close()
	clk := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	mem := store.NewMemory(nil)
	ts := newTestServer(t, &Options{AllowPrivate: true, Now: clk.Now, Store: mem})
	fetchNow := func() {
		t.Helper()
		if r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL)); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		clk.Add(25 * time.Hour) // past the copy's freshness
	}
	history := func() HistoryAnswer {
		t.Helper()
		r := get(t, ts.URL+"/v1/history?origin="+url.QueryEscape(site.URL))
		if r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		var h HistoryAnswer
		json.Unmarshal(r.body, &h)
		return h
	}
	if h := history(); len(h.Versions) != 0 || h.Origin != site.URL {
		t.Fatalf("before any fetch: %+v", h)
	}
	fetchNow()
	fetchNow() // the same body: no new version
	body.Store("User-agent: *\nDisallow: /\n")
	fetchNow()
	h := history()
	if len(h.Versions) != 2 {
		t.Fatalf("%d versions, want 2: %+v", len(h.Versions), h)
	}
	newest := h.Versions[0]
	if newest.Size != len("User-agent: *\nDisallow: /\n") || newest.Status != 200 || newest.Policy != "rules" ||
		newest.FetchedAt != "2026-03-03T14:00:00Z" || newest.Hash != hashOf([]byte("User-agent: *\nDisallow: /\n")) {
		t.Errorf("newest %+v", newest)
	}
	r := get(t, ts.URL+"/v1/history/version?origin="+url.QueryEscape(site.URL)+"&hash="+h.Versions[1].Hash)
	if r.status != 200 || r.json(t)["body"] != "User-agent: *\nDisallow:\n" || r.json(t)["fetched_at"] != "2026-03-01T12:00:00Z" {
		t.Errorf("version: %d %s", r.status, r.body)
	}
	// A 404 is a version too: the file disappeared.
	status.Store(404)
	fetchNow()
	if h := history(); len(h.Versions) != 3 || h.Versions[0].Policy != "allow-all" || h.Versions[0].Size != 0 {
		t.Errorf("after a 404: %+v", h.Versions)
	}
	status.Store(200)

	// At most MaxVersions are kept, and the bodies of the others go.
	first := h.Versions[1].Hash
	for i := range MaxVersions + 2 {
		body.Store(fmt.Sprintf("User-agent: *\nDisallow: /%d\n", i))
		fetchNow()
	}
	h = history()
	if len(h.Versions) != MaxVersions {
		t.Errorf("%d versions kept, want %d", len(h.Versions), MaxVersions)
	}
	o, _ := parseOrigin(site.URL)
	if _, ok, _ := mem.Get(context.Background(), bodyKey(o, first)); ok {
		t.Error("the body of a dropped version is still stored")
	}
	get(t, ts.URL+"/v1/history/version?origin="+url.QueryEscape(site.URL)+"&hash="+first).wantError(t, 404, "hash")
}

func TestHistoryErrors(t *testing.T) {
	ts := newTestServer(t, nil)
	get(t, ts.URL+"/v1/history").wantError(t, 400, "origin")
	get(t, ts.URL+"/v1/history?origin=mailto:x").wantError(t, 400, "origin")
	get(t, ts.URL+"/v1/history?origin=example.com&x=1").wantError(t, 400, "x")
	get(t, ts.URL+"/v1/history/version?origin=example.com").wantError(t, 400, "hash")
	get(t, ts.URL+"/v1/history/version?origin=example.com&hash=zz").wantError(t, 400, "hash")
	get(t, ts.URL+"/v1/history/version?hash="+strings.Repeat("a", 64)).wantError(t, 400, "origin")
	get(t, ts.URL+"/v1/history/version?origin=example.com&hash="+strings.Repeat("a", 64)).wantError(t, 404, "hash")
}

// TestURLSchemeCase: schemes are case-insensitive (RFC 3986, 3.1), as the
// CLI reads them: HTTP://EXAMPLE.COM/a is a URL to answer.
func TestURLSchemeCase(t *testing.T) {
	ts := newTestServer(t, nil)
	urls := []string{"HTTP://EXAMPLE.COM/private/a", "Https://example.com/private/b", "FTP://example.com/private/c", "hTtP://example.com/open"}
	body, _ := json.Marshal(map[string]any{"robots": "User-agent: *\nDisallow: /private\n", "urls": urls})
	for _, route := range []string{"check", "compare", "diff"} {
		b := string(body)
		if route == "diff" {
			b = strings.Replace(b, `"robots":`, `"old":"","new":`, 1)
		}
		r := post(t, ts.URL+"/v1/"+route, b)
		if r.status != 200 {
			t.Errorf("%s: %d %s", route, r.status, r.body)
		}
	}
	var rep struct {
		Allowed, Blocked int
	}
	r := post(t, ts.URL+"/v1/check", string(body))
	if err := json.Unmarshal(r.body, &rep); err != nil || rep.Blocked != 3 || rep.Allowed != 1 {
		t.Errorf("%+v %v: %s", rep, err, r.body)
	}
	post(t, ts.URL+"/v1/check", `{"robots": "", "urls": ["HTTPS:/x"]}`).wantError(t, 400, "urls[0]")
	post(t, ts.URL+"/v1/check", `{"robots": "", "urls": ["mailto://x"]}`).wantError(t, 400, "urls[0]")
}

// TestHasControl: the eight-bytes-at-a-time search for control characters
// agrees with a byte loop, for every byte at every offset.
func TestHasControl(t *testing.T) {
	slow := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] == 0x7f {
				return true
			}
		}
		return false
	}
	base := []byte("https://example.com/a/b?c=d\u00e9\u2028x")
	for c := range 256 {
		for at := range len(base) {
			b := append([]byte{}, base...)
			b[at] = byte(c)
			for start := range 9 {
				s := string(b[start:])
				if got, want := hasControl(s), slow(s); got != want {
					t.Fatalf("%q: %v, want %v", s, got, want)
				}
			}
		}
	}
}

// TestMissesAreJSON: every answer under /v1/ is JSON, a route that does
// not exist and a method a route does not take too.
func TestMissesAreJSON(t *testing.T) {
	ts := newTestServer(t, &Options{Engine: &fakeEngine{}})
	r := get(t, ts.URL+"/v1/nope")
	r.wantError(t, 404, "")
	if msg, _ := r.json(t)["error"].(string); !strings.Contains(msg, "/v1/nope") {
		t.Errorf("404 error %q", msg)
	}
	r = get(t, ts.URL+"/v1/check")
	r.wantError(t, 405, "")
	if allow := r.header.Get("Allow"); allow != "POST" {
		t.Errorf("405 Allow %q, want POST", allow)
	}
	if msg, _ := r.json(t)["error"].(string); msg != "/v1/check takes POST, not GET" {
		t.Errorf("405 error %q", msg)
	}
	// Outside /v1/ the mux answers as it does.
	if r := get(t, ts.URL+"/nope"); r.status != 404 || strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("/nope: %d %s", r.status, r.header.Get("Content-Type"))
	}
}

// TestUnknownFieldSuggests: a mistyped field names the one meant.
func TestUnknownFieldSuggests(t *testing.T) {
	ts := newTestServer(t, &Options{Engine: &fakeEngine{}})
	for _, c := range []struct{ route, body, field, want string }{
		{"check", `{"robots": "", "url": ["/"]}`, "url", `url: unknown field; did you mean "urls"?`},
		{"check", `{"robots": "", "urls": ["/"], "crawler": ["Googlebot"]}`, "crawler", `crawler: unknown field; did you mean "crawlers"?`},
		{"lint", `{"robot": ""}`, "robot", `robot: unknown field; did you mean "robots"?`},
		{"check", `{"robots": "", "urls": ["/"], "colour": 1}`, "colour", `colour: unknown field`},
	} {
		r := post(t, ts.URL+"/v1/"+c.route, c.body)
		r.wantError(t, 400, c.field)
		if msg, _ := r.json(t)["error"].(string); msg != c.want {
			t.Errorf("%s %s: error %q, want %q", c.route, c.body, msg, c.want)
		}
	}
}

// TestMaxConns: past MaxConns open connections, Serve accepts no more
// until one closes; /metrics counts them.
func TestMaxConns(t *testing.T) {
	s, err := New(&Options{Engine: &fakeEngine{}, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()
	addr := ln.Addr().String()
	// ask sends one request on c and reads its answer: all of it with
	// "Connection: close", else its first bytes.
	ask := func(c net.Conn, path, connection string) chan string {
		line := make(chan string, 1)
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: %s\r\n\r\n", path, addr, connection)
		go func() {
			if connection == "close" {
				b, _ := io.ReadAll(c)
				line <- string(b)
				return
			}
			b := make([]byte, 4096)
			n, _ := c.Read(b)
			line <- string(b[:n])
		}()
		return line
	}
	var conns []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for _, c := range conns[:2] {
		if got := <-ask(c, "/healthz", "keep-alive"); !strings.HasPrefix(got, "HTTP/1.1 200") {
			t.Fatalf("first connections: %q", got)
		}
	}
	third := ask(conns[2], "/metrics", "close")
	select {
	case got := <-third:
		t.Fatalf("a third connection was answered past MaxConns 2: %q", got)
	case <-time.After(200 * time.Millisecond):
	}
	conns[0].Close()
	select {
	case got := <-third:
		if !strings.Contains(got, "robotstxt_connections_max 2") || !strings.Contains(got, "robotstxt_connections_open 2") {
			var lines []string
			for _, l := range strings.Split(got, "\n") {
				if strings.HasPrefix(l, "robotstxt_connections") {
					lines = append(lines, l)
				}
			}
			t.Errorf("metrics lack the connections (want max 2, open 2): %q (%d bytes in all)", lines, len(got))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the third connection was not accepted once one closed")
	}
}

// TestErrorTexts: no Go package name inside an error either, and a
// mistyped crawler or dialect names the one meant.
func TestErrorTexts(t *testing.T) {
	ts := newTestServer(t, &Options{Engine: &fakeEngine{}})
	for _, c := range []struct {
		r     reply
		field string
		want  string
	}{
		{get(t, ts.URL+"/v1/history?origin=mailto:x"), "origin", `origin: only http, https and ftp URLs have a robots.txt: "mailto:x"`},
		{post(t, ts.URL+"/v1/check", `{"robots": "", "urls": ["/"], "dialect": "gogle"}`), "dialect", `dialect: unknown dialect "gogle" (did you mean "google"?)`},
		{post(t, ts.URL+"/v1/check", `{"robots": "", "urls": ["/"], "dialect": "klingon"}`), "dialect", `dialect: unknown dialect "klingon" (want one of google, rfc9309, bing, yandex, baidu, original)`},
		{post(t, ts.URL+"/v1/check", `{"robots": "", "urls": ["/"], "crawlers": ["Googlebott"]}`), "crawlers[0]", `crawlers[0]: unknown crawler "Googlebott" (did you mean "Googlebot"?) (GET /v1/crawlers lists the table; ask about a product token with "agents")`},
	} {
		c.r.wantError(t, 400, c.field)
		if msg, _ := c.r.json(t)["error"].(string); msg != c.want {
			t.Errorf("error %q, want %q", msg, c.want)
		}
	}
}
