package storeopen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseSpec is the rule of the package documentation, case by case.
func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want kind
		hint string // for an error: what it suggests ("" for none)
	}{
		{"", kindDefault, ""},
		{"memory", kindMemory, ""},
		{"redis://127.0.0.1:6379/0", kindRedis, ""},
		{"REDIS://127.0.0.1:6379", kindRedis, ""},
		{"rediss://h:6380", kindRedis, ""},
		{"unix:///run/redis.sock", kindRedis, ""},
		{"redis-cluster://h1:7000,h2:7001", kindCluster, ""},
		{"Rediss-Cluster://h1:7000", kindCluster, ""},

		// Clearly paths.
		{"cache.db", kindFile, ""},
		{"CACHE.DB", kindFile, ""},
		{"/var/cache/robots.db", kindFile, ""},
		{"/var/cache/robots", kindFile, ""},
		{"./Memory", kindFile, ""},
		{"./redis", kindFile, ""},
		{"../memory", kindFile, ""},
		{"sub/redis:x", kindFile, ""},
		{"/tmp/a:6379", kindFile, ""},
		{"c:ache.db", kindFile, ""},
		{`C:\cache\robots.db`, kindFile, ""},
		{"C:/cache", kindFile, ""},
		{"c:cache", kindFile, ""},
		{"file:cache.db", kindFile, ""},
		{"redis.db", kindFile, ""},
		{"memory.db", kindFile, ""},
		{"memory-cache.bolt", kindFile, ""},
		// Words far from any kind are file names in the current directory.
		{"cache", kindFile, ""},
		{"robots", kindFile, ""},
		{"me", kindFile, ""},

		// Unknown schemes.
		{"http://example.com/cache", 0, ""},
		{"memcached://127.0.0.1:11211", 0, ""},
		{"memory://x", 0, ""},
		// A known scheme without "//".
		{"redis:/127.0.0.1:6379", 0, "redis://..."},
		{"redis:127.0.0.1:6379", 0, "redis://..."},
		{"REDIS:/x", 0, "redis://..."},
		{"redis-cluster:/h1:7000", 0, "redis-cluster://..."},
		{"unix:/run/redis.sock", 0, "unix://..."},
		{"redis:/x.db", 0, "redis://..."},
		{"memory:", 0, "memory"},
		// Another scheme-like prefix, not ending in .db.
		{"http:/x", 0, ""},
		{"file:cache", 0, ""},
		{"mem:", 0, ""},
		{"localhost:6379", 0, "redis://localhost:6379"},
		{"user:secret@host:6379", 0, ""},
		// An address with no scheme.
		{"127.0.0.1:6379", 0, "redis://127.0.0.1:6379"},
		{"[::1]:6379", 0, "redis://[::1]:6379"},
		{":6379", 0, "redis://:6379"},
		// A kind in another case, with spaces, or slightly off.
		{"Memory", 0, "memory"},
		{"MEMORY", 0, "memory"},
		{" memory", 0, "memory"},
		{"memory ", 0, "memory"},
		{"memroy", 0, "memory"},
		{"memry", 0, "memory"},
		{"mem", 0, "memory"},
		{"memo", 0, "memory"},
		{"redis", 0, "redis://..."},
		{"Redis", 0, "redis://..."},
		{"rediss", 0, "rediss://..."},
		{"redis-cluster", 0, "redis-cluster://..."},
		{"unix", 0, "unix://..."},
	} {
		got, err := parseSpec(tc.spec)
		if tc.want != 0 {
			if err != nil || got != tc.want {
				t.Errorf("parseSpec(%q) = %v, %v; want %v", tc.spec, got, err, tc.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("parseSpec(%q) = %v; want an error", tc.spec, got)
			continue
		}
		msg := err.Error()
		if !errors.Is(err, ErrUnknownStore) || !strings.HasPrefix(msg, "storeopen: unknown store ") ||
			!strings.HasSuffix(msg, wantKinds) || strings.Contains(msg, "secret") {
			t.Errorf("parseSpec(%q): %v", tc.spec, err)
		}
		if hasHint := strings.Contains(msg, "did you mean"); hasHint != (tc.hint != "") ||
			tc.hint != "" && !strings.Contains(msg, "(did you mean \""+tc.hint+"\"?)") {
			t.Errorf("parseSpec(%q): %v; want the hint %q", tc.spec, err, tc.hint)
		}
	}
}

// TestOpenMistyped: Open refuses a mistyped spec and makes no file of that
// name; a spec that is clearly a path is a file, wherever a colon is.
func TestOpenMistyped(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, spec := range []string{"Memory", "memroy", "redis:/127.0.0.1:6379", "localhost:6379", "127.0.0.1:6379", "http:/x"} {
		s, err := Open(spec, nil)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", spec)
		} else if !errors.Is(err, ErrUnknownStore) {
			t.Errorf("Open(%q): %v", spec, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files made in the current directory: %v", entries)
	}
	for _, spec := range []string{"./Memory", "sub/redis:x", "c:ache.db", "file:cache.db"} {
		s := mustOpen(t, spec, nil)
		works(t, s)
		if h := Health(s); h.Name != "bbolt "+filepath.Join(dir, spec) || h.Degraded {
			t.Errorf("Open(%q): Health = %+v", spec, h)
		}
	}
}

// TestUnusableDefaultFile: a default file that cannot be made (its
// directory would be under a regular file: root is stopped too) or opened
// gives a run on memory, its Health naming the file and the system's
// error; a file named so is an error.
func TestUnusableDefaultFile(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file-not-dir")
	if err := os.WriteFile(notDir, []byte("a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(notDir, "cache"))
	path := filepath.Join(notDir, "cache", "robotstxt", "cache.db")
	s := mustOpen(t, "", nil)
	works(t, s)
	h := Health(s)
	if !h.Degraded || h.Name != "memory" ||
		!strings.HasPrefix(h.Message, "cannot use the default cache file "+path+": mkdir "+notDir+": not a directory") ||
		!strings.HasSuffix(h.Message, "; using memory for this run") || strings.Contains(h.Message, "\n") {
		t.Fatalf("Health = %+v", h)
	}

	if s, err := Open(path, nil); err == nil {
		s.Close()
		t.Fatalf("Open(%q) succeeded", path)
	}

	// A directory where the default file should be.
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	path = filepath.Join(dir, "robotstxt", "cache.db")
	if err := os.MkdirAll(path, 0o700); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, "", nil)
	works(t, s)
	if h := Health(s); !h.Degraded || !strings.HasPrefix(h.Message, "cannot use the default cache file "+path+": ") ||
		!strings.Contains(h.Message, "is a directory") {
		t.Fatalf("Health = %+v", h)
	}
}
