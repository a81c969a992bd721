// The checks of a semi-supervised run's settings (train --unlabeled),
// which em.go carries out.

package pipeline

import (
	"math"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
)

// Check returns a UsageError when EM cannot fit kind (multinomial and
// Bernoulli naive Bayes only) or a setting of u is out of range, and
// sets Weight and WeightAuto from weight: a finite λ ≥ 0, or auto.
func (u *Unlabeled) Check(kind model.Kind, weight string) error {
	switch kind {
	case model.Multinomial, model.Bernoulli:
	case model.Complement:
		return usagef("--unlabeled: complement naive bayes is not a generative model (its scores are no likelihood for EM to climb): use --model multinomial or bernoulli")
	default:
		return usagef("--unlabeled fits naive bayes by EM: --model multinomial or bernoulli, not %s", kind)
	}
	u.Weight, u.WeightAuto = 0, weight == "auto"
	if !u.WeightAuto {
		w, err := strconv.ParseFloat(strings.TrimSpace(weight), 64)
		if err != nil || math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return usagef("--unlabeled-weight must be a finite number ≥ 0 or auto, got %q", weight)
		}
		u.Weight = w
	}
	if u.MaxIter < 0 {
		return usagef("--em-iterations must be ≥ 0, got %d", u.MaxIter)
	}
	if !(u.Tol >= 0) || math.IsInf(u.Tol, 1) {
		return usagef("--em-tol must be a finite number ≥ 0, got %v", u.Tol)
	}
	return nil
}
