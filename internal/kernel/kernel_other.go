//go:build !amd64

package kernel

// addScoresBlocks leaves every class to AddScores' loops in Go (the
// packed kernels are amd64's).
func addScoresBlocks(z, W []float64, ind []int32, val []float32) int { return 0 }

// subScaledBlocks leaves every class to SubScaled's loops in Go.
func subScaledBlocks(W, r []float64, a float64, ind []int32, val []float32) int { return 0 }
