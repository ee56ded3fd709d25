//go:build unix

package webbotauth

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used: a
// benchmark on a shared machine reports it beside the wall time, which
// other processes inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
