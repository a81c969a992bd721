package eval

import (
	"math"
	"testing"
)

// TestMultiLabelMetricsByHand checks every summary of EvaluateMultiLabel
// on three documents and three labels worked out by hand:
//
//	doc  truth   probs            pred (≥ 0.5)  top 2   hits@2
//	0    {0,1}   0.9 0.2 0.6      {0,2}         {0,2}   1
//	1    {2}     0.1 0.3 0.8      {2}           {2,1}   1
//	2    {1}     0.7 0.4 0.1      {0}           {0,1}   1
//
// label 0: TP 1, FP 1, FN 0 (F1 2/3, support 1); label 1: TP 0, FN 2
// (F1 0, support 2); label 2: TP 1, FP 1 (F1 2/3, support 1). Micro:
// TP 2, FP 2, FN 2, F1 1/2; macro F1 4/9; weighted F1 (2/3 + 0 + 2/3)/4 =
// 1/3; samples F1 (1/2 + 1 + 0)/3 = 1/2. precision@2 = 3 hits / (2·3) =
// 1/2; fastText's recall@2 = 3 hits / 4 true labels = 3/4; per document
// (1/2 + 1 + 1)/3 = 5/6.
func TestMultiLabelMetricsByHand(t *testing.T) {
	truth := [][]int{{0, 1}, {2}, {1}}
	pred := [][]int{{0, 2}, {2}, {0}}
	probs := []float64{0.9, 0.2, 0.6, 0.1, 0.3, 0.8, 0.7, 0.4, 0.1}
	r, err := EvaluateMultiLabel([]string{"a", "b", "c"}, truth, pred, probs, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"micro F1", r.MicroF1, 0.5},
		{"micro precision", r.MicroPrecision, 0.5},
		{"micro recall", r.MicroRecall, 0.5},
		{"macro F1", r.MacroF1, 4.0 / 9},
		{"weighted F1", r.WeightedF1, 1.0 / 3},
		{"samples F1", r.SamplesF1, 0.5},
		{"precision@2", r.PrecisionAtK, 0.5},
		{"recall@2", r.RecallAtK, 0.75},
		{"recall@2 per document", r.RecallAtKPerDoc, 5.0 / 6},
		{"label a F1", r.Labels[0].F1, 2.0 / 3},
		{"label a precision", r.Labels[0].Precision, 0.5},
		{"label b recall", r.Labels[1].Recall, 0},
		{"label c recall", r.Labels[2].Recall, 1},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
	if r.Labels[1].Support != 2 || r.Labels[1].FN != 2 {
		t.Errorf("label b: %+v", r.Labels[1])
	}
}
