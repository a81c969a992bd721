package eval

import (
	"errors"
	"fmt"
)

// Gates are minimum scores a report must reach, for CI smoke tests
// (nbtext eval --min-accuracy X --min-macro-f1 Y). A zero threshold is no
// gate: every score is at least 0.
type Gates struct {
	MinAccuracy float64 // --min-accuracy
	MinMacroF1  float64 // --min-macro-f1
}

// GateError is a score below its gate.
type GateError struct {
	Metric    string  // "accuracy" or "macro F1"
	Flag      string  // the flag that set the gate, e.g. "--min-accuracy"
	Value     float64 // the score reached
	Threshold float64 // the gate
}

// Error names the metric, its value and the threshold.
func (e *GateError) Error() string {
	return fmt.Sprintf("%s %.6g is below %s %g", e.Metric, e.Value, e.Flag, e.Threshold)
}

// Validate checks that each threshold lies in [0, 1].
func (g Gates) Validate() error {
	if g.MinAccuracy < 0 || g.MinAccuracy > 1 {
		return fmt.Errorf("--min-accuracy must be in [0, 1], got %g", g.MinAccuracy)
	}
	if g.MinMacroF1 < 0 || g.MinMacroF1 > 1 {
		return fmt.Errorf("--min-macro-f1 must be in [0, 1], got %g", g.MinMacroF1)
	}
	return nil
}

// Check returns nil when r reaches every gate, otherwise a *GateError per
// failed gate (joined with errors.Join when both fail; errors.As finds the
// first).
func (g Gates) Check(r *Report) error {
	var errs []error
	if r.Accuracy < g.MinAccuracy {
		errs = append(errs, &GateError{Metric: "accuracy", Flag: "--min-accuracy", Value: r.Accuracy, Threshold: g.MinAccuracy})
	}
	if r.Macro.F1 < g.MinMacroF1 {
		errs = append(errs, &GateError{Metric: "macro F1", Flag: "--min-macro-f1", Value: r.Macro.F1, Threshold: g.MinMacroF1})
	}
	return errors.Join(errs...)
}
