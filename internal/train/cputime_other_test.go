//go:build !unix

package train

// processCPU is 0 where getrusage is missing: the benchmarks then report
// no CPU time.
func processCPU() float64 { return 0 }
