package progress

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// IsTerminal reports whether w is a terminal (false for buffers and pipes).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Bytes is the unit of a bar that counts bytes: it shows them as kB, MB,
// GB with a rate (MB/s).
const Bytes = "bytes"

// phaseUnits is what the callers count in each phase they name, so that
// every bar says what its numbers are: the core packages report (done,
// total) in these units (see their Progress fields). "reading" is absent:
// a corpus reports bytes for files and archives but documents for
// folders, so Reading chooses by the source.
var phaseUnits = map[string]string{
	"searching":                 "evals",  // search: candidate evaluations (a candidate on a fold)
	"fitting":                   "passes", // logreg: SGD epochs or L-BFGS iterations; svm, nblr --stream: passes over the blocks
	"cross-validating":          "fits",   // eval --cv: one per fold; --alpha/--C auto: one per fold and candidate
	"cross-validating α":        "fits",
	"cross-validating λ":        "fits",
	"fitting labels":            "labels", // multi-label: one binary model per label
	"tuning thresholds (folds)": "folds",
	"EM":                        "documents", // unlabelled documents read, over the EM iterations
}

// Phase returns a callback that drives a bar on w named after phase, in
// the unit the phase counts, or nil when w is not a terminal or quiet.
func Phase(w io.Writer, quiet bool, phase string) func(done, total int) {
	return In(w, quiet, phase, phaseUnits[phase])
}

// Reading is Phase for reading the corpus at path, in the unit its
// reader reports (ReadingUnit).
func Reading(w io.Writer, quiet bool, path string) func(done, total int) {
	return In(w, quiet, "reading", ReadingUnit(path))
}

// ReadingUnit is what the corpus readers count while reading path: its
// bytes for a file, an archive or stdin ("-"), its documents for a folder.
func ReadingUnit(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return "documents"
	}
	return Bytes
}

// In returns a callback that drives a bar on w, or nil when w is not a
// terminal or quiet. The callers report (done, total) in unit (Bytes: kB,
// MB, GB; "": a plain count); a total ≤ 0 is unknown (a stream), drawn as
// a spinner with the count so far. The bar is throttled to ~10 redraws a
// second and cleared when done reaches a known total.
func In(w io.Writer, quiet bool, phase, unit string) func(done, total int) {
	if quiet || !IsTerminal(w) {
		return nil
	}
	return Bar(w, phase, unit)
}

// Bar is In's callback, drawing on w whatever it is.
func Bar(w io.Writer, phase, unit string) func(done, total int) {
	var (
		mu    sync.Mutex
		bar   *progressbar.ProgressBar
		known bool // the bar has a total (else it is a spinner)
	)
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if bar != nil && !known && total > 0 && done < total {
			// The total became known: a bar in place of the spinner.
			bar.Clear()
			bar = nil
		}
		if bar == nil {
			known = total > 0
			max := int64(total)
			if !known {
				max = -1
			}
			bar = progressbar.NewOptions64(max, options(w, phase, unit)...)
		}
		if known && total > 0 && bar.GetMax64() != int64(total) {
			bar.ChangeMax64(int64(total))
		}
		bar.Set64(int64(done))
		if total > 0 && done >= total {
			bar.Finish()
			bar = nil
		}
	}
}

// options are the options of a bar for phase counting unit.
func options(w io.Writer, phase, unit string) []progressbar.Option {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(phase),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	}
	switch unit {
	case Bytes:
		opts = append(opts, progressbar.OptionShowBytes(true), progressbar.OptionShowTotalBytes(true))
	case "":
	default:
		opts = append(opts, progressbar.OptionShowTotalBytes(true), progressbar.OptionSetItsString(unit), progressbar.OptionShowIts())
	}
	return opts
}
