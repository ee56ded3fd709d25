package main

import (
	"fmt"
	"io"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

// defaultStoreSpec is the store the commands that fetch use when --store is
// not given: storeopen's default, a bbolt file in the user's cache directory.
const defaultStoreSpec = ""

// storeOptions tune the stores openStore opens; tests shorten LockTimeout.
var storeOptions storeopen.Options

// openStore opens the robots.txt cache's store that a --store value names.
// Every kind of store is opened here, so that each command taking --store
// accepts the same values: "memory", a bbolt file path, a redis:// URL, or
// "" for the default bbolt file (see package storeopen, which refuses a
// value that looks like a mistyped kind or URL, "Memory" or "redis:/x",
// instead of making a file of that name). A store that runs on memory
// instead of what was asked (a locked file, Redis down, a default file
// that cannot be made: no cache directory, or one under a file or
// read-only) is no error: its one-line message goes to stderr, as does the
// one about a damaged cache file moved aside. A file named with --store
// that cannot be made is an error.
func openStore(spec string, stderr io.Writer) (store.Store, error) {
	st, err := storeopen.Open(spec, &storeOptions)
	if err != nil {
		// The error names the file, or the Redis URL without its
		// password: spec itself is not repeated.
		return nil, fmt.Errorf("--store: %v", err)
	}
	if n := storeopen.Notice(st); n != "" {
		fmt.Fprintf(stderr, "robotstxt: %s\n", n)
	}
	if h := storeopen.Health(st); h.Degraded {
		fmt.Fprintf(stderr, "robotstxt: %s\n", h.Message)
	}
	return st, nil
}
