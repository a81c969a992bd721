package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// multiLabelLines writes fastText lines carrying one or two of three
// topics' labels.
func multiLabelLines(t *testing.T, dir, name string, n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	topics := map[string][]string{
		"sport":    strings.Fields("goal match team ball score"),
		"politics": strings.Fields("vote election party law senate"),
		"tech":     strings.Fields("cpu code software chip linux"),
	}
	names := []string{"politics", "sport", "tech"}
	var b strings.Builder
	for range n {
		ls := []string{names[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			for {
				if o := names[rng.IntN(3)]; o != ls[0] {
					ls = append(ls, o)
					break
				}
			}
		}
		var words []string
		for _, l := range ls {
			fmt.Fprintf(&b, "__label__%s ", l)
			for range 4 {
				words = append(words, topics[l][rng.IntN(5)])
			}
		}
		b.WriteString(strings.Join(append(words, "the", "news", "today"), " ") + "\n")
	}
	return writeFile(t, dir, name, b.String())
}

// TestMultiLabelCLI runs train --multi-label, predict (text and JSON) and
// eval --multi-label, and checks that a multi-label line stays an error
// for single-label train and that eval without --multi-label refuses a
// multi-label model.
func TestMultiLabelCLI(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr, te := multiLabelLines(t, dir, "train.txt", 300, 1), multiLabelLines(t, dir, "test.txt", 100, 2)
	m := filepath.Join(dir, "ml.nbm")
	check(t, nbtext(t, "", "train", tr, "--model", "logreg", "-o", m), 1, "2 labels on one record")
	r := nbtext(t, "", "train", tr, "--multi-label", "--model", "logreg", "-o", m)
	check(t, r, 0)
	if !strings.Contains(r.out, "labels       3") {
		t.Errorf("train output: %s", r.out)
	}
	r = nbtext(t, "goal match vote senate\nlinux chip code\n", "predict", "-m", m)
	check(t, r, 0)
	if r.out != "sport politics\ntech\n" && r.out != "politics sport\ntech\n" {
		t.Errorf("predict: %q, want the two labels of each line", r.out)
	}
	r = nbtext(t, "linux chip code\n", "predict", "-m", m, "--format", "json")
	var out struct {
		Labels []string
		Probs  map[string]float64
	}
	if err := json.Unmarshal([]byte(r.out), &out); err != nil || len(out.Labels) != 1 || out.Labels[0] != "tech" || len(out.Probs) != 1 || !(out.Probs["tech"] >= 0.5) {
		t.Errorf("predict --format json: %q (%v)", r.out, err)
	}
	// K labels and their probabilities with --top-k; every label's with
	// --all-probs; at most K above the threshold with both; --min-labels.
	for _, c := range []struct {
		args          []string
		labels, probs int
	}{
		{[]string{"--all-probs"}, 1, 3},
		{[]string{"--top-k", "2"}, 2, 2},
		{[]string{"--top-k", "3", "--threshold", "0.5"}, 1, 1},
		{[]string{"--min-labels", "2"}, 2, 2},
		{[]string{"--top-k", "2", "--all-probs"}, 2, 3},
	} {
		r = nbtext(t, "linux chip code\n", append([]string{"predict", "-m", m, "--format", "json"}, c.args...)...)
		out.Labels, out.Probs = nil, nil
		if err := json.Unmarshal([]byte(r.out), &out); err != nil || len(out.Labels) != c.labels || len(out.Probs) != c.probs || out.Labels[0] != "tech" {
			t.Errorf("predict --format json %v: %q (%v), want %d labels and %d probabilities", c.args, r.out, err, c.labels, c.probs)
		}
	}
	check(t, nbtext(t, "", "predict", "-m", m, "--min-labels", "-1"), 2, "--min-labels must be ≥ 0")
	check(t, nbtext(t, "", "train", tr, "--multi-label", "--auto", "--metric", "accuracy", "-o", m), 2, "--metric with --auto --multi-label must be micro_f1, macro_f1 or p_at_1")
	check(t, nbtext(t, "", "train", tr, "--multi-label", "--auto", "--tune-thresholds", "-o", m), 2, "--tune-thresholds with --auto --multi-label")
	// eval --min-labels 1: every document gets its most probable label
	// even when no label reaches the threshold.
	for _, c := range []struct {
		min  string
		want func(float64) bool
	}{{"0", func(r float64) bool { return r == 0 }}, {"1", func(r float64) bool { return r > 0.3 }}} {
		r = nbtext(t, "", "eval", "-m", m, te, "--multi-label", "--format", "json", "--threshold", "1", "--min-labels", c.min)
		var rep struct {
			MicroRecall float64 `json:"micro_recall"`
		}
		if err := json.Unmarshal([]byte(r.out), &rep); err != nil || !c.want(rep.MicroRecall) {
			t.Errorf("eval --threshold 1 --min-labels %s: micro recall %v (%v)", c.min, rep.MicroRecall, err)
		}
	}
	if r := nbtext(t, "linux chip code\n", "predict", "-m", m, "--top-k", "2"); strings.Count(r.out, " ") != 3 {
		t.Errorf("predict --top-k 2: %q, want two labels with probabilities", r.out)
	}
	r = nbtext(t, "", "eval", "-m", m, te, "--multi-label", "--format", "json", "--top-k", "2")
	check(t, r, 0)
	var rep map[string]float64
	dec := json.NewDecoder(strings.NewReader(r.out))
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("%v: %s", err, r.out)
	}
	rep = map[string]float64{}
	for _, k := range []string{"micro_f1", "macro_f1", "hamming_loss", "subset_accuracy", "precision_at_k", "recall_at_k"} {
		v, ok := raw[k].(float64)
		if !ok {
			t.Fatalf("eval JSON lacks %s: %s", k, r.out)
		}
		rep[k] = v
	}
	if rep["micro_f1"] < 0.9 || rep["hamming_loss"] > 0.1 {
		t.Errorf("eval --multi-label: %v", rep)
	}
	// The model says it is multi-label: eval reads label sets without
	// being told again.
	withFlag := nbtext(t, "", "eval", "-m", m, te, "--multi-label")
	r = nbtext(t, "", "eval", "-m", m, te)
	check(t, r, 0)
	if r.out != withFlag.out {
		t.Errorf("eval of a multi-label model without --multi-label:\n%s\nwith it:\n%s", r.out, withFlag.out)
	}
	check(t, nbtext(t, "", "train", tr, "--label-sep", ",", "-o", m), 2, "--label-sep needs --multi-label")
}

// weakLabelLines writes fastText lines where label "rare" (10% of lines)
// brings the word "hint" half the time and other lines bring it a tenth
// of the time: P(rare | hint) ≈ 0.36, so a threshold of 0.5 never predicts
// "rare" while a lower one does with F1 ≈ 0.4. Label "common" (half the
// lines) always brings "marker", the other lines carry label "other".
func weakLabelLines(t *testing.T, dir, name string, n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 13))
	var b strings.Builder
	for range n {
		rare, common := rng.Float64() < 0.1, rng.IntN(2) == 0
		words := []string{"some", "filler", "words"}
		if rare {
			b.WriteString("__label__rare ")
		}
		if common {
			b.WriteString("__label__common ")
			words = append(words, "marker")
		} else {
			b.WriteString("__label__other ")
		}
		if (rare && rng.IntN(2) == 0) || (!rare && rng.IntN(10) == 0) {
			words = append(words, "hint")
		}
		b.WriteString(strings.Join(words, " ") + "\n")
	}
	return writeFile(t, dir, name, b.String())
}

// TestTuneThresholds trains with --tune-thresholds on weakLabelLines: the
// model stores a threshold per label, "rare" gets one below 0.5, predict
// and eval use them unless --threshold is given, and they lift the held-out
// macro F1 (the mean of the per-label F1 each threshold maximizes) over the
// default 0.5.
func TestTuneThresholds(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr, te := weakLabelLines(t, dir, "train.txt", 3000, 1), weakLabelLines(t, dir, "test.txt", 2000, 2)
	m := filepath.Join(dir, "ml.nbm")
	check(t, nbtext(t, "", "train", tr, "--tune-thresholds", "-o", m), 2, "--tune-thresholds needs --multi-label")
	// C = 30 (the single-label default): this test is of the thresholds,
	// on a model that tells the hint apart.
	r := nbtext(t, "", "train", tr, "--multi-label", "--tune-thresholds", "--model", "logreg", "--C", "30", "-o", m)
	check(t, r, 0)
	if !strings.Contains(r.out, "thresholds   tuned per label") {
		t.Errorf("train output: %s", r.out)
	}
	var info struct {
		Classes []string
		Params  struct {
			LabelThresholds []float64 `json:"label_thresholds"`
		}
	}
	r = nbtext(t, "", "info", m, "--format", "json")
	if err := json.Unmarshal([]byte(r.out), &info); err != nil || len(info.Params.LabelThresholds) != 3 || strings.Join(info.Classes, ",") != "common,other,rare" {
		t.Fatalf("info: %v, %+v", err, info)
	}
	if tr := info.Params.LabelThresholds[2]; !(tr > 0.05 && tr < 0.4) {
		t.Errorf("threshold of rare %v, want between P(rare|no hint) ≈ 0.06 and P(rare|hint) ≈ 0.36", tr)
	}
	if r := nbtext(t, "some filler hint marker\n", "predict", "-m", m); r.out != "common rare\n" {
		t.Errorf("predict with the tuned thresholds: %q, want common rare", r.out)
	}
	if r := nbtext(t, "some filler hint marker\n", "predict", "-m", m, "--threshold", "0.5"); r.out != "common\n" {
		t.Errorf("predict --threshold 0.5: %q, want common", r.out)
	}
	macroF1 := func(args ...string) float64 {
		r := nbtext(t, "", append([]string{"eval", "-m", m, te, "--multi-label", "--format", "json"}, args...)...)
		check(t, r, 0)
		var rep struct {
			MacroF1 float64 `json:"macro_f1"`
		}
		if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
			t.Fatalf("%v: %s", err, r.out)
		}
		return rep.MacroF1
	}
	tuned, fixed := macroF1(), macroF1("--threshold", "0.5")
	t.Logf("held-out macro F1: tuned thresholds %.4f, 0.5 %.4f", tuned, fixed)
	if !(tuned > fixed+0.05) {
		t.Errorf("held-out macro F1 with tuned thresholds %.4f, with 0.5 %.4f: want a gain", tuned, fixed)
	}
}

// TestTuneThresholdsRareLabels trains --tune-thresholds on labels that
// are on one or two documents: it succeeds (they share a threshold) and
// the train output says how many share it.
func TestTuneThresholdsRareLabels(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "__label__common some words here n%d\n", i%7)
	}
	for r := 0; r < 6; r++ {
		for j := 0; j <= r%2; j++ {
			fmt.Fprintf(&b, "__label__rare%d odd%d words\n", r, r)
		}
	}
	tr := writeFile(t, dir, "train.txt", b.String())
	m := filepath.Join(dir, "ml.nbm")
	r := nbtext(t, "", "train", tr, "--multi-label", "--tune-thresholds", "--model", "complement", "-o", m)
	check(t, r, 0)
	if !strings.Contains(r.out, "6 labels on fewer than 5 documents share the threshold") {
		t.Errorf("train output: %s", r.out)
	}
}

// TestMultiLabelEveryKind trains --multi-label with every text model and
// checks each predicts both labels of a clear two-topic line. nblr failed
// with "nblr model with Binary = false" before its presence features were
// kept in the multi-label model.
func TestMultiLabelEveryKind(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr := multiLabelLines(t, dir, "train.txt", 300, 1)
	for k := model.Kind(1); k.Valid(); k++ {
		if k == model.Categorical || k == model.Gaussian {
			continue // record-field models: no text to label
		}
		m := filepath.Join(dir, k.String()+".nbm")
		check(t, nbtext(t, "", "train", tr, "--multi-label", "--model", k.String(), "-q", "-o", m), 0)
		r := nbtext(t, "goal match vote senate\n", "predict", "-m", m, "--top-k", "2")
		check(t, r, 0)
		if !strings.Contains(r.out, "sport") || !strings.Contains(r.out, "politics") {
			t.Errorf("%s: predict --top-k 2: %q, want sport and politics", k, r.out)
		}
		// The kinds with a C take the multi-label C unless one is given.
		c, ok := train.MultiLabelC(k)
		if !ok {
			continue
		}
		if got := loadParams(t, m).C; got != c {
			t.Errorf("%s --multi-label: C %g, want the multi-label default %g", k, got, c)
		}
		check(t, nbtext(t, "", "train", tr, "--multi-label", "--model", k.String(), "--C", "0.7", "-q", "-o", m), 0)
		if got := loadParams(t, m).C; got != 0.7 {
			t.Errorf("%s --multi-label --C 0.7: C %g", k, got)
		}
	}
}

// loadParams returns the parameters of the model file path.
func loadParams(t *testing.T, path string) model.Params {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.Params
}

// TestMultiLabelAuto runs train --auto --multi-label with an evaluation
// budget: it scores the kinds' defaults first, prints the leaderboard
// with what it skipped, writes a multi-label model that eval reads, and
// two runs give the same bytes.
func TestMultiLabelAuto(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr, te := multiLabelLines(t, dir, "train.txt", 300, 1), multiLabelLines(t, dir, "test.txt", 100, 2)
	m1, m2 := filepath.Join(dir, "a.nbm"), filepath.Join(dir, "b.nbm")
	args := []string{"train", tr, "--multi-label", "--auto", "--budget", "evals:4", "--metric", "macro_f1", "--min-df", "1"}
	check(t, nbtext(t, "", append(args, "-o", m1)...), 2, "--auto chooses these settings itself")
	args = args[:len(args)-2]
	r := nbtext(t, "", append(args, "-o", m1)...)
	check(t, r, 0)
	for _, want := range []string{"4 of 28 candidates scored", "by macro_f1", "nblr", "(default)", "skipped for lack of budget (24)", "labels       3"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("train --auto --multi-label output lacks %q:\n%s", want, r.out)
		}
	}
	check(t, nbtext(t, "", append(args, "-o", m2)...), 0)
	if a, b := readFile(t, m1), readFile(t, m2); a != b {
		t.Errorf("two runs with an evaluation budget wrote different models")
	}
	r = nbtext(t, "", "eval", "-m", m1, te, "--multi-label")
	check(t, r, 0)
	if !strings.Contains(r.out, "micro F1") {
		t.Errorf("eval of the chosen model: %s", r.out)
	}
}
