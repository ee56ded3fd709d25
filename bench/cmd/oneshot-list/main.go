// Command oneshot-list prints the one-shot questions of the benchmark sample
// (a file, a user agent, a URL, tab-separated) for google/oneshot.sh.
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/seed53c283f5/robotstxt/bench"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	if err := bench.WriteOneShotList(w); err != nil {
		fmt.Fprintln(os.Stderr, "oneshot-list:", err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "oneshot-list:", err)
		os.Exit(1)
	}
}
