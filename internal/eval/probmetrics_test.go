package eval

import (
	"math"
	"strings"
	"testing"
)

// TestProbMetricsByHand checks ROC-AUC, PR-AUC and the Brier score on a
// hand example, the one of scikit-learn's roc_auc_score and
// average_precision_score docs: P(pos) = 0.1, 0.4, 0.35, 0.8 for labels
// neg, neg, pos, pos.
//
// ROC-AUC: of the 4 (positive, negative) pairs, 3 rank the positive
// higher (0.35 < 0.4 is the one that does not): 3/4 = 0.75.
// Average precision: from the top, 0.8 (pos: R 1/2, P 1), 0.4 (neg), 0.35
// (pos: R 1, P 2/3), 0.1: 1/2·1 + 1/2·2/3 = 0.8333.
// Brier: ((0.1)² + (0.4)² + (0.65)² + (0.2)²) / 4 = 0.158125.
func TestProbMetricsByHand(t *testing.T) {
	ps := []float64{0.1, 0.4, 0.35, 0.8}
	truth := []int{0, 0, 1, 1}
	var lp []float64
	pred := make([]int, len(ps))
	for i, p := range ps {
		lp = append(lp, math.Log(1-p), math.Log(p))
		if p > 0.5 {
			pred[i] = 1
		}
	}
	r, err := Evaluate(Input{Classes: []string{"neg", "pos"}, Truth: truth, Pred: pred, LogProb: lp}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"roc-auc", r.ROCAUC, 0.75}, {"pr-auc", r.PRAUC, 0.5 + 0.5*2.0/3}, {"brier", r.Brier, 0.158125}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
	if r.Positive != "pos" {
		t.Errorf("positive class %q", r.Positive)
	}
	// Ties: two documents of one score count one half.
	if got := rocAUC([]float64{0.5, 0.5}, []bool{false, true}); got != 0.5 {
		t.Errorf("tied roc-auc = %v, want 0.5", got)
	}
	if got := averagePrecision([]float64{0.5, 0.5}, []bool{false, true}); got != 0.5 {
		t.Errorf("tied average precision = %v, want 0.5", got)
	}
	// Three classes: Brier's sum over classes; no AUC.
	lp3 := []float64{math.Log(0.7), math.Log(0.2), math.Log(0.1)}
	r3, err := Evaluate(Input{Classes: []string{"a", "b", "c"}, Truth: []int{1}, Pred: []int{0}, LogProb: lp3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := 0.49 + 0.64 + 0.01; math.Abs(r3.Brier-want) > 1e-12 || r3.HasBinary() {
		t.Errorf("3 classes: brier %v (want %v), binary %v", r3.Brier, want, r3.HasBinary())
	}
	var b strings.Builder
	if err := WriteTable(&b, r, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"brier", "0.1581", "roc-auc", "0.7500 (positive class pos)", "pr-auc", "0.8333"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteJSON(&b, r, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"brier": 0.158125`, `"positive": "pos"`, `"roc_auc": 0.75`, `"pr_auc": 0.8333333333333333`, `"empty": 0`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteTSV(&b, r, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"brier\t\t\t0.158125", "roc_auc\tpos\t\t0.750000", "pr_auc\tpos\t\t0.833333"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("TSV lacks %q:\n%s", want, b.String())
		}
	}
}
