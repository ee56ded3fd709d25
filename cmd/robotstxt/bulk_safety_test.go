package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBulkCSVFormulaInjection: a field that a spreadsheet would take for a
// formula (= + - @ first) gets a leading ', as OWASP advises; the others
// are as they were.
func TestBulkCSVFormulaInjection(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	in := "=HYPERLINK(\"http://evil.test\",\"x\")\n+1+2\n-2+3\n@SUM(A1)\nhttp://s0.test/=a,b\n"
	out, stderr, code := runBulkArgs(t, strings.NewReader(in), "--store", "memory", "--format", "csv", "--quiet")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (four lines not URLs): %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, out)
	}
	want := []string{`'=HYPERLINK("http://evil.test","x")`, "'+1+2", "'-2+3", "'@SUM(A1)", "http://s0.test/=a,b"}
	if len(recs) != 1+len(want) {
		t.Fatalf("%d records:\n%s", len(recs), out)
	}
	for i, w := range want {
		if got := recs[i+1][0]; got != w {
			t.Errorf("url field %d: %q, want %q", i+1, got, w)
		}
		for j, f := range recs[i+1] {
			if f != "" && strings.IndexByte("=+-@\t\r", f[0]) >= 0 {
				t.Errorf("record %d field %d starts with %q: %q", i+1, j, f[0], f)
			}
		}
	}
}

// TestBulkCSVControlCharacters: what a URL or a robots.txt file holds
// reaches a CSV as text: no control character (C0, DEL, C1) is written
// but the line ends, as robotstxt check writes text.
func TestBulkCSVControlCharacters(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	in := "http://s0.test/\x1b]0;pwned\x07\n" + "http://s0.test/a\x7fb\u009bc\u0085d\n" + "\x1b[2J\x9b\n"
	out, _, _ := runBulkArgs(t, strings.NewReader(in), "--store", "memory", "--format", "csv", "--quiet")
	checkNoControls(t, out)
	for _, w := range []string{`http://s0.test/\x1b]0;pwned\x07,`, `http://s0.test/a\x7fb\u009bc\u0085d,`, `\x1b[2J\x9b,`} {
		if !strings.Contains(out, "\n"+w) {
			t.Errorf("no field %s in:\n%s", w, out)
		}
	}
}

// checkNoControls fails when out holds a control character but line ends.
func checkNoControls(t *testing.T, out string) {
	t.Helper()
	for i, r := range out {
		if r == utf8.RuneError || r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			t.Errorf("byte %d of the output: %U: %q", i, r, out[max(0, i-20):min(len(out), i+20)])
			return
		}
	}
	if bytes.ContainsAny([]byte(out), "\r\t") {
		t.Errorf("a tab or carriage return in the output")
	}
}

// TestBulkJSONControlCharacters: in JSON, DEL and C1 are \u escapes too
// (encoding/json writes them as they are); the values decode unchanged.
func TestBulkJSONControlCharacters(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	u := "http://s0.test/a\x7fb\u009bc\u0085\x1b"
	out, stderr, code := runBulkArgs(t, strings.NewReader(u+"\n"), "--store", "memory", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkNoControls(t, out)
	rows := parseRows(t, out)
	if len(rows) != 1 || rows[0].URL != u {
		t.Errorf("rows %+v", rows)
	}
}

// TestBulkInputFieldsFolded: the members of JSON input named like a
// result's, in any case (and in Unicode's simple folding), are not copied:
// decoders that match names without case, as encoding/json does, read the
// last of "Allowed" and "allowed", or "URL" after "url", and an "Error"
// where the result has none.
func TestBulkInputFieldsFolded(t *testing.T) {
	fw := newFakeWeb(t)
	useFakeWeb(t, fw)
	in := `{"url":"http://s0.test/private","Allowed":true,"ALLOWED":1,"URL":"http://evil.test/","Error":"e","LINE":7,` +
		`"Rule":"x","ſource":"z","Input_Line":3,"Crawler":"c","keep":1,"Keep":2}` + "\n"
	out, stderr, code := runBulkArgs(t, strings.NewReader(in), "--store", "memory", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for k := range m {
		switch k {
		case "url", "crawler", "allowed", "line", "rule", "origin", "policy", "reason", "source", "keep", "Keep":
		default:
			t.Errorf("member %q copied from the input", k)
		}
	}
	rows := parseRows(t, out)
	if r := rows[0]; r.URL != "http://s0.test/private" || r.Allowed == nil || *r.Allowed || r.Error != "" ||
		r.Line != 2 || r.Rule != "Disallow: /private" || r.Source != "network" || r.Crawler != "Googlebot" {
		t.Errorf("the result as encoding/json reads it: %+v", r)
	}
}

// TestBulkHelpSaysCSVIsNeutralised: --help says what CSV fields become.
func TestBulkHelpSaysCSVIsNeutralised(t *testing.T) {
	_, stderr, code := runBulkArgs(t, nil, "-h")
	if code != 0 || !strings.Contains(stderr, "gets a leading ' (OWASP's advice against formula injection)") {
		t.Errorf("exit %d; help:\n%s", code, stderr)
	}
}
