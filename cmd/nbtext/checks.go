package main

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// workersPerCore bounds --workers: more goroutines than this many per core
// only add memory (each worker holds its own scratch buffers and batches),
// never speed.
const workersPerCore = 4

// checkFlags applies the rules every command shares to the flags of cmd,
// once their values are resolved (command line, NBTEXT_*, config file):
// every float is a finite number, and --workers is ≥ 0 and capped at
// workersPerCore × cores, with a notice.
func checkFlags(cmd *cobra.Command) error {
	var firstErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if firstErr != nil || !f.Changed {
			return
		}
		if err := checkFinite(f); err != nil {
			firstErr = err
		}
	})
	if firstErr != nil {
		return firstErr
	}
	f := cmd.Flags().Lookup("workers")
	if f == nil || !f.Changed {
		return nil
	}
	n, err := strconv.Atoi(f.Value.String())
	if err != nil {
		return nil // not an int flag: nothing to bound
	}
	limit := maxWorkers()
	switch {
	case n < 0:
		return usageErrorf("%s--workers must be ≥ 0 (0: one per core), got %d", sourcePrefix(f), n)
	case n > limit:
		if err := f.Value.Set(strconv.Itoa(limit)); err != nil {
			return err
		}
		note(cmd.ErrOrStderr(), false, "nbtext: %s--workers %d is more than %d per core: using %d (%d cores)", sourcePrefix(f), n, workersPerCore, limit, runtime.NumCPU())
	}
	return nil
}

// maxWorkers is the largest --workers value: workersPerCore × cores.
func maxWorkers() int { return workersPerCore * runtime.NumCPU() }

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

// sourcePrefix names where a flag's value came from when it was not the
// command line ("NBTEXT_ALPHA: " or "FILE: key: "), as resolveConfig
// recorded it, and is empty otherwise.
func sourcePrefix(f *pflag.Flag) string {
	if src := f.Annotations[flagSource]; len(src) > 0 {
		return fmt.Sprintf("%s: ", src[0])
	}
	return ""
}

// finite parses a float that a string flag holds (one that also takes a
// word, such as --alpha auto) and refuses NaN and ±Inf as checkFinite does.
func finite(name, s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("--%s: want a finite number, got %q", name, s)
	}
	return x, nil
}
