package server

import (
	"io/fs"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// moduleImport finds the specifiers of a module's static imports:
// import './x.js'; and import { a } from './x.js'; (a clause may span
// lines).
var moduleImport = regexp.MustCompile(`(?m)^import\s+(?:[^'";]*?\s+from\s+)?'([^']+)';`)

// TestPageModules: index.html loads one script, the entry module /app.js,
// as a module; every module reachable from it through its imports is
// served with a JavaScript type (a browser runs no module served as
// anything else) and the page's headers, under the same strict CSP; every
// file of web/js is reached; a name that is not a module's is refused, a
// module the binary does not hold is not found.
func TestPageModules(t *testing.T) {
	ts := newTestServer(t, nil)
	page := get(t, ts.URL+"/")
	scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(string(page.body), -1)
	if len(scripts) != 1 || scripts[0] != `<script type="module" src="/app.js">` {
		t.Fatalf("the page's scripts: %q; want the one entry module /app.js", scripts)
	}
	csp := page.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q: scripts must come from the page's origin only", csp)
	}

	base, err := url.Parse(ts.URL + "/app.js")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	queue := []*url.URL{base}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if seen[u.Path] {
			continue
		}
		seen[u.Path] = true
		r := get(t, u.String())
		if r.status != 200 || r.header.Get("Content-Type") != "text/javascript; charset=utf-8" || len(r.body) == 0 {
			t.Errorf("%s: %d %q, %d bytes", u.Path, r.status, r.header.Get("Content-Type"), len(r.body))
			continue
		}
		if r.header.Get("Content-Security-Policy") != csp || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", u.Path, r.header)
		}
		for _, m := range moduleImport.FindAllStringSubmatch(string(r.body), -1) {
			if !strings.HasPrefix(m[1], "./") && !strings.HasPrefix(m[1], "../") {
				t.Errorf("%s imports %q: not a relative path on this origin", u.Path, m[1])
				continue
			}
			ref, err := u.Parse(m[1])
			if err != nil {
				t.Errorf("%s imports %q: %v", u.Path, m[1], err)
				continue
			}
			queue = append(queue, ref)
		}
	}
	if len(seen) < 3 {
		t.Errorf("the entry module reaches %d modules: %v", len(seen), seen)
	}
	files, err := fs.ReadDir(webFiles, "web/js")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen["/js/"+f.Name()] {
			t.Errorf("web/js/%s is in the binary but no module imports it", f.Name())
		}
	}
	for p, status := range map[string]int{"/js/nope.js": 404, "/js/.js": 404, "/js/style.css": 400, "/js/..%2Fapp.js": 400, "/js/": 404} {
		if r := get(t, ts.URL+p); r.status != status {
			t.Errorf("%s: %d, want %d", p, r.status, status)
		}
	}
}
