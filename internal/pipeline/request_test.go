package pipeline

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// fieldDefaults are the record field parameters of train's flags left alone.
var fieldDefaults = train.FieldParams{FieldAlpha: model.DefaultFieldAlpha, VarSmoothing: model.DefaultVarSmoothing,
	Density: "gaussian", Bandwidth: train.DefaultBandwidth, Shrinkage: "none"}

// TestTrainRequestCheck checks that each bad combination of train's
// options is refused with a usage error whose message names it, and that
// where several are wrong the first in train's order is reported.
func TestTrainRequestCheck(t *testing.T) {
	ok := func() TrainRequest {
		return TrainRequest{Output: "m.nbm", Kind: "multinomial", Folds: 5, StreamBuffer: 10, UnlabeledWeight: "auto",
			EM: &Unlabeled{MaxIter: 10, Tol: 1e-4}, VectorizerFlags: []string{"ngram", "min-df", "remove"},
			FieldParams: fieldDefaults}
	}
	given := func(names ...string) func(string) bool {
		return func(flag string) bool { return slices.Contains(names, flag) }
	}
	search := func(metric string) *SearchSettings { return &SearchSettings{Budget: "60s", Metric: metric} }
	cases := []struct {
		name string
		edit func(r *TrainRequest)
		want string // "" for no error
	}{
		{"fine", func(r *TrainRequest) {}, ""},
		{"no output", func(r *TrainRequest) { r.Output = "" }, "-o MODEL is required"},
		{"stdout", func(r *TrainRequest) { r.Output = "-" }, "-o -: a model is written to a file"},
		{"output before kind", func(r *TrainRequest) { r.Output, r.Kind = "", "nope" }, "-o MODEL is required"},
		{"kind", func(r *TrainRequest) { r.Kind = "nope" }, "--model: "},
		{"fields of lda need numeric", func(r *TrainRequest) {
			r.Kind, r.Fields = "lda", train.FieldSpec{Categorical: []string{"c"}}
		}, "lda"},
		{"label-sep", func(r *TrainRequest) { r.LabelSep = "," }, "--label-sep needs --multi-label"},
		{"tune", func(r *TrainRequest) { r.TuneThresholds = true }, "--tune-thresholds needs --multi-label"},
		{"multi fields", func(r *TrainRequest) {
			r.MultiLabel, r.Fields = true, train.FieldSpec{Numeric: []string{"n"}}
		}, "--multi-label takes text models without record fields"},
		{"stream no-stream", func(r *TrainRequest) { r.Stream, r.NoStream = true, true }, "--stream and --no-stream: give one"},
		{"stream auto", func(r *TrainRequest) { r.Stream, r.Auto = true, true }, "drop --stream"},
		{"stream multi", func(r *TrainRequest) { r.Stream, r.MultiLabel = true, true }, "--stream trains models of one label per document"},
		{"counts fields", func(r *TrainRequest) {
			r.FromCounts, r.Fields = "c.nbc", train.FieldSpec{Numeric: []string{"n"}}
		}, "--from-counts fits text only"},
		{"folds", func(r *TrainRequest) { r.Folds = 1 }, "--folds must be ≥ 2, got 1"},
		{"folds before workers", func(r *TrainRequest) { r.Folds, r.Workers = 1, -1 }, "--folds must be ≥ 2"},
		{"per-class", func(r *TrainRequest) { r.PerClass = -1 }, "--per-class must be ≥ 0, got -1"},
		{"per-class stream", func(r *TrainRequest) { r.PerClass, r.Stream = 5, true }, "--per-class draws its sample from a corpus held in memory"},
		{"rest", func(r *TrainRequest) { r.EM.Rest = true }, "--unlabeled-rest needs --per-class"},
		{"em flag alone", func(r *TrainRequest) { r.Changed = given("em-tol") }, "--em-tol needs unlabelled documents"},
		{"unlabeled stdin", func(r *TrainRequest) { r.Unlabeled = []string{"-"} }, `--unlabeled takes a file or folder, read once per pass, not "-"`},
		{"unlabeled split", func(r *TrainRequest) { r.Unlabeled, r.UnlabeledSplit = []string{"u"}, "dev" }, `--unlabeled-split must be train or test, got "dev"`},
		{"unlabeled counts", func(r *TrainRequest) { r.Unlabeled, r.FromCounts = []string{"u"}, "c.nbc" }, "--unlabeled fits naive bayes by EM from documents it vectorizes itself"},
		{"unlabeled multi", func(r *TrainRequest) { r.Unlabeled, r.MultiLabel = []string{"u"}, true }, "--unlabeled fits models of one label per document"},
		{"unlabeled init", func(r *TrainRequest) { r.Unlabeled, r.Init = []string{"u"}, "m0.nbm" }, "--init starts logistic regression, which --unlabeled does not fit"},
		{"unlabeled kind", func(r *TrainRequest) { r.Unlabeled, r.Kind = []string{"u"}, "complement" }, "complement naive bayes is not a generative model"},
		{"unlabeled weight", func(r *TrainRequest) { r.Unlabeled, r.UnlabeledWeight = []string{"u"}, "-1" }, "--unlabeled-weight must be"},
		{"workers", func(r *TrainRequest) { r.Workers = -1 }, "--workers must be ≥ 0, got -1"},
		{"keep-counts svm", func(r *TrainRequest) { r.KeepCounts, r.Kind = true, "svm" }, "--keep-counts keeps the counts of naive bayes and centroid models"},
		{"keep-counts vocab", func(r *TrainRequest) { r.KeepCounts, r.VocabFile = true, "v.nbv" }, "--keep-counts: a --vocab file fixes the vocabulary"},
		{"expect-shards < 1", func(r *TrainRequest) {
			r.FromCounts, r.Changed = "c.nbc", given("expect-shards")
		}, "--expect-shards must be ≥ 1, got 0"},
		{"counts fix flags", func(r *TrainRequest) {
			r.FromCounts, r.Given = "c.nbc", given("min-df", "folds", "ngram")
		}, "--ngram, --min-df, --folds are not allowed with --from-counts"},
		{"counts skip later checks", func(r *TrainRequest) { r.FromCounts, r.StreamBuffer = "c.nbc", 0 }, ""},
		{"expect-shards alone", func(r *TrainRequest) { r.ExpectShards, r.Changed = 2, given("expect-shards") }, "--expect-shards checks the counts of --from-counts: give --from-counts"},
		{"auto multi tune", func(r *TrainRequest) { r.Auto, r.MultiLabel, r.TuneThresholds = true, true, true }, "--tune-thresholds with --auto --multi-label"},
		{"auto metric", func(r *TrainRequest) { r.Auto, r.Search = true, search("x") }, `--metric must be accuracy, macro_f1 or log_loss, got "x"`},
		{"auto leaderboard", func(r *TrainRequest) {
			r.Auto, r.Search, r.Leaderboard = true, search("accuracy"), "xml"
		}, `--leaderboard must be table or json, got "xml"`},
		{"auto searched flag", func(r *TrainRequest) {
			r.Auto, r.Search, r.Given = true, search("accuracy"), given("ngram")
		}, "--ngram: --auto chooses these settings itself"},
		{"auto skips buffer", func(r *TrainRequest) { r.Auto, r.Search, r.StreamBuffer = true, search("accuracy"), 0 }, ""},
		{"buffer", func(r *TrainRequest) { r.StreamBuffer = 0 }, "--stream-buffer must be ≥ 1, got 0"},
		{"init multi", func(r *TrainRequest) { r.Init, r.MultiLabel = "m0.nbm", true }, "--init starts one logistic regression model, not --multi-label ones"},
		{"init fixes flags", func(r *TrainRequest) { r.Init, r.Given = "m0.nbm", given("remove") }, "--remove is not allowed with --init"},
		{"vocab fixes flags", func(r *TrainRequest) { r.VocabFile, r.Given = "v.nbv", given("ngram") }, "--ngram is not allowed with --vocab: the vocabulary file fixes"},
		{"env values are not given", func(r *TrainRequest) { r.VocabFile, r.Changed = "v.nbv", given("ngram") }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ok()
			c.edit(&r)
			err := r.Check()
			if c.want == "" {
				if err != nil {
					t.Fatalf("Check: %v, want nil", err)
				}
				return
			}
			var ue *UsageError
			if err == nil || !errors.As(err, &ue) {
				t.Fatalf("Check: %v, want a UsageError containing %q", err, c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check: %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// TestTrainRequestCheckSearchMultiLabel checks that a multi-label search
// is checked as one: its metric defaults to micro_f1.
func TestTrainRequestCheckSearchMultiLabel(t *testing.T) {
	for _, multi := range []bool{false, true} {
		set := &SearchSettings{Budget: "60s", Metric: "accuracy"}
		r := TrainRequest{Output: "m", Kind: "multinomial", Folds: 5, Auto: true, MultiLabel: multi, FieldParams: fieldDefaults, Search: set}
		want := map[bool]string{false: "accuracy", true: "micro_f1"}[multi]
		if err := r.Check(); err != nil || set.Metric != want {
			t.Fatalf("multi-label %v: Check = %v, metric %q, want nil and %q", multi, err, set.Metric, want)
		}
	}
}

// TestCountRequestCheck checks count's refusals, first first.
func TestCountRequestCheck(t *testing.T) {
	given := func(names ...string) func(string) bool {
		return func(flag string) bool { return slices.Contains(names, flag) }
	}
	cases := []struct {
		r    CountRequest
		want string
	}{
		{CountRequest{Output: "p.nbc", Kind: "multinomial"}, ""},
		{CountRequest{Output: "p.nbc", Kind: "centroid", Shard: "2/3", Mem: "512MiB"}, ""},
		{CountRequest{Kind: "svm"}, "-o PART.nbc is required"},
		{CountRequest{Output: "-"}, "-o -: counts are written to a file"},
		{CountRequest{Output: "p.nbc", Kind: "svm", Shard: "9/3"}, `--model must be bernoulli, multinomial, complement or centroid, got "svm"`},
		{CountRequest{Output: "p.nbc", Kind: "multinomial", Shard: "4/3", Mem: "x"}, `--shard must be i/N with 1 ≤ i ≤ N, got "4/3"`},
		{CountRequest{Output: "p.nbc", Kind: "multinomial", Mem: "1.5G"}, `--mem must be a size such as 512MiB, 2G or 100000 bytes, got "1.5G"`},
		{CountRequest{Output: "p.nbc", Kind: "multinomial", VocabFile: "r1.nbc", Given: given("model", "ngram"),
			VectorizerFlags: []string{"ngram"}}, "--ngram, --model are not allowed with --vocab: the round-one counts fix the vectorizer settings"},
		{CountRequest{Output: "p.nbc", Kind: "multinomial", VocabFile: "r1.nbc", VectorizerFlags: []string{"ngram"}}, ""},
	}
	for _, c := range cases {
		err := c.r.Check()
		var ue *UsageError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: Check: %v, want nil", c.r, err)
		case c.want != "" && (err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: Check: %v, want a UsageError containing %q", c.r, err, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "100": 100, "4k": 4096, "512MiB": 512 << 20, "2G": 2 << 30, "3MB": 3 << 20, "1T": 1 << 40} {
		if got, err := ParseSize("mem", in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-1", "1X", "k", "1.5G", "99999999999T"} {
		if _, err := ParseSize("mem", in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}
