package tester

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// A Table is a report as rows of text under a heading, for export as CSV
// or Markdown ("check --csv", "compare --markdown", the page's export).
type Table struct {
	Head []string
	Rows [][]string
}

// CheckTable is a check's report one row a URL and subject: url, crawler
// (the crawler, token or tokens), dialect, verdict (allowed or blocked),
// line and rule (the deciding rule; empty when none decided) and policy
// (the fetch policy that decided instead, if any).
func CheckTable(rep *CheckReport) *Table {
	t := &Table{Head: []string{"url", "crawler", "dialect", "verdict", "line", "rule", "policy"}}
	for _, r := range rep.Results {
		t.Rows = append(t.Rows, []string{r.URL, r.Who, r.Dialect, verdictWord(r.Allowed), lineText(r.Line), r.Rule, r.Policy})
	}
	return t
}

// CompareTable is a comparison one row a URL and crawler: url, crawler,
// dialect (the crawler's own), verdict, line and rule in it, disagree
// (yes when the dialects do), then one column a dialect with its verdict.
func CompareTable(c *Comparison) *Table {
	dialects := c.Dialects // the dialects compared, each a column
	t := &Table{Head: append([]string{"url", "crawler", "dialect", "verdict", "line", "rule", "disagree"}, dialects...)}
	for _, row := range c.Rows {
		for _, cell := range row.Cells {
			r := []string{cell.URL, row.Crawler, row.Dialect, verdictWord(cell.Allowed), lineText(cell.Line), cell.Rule, ""}
			if cell.Disagree {
				r[6] = "yes"
			}
			for _, d := range dialects {
				v, ok := cell.Dialects[d]
				switch {
				case !ok:
					r = append(r, "")
				case v.Policy != "":
					r = append(r, verdictWord(v.Allowed)+" ("+v.Policy+")")
				default:
					r = append(r, verdictWord(v.Allowed))
				}
			}
			t.Rows = append(t.Rows, r)
		}
	}
	return t
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "blocked"
}

func lineText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// WriteCSV writes t as CSV (RFC 4180, CRLF line ends). A field that a
// spreadsheet would read as a formula (starting with =, +, -, @, a tab or
// a carriage return) is written after a single quote, as OWASP advises:
// robots.txt lines and URLs come from sites, not from the user.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(t.Head); err != nil {
		return err
	}
	for _, r := range t.Rows {
		safe := make([]string, len(r))
		for i, f := range r {
			if f != "" && strings.ContainsRune("=+-@\t\r", rune(f[0])) {
				f = "'" + f
			}
			safe[i] = f
		}
		if err := cw.Write(safe); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes t as a Markdown (GitHub) table: | and \ escaped,
// line breaks made spaces, and the characters that would start emphasis,
// code, a link or HTML escaped, so that a cell shows its text as it is.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	line := func(r []string) {
		b.WriteString("|")
		for _, f := range r {
			b.WriteString(" ")
			b.WriteString(markdownCell(f))
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	line(t.Head)
	b.WriteString("|" + strings.Repeat("---|", len(t.Head)) + "\n")
	for _, r := range t.Rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, `|`, `\|`, "`", "\\`", `*`, `\*`, `_`, `\_`, `<`, `\<`, `>`, `\>`, `[`, `\[`, `]`, `\]`,
	"\r\n", " ", "\n", " ", "\r", " ")

func markdownCell(s string) string { return markdownEscaper.Replace(s) }
