package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeWatchUsage: a bad --watch file or interval stops serve with
// exit 2 and one line that says what is wrong.
func TestServeWatchUsage(t *testing.T) {
	useTempCache(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--watch-min-interval", "0s"}, "robotstxt serve: --watch-min-interval must be positive"},
		{[]string{"--watch", filepath.Join(dir, "none.json")}, "robotstxt serve: --watch: open "},
		{[]string{"--watch", write("bad.json", "[{")}, "robotstxt serve: --watch: " + filepath.Join(dir, "bad.json") + ": reading the watches: "},
		{[]string{"--watch", write("field.json", `[{"origin": "example.com", "url": ["/"]}]`)}, "robotstxt serve: --watch: " + filepath.Join(dir, "field.json") + `: reading the watches: json: unknown field "url"`},
		{[]string{"--store", "memory", "--watch", write("nourl.json", `[{"origin": "example.com"}]`)}, "robotstxt serve: --watch: watch 1 (example.com): urls: give the URLs"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, stderr, tt.want)
		}
	}
}

// TestServeWatch: the watches of --watch are served at /v1/watches.
func TestServeWatch(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	// The watches of a file have no owner: the admin lists them.
	t.Setenv("ROBOTSTXT_WATCH_ADMIN_TOKEN", "the-admin-token-0123")
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	file := filepath.Join(t.TempDir(), "watches.json")
	os.WriteFile(file, []byte(`{"watches": [{"origin": "`+s.URL+`", "urls": ["/", "/private/x"], "crawlers": ["Googlebot"], "every": "1h"}]}`), 0o600)
	page, stderr, stop := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--allow-private", "--watch", file, "--watch-min-interval", "10m")
	code, body := httpGet(t, page+"v1/watches", "X-Robotstxt-Admin", "the-admin-token-0123")
	var list struct {
		Watches []struct {
			Origin string   `json:"origin"`
			URLs   []string `json:"urls"`
			Every  string   `json:"every"`
		} `json:"watches"`
		MinInterval string `json:"min_interval"`
	}
	if err := json.Unmarshal(body, &list); err != nil || code != 200 || len(list.Watches) != 1 || list.Watches[0].Origin != s.URL ||
		list.Watches[0].Every != "1h" || list.MinInterval != "10m" {
		t.Errorf("GET /v1/watches: %d %s", code, body)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
