package train

// fieldparams.go: which model kinds take which record fields, and the
// parameters of those fields as the command line gives them.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
)

// Validate reports, naming the flags, why a model of kind cannot use the
// fields s names: an empty or repeated name; categorical needs
// categorical fields only, gaussian, lda and qda numeric ones only; nblr
// takes none; the other text models that take fields are bernoulli,
// multinomial, logreg and svm.
func (s FieldSpec) Validate(kind model.Kind) error {
	names := append(slices.Clone(s.Categorical), s.Numeric...)
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return fmt.Errorf("--categorical-field and --numeric-field must not name an empty field")
		}
		if slices.Contains(names[:i], n) {
			return fmt.Errorf("field %q is named twice", n)
		}
	}
	switch {
	case kind == model.Categorical && (len(s.Categorical) == 0 || len(s.Numeric) > 0):
		return fmt.Errorf("--model categorical needs --categorical-field and no --numeric-field")
	case kind == model.Gaussian && (len(s.Numeric) == 0 || len(s.Categorical) > 0):
		return fmt.Errorf("--model gaussian needs --numeric-field and no --categorical-field")
	case kind.Discriminant() && (len(s.Numeric) == 0 || len(s.Categorical) > 0):
		return fmt.Errorf("--model %s needs --numeric-field and no --categorical-field: a one-hot value is not Gaussian (its variance within a class is 0 wherever the class has one value); use gaussian, categorical or logreg for categorical fields", kind)
	case !s.Empty() && kind == model.NBLR:
		return fmt.Errorf("record fields need --model bernoulli, multinomial, logreg, svm, categorical or gaussian: nblr scales each feature by its log-count ratio of presence counts, which a one-hot or standardised field does not have")
	case !s.Empty() && !kind.RecordOnly() && kind != model.Bernoulli && kind != model.Multinomial && kind != model.LogReg && kind != model.SVM:
		return fmt.Errorf("record fields need --model bernoulli, multinomial, logreg, svm, categorical, gaussian, lda or qda, not %s", kind)
	}
	return nil
}

// FieldParams are the parameters of record fields as the command line
// gives them: the Dirichlet α of categorical fields, the variance
// smoothing and the density ("gaussian" or "kernel", with its bandwidth)
// of naive Bayes's numeric fields, LDA's shrinkage ("none", "auto" or a
// number) and QDA's regularisation.
type FieldParams struct {
	FieldAlpha, VarSmoothing float64
	Density, Bandwidth       string
	Shrinkage                string
	RegParam                 float64
}

// KernelDensity reports whether the numeric fields of kind are naive
// Bayes ones, which may have kernel densities.
func KernelDensity(kind model.Kind) bool {
	return kind == model.Gaussian || kind == model.Bernoulli || kind == model.Multinomial
}

// ValidateFields is Validate of the fields s (FieldSpec.Validate), then of
// the parameters p.
func (p FieldParams) ValidateFields(s FieldSpec, kind model.Kind, given func(flag string) bool) error {
	if err := s.Validate(kind); err != nil {
		return err
	}
	return p.Validate(kind, given)
}

// Validate reports, naming the flag, a parameter out of range, or one
// given (given(flag) is true) to a model of kind that does not use it:
// kernel densities for other than naive Bayes, a bandwidth without them,
// shrinkage but for lda, reg-param but for qda. Parameters set only as
// defaults for other runs (an environment variable, a config file) are
// not given.
func (p FieldParams) Validate(kind model.Kind, given func(flag string) bool) error {
	switch {
	case !(p.FieldAlpha > 0):
		return fmt.Errorf("--field-alpha must be > 0, got %v", p.FieldAlpha)
	case !(p.VarSmoothing >= 0):
		return fmt.Errorf("--var-smoothing must be ≥ 0, got %v", p.VarSmoothing)
	case p.Density != "gaussian" && p.Density != "kernel":
		return fmt.Errorf("--numeric-density must be gaussian or kernel, got %q", p.Density)
	case given("numeric-density") && p.Density == "kernel" && !KernelDensity(kind):
		return fmt.Errorf("--numeric-density kernel applies to the numeric fields of naive Bayes (gaussian, bernoulli, multinomial), not %s", kind)
	case given("bandwidth") && p.Density != "kernel":
		return fmt.Errorf("--bandwidth needs --numeric-density kernel")
	case given("shrinkage") && kind != model.LDA:
		return fmt.Errorf("--shrinkage applies to --model lda (qda takes --reg-param)")
	case given("reg-param") && kind != model.QDA:
		return fmt.Errorf("--reg-param applies to --model qda (lda takes --shrinkage)")
	}
	if _, err := model.ParseBandwidth(p.Bandwidth); err != nil {
		return err
	}
	if _, _, err := model.ParseShrinkage(p.Shrinkage); err != nil {
		return err
	}
	if !(p.RegParam >= 0 && p.RegParam <= 1) {
		return fmt.Errorf("--reg-param must be in [0, 1], got %v", p.RegParam)
	}
	return nil
}

// Apply sets the field parameters of mp for a model of kind: α and the
// variance smoothing always, the kernel density and its bandwidth for
// naive Bayes, the shrinkage for lda (none is left unset), the
// regularisation for qda.
func (p FieldParams) Apply(mp *model.Params, kind model.Kind) {
	mp.FieldAlpha, mp.VarSmoothing = p.FieldAlpha, p.VarSmoothing
	if p.Density == "kernel" && KernelDensity(kind) {
		mp.NumericDensity, mp.Bandwidth = p.Density, p.Bandwidth
	}
	if p.Shrinkage != "none" && kind == model.LDA {
		mp.Shrinkage = p.Shrinkage
	}
	if kind == model.QDA {
		mp.RegParam = p.RegParam
	}
}
