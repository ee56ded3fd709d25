package store_test

import (
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

func TestMemoryConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
		return store.NewMemory(&store.MemoryOptions{Now: now})
	}, nil)
}
