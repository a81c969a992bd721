package cliconfig

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestShowDefaults(t *testing.T) {
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	fs.Float64("alpha", 0, "NB smoothing (default: the model's)")
	fs.String("C", "", "inverse regularisation")
	names := []string{"alpha", "C", "nosuch"}
	ShowDefaults(fs, names, map[string]string{"alpha": "0.3"}, "multinomial", "")
	if got, want := fs.Lookup("alpha").Usage, "NB smoothing (default for --model multinomial: 0.3)"; got != want {
		t.Errorf("alpha: %q, want %q", got, want)
	}
	if got, want := fs.Lookup("C").Usage, "inverse regularisation (not used by --model multinomial)"; got != want {
		t.Errorf("C: %q, want %q", got, want)
	}
	// Again, for another choice: the usage is rebuilt from its base.
	ShowDefaults(fs, names, nil, "", "with --cv, ")
	if got, want := fs.Lookup("alpha").Usage, "NB smoothing (with --cv, default: the model's, see nbtext train --model M --help)"; got != want {
		t.Errorf("alpha: %q, want %q", got, want)
	}
	ShowDefaults(fs, names, map[string]string{"alpha": "0.3", "C": "fitted"}, "logreg", "")
	UseShownDefaults(fs)
	if fs.Lookup("alpha").DefValue != "0.3" || fs.Lookup("C").DefValue != "fitted" {
		t.Errorf("DefValues %q %q", fs.Lookup("alpha").DefValue, fs.Lookup("C").DefValue)
	}
	fs2 := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs2.Int("epochs", 5, "passes")
	ShowDefaults(fs2, []string{"epochs"}, map[string]string{"epochs": "by the data"}, "svm", "")
	UseShownDefaults(fs2)
	if fs2.Lookup("epochs").DefValue != "0" {
		t.Errorf("a default the flag cannot take became its DefValue: %q", fs2.Lookup("epochs").DefValue)
	}
}
