//go:build !unix

package search

import "errors"

// cpuSeconds is not available here: a CPU-time budget is refused.
func cpuSeconds() (float64, error) {
	return 0, errors.New("a CPU-time budget needs a Unix system (getrusage)")
}
