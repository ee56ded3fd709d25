//go:build unix

package guard

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has
// used so far: benchmarks report it per operation beside the wall time,
// which the other processes of a shared machine inflate.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
