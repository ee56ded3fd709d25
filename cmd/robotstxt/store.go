package main

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt/store"
)

// defaultStoreSpec is the store the commands that fetch use when --store is
// not given.
const defaultStoreSpec = "memory"

// openStore opens the robots.txt cache's store that a --store value names.
// Every kind of store is opened here, so that each command taking --store
// accepts the same values: "memory" (the cache lasts as long as the command).
func openStore(spec string) (store.Store, error) {
	switch spec {
	case "", "memory":
		return store.NewMemory(nil), nil
	}
	return nil, fmt.Errorf("--store %q: unknown store (this build knows \"memory\")", spec)
}
