//go:build !unix

package webbotauth

import "time"

func cpuTime() time.Duration { return 0 }
