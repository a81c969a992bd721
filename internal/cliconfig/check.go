package cliconfig

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// WorkersPerCore bounds --workers: more goroutines than this many per core
// only add memory (each worker holds its own scratch buffers and batches),
// never speed.
const WorkersPerCore = 4

// MaxWorkers is the largest --workers value: WorkersPerCore × cores.
func MaxWorkers() int { return WorkersPerCore * runtime.NumCPU() }

// Check applies the rules every command shares to the flags of fs, once
// their values are resolved (command line, NBTEXT_*, config file): every
// float is a finite number, and --workers is ≥ 0 and capped at
// WorkersPerCore × cores, with a notice given to warn.
func Check(fs *pflag.FlagSet, warn func(msg string)) error {
	var firstErr error
	fs.VisitAll(func(f *pflag.Flag) {
		if firstErr == nil && f.Changed {
			firstErr = checkFinite(f)
		}
	})
	if firstErr != nil {
		return firstErr
	}
	f := fs.Lookup("workers")
	if f == nil || !f.Changed {
		return nil
	}
	n, err := strconv.Atoi(f.Value.String())
	if err != nil {
		return nil // not an int flag: nothing to bound
	}
	limit := MaxWorkers()
	switch {
	case n < 0:
		return usageErrorf("%s--workers must be ≥ 0 (0: one per core), got %d", sourcePrefix(f), n)
	case n > limit:
		if err := f.Value.Set(strconv.Itoa(limit)); err != nil {
			return err
		}
		warn(fmt.Sprintf("%s--workers %d is more than %d per core: using %d (%d cores)", sourcePrefix(f), n, WorkersPerCore, limit, runtime.NumCPU()))
	}
	return nil
}

// checkFinite fails when a float flag holds NaN or ±Inf, which no float
// setting of nbtext means: a NaN gate (--min-accuracy nan) could never
// fail, a NaN threshold never fire.
func checkFinite(f *pflag.Flag) error {
	switch f.Value.Type() {
	case "float64", "float32", "float64Slice", "float32Slice":
	default:
		return nil
	}
	vals := []string{f.Value.String()}
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		vals = sv.GetSlice()
	}
	for _, s := range vals {
		x, err := strconv.ParseFloat(strings.Trim(s, "[]"), 64)
		if err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			return usageErrorf("%s--%s must be a finite number, got %s", sourcePrefix(f), f.Name, s)
		}
	}
	return nil
}

// Finite parses a float that a string flag holds (one that also takes a
// word, such as --alpha auto) and refuses NaN and ±Inf as Check does.
func Finite(name, s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("--%s: want a finite number, got %q", name, s)
	}
	return x, nil
}
