package train

// ParamSpec by name: the command line's estimator flags (and their
// NBTEXT_* and config-file forms) name the parameters they set; this file
// maps each name to its field of ParamSpec.

import (
	"fmt"
	"strconv"
)

// DefaultL1Ratio is the L1 share of an elastic net when none is given
// (the default of --l1-ratio).
const DefaultL1Ratio = 0.5

// paramSetters sets the field of ParamSpec a name gives from its value.
var paramSetters = map[string]func(s *ParamSpec, v string) error{
	"alpha":           func(s *ParamSpec, v string) error { s.Alpha = v; return nil },
	"C":               func(s *ParamSpec, v string) error { s.C = v; return nil },
	"prior":           func(s *ParamSpec, v string) error { s.Prior = v; return nil },
	"penalty":         func(s *ParamSpec, v string) error { s.Penalty = v; return nil },
	"solver":          func(s *ParamSpec, v string) error { s.Solver = v; return nil },
	"class-weight":    func(s *ParamSpec, v string) error { s.ClassWeight = v; return nil },
	"centroid-offset": func(s *ParamSpec, v string) error { s.CentroidOffset = v; return nil },
	"l1-ratio":        func(s *ParamSpec, v string) (err error) { s.L1Ratio, err = strconv.ParseFloat(v, 64); return },
	"beta":            func(s *ParamSpec, v string) (err error) { s.Beta, err = parsed(v, parseFloat); return },
	"interpolation":   func(s *ParamSpec, v string) (err error) { s.Interpolation, err = parsed(v, parseFloat); return },
	"temperature":     func(s *ParamSpec, v string) (err error) { s.Temperature, err = parsed(v, parseFloat); return },
	"epochs":          func(s *ParamSpec, v string) (err error) { s.Epochs, err = parsed(v, strconv.Atoi); return },
	"batch-size":      func(s *ParamSpec, v string) (err error) { s.BatchSize, err = parsed(v, strconv.Atoi); return },
	"seed":            func(s *ParamSpec, v string) (err error) { s.Seed, err = parsed(v, parseInt64); return },
	"weight-norm":     func(s *ParamSpec, v string) (err error) { s.WeightNorm, err = parsed(v, strconv.ParseBool); return },
}

func parseFloat(v string) (float64, error) { return strconv.ParseFloat(v, 64) }
func parseInt64(v string) (int64, error)   { return strconv.ParseInt(v, 10, 64) }

// parsed returns a pointer to the value parse reads from v.
func parsed[T any](v string, parse func(string) (T, error)) (*T, error) {
	x, err := parse(v)
	return &x, err
}

// ParamSpecOf returns the spec of the parameters given by the flags that
// set them (alpha, beta, C, prior, penalty, l1-ratio, solver, epochs,
// batch-size, seed, class-weight, interpolation, temperature,
// weight-norm, centroid-offset), each from its value as the flag takes
// it; names that are not parameters are ignored. Parameters not given
// keep the kind's defaults (Resolve). An error names the flag.
func ParamSpecOf(given map[string]string) (ParamSpec, error) {
	s := ParamSpec{L1Ratio: DefaultL1Ratio}
	for name, v := range given {
		if set := paramSetters[name]; set != nil {
			if err := set(&s, v); err != nil {
				return s, fmt.Errorf("--%s: invalid value %q", name, v)
			}
		}
	}
	return s, nil
}
