package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/tester"
)

// apiFiles are the files the CLI and the API are compared on: the bundled
// example and a spread of the corpus (every 700th file by name), which
// holds wildcards, '$', non-ASCII, long files, typos and UTF-16.
func apiFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{"example.robots.txt": exampleRobots}
	dir := filepath.Join(sharedDir(t), "corpus", "real")
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	slices.Sort(names)
	for i := 0; i < len(names); i += 700 {
		b, err := os.ReadFile(names[i])
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(names[i])] = b
	}
	return files
}

// apiURLs are the URLs asked about a file: a fixed set, and one path from
// each of its first rules.
func apiURLs(body []byte) []string {
	urls := []string{"/", "/private/a", "/search?q=x", "https://example.com/a b", "/%E4%BD%A0/x", "/wp-admin/admin-ajax.php"}
	for line := range strings.Lines(string(body)) {
		field, value, ok := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		if !ok || !strings.HasPrefix(value, "/") || strings.ContainsAny(value, " \t\r") {
			continue
		}
		if f := strings.ToLower(strings.TrimSpace(field)); f == "allow" || f == "disallow" {
			urls = append(urls, strings.ReplaceAll(strings.TrimSuffix(value, "$"), "*", "x"))
		}
		if len(urls) >= 14 {
			break
		}
	}
	return urls
}

var apiCrawlers = []string{"Googlebot", "Googlebot-Image", "Bingbot", "YandexBot", "Baiduspider", "GPTBot"}

// cliJSON runs robotstxt with args and returns its --json output decoded,
// with the file names replaced by the API's names of the files (names
// maps path to name); ok is false when the CLI refuses the input (exit 2:
// a binary file).
func cliJSON(t *testing.T, names map[string]string, args ...string) (v any, ok bool) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code == 2 {
		return nil, false
	}
	out := stdout.String()
	for path, name := range names {
		p, _ := json.Marshal(path)
		n, _ := json.Marshal(name)
		out = strings.ReplaceAll(out, string(p), string(n))
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("robotstxt %s: %v: %s (stderr %s)", strings.Join(args, " "), err, out, &stderr)
	}
	return v, true
}

// apiJSON posts req to the route and returns the answer decoded.
func apiJSON(t *testing.T, page, route string, req any) any {
	t.Helper()
	b, _ := json.Marshal(req)
	resp, err := http.Post(page+"v1/"+route, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("POST /v1/%s: %d %s", route, resp.StatusCode, body)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func sameJSON(t *testing.T, what string, cli, api any) {
	t.Helper()
	if !reflect.DeepEqual(cli, api) {
		c, _ := json.MarshalIndent(cli, "", " ")
		a, _ := json.MarshalIndent(api, "", " ")
		t.Errorf("%s: the API's answer differs from the CLI's --json\n cli: %.3000s\n api: %.3000s", what, c, a)
	}
}

// TestAPIEqualsCLI: on the same files, URLs and crawlers, POST /v1/check,
// /v1/lint, /v1/compare and /v1/diff of "robotstxt serve" answer what
// check, lint, compare and diff --json print (the files' names aside: the
// API names them by their fields, robots, old and new).
func TestAPIEqualsCLI(t *testing.T) {
	page, _, _ := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--rate", "0", "--log-level", "error")
	dir := t.TempDir()
	files := apiFiles(t)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	})
	compared := 0
	var prev string
	for _, name := range keys {
		body := files[name]
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		names := map[string]string{path: "robots"}
		urls := apiURLs(body)

		args := []string{"check", "--json", "-f", path, "-a", "MyBot"}
		for _, c := range apiCrawlers {
			args = append(args, "-c", c)
		}
		cli, ok := cliJSON(t, names, append(args, urls...)...)
		if !ok {
			continue // a file the CLI refuses (binary)
		}
		compared++
		sameJSON(t, name+": check", cli, apiJSON(t, page, "check", map[string]any{"robots": string(body), "urls": urls, "crawlers": apiCrawlers, "agents": []string{"MyBot"}}))
		cli, _ = cliJSON(t, names, "check", "--json", "-f", path, "-c", "Googlebot", "-d", "rfc9309", "/", urls[len(urls)-1])
		sameJSON(t, name+": check -d rfc9309", cli, apiJSON(t, page, "check", map[string]any{"robots": string(body), "urls": []string{"/", urls[len(urls)-1]}, "crawlers": []string{"Googlebot"}, "dialect": "rfc9309"}))

		cli, _ = cliJSON(t, names, "lint", "--json", path)
		sameJSON(t, name+": lint", cli, apiJSON(t, page, "lint", map[string]any{"robots": string(body)}))
		cli, _ = cliJSON(t, names, "lint", "--json", "--disable", "unknown-field,accepted-typo", path)
		sameJSON(t, name+": lint --disable", cli, apiJSON(t, page, "lint", map[string]any{"robots": string(body), "disable": []string{"unknown-field", "accepted-typo"}}))

		cli, _ = cliJSON(t, names, "compare", "--json", "-f", path)
		api := apiJSON(t, page, "compare", map[string]any{"robots": string(body)})
		sameJSON(t, name+": compare", cli, api)
		// One default dialect set: every dialect but original, in the
		// CLI's text and JSON, the API and --markdown alike; original
		// when asked for, everywhere.
		defaultSet(t, name, cli, api, apiJSON(t, page, "lint", map[string]any{"robots": string(body)}), false)
		md := cliText(t, "compare", "--markdown", "-f", path)
		if head, _, _ := strings.Cut(md, "\n"); strings.Contains(md, "|") && (strings.Contains(head, "original") || !strings.Contains(head, "| baidu |")) {
			t.Errorf("%s: compare --markdown's columns: %s", name, head)
		}
		if txt := cliText(t, "lint", "--all", path); strings.Contains(txt, ", original)") || strings.Contains(txt, "dialects: original") {
			t.Errorf("%s: lint's text lists original:\n%s", name, txt)
		}
		cli, _ = cliJSON(t, names, "compare", "--json", "--original", "-f", path)
		api = apiJSON(t, page, "compare", map[string]any{"robots": string(body), "original": true})
		sameJSON(t, name+": compare --original", cli, api)
		lintOrig, _ := cliJSON(t, names, "lint", "--json", "--original", path)
		sameJSON(t, name+": lint --original", lintOrig, apiJSON(t, page, "lint", map[string]any{"robots": string(body), "original": true}))
		defaultSet(t, name+" (original)", cli, api, lintOrig, true)
		cli, _ = cliJSON(t, names, append([]string{"compare", "--json", "-f", path, "-c", "Googlebot", "-c", "Baiduspider", "-a", "MyBot"}, urls...)...)
		sameJSON(t, name+": compare with URLs", cli, apiJSON(t, page, "compare", map[string]any{"robots": string(body), "urls": urls, "crawlers": []string{"Googlebot", "Baiduspider"}, "agents": []string{"MyBot"}}))

		if prev != "" {
			old := filepath.Join(dir, prev)
			dn := map[string]string{old: "old", path: "new"}
			cli, _ = cliJSON(t, dn, "diff", "--json", old, path)
			sameJSON(t, prev+" -> "+name+": diff", cli, apiJSON(t, page, "diff", map[string]any{"old": string(files[prev]), "new": string(body)}))
			list := filepath.Join(dir, "urls.list")
			os.WriteFile(list, []byte(strings.Join(urls, "\n")+"\n"), 0o644)
			cli, _ = cliJSON(t, dn, "diff", "--json", "--urls", list, "-c", "Bingbot", "-d", "bing", old, path)
			sameJSON(t, prev+" -> "+name+": diff --urls", cli, apiJSON(t, page, "diff", map[string]any{"old": string(files[prev]), "new": string(body), "urls": urls, "crawlers": []string{"Bingbot"}, "dialect": "bing"}))
		}
		prev = name
	}
	t.Logf("%d files compared", compared)
	if compared < 10 {
		t.Errorf("%d files compared, want at least 10", compared)
	}
}

// cliText is the standard output of a command.
func cliText(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	run(args, strings.NewReader(""), &stdout, &stderr)
	return stdout.String()
}

// defaultSet checks that a comparison (the CLI's and the API's) is about
// robotstxt.DefaultDialects, and that no lint finding names original,
// unless original is asked for: then both are about every dialect.
func defaultSet(t *testing.T, name string, cli, api, lint any, original bool) {
	t.Helper()
	want := []any{}
	for _, d := range tester.Dialects(original) {
		want = append(want, d.String())
	}
	for _, v := range []any{cli, api} {
		m, _ := v.(map[string]any)
		if got := m["dialects"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: compare's dialects %v, want %v", name, got, want)
		}
		rows, _ := m["rows"].([]any)
		for _, r := range rows {
			for _, c := range r.(map[string]any)["cells"].([]any) {
				if n := len(c.(map[string]any)["dialects"].(map[string]any)); n != len(want) {
					t.Fatalf("%s: a cell with %d dialects' verdicts, want %d", name, n, len(want))
				}
			}
		}
	}
	m, _ := lint.(map[string]any)
	fs, _ := m["findings"].([]any)
	for _, f := range fs {
		ds, _ := f.(map[string]any)["dialects"].([]any)
		if !original && slices.Contains(ds, any("original")) {
			t.Errorf("%s: a finding names original: %v", name, f)
		}
	}
}
