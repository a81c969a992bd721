package pipeline

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// multiLabelShortCorpus writes 1200 short documents in fastText lines,
// each with one or two of labels labels, and returns its path; with
// japanese, in Han and Hiragana with no spaces (an unsegmented script).
func multiLabelShortCorpus(t *testing.T, labels int, japanese bool) string {
	t.Helper()
	var b strings.Builder
	for i := range 1200 {
		l, m := i%labels, (i*7+3)%labels
		fmt.Fprintf(&b, "__label__t%d", l)
		if i%3 == 0 && m != l {
			fmt.Fprintf(&b, " __label__t%d", m)
		}
		if japanese {
			fmt.Fprintf(&b, " %c%cの市場%cと%c\n", 0x4e00+l, 0x4e00+100+l, 0x4e00+200+i%5, 0x4e00+300+m)
		} else {
			fmt.Fprintf(&b, " word%d common%d thing%d\n", l, i%5, m)
		}
	}
	path := filepath.Join(t.TempDir(), "c.ft")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMultiLabelAnalyzerByLabels: multi-label training on short text takes
// the profile's character n-grams on at most train.MultiLabelProfileLabels
// labels and words past them, unless --follow-profile is given; an
// analyzer flag wins, and --follow-profile=false keeps words. Complement
// NB keeps words (train.MultiLabelFollowsAnalyzer).
func TestMultiLabelAnalyzerByLabels(t *testing.T) {
	few := multiLabelShortCorpus(t, 5, false)
	edge := multiLabelShortCorpus(t, train.MultiLabelProfileLabels, false)
	many := multiLabelShortCorpus(t, train.MultiLabelProfileLabels+1, false)
	japanese := multiLabelShortCorpus(t, 5, true)
	dir := t.TempDir()
	for i, tc := range []struct {
		name    string
		kind    model.Kind
		corpus  string
		follow  bool
		changed []string
		set     func(*vectorize.Settings) error
		want    string
	}{
		{"few labels", model.NBLR, few, true, nil, nil, "char_wb"},
		{"the most labels", model.NBLR, edge, true, nil, nil, "char_wb"},
		{"many labels", model.NBLR, many, true, nil, nil, "word"},
		{"many labels, --follow-profile", model.NBLR, many, true, []string{"follow-profile"}, nil, "char_wb"},
		{"few labels, --follow-profile=false", model.NBLR, few, false, []string{"follow-profile"}, nil, "word"},
		{"few labels, --analyzer word", model.NBLR, few, true, []string{"analyzer"},
			func(s *vectorize.Settings) error { s.Analysis.Analyzer = ""; return nil }, "word"},
		{"multinomial, unsegmented", model.Multinomial, japanese, true, nil, nil, "char_wb"},
		{"multinomial, short", model.Multinomial, few, true, nil, nil, "char_wb"},
		{"bernoulli, short", model.Bernoulli, few, true, nil, nil, "char_wb"},
		{"centroid, short", model.Centroid, few, true, nil, nil, "char_wb"},
		{"centroid, short, --follow-profile=false", model.Centroid, few, false, []string{"follow-profile"}, nil, "word"},
		{"bernoulli, many labels", model.Bernoulli, many, true, nil, nil, "word"},
		{"complement, short", model.Complement, few, true, nil, nil, "word"},
		{"complement, unsegmented", model.Complement, japanese, true, nil, nil, "word"},
		{"complement, unsegmented, --follow-profile", model.Complement, japanese, true, []string{"follow-profile"}, nil, "char_wb"},
	} {
		plan := profilePlan(tc.kind, tc.corpus, filepath.Join(dir, fmt.Sprintf("m%d.nbm", i)), tc.follow, StreamNever, tc.changed, tc.set, nil)
		plan.MultiLabel, plan.Source.Options.MultiLabel = true, true
		if _, err := Run(plan); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := model.Load(plan.Output)
		if err != nil {
			t.Fatal(err)
		}
		if got := cmp.Or(m.Vocab.Settings.Analyzer, "word"); got != tc.want {
			t.Errorf("%s: analyzer %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMultiLabelNBCounts: a one-vs-rest fit of multinomial or complement
// NB weighs by counts on balanced labels too, complement NB with α 0.3
// (train.MultiLabelCounts), unless --follow-profile=false or a weighting
// flag is given (a single-label fit keeps tf-idf on balanced classes:
// train.TestProfileMultiLabelShort).
func TestMultiLabelNBCounts(t *testing.T) {
	few := multiLabelShortCorpus(t, 5, false)
	dir := t.TempDir()
	for i, tc := range []struct {
		name    string
		kind    model.Kind
		multi   bool
		follow  bool
		changed []string
		counts  bool
		alpha   float64
	}{
		{"complement", model.Complement, true, true, nil, true, train.MultiLabelComplementAlpha},
		{"multinomial", model.Multinomial, true, true, nil, true, 0.3},
		{"complement, --follow-profile=false", model.Complement, true, false, []string{"follow-profile"}, false, 1},
		{"complement, --weighting", model.Complement, true, true, []string{"weighting"}, false, train.MultiLabelComplementAlpha},
		{"complement, --alpha", model.Complement, true, true, []string{"alpha"}, true, 1},
	} {
		plan := profilePlan(tc.kind, few, filepath.Join(dir, fmt.Sprintf("m%d.nbm", i)), tc.follow, StreamNever, tc.changed, nil, nil)
		plan.MultiLabel, plan.Source.Options.MultiLabel = tc.multi, tc.multi
		if _, err := Run(plan); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := model.Load(plan.Output)
		if err != nil {
			t.Fatal(err)
		}
		s := m.Vocab.Settings
		if got := s.Weighting == "count" && s.Norm == "none" && !s.Sublinear; got != tc.counts {
			t.Errorf("%s: weighting %s, norm %s, sublinear %v; want counts: %v (%q)", tc.name, s.Weighting, s.Norm, s.Sublinear, tc.counts, m.Params.Profile)
		}
		if m.Params.Alpha != tc.alpha {
			t.Errorf("%s: α %g, want %g", tc.name, m.Params.Alpha, tc.alpha)
		}
	}
}

// TestLabelsChooseAnalyzer: a multi-label corpus is read whole before it
// is tokenized (to count its labels) only when the count can decide the
// analyzer: the profile is followed, no flag set the analyzer, and the
// kind follows the profile's analyzer on few labels.
func TestLabelsChooseAnalyzer(t *testing.T) {
	set := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	for _, tc := range []struct {
		name string
		plan Plan
		want bool
	}{
		{"nblr", Plan{Kind: model.NBLR, MultiLabel: true, FollowProfile: true}, true},
		{"multinomial", Plan{Kind: model.Multinomial, MultiLabel: true, FollowProfile: true}, true},
		{"centroid", Plan{Kind: model.Centroid, MultiLabel: true, FollowProfile: true}, true},
		{"centroid, single-label", Plan{Kind: model.Centroid, FollowProfile: true}, false},
		{"single-label", Plan{Kind: model.NBLR, FollowProfile: true}, false},
		{"complement", Plan{Kind: model.Complement, MultiLabel: true, FollowProfile: true}, false},
		{"--follow-profile=false", Plan{Kind: model.NBLR, MultiLabel: true, Changed: set("follow-profile")}, false},
		{"--follow-profile", Plan{Kind: model.NBLR, MultiLabel: true, FollowProfile: true, Changed: set("follow-profile")}, false},
		{"--analyzer", Plan{Kind: model.NBLR, MultiLabel: true, FollowProfile: true, Changed: set("analyzer")}, false},
		{"--vocab", Plan{Kind: model.NBLR, MultiLabel: true, FollowProfile: true, VocabFile: "v.tsv"}, false},
	} {
		r := &run{Plan: &tc.plan}
		if got := r.labelsChooseAnalyzer(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
