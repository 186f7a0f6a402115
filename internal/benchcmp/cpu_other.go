//go:build !unix

package benchcmp

import "time"

// cpuTime is 0 where the process's CPU time is not read: x-cpu is not
// reported there.
func cpuTime() time.Duration { return 0 }
