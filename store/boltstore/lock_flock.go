//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package boltstore

import (
	"errors"
	"os"
	"syscall"
	"time"

	berrors "go.etcd.io/bbolt/errors"
)

// lockFile takes the lock bbolt takes (flock, exclusive) on f, trying every
// 50 ms for up to wait, so that the file is checked, and moved aside when
// damaged, by its only user. bbolt's own flock on the same open file then
// succeeds at once.
func lockFile(f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if !time.Now().Before(deadline) {
			return berrors.ErrTimeout
		}
		time.Sleep(min(50*time.Millisecond, time.Until(deadline)))
	}
}
