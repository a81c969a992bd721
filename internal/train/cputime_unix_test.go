//go:build unix

package train

import "syscall"

// processCPU returns the CPU seconds (user and system) the process has
// used, for benchmarks on a loaded machine, where wall time says little.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
