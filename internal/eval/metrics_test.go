package eval

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// handInput is a small case worked out by hand: classes a, b, c and d
// (d neither true nor predicted), the unknown label x, ten documents.
//
//	truth: a a a b b b b c x x
//	pred:  a a b b b a c c a b
func handInput() Input {
	classes := []string{"a", "b", "c", "d"}
	truth, unknown := MapLabels(classes, strings.Fields("a a a b b b b c x x"))
	pred := []int{0, 0, 1, 1, 1, 0, 2, 2, 0, 1}
	return Input{Classes: classes, Unknown: unknown, Truth: truth, Pred: pred}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestMapLabels(t *testing.T) {
	truth, unknown := MapLabels([]string{"b", "a"}, []string{"a", "z", "b", "y", "z"})
	if want := []int{1, 3, 0, 2, 3}; !reflect.DeepEqual(truth, want) {
		t.Errorf("truth = %v, want %v", truth, want)
	}
	if want := []string{"y", "z"}; !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown = %v, want %v", unknown, want)
	}
}

func TestEvaluateByHand(t *testing.T) {
	r, err := Evaluate(handInput(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "x"}; !reflect.DeepEqual(r.Labels, want) {
		t.Fatalf("labels = %v, want %v (d is neither true nor predicted: left out)", r.Labels, want)
	}
	if r.N != 10 || r.Correct != 5 || !near(r.Accuracy, 0.5) {
		t.Errorf("n, correct, accuracy = %d, %d, %g; want 10, 5, 0.5", r.N, r.Correct, r.Accuracy)
	}
	want := []ClassMetrics{
		{Label: "a", Precision: 2.0 / 4, Recall: 2.0 / 3, F1: 4.0 / 7, Support: 3},
		{Label: "b", Precision: 2.0 / 4, Recall: 2.0 / 4, F1: 4.0 / 8, Support: 4},
		{Label: "c", Precision: 1.0 / 2, Recall: 1, F1: 2.0 / 3, Support: 1},
		{Label: "x", Precision: 0, Recall: 0, F1: 0, Support: 2, Unknown: true}, // zero division → 0
	}
	for i, w := range want {
		g := r.PerClass[i]
		if g.Label != w.Label || g.Support != w.Support || g.Unknown != w.Unknown ||
			!near(g.Precision, w.Precision) || !near(g.Recall, w.Recall) || !near(g.F1, w.F1) {
			t.Errorf("per class %d = %+v, want %+v", i, g, w)
		}
	}
	checkAvg := func(name string, got, want Average) {
		t.Helper()
		if !near(got.Precision, want.Precision) || !near(got.Recall, want.Recall) || !near(got.F1, want.F1) {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	checkAvg("macro", r.Macro, Average{0.375, 13.0 / 24, 73.0 / 168})
	checkAvg("weighted", r.Weighted, Average{0.4, 0.5, 92.0 / 210})
	checkAvg("micro", r.Micro, Average{0.5, 0.5, 0.5})
	if !reflect.DeepEqual(r.Unknown, map[string]int{"x": 2}) || r.UnknownN() != 2 {
		t.Errorf("unknown = %v", r.Unknown)
	}
	wantConf := [][]int{
		{2, 1, 0, 0},
		{1, 2, 1, 0},
		{0, 0, 1, 0},
		{1, 1, 0, 0},
	}
	if !reflect.DeepEqual(r.Confusion, wantConf) {
		t.Errorf("confusion = %v, want %v", r.Confusion, wantConf)
	}
	norm := r.NormalizedConfusion()
	if !near(norm[0][0], 2.0/3) || !near(norm[1][2], 0.25) || !near(norm[3][1], 0.5) {
		t.Errorf("normalized confusion = %v", norm)
	}
	if r.HasLogLoss() || r.TopK != 0 {
		t.Errorf("log-loss %g / top-k %d without probabilities", r.LogLoss, r.TopK)
	}
}

// TestZeroDivision follows scikit-learn's zero_division=0: a class that is
// predicted but never true has recall 0 and F1 0; one that is true but never
// predicted has precision 0.
func TestZeroDivision(t *testing.T) {
	in := Input{Classes: []string{"a", "b"}, Truth: []int{0, 0}, Pred: []int{1, 1}}
	r, err := Evaluate(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.PerClass {
		if m.Precision != 0 || m.Recall != 0 || m.F1 != 0 {
			t.Errorf("%+v: want all zero", m)
		}
	}
	if r.Accuracy != 0 || r.Macro.F1 != 0 {
		t.Errorf("accuracy %g macro F1 %g", r.Accuracy, r.Macro.F1)
	}
}

func TestLogLossAndTopK(t *testing.T) {
	ln := math.Log
	// Three classes, four documents; the true class's probability is 0.7,
	// 0.2, 1 (clipped to 1-eps) and 0 (clipped to eps).
	in := Input{
		Classes: []string{"a", "b", "c"},
		Truth:   []int{0, 1, 2, 0},
		Pred:    []int{0, 0, 2, 1},
		LogProb: []float64{
			ln(0.7), ln(0.1), ln(0.2),
			ln(0.5), ln(0.2), ln(0.3),
			math.Inf(-1), math.Inf(-1), 0,
			math.Inf(-1), 0, math.Inf(-1),
		},
	}
	r, err := Evaluate(in, Options{TopK: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := (-ln(0.7) - ln(0.2) - math.Log1p(-LogLossEps) - ln(LogLossEps)) / 4
	if !near(r.LogLoss, want) {
		t.Errorf("log-loss = %.15g, want %.15g", r.LogLoss, want)
	}
	// Top-2: doc 0 rank 0, doc 1 rank 2 (0.5, 0.3 above 0.2), doc 2 rank 0,
	// doc 3: a is tied at -Inf with c but has the lower id, rank 1.
	if r.TopK != 2 || !near(r.TopKAccuracy, 0.75) {
		t.Errorf("top-%d accuracy = %g, want 0.75", r.TopK, r.TopKAccuracy)
	}
	r1, _ := Evaluate(in, Options{TopK: 1})
	if !near(r1.TopKAccuracy, r1.Accuracy) {
		t.Errorf("top-1 accuracy %g != accuracy %g", r1.TopKAccuracy, r1.Accuracy)
	}
}

// TestLogLossUnknown: a document whose label the model does not know counts
// as probability 0 for log-loss and as a miss for top-k.
func TestLogLossUnknown(t *testing.T) {
	in := Input{
		Classes: []string{"a", "b"},
		Unknown: []string{"z"},
		Truth:   []int{0, 2},
		Pred:    []int{0, 1},
		LogProb: []float64{0, math.Inf(-1), math.Log(0.5), math.Log(0.5)},
	}
	r, err := Evaluate(in, Options{TopK: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := (-math.Log1p(-LogLossEps) - math.Log(LogLossEps)) / 2
	if !near(r.LogLoss, want) {
		t.Errorf("log-loss = %g, want %g", r.LogLoss, want)
	}
	if r.TopKAccuracy != 0.5 || r.Accuracy != 0.5 {
		t.Errorf("top-2 %g, accuracy %g; want 0.5, 0.5", r.TopKAccuracy, r.Accuracy)
	}
}

func TestEvaluateErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"empty", Input{Classes: []string{"a"}}, "no documents"},
		{"lengths", Input{Classes: []string{"a"}, Truth: []int{0}, Pred: []int{0, 0}}, "1 true labels but 2 predictions"},
		{"truth range", Input{Classes: []string{"a"}, Truth: []int{1}, Pred: []int{0}}, "true label id 1 out of range"},
		{"pred range", Input{Classes: []string{"a"}, Truth: []int{0}, Pred: []int{-1}}, "predicted class id -1"},
		{"logprob", Input{Classes: []string{"a", "b"}, Truth: []int{0}, Pred: []int{0}, LogProb: []float64{0}}, "log-probabilities hold 1 values"},
	} {
		_, err := Evaluate(tc.in, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestGates(t *testing.T) {
	r := &Report{Accuracy: 0.8, Macro: Average{F1: 0.7}, LogLoss: 0.5,
		PerClass: []ClassMetrics{{Label: "spam", Precision: 0.9, Recall: 0.6}, {Label: "ham", Precision: 0.7, Recall: 0.95}}}
	s := r.Scores()
	if v, err := (Gates{MinAccuracy: 0.8, MinMacroF1: 0.7}).Check(s, nil, ""); err != nil || v != "gates passed: accuracy 0.8000 ≥ 0.8 (--min-accuracy); macro F1 0.7000 ≥ 0.7 (--min-macro-f1)" {
		t.Errorf("gates at the scores: %q, %v", v, err)
	}
	if v, err := (Gates{}).Check(s, nil, ""); v != "" || err != nil {
		t.Errorf("no gate: %q, %v", v, err)
	}
	_, err := (Gates{MinAccuracy: 0.85}).Check(s, nil, "")
	var ge *GateError
	if !errors.As(err, &ge) || ge.Metric != "accuracy" || err.Error() != "gates failed: accuracy 0.8000 < 0.85 (--min-accuracy)" {
		t.Errorf("err = %v", err)
	}
	_, err = (Gates{MinAccuracy: 0.9, MinMacroF1: 0.75, MaxLogLoss: 0.6}).Check(s, nil, "")
	if err == nil || err.Error() != "gates failed: accuracy 0.8000 < 0.9 (--min-accuracy); macro F1 0.7000 < 0.75 (--min-macro-f1); passed: log-loss 0.5000 ≤ 0.6 (--max-log-loss)" {
		t.Errorf("err = %v", err)
	}
	_, err = (Gates{MaxLogLoss: 0.4, MinRecall: map[string]float64{"spam": 0.7}, MinPrecision: map[string]float64{"ham": 0.7}}).Check(s, nil, "")
	if err == nil || err.Error() != "gates failed: log-loss 0.5000 > 0.4 (--max-log-loss); recall of spam 0.6000 < 0.7 (--min-recall); passed: precision of ham 0.7000 ≥ 0.7 (--min-precision)" {
		t.Errorf("err = %v", err)
	}
	var gu *GateUnavailableError
	if _, err := (Gates{MinRecall: map[string]float64{"eggs": 0.5}}).Check(s, nil, ""); !errors.As(err, &gu) || !strings.Contains(err.Error(), `no label "eggs"`) {
		t.Errorf("unknown label: %v", err)
	}
	s.LogLoss = math.NaN()
	if _, err := (Gates{MaxLogLoss: 1}).Check(s, nil, ""); !errors.As(err, &gu) {
		t.Errorf("no log-loss: %v", err)
	}
	// The baseline: accuracy 0.82 and macro F1 0.70; 0.8 is within a
	// tolerance of 0.02 of 0.82, not of 0.01.
	old := Scores{Accuracy: 0.82, MacroF1: 0.7}
	if v, err := (Gates{Tolerance: 0.02}).Check(s, &old, "old.nbm"); err != nil || !strings.HasPrefix(v, "gates passed: accuracy 0.8000 ≥ 0.8 (--baseline old.nbm - --tolerance 0.02)") {
		t.Errorf("baseline within tolerance: %q, %v", v, err)
	}
	if _, err := (Gates{Tolerance: 0.01}).Check(s, &old, "old.nbm"); !errors.As(err, &ge) || !strings.Contains(err.Error(), "accuracy 0.8000 < 0.81 (--baseline old.nbm - --tolerance 0.01)") {
		t.Errorf("baseline: %v", err)
	}
	if _, err := (Gates{}).Check(s, &s, "same.nbm"); err != nil {
		t.Errorf("a model against itself: %v", err)
	}
	if err := (Gates{MinAccuracy: 1.5}).Validate(); err == nil || !strings.Contains(err.Error(), "--min-accuracy must be in [0, 1]") {
		t.Errorf("validate: %v", err)
	}
	if err := (Gates{MaxLogLoss: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "--max-log-loss") {
		t.Errorf("validate: %v", err)
	}
	if m, err := ParseLabelThresholds("--min-recall", []string{"a=b=0.5", "spam=1"}); err != nil || m["a=b"] != 0.5 || m["spam"] != 1 {
		t.Errorf("parse: %v, %v", m, err)
	}
	for _, bad := range []string{"spam", "=0.5", "spam=x", "spam=1.5"} {
		if _, err := ParseLabelThresholds("--min-recall", []string{bad}); err == nil || !strings.Contains(err.Error(), "--min-recall") {
			t.Errorf("parse %q: %v", bad, err)
		}
	}
}

func TestLogSoftmax(t *testing.T) {
	s := []float64{1000, 1000 + math.Log(3)}
	logSoftmax(s)
	if !near(s[0], math.Log(0.25)) || !near(s[1], math.Log(0.75)) {
		t.Errorf("logSoftmax = %v", s)
	}
	if argmax([]float64{1, 3, 3}) != 1 {
		t.Error("argmax must take the lower id on ties")
	}
}

// TestGatesParse checks that Parse fills the label gates and validates
// the thresholds.
func TestGatesParse(t *testing.T) {
	g := Gates{MinAccuracy: 0.8}
	if err := g.Parse([]string{"spam=0.9", "a=b=0.5"}, []string{"ham=0.25"}); err != nil {
		t.Fatal(err)
	}
	if g.MinRecall["spam"] != 0.9 || g.MinRecall["a=b"] != 0.5 || len(g.MinRecall) != 2 || g.MinPrecision["ham"] != 0.25 || len(g.MinPrecision) != 1 {
		t.Errorf("Parse: recall %v, precision %v", g.MinRecall, g.MinPrecision)
	}
	if err := (&Gates{}).Parse(nil, []string{"ham=2"}); err == nil || !strings.Contains(err.Error(), "--min-precision ham") {
		t.Errorf("precision 2: error %v", err)
	}
	if err := (&Gates{}).Parse([]string{"spam"}, nil); err == nil || !strings.Contains(err.Error(), "--min-recall takes LABEL=x") {
		t.Errorf("no threshold: error %v", err)
	}
	if err := (&Gates{MinAccuracy: 1.5}).Parse(nil, nil); err == nil || !strings.Contains(err.Error(), "--min-accuracy") {
		t.Errorf("accuracy 1.5: error %v", err)
	}
}
