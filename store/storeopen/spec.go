package storeopen

import (
	"errors"
	"fmt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"regexp"
	"strings"
)

// ErrUnknownStore is matched (errors.Is) by Open's error for a spec that
// names no kind of store: an unknown URL scheme, or a value that looks like
// a mistyped kind or URL rather than a file path.
var ErrUnknownStore = errors.New("storeopen: unknown store")

// kind is what a spec names.
type kind int

const (
	kindDefault kind = iota + 1 // "": the default file
	kindMemory
	kindFile
	kindRedis
	kindCluster
)

// schemes are the URL schemes Open knows, lower-case, with their kind.
var schemes = map[string]kind{
	"redis":          kindRedis,
	"rediss":         kindRedis,
	"unix":           kindRedis,
	"redis-cluster":  kindCluster,
	"rediss-cluster": kindCluster,
}

// kindNames are the words a user may mean a kind by: "memory" and the
// schemes.
var kindNames = []string{"memory", "redis", "rediss", "unix", "redis-cluster", "rediss-cluster"}

// wantKinds ends the error for a spec that names no store.
const wantKinds = `want "memory", a file path (ending in .db, or with a /), "" for the default file, ` +
	`or a redis://, rediss://, unix://, redis-cluster:// or rediss-cluster:// URL`

var (
	// schemePrefix matches a URL scheme and its colon: a letter, then
	// letters, digits, '+', '-' or '.', as RFC 3986 says; two characters
	// at least, so that a Windows drive ("C:\cache", "c:cache") is a path.
	schemePrefix = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]+):`)
	// hostPort matches a network address without a scheme:
	// "localhost:6379", "10.0.0.1:6379", "[::1]:6379" (and no password,
	// which the error would repeat).
	hostPort = regexp.MustCompile(`^[^/\\@]*:[0-9]+$`)
)

// parseSpec says which kind of store spec names, or why it names none (an
// error matching ErrUnknownStore). The rules, in order:
//
//   - "" is the default file; "memory" is memory.
//   - SCHEME://... with a scheme Open knows, in any case, is Redis (or a
//     Redis Cluster); with any other scheme it is an error.
//   - SCHEME:... without "//" is an error when SCHEME is a kind's name
//     ("redis:/host:6379", "redis:host:6379", "memory:"), or, unless the
//     value ends in ".db", any other scheme ("http:/x", "localhost:6379").
//   - host:port ("127.0.0.1:6379") is an error.
//   - A kind's name written otherwise ("Memory", " memory", "REDIS"), a
//     word a slip away from one (two edits at most: "memroy", "memry"), or
//     the start of one ("mem") is an error.
//   - Anything else is a file path: "cache.db", "./Memory", "/var/x:y",
//     "sub/redis:x", "c:ache.db", "C:\cache", "cache".
//
// So a value with a '/' and no scheme before it, or ending in ".db", is
// always a path; "./" makes any name one.
func parseSpec(spec string) (kind, error) {
	switch spec {
	case "":
		return kindDefault, nil
	case "memory":
		return kindMemory, nil
	}
	if m := schemePrefix.FindStringSubmatch(spec); m != nil {
		name := strings.ToLower(m[1])
		rest := spec[len(m[0]):]
		if strings.HasPrefix(rest, "//") {
			if k, ok := schemes[name]; ok {
				return k, nil
			}
			return 0, unknown(m[1]+"://...", "")
		}
		if _, ok := schemes[name]; ok {
			return 0, unknown(m[1]+":...", fmt.Sprintf("%s://...", name))
		}
		if name == "memory" {
			return 0, unknown(m[1]+":...", "memory")
		}
		if !strings.HasSuffix(strings.ToLower(spec), ".db") {
			hint := ""
			if hostPort.MatchString(spec) {
				hint = "redis://" + spec
			}
			return 0, unknown(m[1]+":...", hint)
		}
		return kindFile, nil
	}
	if hostPort.MatchString(spec) {
		return 0, unknown(spec, "redis://"+spec)
	}
	if name, ok := nearKind(spec); ok {
		hint := name
		if name != "memory" {
			hint += "://..."
		}
		return 0, unknown(spec, hint)
	}
	return kindFile, nil
}

// unknown is the error for a spec that names no store; shown is what of it
// the error repeats (never a password), hint what was perhaps meant.
func unknown(shown, hint string) error {
	if hint != "" {
		return fmt.Errorf("%w %q (did you mean %q?): %s", ErrUnknownStore, shown, hint, wantKinds)
	}
	return fmt.Errorf("%w %q: %s", ErrUnknownStore, shown, wantKinds)
}

// nearKind returns the kind's name that spec, a word of letters and '-'
// with spaces around it perhaps, was likely meant to be: the name in
// another case, two edits from it at most, or its first three letters or
// more.
func nearKind(spec string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(spec))
	if len(w) < 3 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz-") != "" {
		return "", false
	}
	best, bestDist := "", 3
	for _, name := range kindNames {
		d := suggest.Distance(w, name)
		if strings.HasPrefix(name, w) {
			d = min(d, 1) // "redis" is a start of "redis-cluster", but redis itself
		}
		if d < bestDist {
			best, bestDist = name, d
		}
	}
	return best, best != ""
}
