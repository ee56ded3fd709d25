package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSameSecondEdit is issue 35 item 7: a file served by a plain file
// server, fetched, then rewritten within the same second keeps its
// Last-Modified; a refresh that sent it back as If-Modified-Since got 304
// and kept the old copy. The server is net/http's FileServer, as a site's
// would be, and the file's time is set to one second for both versions so
// that the test does not depend on the clock's ticks.
func TestSameSecondEdit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	mtime := time.Now().Truncate(time.Second)
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	o, err := OriginOf(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	write("User-agent: *\nDisallow: /old\n")
	f := &Fetcher{Timeout: 5 * time.Second}
	first, err := f.Fetch(context.Background(), o, Validators{})
	if err != nil || first.Policy != Rules {
		t.Fatalf("first fetch: %+v, %v", first, err)
	}
	if got := first.Trace[0].LastModified; got == "" {
		t.Fatal("the file server sent no Last-Modified: the test proves nothing")
	}
	if first.Validators.LastModified != "" {
		t.Errorf("a Last-Modified within a minute of the answer's Date was kept as a validator: %+v", first.Validators)
	}
	write("User-agent: *\nDisallow: /new\n")
	second, err := f.Fetch(context.Background(), o, first.Validators)
	if err != nil {
		t.Fatal(err)
	}
	if second.NotModified || !strings.Contains(string(second.Body), "/new") {
		t.Errorf("the refresh after a same-second edit: not modified %v, body %q (%s)", second.NotModified, second.Body, second.Reason)
	}
}

// TestValidatorsOf: which of an answer's validators a later conditional
// request may send (RFC 9110 §8.8.2.2 and §8.8.3).
func TestValidatorsOf(t *testing.T) {
	date := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return date.Add(d).Format(http.TimeFormat) }
	fetched := date.Add(5 * time.Second) // the fetcher's clock, a little ahead
	for _, tc := range []struct {
		name                   string
		etag, lastMod, dateHdr string
		want                   Validators
	}{
		{"old Last-Modified", "", at(-time.Hour), at(0), Validators{LastModified: at(-time.Hour)}},
		{"a minute before Date", "", at(-time.Minute), at(0), Validators{LastModified: at(-time.Minute)}},
		{"same second as Date", "", at(0), at(0), Validators{}},
		{"59 s before Date", "", at(-59 * time.Second), at(0), Validators{}},
		{"after Date", "", at(time.Hour), at(0), Validators{}},
		{"no Date: the fetch time", "", at(-30 * time.Second), "", Validators{}},
		{"no Date, old", "", at(-time.Hour), "", Validators{LastModified: at(-time.Hour)}},
		{"unreadable Date: the fetch time", "", at(-time.Hour), "yesterday", Validators{LastModified: at(-time.Hour)}},
		{"unreadable Last-Modified", "", "last week", at(0), Validators{}},
		{"strong ETag kept beside a weak date", `"v1"`, at(0), at(0), Validators{ETag: `"v1"`}},
		{"weak ETag dropped beside a weak date", `W/"v1"`, at(0), at(0), Validators{}},
		{"weak ETag kept beside a strong date", `W/"v1"`, at(-time.Hour), at(0), Validators{ETag: `W/"v1"`, LastModified: at(-time.Hour)}},
		{"weak ETag alone", `W/"v1"`, "", at(0), Validators{ETag: `W/"v1"`}},
	} {
		if got := validatorsOf(tc.etag, tc.lastMod, tc.dateHdr, fetched); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
