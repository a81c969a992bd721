package pipeline

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// wantUsage fails t unless err is a UsageError whose message holds want
// ("" : err is nil).
func wantUsage(t *testing.T, name string, err error, want string) {
	t.Helper()
	var ue *UsageError
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: want no error, got %v", name, err)
	case want != "" && (err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: want a UsageError with %q, got %v", name, want, err)
	}
}

// flagSet returns a Changed/Typed function true for names.
func flagSet(names ...string) func(string) bool {
	return func(name string) bool { return slices.Contains(names, name) }
}

// TestSearchSettingsCheckFlags: each bad combination of a search's flags
// is a UsageError naming the first flag in the way.
func TestSearchSettingsCheckFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    SearchFlags
		set  SearchSettings
		want string
	}{
		{"ok", SearchFlags{Leaderboard: "json"}, SearchSettings{}, ""},
		{"tune", SearchFlags{MultiLabel: true, TuneThresholds: true, Typed: flagSet("alpha")}, SearchSettings{}, "--tune-thresholds with --auto --multi-label"},
		{"ensemble", SearchFlags{MultiLabel: true, Changed: flagSet("ensemble")}, SearchSettings{}, "--ensemble with --auto --multi-label"},
		{"budget", SearchFlags{}, SearchSettings{Budget: "soon"}, "--budget"},
		{"board", SearchFlags{Leaderboard: "csv", Typed: flagSet("alpha")}, SearchSettings{}, "--leaderboard must be table or json"},
		{"searched", SearchFlags{Typed: flagSet("alpha", "ngram", "model")}, SearchSettings{}, "--ngram, --alpha: --auto chooses these settings itself"},
	} {
		s := SearchSettings{Budget: "60s", Metric: "accuracy"}
		if tc.set.Budget != "" {
			s.Budget = tc.set.Budget
		}
		if tc.f.Changed == nil {
			tc.f.Changed = flagSet()
		}
		if tc.f.Typed == nil {
			tc.f.Typed = flagSet()
		}
		wantUsage(t, tc.name, s.CheckFlags(tc.f), tc.want)
	}
}

// TestUnlabeledCheckFlags: the sample and EM flags against the rest of
// the run, in the order train reports them.
func TestUnlabeledCheckFlags(t *testing.T) {
	ok := func() UnlabeledFlags {
		return UnlabeledFlags{Paths: []string{"unsup"}, Weight: "auto", Held: true, Kind: model.Multinomial, Changed: flagSet()}
	}
	for _, tc := range []struct {
		name string
		set  func(*UnlabeledFlags, *Unlabeled)
		want string
	}{
		{"ok", func(*UnlabeledFlags, *Unlabeled) {}, ""},
		{"none", func(f *UnlabeledFlags, _ *Unlabeled) { f.Paths = nil }, ""},
		{"per-class", func(f *UnlabeledFlags, _ *Unlabeled) { f.PerClass, f.Split = -1, "dev" }, "--per-class must be ≥ 0"},
		{"per-class held", func(f *UnlabeledFlags, _ *Unlabeled) { f.PerClass, f.Held = 5, false }, "--per-class draws its sample"},
		{"rest", func(_ *UnlabeledFlags, u *Unlabeled) { u.Rest = true }, "--unlabeled-rest needs --per-class"},
		{"em flag", func(f *UnlabeledFlags, _ *Unlabeled) { f.Paths, f.Changed = nil, flagSet("em-tol") }, "--em-tol needs unlabelled documents"},
		{"stdin", func(f *UnlabeledFlags, _ *Unlabeled) { f.Paths, f.Held = []string{"a", "-"}, false }, `not "-"`},
		{"split", func(f *UnlabeledFlags, _ *Unlabeled) { f.Split, f.Held = "dev", false }, "--unlabeled-split must be train or test"},
		{"held", func(f *UnlabeledFlags, _ *Unlabeled) { f.Held, f.MultiLabel = false, true }, "drop --stream, --from-counts and --auto"},
		{"multi", func(f *UnlabeledFlags, _ *Unlabeled) { f.MultiLabel, f.Init = true, true }, "drop --multi-label"},
		{"fields", func(f *UnlabeledFlags, _ *Unlabeled) { f.Fields, f.Init = true, true }, "drop --categorical-field"},
		{"init", func(f *UnlabeledFlags, _ *Unlabeled) { f.Init, f.Kind = true, model.LogReg }, "--init starts logistic regression"},
		{"kind", func(f *UnlabeledFlags, _ *Unlabeled) { f.Kind = model.LogReg }, "--model multinomial or bernoulli"},
		{"weight", func(f *UnlabeledFlags, _ *Unlabeled) { f.Weight = "-1" }, "--unlabeled-weight"},
	} {
		f, u := ok(), Unlabeled{MaxIter: 10, Tol: 1e-4}
		tc.set(&f, &u)
		wantUsage(t, tc.name, u.CheckFlags(f), tc.want)
	}
}

// TestUpdateMergeCompareChecks: the first option out of range of update,
// merge and compare's arguments.
func TestUpdateMergeCompareChecks(t *testing.T) {
	fixed := usagef("--remove is not allowed with update and forget")
	for _, tc := range []struct {
		name   string
		u      UpdateOptions
		corpus string
		fixed  error
		want   string
	}{
		{"ok", UpdateOptions{Output: "new.nbm", Replay: "-"}, "new.tsv", nil, ""},
		{"output", UpdateOptions{Output: "-", Epochs: -1}, "-", fixed, "-o NEW is required"},
		{"fixed", UpdateOptions{Output: "n.nbm", Epochs: -1}, "-", fixed, "--remove is not allowed"},
		{"epochs", UpdateOptions{Output: "n.nbm", Epochs: -1, Replay: "-"}, "-", nil, "--epochs must be ≥ 0"},
		{"replay", UpdateOptions{Output: "n.nbm", Replay: "-"}, "-", nil, "--replay -: stdin is CORPUS already"},
	} {
		wantUsage(t, "update "+tc.name, tc.u.Check(tc.corpus, tc.fixed), tc.want)
	}
	for _, tc := range []struct {
		m    MergeOptions
		want string
	}{
		{MergeOptions{Output: "all.nbc", ExpectShards: 4}, ""},
		{MergeOptions{ExpectShards: -1}, "-o ALL.nbc is required"},
		{MergeOptions{Output: "all.nbc", ExpectShards: -1}, "--expect-shards must be ≥ 0, got -1"},
	} {
		wantUsage(t, "merge "+tc.want, tc.m.Check(), tc.want)
	}
	for _, tc := range []struct {
		args       []string
		test, plot string
		models     []string
		want       string
	}{
		{[]string{"train.tsv"}, "test.tsv", "c.svg", nil, ""},
		{nil, "test.tsv", "c.pdf", nil, "--test needs the training corpus"},
		{[]string{"-"}, "-", "c.pdf", nil, "TRAIN and --test cannot both be standard input"},
		{[]string{"c.tsv"}, "", "c.pdf", []string{}, "--models needs at least one estimator"},
		{[]string{"c.tsv"}, "", "c.pdf", nil, "--plot must end in .png or .svg"},
	} {
		cp := Compare{Models: []string{"multinomial"}, MinDF: 1, Repeats: 1, Metric: "error", Vary: "size"}
		if tc.models != nil {
			cp.Models = tc.models
		}
		wantUsage(t, "compare "+tc.want, cp.CheckFlags(tc.args, tc.test, tc.plot), tc.want)
	}
}

// TestLabelFlagsCheck: a multi-label option without --multi-label, or out
// of range.
func TestLabelFlagsCheck(t *testing.T) {
	for _, tc := range []struct {
		f    LabelFlags
		want string
	}{
		{LabelFlags{MultiLabel: true, Sep: ",", Tune: true, MinLabels: 1, Threshold: 0.3}, ""},
		{LabelFlags{Sep: ",", Tune: true, MinLabels: -1}, "--label-sep needs --multi-label"},
		{LabelFlags{Tune: true, MinLabels: 2}, "--tune-thresholds needs --multi-label"},
		{LabelFlags{MinLabels: 2}, "--min-labels needs --multi-label"},
		{LabelFlags{MultiLabel: true, MinLabels: -1, Threshold: 2}, "--min-labels must be ≥ 0"},
		{LabelFlags{Threshold: 1.5}, "--threshold must be between 0 and 1, got 1.5"},
		{LabelFlags{Threshold: math.NaN()}, "--threshold must be between 0 and 1, got NaN"},
	} {
		wantUsage(t, tc.want, tc.f.Check(), tc.want)
	}
}
