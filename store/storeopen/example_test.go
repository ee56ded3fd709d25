package storeopen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

func ExampleOpen() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	// The spec usually comes from a flag: "memory", a file, "" for the
	// default file, or a redis:// URL.
	for _, spec := range []string{"memory", filepath.Join(dir, "cache.db")} {
		s, err := storeopen.Open(spec, nil)
		if err != nil {
			fmt.Println(err)
			continue
		}
		_ = s.Put(context.Background(), "https://example.com", []byte("entry"), time.Hour)
		h := storeopen.Health(s)
		if h.Degraded {
			fmt.Println("warning:", h.Message)
		}
		fmt.Println(filepath.Base(h.Name))
		s.Close()
	}
	// Output:
	// memory
	// cache.db
}
