package eval

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Gates are the scores an evaluation must reach, for CI (nbtext eval
// --min-accuracy X --min-macro-f1 Y --max-log-loss Z --min-recall L=x
// --min-precision L=x --baseline OLD.nbm --tolerance T). A zero threshold
// is no gate; so is an empty map.
type Gates struct {
	MinAccuracy float64 // --min-accuracy
	MinMacroF1  float64 // --min-macro-f1
	MaxLogLoss  float64 // --max-log-loss (0: no gate)
	// MinRecall and MinPrecision gate one label each: label -> threshold.
	MinRecall    map[string]float64 // --min-recall LABEL=x
	MinPrecision map[string]float64 // --min-precision LABEL=x
	// Tolerance is how much lower than a baseline's the accuracy and
	// macro F1 may be (--tolerance, with --baseline).
	Tolerance float64
}

// Scores are the figures of one evaluation that gates read, whatever the
// mode produced them: a model on a corpus (Report), a multi-label model
// (MultiLabelReport: Accuracy is the subset accuracy, LogLoss is NaN) or a
// cross-validation (CVResult: means over the folds). NaN, or a nil map,
// is a figure the mode does not have.
type Scores struct {
	Accuracy, MacroF1, LogLoss float64
	Precision, Recall          map[string]float64
}

// Scores returns the figures of r that gates read.
func (r *Report) Scores() Scores {
	s := Scores{Accuracy: r.Accuracy, MacroF1: r.Macro.F1, LogLoss: r.LogLoss,
		Precision: map[string]float64{}, Recall: map[string]float64{}}
	for _, m := range r.PerClass {
		s.Precision[m.Label], s.Recall[m.Label] = m.Precision, m.Recall
	}
	return s
}

// Scores returns the figures of r that gates read: the subset accuracy
// (every label of a document right) as accuracy, and no log-loss.
func (r *MultiLabelReport) Scores() Scores {
	s := Scores{Accuracy: r.SubsetAccuracy, MacroF1: r.MacroF1, LogLoss: math.NaN(),
		Precision: map[string]float64{}, Recall: map[string]float64{}}
	for _, l := range r.Labels {
		s.Precision[l.Label], s.Recall[l.Label] = l.Precision, l.Recall
	}
	return s
}

// Scores returns the figures of r that gates read: the means over the
// folds, per label over the folds whose held-out part reports the label.
func (r *CVResult) Scores() Scores {
	s := Scores{Accuracy: r.Mean.Accuracy, MacroF1: r.Mean.MacroF1, LogLoss: r.Mean.LogLoss}
	sumP, sumR, n := map[string]float64{}, map[string]float64{}, map[string]int{}
	for _, f := range r.Folds {
		if f.Report == nil {
			continue
		}
		for _, m := range f.Report.PerClass {
			sumP[m.Label] += m.Precision
			sumR[m.Label] += m.Recall
			n[m.Label]++
		}
	}
	if len(n) > 0 {
		s.Precision, s.Recall = map[string]float64{}, map[string]float64{}
		for l, k := range n {
			s.Precision[l], s.Recall[l] = sumP[l]/float64(k), sumR[l]/float64(k)
		}
	}
	return s
}

// GateError is a score on the wrong side of its gate.
type GateError struct {
	Metric    string  // "accuracy", "macro F1", "log-loss", "recall of spam", ...
	Flag      string  // the flag that set the gate, e.g. "--min-accuracy"
	Value     float64 // the score reached
	Threshold float64 // the gate
	Max       bool    // the gate is a maximum (log-loss)
}

// Error names the metric, its value and the threshold.
func (e *GateError) Error() string {
	side := "below"
	if e.Max {
		side = "above"
	}
	return fmt.Sprintf("%s %.6g is %s %s %g", e.Metric, e.Value, side, e.Flag, e.Threshold)
}

// GateUnavailableError is a gate on a figure the evaluation does not have
// (a log-loss without probabilities, a label the report does not know):
// the gate cannot apply, which is a usage error, not a failed gate.
type GateUnavailableError struct{ Reason string }

func (e *GateUnavailableError) Error() string { return e.Reason }

// ParseLabelThresholds parses --min-recall style values, LABEL=x each, x
// in [0, 1], into a map (nil for no values). The label is what precedes the
// last '=', so labels may contain '='.
func ParseLabelThresholds(flag string, values []string) (map[string]float64, error) {
	if len(values) == 0 {
		return nil, nil
	}
	m := map[string]float64{}
	for _, v := range values {
		i := strings.LastIndexByte(v, '=')
		if i <= 0 {
			return nil, fmt.Errorf("%s takes LABEL=x, got %q", flag, v)
		}
		x, err := strconv.ParseFloat(v[i+1:], 64)
		if err != nil || x < 0 || x > 1 {
			return nil, fmt.Errorf("%s %s: the threshold must be a number in [0, 1], got %q", flag, v[:i], v[i+1:])
		}
		m[v[:i]] = x
	}
	return m, nil
}

// Parse sets MinRecall and MinPrecision from the values of --min-recall
// and --min-precision (ParseLabelThresholds) and validates g (Validate).
func (g *Gates) Parse(minRecall, minPrecision []string) error {
	if err := g.Validate(); err != nil {
		return err
	}
	var err error
	if g.MinRecall, err = ParseLabelThresholds("--min-recall", minRecall); err != nil {
		return err
	}
	g.MinPrecision, err = ParseLabelThresholds("--min-precision", minPrecision)
	return err
}

// Validate checks that each threshold lies in its range.
func (g Gates) Validate() error {
	if g.MinAccuracy < 0 || g.MinAccuracy > 1 || math.IsNaN(g.MinAccuracy) {
		return fmt.Errorf("--min-accuracy must be in [0, 1], got %g", g.MinAccuracy)
	}
	if g.MinMacroF1 < 0 || g.MinMacroF1 > 1 || math.IsNaN(g.MinMacroF1) {
		return fmt.Errorf("--min-macro-f1 must be in [0, 1], got %g", g.MinMacroF1)
	}
	if g.MaxLogLoss < 0 || math.IsNaN(g.MaxLogLoss) || math.IsInf(g.MaxLogLoss, 0) {
		return fmt.Errorf("--max-log-loss must be a finite number > 0 (0: no gate), got %g", g.MaxLogLoss)
	}
	if g.Tolerance < 0 || g.Tolerance > 1 || math.IsNaN(g.Tolerance) {
		return fmt.Errorf("--tolerance must be in [0, 1], got %g", g.Tolerance)
	}
	return nil
}

// Any reports whether g holds a gate on the scores themselves (the
// baseline aside).
func (g Gates) Any() bool {
	return g.MinAccuracy > 0 || g.MinMacroF1 > 0 || g.MaxLogLoss > 0 || len(g.MinRecall) > 0 || len(g.MinPrecision) > 0
}

// check is one gate, met or not.
type check struct {
	err *GateError
	ok  bool
}

func (c check) String() string {
	op := "≥"
	if c.err.Max {
		op = "≤"
	}
	if !c.ok {
		op = "<"
		if c.err.Max {
			op = ">"
		}
	}
	return fmt.Sprintf("%s %.4f %s %g (%s)", c.err.Metric, c.err.Value, op, c.err.Threshold, c.err.Flag)
}

// checks evaluates every gate of g on s (and, when old is not nil, the
// baseline's scores less the tolerance). A gate on a figure s lacks is a
// *GateUnavailableError.
func (g Gates) checks(s Scores, old *Scores, baseline string) ([]check, error) {
	var cs []check
	min := func(metric, flag string, v, t float64) {
		cs = append(cs, check{&GateError{Metric: metric, Flag: flag, Value: v, Threshold: t}, v >= t})
	}
	if g.MinAccuracy > 0 {
		min("accuracy", "--min-accuracy", s.Accuracy, g.MinAccuracy)
	}
	if g.MinMacroF1 > 0 {
		min("macro F1", "--min-macro-f1", s.MacroF1, g.MinMacroF1)
	}
	if g.MaxLogLoss > 0 {
		if math.IsNaN(s.LogLoss) {
			return nil, &GateUnavailableError{"--max-log-loss: this evaluation has no log-loss (no class probabilities)"}
		}
		cs = append(cs, check{&GateError{Metric: "log-loss", Flag: "--max-log-loss", Value: s.LogLoss, Threshold: g.MaxLogLoss, Max: true}, s.LogLoss <= g.MaxLogLoss})
	}
	for _, pl := range []struct {
		flag, what  string
		gates, have map[string]float64
	}{{"--min-recall", "recall", g.MinRecall, s.Recall}, {"--min-precision", "precision", g.MinPrecision, s.Precision}} {
		for _, l := range sortedLabels(pl.gates) {
			v, ok := pl.have[l]
			if !ok {
				return nil, &GateUnavailableError{fmt.Sprintf("%s %s: no label %q in this evaluation (labels: %s)", pl.flag, l, l, strings.Join(sortedLabels(pl.have), ", "))}
			}
			min(pl.what+" of "+l, pl.flag, v, pl.gates[l])
		}
	}
	if old != nil {
		flag := "--baseline " + baseline
		if g.Tolerance > 0 {
			flag += fmt.Sprintf(" - --tolerance %g", g.Tolerance)
		}
		for _, m := range []struct {
			name     string
			new, old float64
		}{{"accuracy", s.Accuracy, old.Accuracy}, {"macro F1", s.MacroF1, old.MacroF1}} {
			t := m.old - g.Tolerance
			// A rounding margin: the same model on the same data passes.
			cs = append(cs, check{&GateError{Metric: m.name, Flag: flag, Value: m.new, Threshold: roundGate(t)}, m.new >= t-1e-12})
		}
	}
	return cs, nil
}

func roundGate(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func sortedLabels(m map[string]float64) []string {
	ls := make([]string, 0, len(m))
	for l := range m {
		ls = append(ls, l)
	}
	slices.Sort(ls)
	return ls
}

// Check applies every gate of g to s, and, when old is not nil, the
// baseline gate (s's accuracy and macro F1 at least old's less
// g.Tolerance; baseline names the old model). It returns the one-line
// verdict ("" when there is no gate) and nil when every gate is met, a
// *GateError per failed gate otherwise (joined with errors.Join; the
// message of the joined error is the verdict, errors.As finds the first),
// or a *GateUnavailableError for a gate s has no figure for.
func (g Gates) Check(s Scores, old *Scores, baseline string) (verdict string, err error) {
	cs, err := g.checks(s, old, baseline)
	if err != nil {
		return "", err
	}
	if len(cs) == 0 {
		return "", nil
	}
	var failed, passed []string
	var errs []error
	for _, c := range cs {
		if c.ok {
			passed = append(passed, c.String())
		} else {
			failed = append(failed, c.String())
			errs = append(errs, c.err)
		}
	}
	if len(errs) == 0 {
		return fmt.Sprintf("gates passed: %s", strings.Join(passed, "; ")), nil
	}
	verdict = fmt.Sprintf("gates failed: %s", strings.Join(failed, "; "))
	if len(passed) > 0 {
		verdict += fmt.Sprintf("; passed: %s", strings.Join(passed, "; "))
	}
	return verdict, &gateFailure{verdict, errors.Join(errs...)}
}

// gateFailure carries the failed gates with the verdict as its message.
type gateFailure struct {
	verdict string
	err     error
}

func (e *gateFailure) Error() string { return e.verdict }
func (e *gateFailure) Unwrap() error { return e.err }
