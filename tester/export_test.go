package tester

import (
	"strings"
	"testing"
)

func TestTableWrite(t *testing.T) {
	tb := &Table{Head: []string{"a", "b"}, Rows: [][]string{
		{"=1+1", "x,y"},
		{"-2", "@sum"},
		{"a|b\\c", "*em* _u_ `c` <b> [l]"},
		{"two\nlines", "q\"uote"},
	}}
	var csv, md strings.Builder
	if err := tb.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	want := "a,b\r\n'=1+1,\"x,y\"\r\n'-2,'@sum\r\na|b\\c,*em* _u_ `c` <b> [l]\r\n\"two\r\nlines\",\"q\"\"uote\"\r\n"
	if csv.String() != want {
		t.Errorf("CSV\n%q, want\n%q", csv.String(), want)
	}
	if err := tb.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	want = "| a | b |\n|---|---|\n| =1+1 | x,y |\n| -2 | @sum |\n| a\\|b\\\\c | \\*em\\* \\_u\\_ \\`c\\` \\<b\\> \\[l\\] |\n| two lines | q\"uote |\n"
	if md.String() != want {
		t.Errorf("Markdown\n%q, want\n%q", md.String(), want)
	}
}
