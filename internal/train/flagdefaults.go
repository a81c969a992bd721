package train

// The defaults of each model kind by the name of the flag that sets
// them, for the command line's help.

import (
	"fmt"
	"strconv"

	"github.com/nbtext/nbtext/internal/model"
)

// FlagDefaults returns, by flag name, the value each vectorizer and
// estimator flag takes for kind when it is not set: Defaults, the one
// table of defaults, rendered as the flag would take it (or, where no
// value says it, in words: "fitted by cross-validation"), for the help
// to show. Flags that kind does not use are absent.
func FlagDefaults(kind model.Kind) map[string]string {
	s, p := Defaults(kind)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fields := s.Fields
	if fields == "" {
		fields = "none"
	}
	d := map[string]string{
		"lowercase":    strconv.FormatBool(s.Lowercase),
		"stop-words":   s.StopWords,
		"ngram":        fmt.Sprintf("%d,%d", s.NGramMin, s.NGramMax),
		"min-df":       strconv.Itoa(s.MinDF),
		"max-df":       f(s.MaxDF),
		"max-features": strconv.Itoa(s.MaxFeatures),
		"select":       s.Select,
		"weighting":    s.Weighting,
		"sublinear-tf": strconv.FormatBool(s.Sublinear),
		"norm":         s.Norm,
		"fields":       fields,
		"prior":        p.Prior,
		"seed":         strconv.FormatInt(p.Seed, 10),
	}
	if kind.IsNB() {
		d["alpha"] = f(p.Alpha)
		if kind == model.Bernoulli {
			d["beta"] = f(p.Beta)
			if p.Beta == p.Alpha {
				d["beta"] = "equal to --alpha, " + f(p.Beta)
			}
		}
		if kind == model.Complement {
			d["weight-norm"] = strconv.FormatBool(!p.NoWeightNorm)
		}
		if DefaultCalibrate(kind) {
			d["temperature"] = "fitted by cross-validation"
		} else {
			d["temperature"] = "1 (not calibrated)"
		}
	}
	switch kind {
	case model.Centroid:
		d["centroid-offset"] = p.CentroidOffset
	case model.LogReg:
		d["C"] = f(p.C)
		d["penalty"] = p.Penalty
		d["solver"] = p.Solver
		d["epochs"] = strconv.Itoa(p.Epochs)
		d["batch-size"] = strconv.Itoa(p.BatchSize)
	case model.SVM, model.NBLR:
		d["C"] = f(p.C)
		if kind == model.NBLR {
			d["interpolation"] = f(p.Interpolation)
		}
	}
	if c, ok := MultiLabelC(kind); ok {
		d["C"] += fmt.Sprintf("; %s with --multi-label", f(c))
	}
	return d
}
