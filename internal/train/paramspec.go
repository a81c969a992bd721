package train

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
)

// ParamSpec is what a user asked of an estimator's parameters, before the
// classes of the corpus are known: each field left at its zero value (nil
// for the pointers) keeps the kind's default (Defaults). Resolve turns it
// into model.Params once the classes are known.
type ParamSpec struct {
	// Alpha and C are a number, "auto" (chosen by cross-validation,
	// Tune) or "" (the default).
	Alpha, C string
	// Beta is Bernoulli NB's second Beta prior parameter (default: α).
	Beta *float64
	// WeightNorm, when not nil, is complement NB's weight normalisation
	// (model.Params.NoWeightNorm is its negation); CentroidOffset, when
	// not empty, the nearest centroid's class offsets (none, prior or
	// fitted).
	WeightNorm     *bool
	CentroidOffset string
	// Prior is learned, uniform or label=p,label=p,...
	Prior string
	// Penalty and Solver are logistic regression's ("": the default);
	// L1Ratio is the L1 share of an elastic net.
	Penalty, Solver string
	L1Ratio         float64
	// ClassWeight is balanced or label=w,... (ClassWeights).
	ClassWeight string
	// Interpolation is NB-LR's β.
	Interpolation *float64
	Epochs        *int
	BatchSize     *int
	Seed          *int64
	// Temperature is the calibration τ (0: fitted where the kind fits
	// one; 1: none).
	Temperature *float64
}

// Resolve returns the parameters of a model of kind over classes, whose
// documents per class are sizes (for ClassWeight balanced; nil when
// unknown): the kind's defaults overridden by what s gives. auto reports
// α or C to choose by cross-validation. An error names the flag.
func (s ParamSpec) Resolve(kind model.Kind, classes []string, sizes []int) (p model.Params, auto bool, err error) {
	_, p = Defaults(kind)
	if kind == model.NBLR {
		if s.Alpha == "auto" {
			return p, false, fmt.Errorf("--alpha auto: nblr tunes C only (--C auto)")
		}
		a, _, err := parseAuto("alpha", s.Alpha, p.Alpha)
		if err != nil {
			return p, false, err
		}
		p.Alpha = a
		if s.Interpolation != nil {
			p.Interpolation = *s.Interpolation
		}
	}
	if kind.IsNB() {
		a, isAuto, err := parseAuto("alpha", s.Alpha, p.Alpha)
		if err != nil {
			return p, false, err
		}
		betaFollows := p.Beta == p.Alpha
		p.Alpha, auto = a, isAuto
		if kind == model.Complement && s.WeightNorm != nil {
			p.NoWeightNorm = !*s.WeightNorm
		}
		if kind == model.Bernoulli {
			switch {
			case s.Beta != nil:
				p.Beta = *s.Beta
			case betaFollows:
				p.Beta = p.Alpha
			}
		}
	} else if !kind.Generative() && kind != model.Centroid && !kind.Discriminant() {
		c, isAuto, err := parseAuto("C", s.C, p.C)
		if err != nil {
			return p, false, err
		}
		p.C, auto = c, isAuto
		if s.Penalty != "" && kind == model.LogReg {
			p.Penalty = s.Penalty
		}
		if p.Penalty == "elasticnet" {
			p.L1Ratio = s.L1Ratio
		}
		if s.Solver != "" && s.Solver != p.Solver && kind == model.LogReg {
			p.Solver = s.Solver
			p.Epochs = DefaultEpochs(p.Solver)
		}
		if s.Epochs != nil {
			p.Epochs = *s.Epochs
		}
		if s.BatchSize != nil && kind == model.LogReg {
			p.BatchSize = *s.BatchSize
		}
	}
	if kind == model.Centroid && s.CentroidOffset != "" {
		p.CentroidOffset = s.CentroidOffset
	}
	if s.Temperature != nil {
		// Decisions never depend on τ (they are taken from the scores), but
		// a τ so small that τ·w underflows would zero the weights.
		if t := *s.Temperature; t != 0 && !(t >= MinTemperature && t <= MaxTemperature) {
			return p, false, fmt.Errorf("--temperature must be in [%g, %g] or 0 (fitted; 1: no calibration), got %v", MinTemperature, MaxTemperature, t)
		}
		p.Temperature = *s.Temperature
	}
	cw, err := ClassWeights(s.ClassWeight, classes, sizes)
	if err != nil {
		return p, false, err
	}
	p.ClassWeight, p.ClassWeights = s.ClassWeight, cw
	if s.Seed != nil {
		p.Seed = *s.Seed
	}
	prior, given, err := parsePrior(s.Prior)
	if err != nil {
		return p, false, err
	}
	p.Prior = prior
	if given != nil {
		p.Priors = make([]float64, len(classes))
		for label, pr := range given {
			i := indexOf(classes, label)
			if i < 0 {
				return p, false, fmt.Errorf("--prior: unknown class %q (the corpus has %s)", label, strings.Join(classes, ", "))
			}
			p.Priors[i] = pr
		}
	}
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return p, false, err
	}
	return p, auto, nil
}

// parseAuto parses a number that may also be "auto"; empty keeps def.
func parseAuto(name, s string, def float64) (v float64, auto bool, err error) {
	switch s {
	case "":
		return def, false, nil
	case "auto":
		return def, true, nil
	}
	v, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("--%s must be a finite number or auto, got %q", name, s)
	}
	return v, false, nil
}

// parsePrior parses a class prior: learned, uniform or label=p,...
func parsePrior(s string) (string, map[string]float64, error) {
	switch s {
	case "", "learned", "uniform":
		if s == "" {
			s = "learned"
		}
		return s, nil, nil
	}
	given := map[string]float64{}
	for _, part := range strings.Split(s, ",") {
		label, p, ok := strings.Cut(part, "=")
		if !ok {
			return "", nil, fmt.Errorf("--prior must be learned, uniform or label=p,..., got %q", s)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return "", nil, fmt.Errorf("--prior: %q is not a probability", part)
		}
		given[strings.TrimSpace(label)] = f
	}
	return "given", given, nil
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}
