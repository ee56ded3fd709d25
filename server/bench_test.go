package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// nullEngine answers at once: the benchmarks measure the server around it.
type nullEngine struct{}

func (nullEngine) Check(context.Context, *CheckInput) (any, error) {
	return map[string]any{"results": []any{}}, nil
}
func (nullEngine) Lint(context.Context, *LintInput) (any, error)       { return nil, nil }
func (nullEngine) Compare(context.Context, *CompareInput) (any, error) { return nil, nil }
func (nullEngine) Diff(context.Context, *DiffInput) (any, error)       { return nil, nil }
func (nullEngine) AI(context.Context, *AIInput) (any, error)           { return nil, nil }
func (nullEngine) Policy(context.Context, *PolicyInput) (any, error)   { return nil, nil }

func benchBody(urls int) string {
	var robots strings.Builder
	robots.WriteString("User-agent: *\n")
	for i := range 80 {
		fmt.Fprintf(&robots, "Disallow: /private-%d/\n", i)
	}
	u := make([]string, urls)
	for i := range u {
		u[i] = fmt.Sprintf("https://example.com/private-%d/x/%d", i%80, i)
	}
	b, _ := json.Marshal(map[string]any{"robots": robots.String(), "urls": u, "crawlers": []string{"Googlebot"}})
	return string(b)
}

func benchRoute(b *testing.B, method, path, body string) {
	benchServer(b, nullEngine{}, method, path, body)
}

// benchServer measures one route of a server with engine e (nil: the
// default engine, the tester's code).
func benchServer(b *testing.B, e Engine, method, path, body string) {
	s, err := New(&Options{Engine: e, Rate: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	// As a request arrives on a listener: its Host, and the connection's
	// local address in its context.
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	ctx := context.WithValue(context.Background(), http.LocalAddrContextKey, local)
	for b.Loop() {
		req := httptest.NewRequestWithContext(ctx, method, "http://127.0.0.1:8080"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

func BenchmarkHealthz(b *testing.B)   { benchRoute(b, "GET", "/healthz", "") }
func BenchmarkCheck1(b *testing.B)    { benchRoute(b, "POST", "/v1/check", benchBody(1)) }
func BenchmarkCheck1000(b *testing.B) { benchRoute(b, "POST", "/v1/check", benchBody(1000)) }

// The default engine: decoding, the check itself (the file parsed once and
// kept) and encoding the answer.
func BenchmarkEngineCheck1(b *testing.B) { benchServer(b, nil, "POST", "/v1/check", benchBody(1)) }
func BenchmarkEngineCheck1000(b *testing.B) {
	benchServer(b, nil, "POST", "/v1/check", benchBody(1000))
}

// With "usage": true, each result's usage and signals: the file's * group
// has a Content-Usage line, a Content-Usage rule with a path and a
// Content-Signal line.
func BenchmarkEngineCheck1000Usage(b *testing.B) {
	body := strings.Replace(benchBody(1000), `"robots":"User-agent: *\n`, `"robots":"User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /private-1/ train-ai=y\nContent-Signal: search=yes, ai-train=no\n`, 1)
	body = strings.Replace(body, `{"crawlers"`, `{"usage":true,"crawlers"`, 1)
	if !strings.Contains(body, `"usage":true`) || !strings.Contains(body, "Content-Usage") {
		b.Fatal("the body lacks the option or the lines")
	}
	benchServer(b, nil, "POST", "/v1/check", body)
}

// The AI report and a policy of the AI sample.
func BenchmarkEngineAI(b *testing.B) {
	benchServer(b, nil, "POST", "/v1/ai", `{"robots": `+quote(usageFiles[0])+`, "urls": ["/", "/blog/post"]}`)
}

func BenchmarkEnginePolicy(b *testing.B) {
	benchServer(b, nil, "POST", "/v1/policy", `{"robots": `+quote(usageFiles[0])+`, "deny": ["ai-training"], "allow": ["search"]}`)
}
