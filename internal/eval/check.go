// The cross-flag checks of an eval command line (Flags.Check): a model
// file or a cross-validation, the output, the gates, and which options go
// with which.

package eval

import (
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
)

// Flags are the choices of an eval command line that Check checks
// together.
type Flags struct {
	// Model is -m: a model file, or with CV > 0 an estimator kind ("":
	// with Auto, the search chooses).
	Model string
	// CV is --cv K (0: evaluate a model file); Auto is --auto.
	CV   int
	Auto bool
	// Format is --format (Formats); TopK is --top-k.
	Format string
	TopK   int
	// MultiLabel is --multi-label; Fields is record fields given.
	MultiLabel, Fields bool
	// Baseline is --baseline; ToleranceGiven is --tolerance given.
	Baseline       string
	ToleranceGiven bool
	// MinRecall and MinPrecision are the LABEL=x values Check parses into
	// the gates.
	MinRecall, MinPrecision []string
	// TrainingOnly are the vectorizer and estimator flags (as "--name")
	// given on the command line, which only --cv uses: a model file keeps
	// the settings it was trained with. NBTEXT_* and config-file values
	// are meant for train and eval --cv, and are not listed.
	TrainingOnly []string
}

// Hooks are the checks of Flags.Check that the caller owns, each run at
// its place in the order (nil: nothing to check).
type Hooks struct {
	// Search checks the --auto settings; MultiLabel the multi-label
	// options.
	Search, MultiLabel func() error
	// Fields checks the record fields against the model kind (Multinomial
	// without --cv, where the fields only name columns).
	Fields func(kind model.Kind) error
}

// Check reports the first problem of f, h's among them, and parses the
// label gates of f into g. Its own errors are UsageErrors.
func (f Flags) Check(g *Gates, h Hooks) error {
	run := func(check func() error) error {
		if check == nil {
			return nil
		}
		return check()
	}
	if f.Auto {
		if f.CV == 0 {
			return usagef("--auto needs --cv K: eval --cv K --auto cross-validates the whole search (nested)")
		}
		if err := run(h.Search); err != nil {
			return err
		}
	}
	if f.Model == "" && !f.Auto {
		return usagef("-m MODEL is required (with --cv: --model KIND)")
	}
	if set := f.TrainingOnly; f.CV == 0 && len(set) > 0 {
		what := "training settings"
		if len(set) == 1 {
			what = "a training setting"
		}
		return usagef("%s: %s, used only with --cv; a model file (-m) keeps the settings it was trained with", strings.Join(set, ", "), what)
	}
	if !slices.Contains(Formats, f.Format) {
		return usagef("--format must be table, tsv or json, got %q", f.Format)
	}
	if f.TopK < 0 {
		return usagef("--top-k must be ≥ 0, got %d", f.TopK)
	}
	if f.CV == 1 || f.CV < 0 {
		return usagef("--cv must be ≥ 2, got %d", f.CV)
	}
	kind := model.Multinomial // without --cv, the field flags only name fields
	if f.CV > 0 && f.Model != "" {
		var err error
		if kind, err = model.ParseKind(f.Model); err != nil {
			return usagef("with --cv, --model names an estimator: %v", err)
		}
	}
	if h.Fields != nil {
		if err := h.Fields(kind); err != nil {
			return err
		}
	}
	if err := run(h.MultiLabel); err != nil {
		return err
	}
	return f.checkGates(g)
}

// checkGates parses the label gates into g and checks what goes with
// what: no baseline or multi-label with --cv, --tolerance with
// --baseline, no log-loss gate for a multi-label model.
func (f Flags) checkGates(g *Gates) error {
	if f.MultiLabel && (f.CV > 0 || f.Fields) {
		return usagef("--multi-label evaluates a multi-label model file, without --cv or record fields")
	}
	if err := g.Parse(f.MinRecall, f.MinPrecision); err != nil {
		return err
	}
	if f.Baseline != "" && f.CV > 0 {
		return usagef("--baseline compares two model files on one corpus; eval --cv has no model file")
	}
	if f.ToleranceGiven && f.Baseline == "" {
		return usagef("--tolerance needs --baseline OLD.nbm")
	}
	if g.MaxLogLoss > 0 && f.MultiLabel {
		return usagef("--max-log-loss: a multi-label evaluation has no log-loss")
	}
	return nil
}
