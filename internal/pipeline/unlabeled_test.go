package pipeline

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestUnlabeledCheck: the kinds EM fits, the weight parsed (auto or a
// finite λ ≥ 0), and each setting out of range a UsageError naming it.
func TestUnlabeledCheck(t *testing.T) {
	u := &Unlabeled{MaxIter: 5, Tol: 1e-4}
	if err := u.Check(model.Bernoulli, " 0.25"); err != nil || u.Weight != 0.25 || u.WeightAuto {
		t.Errorf("0.25: %v, weight %v, auto %v", err, u.Weight, u.WeightAuto)
	}
	if err := u.Check(model.Multinomial, "auto"); err != nil || !u.WeightAuto || u.Weight != 0 {
		t.Errorf("auto: %v, weight %v, auto %v", err, u.Weight, u.WeightAuto)
	}
	for _, tc := range []struct {
		kind   model.Kind
		weight string
		u      Unlabeled
		want   string
	}{
		{model.Complement, "auto", Unlabeled{}, "not a generative model"},
		{model.LogReg, "auto", Unlabeled{}, "--model multinomial or bernoulli, not logreg"},
		{model.Multinomial, "-1", Unlabeled{}, "--unlabeled-weight must be a finite number ≥ 0 or auto"},
		{model.Multinomial, "NaN", Unlabeled{}, "--unlabeled-weight must be"},
		{model.Multinomial, "lots", Unlabeled{}, "--unlabeled-weight must be"},
		{model.Multinomial, "1", Unlabeled{MaxIter: -1}, "--em-iterations must be ≥ 0"},
		{model.Multinomial, "1", Unlabeled{Tol: math.NaN()}, "--em-tol must be a finite number ≥ 0"},
		{model.Multinomial, "1", Unlabeled{Tol: math.Inf(1)}, "--em-tol must be"},
	} {
		err := tc.u.Check(tc.kind, tc.weight)
		var ue *UsageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %q %+v: got %v, want %q", tc.kind, tc.weight, tc.u, err, tc.want)
		}
	}
}
