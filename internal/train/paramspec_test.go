package train

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestParamSpecResolve: an empty spec is the kind's defaults; what a spec
// gives overrides them; a bad value is an error naming its flag.
func TestParamSpecResolve(t *testing.T) {
	classes := []string{"a", "b"}
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.LogReg, model.SVM, model.NBLR} {
		_, want := Defaults(kind)
		want.Prior = "learned"
		got, auto, err := ParamSpec{}.Resolve(kind, classes, nil)
		if err != nil || auto || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Resolve of nothing = %+v, %v, %v; want the defaults %+v", kind, got, auto, err, want)
		}
	}
	p, auto, err := ParamSpec{Alpha: "0.5"}.Resolve(model.Bernoulli, classes, nil)
	if err != nil || auto || p.Alpha != 0.5 || p.Beta != 0.5 {
		t.Errorf("bernoulli α 0.5: %+v, %v (β follows α)", p, err)
	}
	if _, auto, _ := (ParamSpec{C: "auto"}).Resolve(model.SVM, classes, nil); !auto {
		t.Error("C auto: not auto")
	}
	solver, epochs := "lbfgs", 7
	p, _, err = ParamSpec{Solver: solver, Epochs: &epochs, Prior: "a=0.9,b=0.1"}.Resolve(model.LogReg, classes, nil)
	if err != nil || p.Solver != "lbfgs" || p.Epochs != 7 || p.Prior != "given" || !reflect.DeepEqual(p.Priors, []float64{0.9, 0.1}) {
		t.Errorf("logreg lbfgs: %+v, %v", p, err)
	}
	tiny := 1e-300
	for _, tt := range []struct {
		spec ParamSpec
		kind model.Kind
		want string
	}{
		{ParamSpec{Alpha: "x"}, model.Multinomial, "--alpha must be a finite number or auto"},
		{ParamSpec{Alpha: "auto"}, model.NBLR, "nblr tunes C only"},
		{ParamSpec{Prior: "c=1"}, model.Multinomial, `unknown class "c"`},
		{ParamSpec{Prior: "nonsense"}, model.Multinomial, "--prior must be learned, uniform"},
		{ParamSpec{Temperature: &tiny}, model.Multinomial, "--temperature must be in"},
	} {
		if _, _, err := tt.spec.Resolve(tt.kind, classes, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want %q", tt.spec, err, tt.want)
		}
	}
}
