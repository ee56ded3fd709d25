//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package boltstore

import (
	"os"
	"time"
)

// lockFile does nothing here: bbolt locks the file itself, after it has
// been checked. Two processes opening one damaged file at the same moment
// may then both move it aside.
func lockFile(f *os.File, wait time.Duration) error { return nil }
