package bulk

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/store"
)

// FuzzRun runs the engine over any input (the fetches answered in memory,
// testweb.Memory): it does not fail, and writes one whole JSON result per
// subject for each line that is not blank or a comment, in input order.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"http://s1.test/a\n", "{\"url\":\"http://s2.test/\",\"id\":[1,{}]}\n# c\n\n", "{not json\n", "\xff\xfe\n",
		"http://s3.test/%zz\x00\n", "{\"url\":5}\n", "http://[::1\n", "ftp://s4.test/x\r\n{\"URL\":\"x\",\"url\":\"http://s5.test\"}",
		"  http://s6.test/ \n\t\n", "{\"url\":\"http://s7.test/\\u2028\",\"Allowed\":true}\n",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in string, csv bool) {
		cfg := memoryConfig(store.NewMemory(nil), csv)
		var out bytes.Buffer
		sum, err := run(context.Background(), cfg, strings.NewReader(in), &out)
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		lines := 0
		for l := range strings.Lines(in) {
			if l = strings.TrimSpace(l); l != "" && l[0] != '#' {
				lines++
			}
		}
		if sum.URLs != int64(lines) || sum.Results != int64(lines) {
			t.Fatalf("%d URLs, %d results for %d lines", sum.URLs, sum.Results, lines)
		}
		if csv {
			if n := strings.Count(out.String(), "\n"); n < lines+1 {
				t.Fatalf("%d CSV lines for %d input lines and the header", n, lines)
			}
			return
		}
		n := 0
		for l := range strings.Lines(out.String()) {
			var r Result
			if err := json.Unmarshal([]byte(l), &r); err != nil || !strings.HasSuffix(l, "\n") {
				t.Fatalf("result %d is not a whole JSON line: %v: %q", n+1, err, l)
			}
			n++
		}
		if n != lines {
			t.Fatalf("%d results written for %d lines", n, lines)
		}
	})
}
