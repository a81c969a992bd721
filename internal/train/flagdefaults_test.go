package train

import (
	"strconv"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestFlagDefaults checks that the defaults shown for each kind are
// Defaults' values, named by the flags that set them, and that a kind
// shows only the flags it uses.
func TestFlagDefaults(t *testing.T) {
	for _, name := range model.KindNames() {
		kind, err := model.ParseKind(name)
		if err != nil {
			t.Fatal(err)
		}
		d := FlagDefaults(kind)
		s, p := Defaults(kind)
		if d["min-df"] != strconv.Itoa(s.MinDF) || d["weighting"] != s.Weighting || d["seed"] != strconv.FormatInt(p.Seed, 10) {
			t.Errorf("%s: min-df %q, weighting %q, seed %q; want %d, %q, %d", kind, d["min-df"], d["weighting"], d["seed"], s.MinDF, s.Weighting, p.Seed)
		}
		if d["fields"] == "" {
			t.Errorf("%s: fields shown empty, want none or a list", kind)
		}
		if _, ok := d["alpha"]; ok != kind.IsNB() {
			t.Errorf("%s: alpha shown %v, want %v", kind, ok, kind.IsNB())
		}
		if _, ok := d["solver"]; ok != (kind == model.LogReg) {
			t.Errorf("%s: solver shown %v", kind, ok)
		}
	}
	if got, want := FlagDefaults(model.SVM)["C"], "0.5; 0.2 with --multi-label"; got != want {
		t.Errorf("svm: C shown %q, want %q", got, want)
	}
	if d := FlagDefaults(model.LogReg); d["C"] == "" || d["penalty"] == "" || d["epochs"] == "" {
		t.Errorf("logreg shows no C, penalty or epochs: %v", d)
	}
	if d := FlagDefaults(model.Bernoulli); d["beta"] == "" || d["temperature"] != "fitted by cross-validation" {
		t.Errorf("bernoulli: beta %q, temperature %q", d["beta"], d["temperature"])
	}
	if d := FlagDefaults(model.Multinomial); d["temperature"] != "1 (not calibrated)" {
		t.Errorf("multinomial: temperature %q", d["temperature"])
	}
}
