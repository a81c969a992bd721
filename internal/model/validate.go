package model

import (
	"errors"
	"fmt"
	"math"
)

// priorTolerance is how far given priors may sum from 1.
const priorTolerance = 1e-6

// ValidateParams checks the parameters a model of kind k with C classes is
// trained with and returns a reason naming the flag, e.g.
// "--alpha must be ≥ 0, got -1". Only the parameters k uses are checked.
func ValidateParams(k Kind, p Params, C int) error {
	if !k.Valid() {
		return fmt.Errorf("unknown model kind %d", uint8(k))
	}
	if p.FieldAlpha < 0 || math.IsInf(p.FieldAlpha, 1) || math.IsNaN(p.FieldAlpha) {
		return fmt.Errorf("--field-alpha must be > 0, got %v", p.FieldAlpha)
	}
	if p.VarSmoothing < 0 || math.IsInf(p.VarSmoothing, 1) || math.IsNaN(p.VarSmoothing) {
		return fmt.Errorf("--var-smoothing must be ≥ 0, got %v", p.VarSmoothing)
	}
	if k.IsNB() {
		if !(p.Alpha >= 0) || math.IsInf(p.Alpha, 1) {
			return fmt.Errorf("--alpha must be ≥ 0, got %v", p.Alpha)
		}
		if !(p.Beta >= 0) || math.IsInf(p.Beta, 1) {
			return fmt.Errorf("--beta must be ≥ 0, got %v", p.Beta)
		}
	}
	if k == NBLR && (!(p.Alpha > 0) || math.IsInf(p.Alpha, 1)) {
		return fmt.Errorf("--alpha must be > 0 for nblr (its log-count ratios), got %v", p.Alpha)
	}
	if k == NBLR && !(p.Interpolation >= 0 && p.Interpolation <= 1) {
		return fmt.Errorf("--interpolation must be in [0, 1], got %v", p.Interpolation)
	}
	if !(p.Temperature >= 0) || math.IsInf(p.Temperature, 1) {
		return fmt.Errorf("--temperature must be > 0, got %v", p.Temperature)
	}
	if p.ClassWeights != nil {
		if len(p.ClassWeights) != C {
			return fmt.Errorf("--class-weight: want one weight per class (%d), got %d", C, len(p.ClassWeights))
		}
		for i, w := range p.ClassWeights {
			if !(w > 0) || math.IsInf(w, 1) {
				return fmt.Errorf("--class-weight: weight %d must be a finite number > 0, got %v", i+1, w)
			}
		}
	}
	if k == Centroid && (!(p.Temperature >= 0) || math.IsInf(p.Temperature, 1)) {
		return fmt.Errorf("--temperature must be > 0, got %v", p.Temperature)
	}
	if err := validateDensityParams(p); err != nil {
		return err
	}
	switch p.Prior {
	case "", "learned", "uniform":
	case "given":
		if len(p.Priors) != C {
			return fmt.Errorf("--priors: want one probability per class (%d), got %d", C, len(p.Priors))
		}
		sum := 0.0
		for i, q := range p.Priors {
			if !(q >= 0) || math.IsInf(q, 1) {
				return fmt.Errorf("--priors: probability %d must be in [0, 1], got %v", i+1, q)
			}
			sum += q
		}
		if math.Abs(sum-1) > priorTolerance {
			return fmt.Errorf("--priors must sum to 1, got %v", sum)
		}
	default:
		return fmt.Errorf("--prior must be learned, uniform or given, got %q", p.Prior)
	}
	return nil
}

// validateClasses checks that there is at least one class and that class
// names are distinct and non-empty.
func validateClasses(classes []string) error {
	if len(classes) == 0 {
		return errors.New("model has no classes")
	}
	seen := make(map[string]bool, len(classes))
	for _, c := range classes {
		if c == "" {
			return errors.New("model has an empty class name")
		}
		if seen[c] {
			return fmt.Errorf("class %q appears twice", c)
		}
		seen[c] = true
	}
	return nil
}

// validate checks a whole model: kind, classes, parameters, shapes, and
// the values W, B and the NB statistics may take. W may hold -Inf (NB:
// a term whose presence makes a class impossible) or, for complement NB
// only, +Inf; B may hold -Inf for NB (a class of prior 0); nothing is ever
// NaN.
func (m *Model) validate() error {
	if m == nil {
		return errors.New("nil model")
	}
	if m.Kind == Ensemble {
		return m.validateEnsemble(false)
	}
	if !m.Kind.Valid() {
		return fmt.Errorf("unknown model kind %d", uint8(m.Kind))
	}
	if err := validateClasses(m.Classes); err != nil {
		return err
	}
	C := len(m.Classes)
	if err := ValidateParams(m.Kind, m.Params, C); err != nil {
		return err
	}
	if m.Vocab == nil {
		return errors.New("model has no vocabulary")
	}
	if m.Kind.RecordOnly() && m.Fields == nil {
		return fmt.Errorf("%s model without fields", m.Kind)
	}
	if m.Fields != nil {
		if err := checkFieldKinds(m.Kind, m.Fields); err != nil {
			return err
		}
	}
	V := m.Vocab.Len()
	if len(m.W) != V*C {
		return fmt.Errorf("W has %d weights, want %d terms × %d classes = %d", len(m.W), V, C, V*C)
	}
	if len(m.B) != C {
		return fmt.Errorf("B has %d entries, want one per class (%d)", len(m.B), C)
	}
	if m.Binary != m.Kind.BinaryFeatures() && m.Kind != LogReg {
		return fmt.Errorf("%s model with Binary = %v", m.Kind, m.Binary)
	}
	for i, w := range m.W {
		if w-w == 0 { // finite: the common case, one test
			continue
		}
		switch {
		case math.IsNaN(w):
			return fmt.Errorf("W[%d] is NaN", i)
		case math.IsInf(w, -1) && (m.Kind == Bernoulli || m.Kind == Multinomial):
		case math.IsInf(w, 1) && m.Kind == Complement:
		case math.IsInf(w, 0):
			return fmt.Errorf("W[%d] is %v in a %s model", i, w, m.Kind)
		}
	}
	for c, b := range m.B {
		switch {
		case math.IsNaN(b):
			return fmt.Errorf("B[%d] is NaN", c)
		case math.IsInf(b, -1) && (m.Kind == Bernoulli || m.Kind == Multinomial):
		case math.IsInf(b, 0):
			return fmt.Errorf("B[%d] is %v in a %s model", c, b, m.Kind)
		}
	}
	if t := m.Params.LabelThresholds; t != nil {
		if !m.MultiLabel || len(t) != len(m.Classes) {
			return fmt.Errorf("%d label thresholds for %d classes of a model that is multi-label: %v", len(t), len(m.Classes), m.MultiLabel)
		}
		for l, x := range t {
			if !(x >= 0 && x <= 1) {
				return fmt.Errorf("label threshold %d is %v, not in [0, 1]", l, x)
			}
		}
	}
	if !m.Kind.IsNB() || m.MultiLabel {
		if m.ClassDocs != nil || m.Counts != nil {
			return fmt.Errorf("%s model with NB counts", m.Kind)
		}
		return nil
	}
	return validateStats(m.Kind, m.Classes, V, m.ClassDocs, m.Counts)
}

// validateStats checks NB sufficient statistics: shapes, finite and
// non-negative values, and for Bernoulli N_cd ≤ N_c.
func validateStats(k Kind, classes []string, V int, classDocs, counts []float64) error {
	C := len(classes)
	if len(classDocs) != C {
		return fmt.Errorf("classDocs has %d entries, want one per class (%d)", len(classDocs), C)
	}
	if len(counts) != V*C {
		return fmt.Errorf("counts has %d entries, want %d terms × %d classes = %d", len(counts), V, C, V*C)
	}
	for c, n := range classDocs {
		if !(n >= 0) || math.IsInf(n, 1) {
			return fmt.Errorf("class %q has %v documents", classes[c], n)
		}
	}
	bern := k == Bernoulli
	// Row by row (one term's C counts), so that the class is an index,
	// not a division per count.
	for d := 0; d < V; d++ {
		row := counts[d*C : d*C+C]
		for c, x := range row {
			// Finite and ≥ 0 (+0 included) is exactly bits < those of +Inf:
			// one predictable test in the common case.
			if math.Float64bits(x) < 0x7ff0000000000000 && (!bern || x <= classDocs[c]) {
				continue
			}
			if !(x >= 0) || math.IsInf(x, 1) {
				return fmt.Errorf("count of term %d in class %q is %v (want a finite number ≥ 0)", d, classes[c], x)
			}
			if bern && x > classDocs[c] {
				return fmt.Errorf("term %d occurs in %v documents of class %q, which has only %v", d, x, classes[c], classDocs[c])
			}
		}
	}
	return nil
}
