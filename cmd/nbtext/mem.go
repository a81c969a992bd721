package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// applyMemLimit sets the Go runtime's soft memory limit
// (debug.SetMemoryLimit): --mem when given; else none of ours when
// GOMEMLIMIT is set (the runtime applied it at start); else, under an
// address-space limit (ulimit -v, prlimit --as), that limit less the
// address space the runtime reserves beyond its heap (runtimeReserve), and
// at least a quarter of it, so that the collector works harder before the
// limit is reached instead of the runtime dying on it; else no limit. A soft limit makes the collector run
// more often near it; it cannot make a command fit in less memory than its
// live data (see docs/speed.md, Memory).
func applyMemLimit(mem string) error {
	var limit int64 = math.MaxInt64
	switch {
	case mem != "":
		n, err := parseBytes(mem)
		if err != nil {
			return usageErrorf("--mem: %v", err)
		}
		limit = n
	case os.Getenv("GOMEMLIMIT") != "":
		return nil
	default:
		if as := addressSpaceLimit(); as > 0 && as < math.MaxInt64 {
			limit = max(int64(as)/4, int64(as)-runtimeReserve)
		}
	}
	debug.SetMemoryLimit(limit)
	return nil
}

// readGCPercent is the collector's target (debug.SetGCPercent) while a
// corpus streams into a vectorizer that keeps none of its texts
// (corpus.Options.DropTexts): the live heap is then the count tables and
// rows alone, small beside the texts that pass through, so letting the
// heap grow to 3× of it rather than 2× between collections halves their
// number and their page faults at a peak below that of keeping the texts
// (train --model multinomial, 20 Newsgroups: 133 MB against 147 MB, 7%
// less CPU; see docs/speed.md).
const readGCPercent = 200

// relaxGC sets the collector's target to readGCPercent, unless GOGC is set
// (the user's choice stands), and returns the function that restores it.
func relaxGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(readGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// runtimeReserve is about the address space a Go program on linux/amd64
// reserves besides its heap (page summaries, arena index, stacks). Measured
// with prlimit --as on train --model complement, 20 Newsgroups: 1e9 bytes
// fails with a 300 MiB soft limit and passes with 250 MiB.
const runtimeReserve = 768 << 20

// parseBytes reads a size such as 800M, 1.5GiB or 1073741824: a
// non-negative number, optionally followed by K, M, G or T (binary units,
// 1024^k; "KiB", "KB" and "K" are the same) with an optional "B".
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "KMGTkmgtiIbB")
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	shift := 0
	if unit != "" {
		shift = strings.Index("KMGT", unit) + 1
	}
	if len(unit) > 1 || (unit != "" && shift == 0) {
		return 0, fmt.Errorf("%q: unknown unit (want K, M, G or T, e.g. 800M or 2GiB)", s)
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(x) || x <= 0 {
		return 0, fmt.Errorf("%q: want a size > 0, e.g. 800M or 2GiB", s)
	}
	x *= math.Pow(1024, float64(shift))
	if x >= math.MaxInt64 {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return int64(x), nil
}
