package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestMultiLabelMetrics checks every multi-label metric against values
// computed by hand. Labels a, b, c:
//
//	doc  true   predicted  P(a) P(b) P(c)
//	0    a b    a          .9   .4   .1
//	1    c      b c        .2   .6   .7
//	2    a      a          .8   .3   .55
//
// a: TP 2; b: FP 1 (doc 1), FN 1 (doc 0); c: TP 1. Micro: TP 3, FP 1,
// FN 1, so P = R = F1 = 3/4; macro F1 = (1 + 0 + 1)/3; Hamming loss
// 2/9; subset accuracy 1/3 (doc 2). Top 2: doc 0 {a, b} 2 hits, doc 1
// {c, b} 1, doc 2 {a, c} 1: precision@2 = (1 + 1/2 + 1/2)/3 = 2/3,
// recall@2 = (2/2 + 1/1 + 1/1)/3 = 1.
func TestMultiLabelMetrics(t *testing.T) {
	labels := []string{"a", "b", "c"}
	truth, unknown := MapLabelSets(labels, [][]string{{"a", "b"}, {"c"}, {"a"}})
	if unknown != nil {
		t.Fatalf("unknown %v", unknown)
	}
	pred := [][]int{{0}, {1, 2}, {0}}
	probs := []float64{.9, .4, .1, .2, .6, .7, .8, .3, .55}
	r, err := EvaluateMultiLabel(labels, truth, pred, probs, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"micro precision", r.MicroPrecision, 0.75},
		{"micro recall", r.MicroRecall, 0.75},
		{"micro F1", r.MicroF1, 0.75},
		{"macro F1", r.MacroF1, 2.0 / 3},
		{"hamming loss", r.HammingLoss, 2.0 / 9},
		{"subset accuracy", r.SubsetAccuracy, 1.0 / 3},
		{"precision@2", r.PrecisionAtK, 2.0 / 3},
		{"recall@2", r.RecallAtK, 1},
		{"b recall", r.Labels[1].Recall, 0},
		{"a precision", r.Labels[0].Precision, 1},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if r.Labels[0].Support != 2 || r.Labels[2].Support != 1 {
		t.Errorf("supports %+v", r.Labels)
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(buf.Bytes(), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"micro_f1", "macro_f1", "hamming_loss", "subset_accuracy", "precision_at_k", "recall_at_k"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON has no key %q: %s", k, buf.String())
		}
	}

	// A fourth document with a label the model does not know: a false
	// negative, and never an exact match. Micro: TP 4, FP 1, FN 2.
	truth, unknown = MapLabelSets(labels, [][]string{{"a", "b"}, {"c"}, {"a"}, {"a", "zzz"}})
	if unknown["zzz"] != 1 {
		t.Fatalf("unknown %v", unknown)
	}
	r, err = EvaluateMultiLabel(labels, truth, append(pred, []int{0}), append(probs, .9, .1, .1), 2, unknown)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.MicroF1-8.0/11) > 1e-12 || math.Abs(r.SubsetAccuracy-0.25) > 1e-12 || math.Abs(r.HammingLoss-3.0/12) > 1e-12 {
		t.Errorf("with an unknown label: micro F1 %v (want 8/11), subset %v (1/4), hamming %v (3/12)", r.MicroF1, r.SubsetAccuracy, r.HammingLoss)
	}
	if _, err := EvaluateMultiLabel(labels, truth, pred, probs, 2, nil); err == nil {
		t.Error("mismatched lengths accepted")
	}
}
