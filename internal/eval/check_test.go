package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestFlagsCheck: each bad combination of eval's flags is reported, the
// first in eval's order, by Check or by the hook that owns it.
func TestFlagsCheck(t *testing.T) {
	hookErr := func(msg string) func() error { return func() error { return errors.New(msg) } }
	var fieldsKind model.Kind
	for _, tc := range []struct {
		name string
		f    Flags
		h    Hooks
		want string
	}{
		{"ok", Flags{Model: "m.nbm"}, Hooks{}, ""},
		{"ok cv", Flags{Model: "logreg", CV: 5, MinRecall: []string{"a=0.5"}}, Hooks{}, ""},
		{"auto no cv", Flags{Auto: true, Format: "csv"}, Hooks{Search: hookErr("search")}, "--auto needs --cv K"},
		{"auto search", Flags{Auto: true, CV: 3}, Hooks{Search: hookErr("bad search")}, "bad search"},
		{"model", Flags{Format: "csv"}, Hooks{}, "-m MODEL is required"},
		{"training only", Flags{Model: "m.nbm", Format: "csv", TrainingOnly: []string{"--alpha"}}, Hooks{}, "--alpha: a training setting, used only with --cv"},
		{"training only 2", Flags{Model: "m.nbm", TrainingOnly: []string{"--alpha", "--ngram"}}, Hooks{}, "--alpha, --ngram: training settings, used only"},
		{"training only cv", Flags{Model: "logreg", CV: 3, TrainingOnly: []string{"--alpha"}}, Hooks{}, ""},
		{"format", Flags{Model: "m.nbm", Format: "csv", TopK: -1}, Hooks{}, `--format must be table, tsv or json, got "csv"`},
		{"top-k", Flags{Model: "m.nbm", TopK: -1, CV: 1}, Hooks{}, "--top-k must be ≥ 0"},
		{"cv", Flags{Model: "logreg", CV: 1}, Hooks{}, "--cv must be ≥ 2, got 1"},
		{"kind", Flags{Model: "m.nbm", CV: 3}, Hooks{}, "with --cv, --model names an estimator"},
		{"fields", Flags{Model: "qda", CV: 3}, Hooks{Fields: func(k model.Kind) error { fieldsKind = k; return errors.New("fields") }}, "fields"},
		{"multi-label hook", Flags{Model: "m.nbm", Baseline: "old.nbm", CV: 0, MultiLabel: true}, Hooks{MultiLabel: hookErr("--min-labels")}, "--min-labels"},
		{"multi-label cv", Flags{Model: "logreg", CV: 3, MultiLabel: true, Baseline: "old.nbm"}, Hooks{}, "--multi-label evaluates a multi-label model file"},
		{"recall", Flags{Model: "m.nbm", MinRecall: []string{"a"}, ToleranceGiven: true}, Hooks{}, "--min-recall"},
		{"baseline cv", Flags{Model: "logreg", CV: 3, Baseline: "old.nbm"}, Hooks{}, "--baseline compares two model files"},
		{"tolerance", Flags{Model: "m.nbm", ToleranceGiven: true}, Hooks{}, "--tolerance needs --baseline"},
	} {
		if tc.f.Format == "" {
			tc.f.Format = "table"
		}
		var g Gates
		err := tc.f.Check(&g, tc.h)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want %q, got %v", tc.name, tc.want, err)
		}
	}
	if fieldsKind != model.QDA {
		t.Errorf("Fields hook got kind %v, want qda", fieldsKind)
	}
	g := Gates{MaxLogLoss: 0.5}
	if err := (Flags{Model: "m.nbm", Format: "json", MultiLabel: true}).Check(&g, Hooks{}); err == nil || !strings.Contains(err.Error(), "--max-log-loss") {
		t.Errorf("max-log-loss with multi-label: %v", err)
	}
	var ue *UsageError
	if err := (Flags{Format: "table"}).Check(&g, Hooks{}); !errors.As(err, &ue) {
		t.Errorf("want a UsageError, got %T", err)
	}
}
