// Command gen writes a generated access log of real-looking combined
// lines, for trying robotstxt audit and measuring it:
//
//	go run ./internal/loggen/gen -bytes 1e9 > access.log
//	go run ./internal/loggen/gen -robots > robots.txt
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/seed53c283f5/robotstxt/internal/loggen"
)

func main() {
	size := flag.Float64("bytes", 1e8, "write at least this many bytes")
	seed := flag.Uint64("seed", 1, "the generator's seed")
	robots := flag.Bool("robots", false, "write the generated site's robots.txt instead")
	flag.Parse()
	if *robots {
		fmt.Print(loggen.Robots)
		return
	}
	n, err := loggen.Write(os.Stdout, int64(*size), *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "gen: %d lines\n", n)
}
