package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/server"
	"github.com/seed53c283f5/robotstxt/watch"
)

// watchOptions reads serve's --watch FILE (none: no watch) and
// --watch-min-interval.
func watchOptions(file string, minInterval time.Duration) (server.WatchOptions, error) {
	o := server.WatchOptions{MinInterval: minInterval}
	if minInterval <= 0 {
		return o, fmt.Errorf("--watch-min-interval must be positive, not %v", minInterval)
	}
	if file == "" {
		return o, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return o, fmt.Errorf("--watch: %v", err)
	}
	if len(b) > 8<<20 {
		return o, fmt.Errorf("--watch: %s: %d bytes, more than 8 MiB", file, len(b))
	}
	specs, err := watch.ParseSpecs(b)
	if err != nil {
		return o, fmt.Errorf("--watch: %s: %s", file, strings.TrimPrefix(err.Error(), "watch: "))
	}
	o.Specs = specs
	return o, nil
}
