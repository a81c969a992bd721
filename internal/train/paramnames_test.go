package train

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

func TestParamSpecOf(t *testing.T) {
	beta, interp, temp, epochs, batch, seed, norm := 0.3, 0.25, 1.0, 7, 64, int64(42), false
	given := map[string]string{
		"alpha": "auto", "C": "2", "prior": "uniform", "penalty": "elasticnet", "solver": "lbfgs",
		"class-weight": "balanced", "centroid-offset": "prior", "l1-ratio": "0.1", "beta": "0.3",
		"interpolation": "0.25", "temperature": "1", "epochs": "7", "batch-size": "64", "seed": "42",
		"weight-norm": "false", "model": "svm", "min-df": "3", // not parameters: ignored
	}
	want := ParamSpec{Alpha: "auto", C: "2", Prior: "uniform", Penalty: "elasticnet", Solver: "lbfgs",
		ClassWeight: "balanced", CentroidOffset: "prior", L1Ratio: 0.1, Beta: &beta, Interpolation: &interp,
		Temperature: &temp, Epochs: &epochs, BatchSize: &batch, Seed: &seed, WeightNorm: &norm}
	got, err := ParamSpecOf(given)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if got, _ := ParamSpecOf(nil); !reflect.DeepEqual(got, ParamSpec{L1Ratio: DefaultL1Ratio}) {
		t.Errorf("ParamSpecOf(nil) = %+v, want only the default l1-ratio", got)
	}
	if _, err := ParamSpecOf(map[string]string{"epochs": "many"}); err == nil || !strings.Contains(err.Error(), `--epochs: invalid value "many"`) {
		t.Errorf("bad epochs: %v", err)
	}
}

// TestParamSpecOfResolves checks that what is not given keeps the kind's
// defaults, and a given parameter overrides them.
func TestParamSpecOfResolves(t *testing.T) {
	classes := []string{"a", "b"}
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.LogReg, model.SVM, model.Centroid} {
		spec, _ := ParamSpecOf(nil)
		p, auto, err := spec.Resolve(kind, classes, nil)
		_, def := Defaults(kind)
		def.Prior = "learned"
		if err != nil || auto || p.Alpha != def.Alpha || p.C != def.C || p.Epochs != def.Epochs || p.Seed != def.Seed {
			t.Errorf("%s: nothing given resolves to %+v (%v), want the defaults %+v", kind, p, err, def)
		}
	}
	spec, _ := ParamSpecOf(map[string]string{"C": "auto", "epochs": "3"})
	p, auto, err := spec.Resolve(model.LogReg, classes, nil)
	if err != nil || !auto || p.Epochs != 3 {
		t.Errorf("C auto, epochs 3: %+v, auto %v, %v", p, auto, err)
	}
}
