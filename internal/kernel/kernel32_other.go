//go:build !amd64

package kernel

// sums32Blocks leaves every problem to Sums32's loops in Go (the packed
// kernels are amd64's).
func sums32Blocks(z, W []float32, S int, ind []int32, val []float32) int { return 0 }

// addSteps32Blocks leaves every problem to AddSteps32's loop in Go.
func addSteps32Blocks(W []float32, S int, d []float32, ind []int32, val []float32) int { return 0 }

// addScaledSteps32Blocks leaves every problem to AddScaledSteps32's loop
// in Go.
func addScaledSteps32Blocks(W, Sc []float32, S int, d []float32, ind []int32) int { return 0 }

// addSquares32Blocks leaves every problem to AddSquares32's loop in Go.
func addSquares32Blocks(q []float64, Sc []float32, S int, ind []int32) int { return 0 }
