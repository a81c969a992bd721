package train

import (
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestFieldSpecValidate: the fields each kind takes, and names empty or
// given twice.
func TestFieldSpecValidate(t *testing.T) {
	cat, num := []string{"color"}, []string{"size"}
	for _, tt := range []struct {
		kind model.Kind
		spec FieldSpec
		want string // "" for no error
	}{
		{model.Categorical, FieldSpec{Categorical: cat}, ""},
		{model.Categorical, FieldSpec{Categorical: cat, Numeric: num}, "--model categorical needs --categorical-field and no --numeric-field"},
		{model.Gaussian, FieldSpec{Numeric: num}, ""},
		{model.Gaussian, FieldSpec{Categorical: cat}, "--model gaussian needs --numeric-field"},
		{model.LDA, FieldSpec{Numeric: num}, ""},
		{model.QDA, FieldSpec{Categorical: cat, Numeric: num}, "--model qda needs --numeric-field and no --categorical-field"},
		{model.Multinomial, FieldSpec{Categorical: cat, Numeric: num}, ""},
		{model.LogReg, FieldSpec{Numeric: num}, ""},
		{model.NBLR, FieldSpec{Numeric: num}, "nblr scales each feature"},
		{model.NBLR, FieldSpec{}, ""},
		{model.Complement, FieldSpec{Categorical: cat}, "not complement"},
		{model.Multinomial, FieldSpec{Categorical: []string{" "}}, "must not name an empty field"},
		{model.Multinomial, FieldSpec{Categorical: cat, Numeric: cat}, `field "color" is named twice`},
	} {
		err := tt.spec.Validate(tt.kind)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s %+v: %v, want %q", tt.kind, tt.spec, err, tt.want)
		}
	}
}

// TestFieldParams: the ranges, the parameters given to a kind that does
// not use them (only when given on the command line), and what Apply
// sets for each kind.
func TestFieldParams(t *testing.T) {
	def := FieldParams{FieldAlpha: 1, Density: "gaussian", Bandwidth: DefaultBandwidth, Shrinkage: "none"}
	none := func(string) bool { return false }
	all := func(string) bool { return true }
	set := func(f func(*FieldParams)) FieldParams { p := def; f(&p); return p }
	for _, tt := range []struct {
		p     FieldParams
		kind  model.Kind
		given func(string) bool
		want  string
	}{
		{def, model.Multinomial, none, ""},
		{def, model.Multinomial, all, "--bandwidth needs --numeric-density kernel"},
		{set(func(p *FieldParams) { p.FieldAlpha = 0 }), model.Categorical, none, "--field-alpha must be > 0, got 0"},
		{set(func(p *FieldParams) { p.VarSmoothing = -1 }), model.Gaussian, none, "--var-smoothing must be ≥ 0"},
		{set(func(p *FieldParams) { p.Density = "box" }), model.Gaussian, none, `--numeric-density must be gaussian or kernel, got "box"`},
		{set(func(p *FieldParams) { p.Density = "kernel" }), model.LogReg, all, "not logreg"},
		{set(func(p *FieldParams) { p.Density = "kernel" }), model.LogReg, none, ""},
		{set(func(p *FieldParams) { p.Density = "kernel" }), model.QDA, func(f string) bool { return f == "shrinkage" }, "--shrinkage applies to --model lda"},
		{def, model.LDA, func(f string) bool { return f == "reg-param" }, "--reg-param applies to --model qda"},
		{set(func(p *FieldParams) { p.Bandwidth = "-2" }), model.Gaussian, none, "bandwidth"},
		{set(func(p *FieldParams) { p.Shrinkage = "2" }), model.LDA, none, "shrinkage"},
		{set(func(p *FieldParams) { p.RegParam = 1.5 }), model.QDA, none, "--reg-param must be in [0, 1], got 1.5"},
	} {
		err := tt.p.Validate(tt.kind, tt.given)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s %+v: %v, want %q", tt.kind, tt.p, err, tt.want)
		}
	}

	p := FieldParams{FieldAlpha: 0.5, VarSmoothing: 1e-3, Density: "kernel", Bandwidth: "cv", Shrinkage: "auto", RegParam: 0.1}
	for _, tt := range []struct {
		kind model.Kind
		want model.Params
	}{
		{model.Gaussian, model.Params{FieldAlpha: 0.5, VarSmoothing: 1e-3, NumericDensity: "kernel", Bandwidth: "cv"}},
		{model.LogReg, model.Params{FieldAlpha: 0.5, VarSmoothing: 1e-3}},
		{model.LDA, model.Params{FieldAlpha: 0.5, VarSmoothing: 1e-3, Shrinkage: "auto"}},
		{model.QDA, model.Params{FieldAlpha: 0.5, VarSmoothing: 1e-3, RegParam: 0.1}},
	} {
		var got model.Params
		p.Apply(&got, tt.kind)
		if got.FieldAlpha != tt.want.FieldAlpha || got.VarSmoothing != tt.want.VarSmoothing || got.NumericDensity != tt.want.NumericDensity ||
			got.Bandwidth != tt.want.Bandwidth || got.Shrinkage != tt.want.Shrinkage || got.RegParam != tt.want.RegParam {
			t.Errorf("Apply(%s) = %+v, want %+v", tt.kind, got, tt.want)
		}
	}
	var lda model.Params
	def.Apply(&lda, model.LDA)
	if lda.Shrinkage != "" {
		t.Errorf("shrinkage none: Apply sets %q, want it unset", lda.Shrinkage)
	}
}

// TestFieldParamsValidateFields: the fields are checked before the
// parameters, so a bad field is reported first.
func TestFieldParamsValidateFields(t *testing.T) {
	good := FieldParams{FieldAlpha: 1, Density: "gaussian", Shrinkage: "none", Bandwidth: DefaultBandwidth}
	bad := good
	bad.FieldAlpha = 0
	none := func(string) bool { return false }
	for _, tt := range []struct {
		p    FieldParams
		spec FieldSpec
		kind model.Kind
		want string
	}{
		{good, FieldSpec{Numeric: []string{"size"}}, model.Gaussian, ""},
		{bad, FieldSpec{Categorical: []string{"color"}}, model.Gaussian, "--model gaussian needs --numeric-field"},
		{bad, FieldSpec{Numeric: []string{"size"}}, model.Gaussian, "--field-alpha must be > 0"},
	} {
		err := tt.p.ValidateFields(tt.spec, tt.kind, none)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v %s: %v, want %q", tt.spec, tt.kind, err, tt.want)
		}
	}
}
