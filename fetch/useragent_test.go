package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

func TestWithUserAgent(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("User-Agent"))
		mu.Unlock()
		w.Write([]byte("User-agent: *\nDisallow: /x\n"))
	}))
	defer srv.Close()
	o, err := OriginOf(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{UserAgent: "Own/1.0"}
	ctx := context.Background()
	for _, c := range []context.Context{
		ctx,
		WithUserAgent(ctx, "ExampleBot/1.0 (+https://example.com/bot)"),
		WithUserAgent(ctx, ""),
		WithUserAgent(ctx, "Bad\r\nX-Injected: 1"),
	} {
		if _, err := f.Fetch(c, o, Validators{}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"Own/1.0", "ExampleBot/1.0 (+https://example.com/bot)", "Own/1.0", "Own/1.0"}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fetch %d: User-Agent %q, want %q", i, got[i], want[i])
		}
	}
}
