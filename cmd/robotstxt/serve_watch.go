package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt/server"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
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

// watchSecrets sets the key that seals the watches' webhooks and the
// admin token of the watches: from the environment (ROBOTSTXT_WATCH_KEY,
// ROBOTSTXT_WATCH_ADMIN_TOKEN), else the files given, else a key file
// beside a bbolt store (its name and ".watch-key"), or in the user's
// config directory for Redis. A store in memory needs no key that lasts.
func watchSecrets(o *server.WatchOptions, keyFile, adminFile string, st store.Store, log *slog.Logger) error {
	if v := os.Getenv("ROBOTSTXT_WATCH_KEY"); v != "" {
		k, err := watch.ParseKey(v)
		if err != nil {
			return fmt.Errorf("ROBOTSTXT_WATCH_KEY: %s", strings.TrimPrefix(err.Error(), "watch: "))
		}
		o.Key = k
	} else {
		file := keyFile
		if file == "" {
			h := storeopen.Health(st)
			switch {
			case h.Degraded || h.Name == "memory":
			case strings.HasPrefix(h.Name, "bbolt "):
				file = strings.TrimPrefix(h.Name, "bbolt ") + ".watch-key"
			default:
				dir, err := os.UserConfigDir()
				if err != nil {
					return fmt.Errorf("--watch-key-file: no user config directory for the default key file (%v): give one", err)
				}
				file = filepath.Join(dir, "robotstxt", "watch.key")
				log.Warn("the watches' webhooks are sealed with the key of "+file+": give every server of a fleet the same (--watch-key-file or ROBOTSTXT_WATCH_KEY)", "store", h.Name)
			}
		}
		if file != "" {
			k, err := watch.KeyFromFile(file)
			if err != nil {
				return fmt.Errorf("--watch-key-file: %s", strings.TrimPrefix(err.Error(), "watch: "))
			}
			o.Key = k
		}
	}
	o.AdminToken = strings.TrimSpace(os.Getenv("ROBOTSTXT_WATCH_ADMIN_TOKEN"))
	if adminFile != "" {
		b, err := os.ReadFile(adminFile)
		if err != nil {
			return fmt.Errorf("--watch-admin-token-file: %v", err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if o.AdminToken = strings.TrimSpace(line); len(o.AdminToken) < 16 {
			return fmt.Errorf("--watch-admin-token-file: %s: the first line holds %d characters; want a token of 16 or more", adminFile, len(o.AdminToken))
		}
	}
	return nil
}
