package bulk

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAppendCSV checks fields one by one: quoting (RFC 4180), the leading '
// before what a spreadsheet reads as a formula, control characters shown
// as esc shows them.
func TestAppendCSV(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"a,b", `"a,b"`},
		{`say "x"`, `"say ""x"""`},
		{" lead", `" lead"`},
		{"=1+1", "'=1+1"},
		{"+1", "'+1"},
		{"-1", "'-1"},
		{"@x", "'@x"},
		{"=a,b", `"'=a,b"`},
		{"a=b", "a=b"},
		{"\tx", `\x09x`},
		{"\rx", `\x0dx`},
		{"a\nb", `a\x0ab`},
		{"\x1b[2J", `\x1b[2J`},
		{"a\x7fb", `a\x7fb`},
		{"a\u009bb", `a\u009bb`},
		{"a\x9bb", `a\x9bb`},
		{"é", "é"},
	} {
		if got := string(appendCSV(nil, tc.in)); got != tc.want {
			t.Errorf("appendCSV(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestRunCSV: a CSV run writes its header, then one record a URL and
// subject, readable by a CSV reader, with no control character, and
// neutralised fields.
func TestRunCSV(t *testing.T) {
	o := memoryOptions()
	o.Format = CSV
	o.Subjects, _ = Subjects([]string{"Googlebot"}, nil)
	o.Subjects = append(o.Subjects, Subject{Label: "=cmd", Agents: []string{"=cmd"}})
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	in := "http://s1.test/private/a\nhttp://s1.test/a,b\x1b[2J\n=HYPERLINK(1)\n"
	var out bytes.Buffer
	if _, err := c.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, out.String())
	}
	if len(recs) != 7 || strings.Join(recs[0], ",") != "url,crawler,allowed,line,rule,origin,policy,reason,source,error,payment" {
		t.Fatalf("records:\n%s", out.String())
	}
	if got := strings.Join(recs[1][:7], ","); got != "http://s1.test/private/a,Googlebot,false,2,Disallow: /private,http://s1.test,rules" {
		t.Errorf("first record: %s", got)
	}
	if recs[2][1] != "'=cmd" || recs[3][0] != `http://s1.test/a,b\x1b[2J` || recs[5][0] != "'=HYPERLINK(1)" {
		t.Errorf("fields not made safe: %q %q %q", recs[2][1], recs[3][0], recs[5][0])
	}
	for i, r := range out.String() {
		if r == utf8.RuneError || r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			t.Fatalf("byte %d of the output: %U", i, r)
		}
	}
}
