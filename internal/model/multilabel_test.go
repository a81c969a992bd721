package model

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

func TestMultiLabelModel(t *testing.T) {
	vocab := testVocab(t, "ball", "vote", "goal")
	// Labels sport and politics: log-odds per term.
	m, err := NewMultiLabel(LogReg, []string{"politics", "sport"}, vocab, Params{C: 1, Penalty: "l2", Solver: "sgd", Epochs: 1, BatchSize: 1},
		[]float64{-2, 3, 4, -1, -1, 2}, []float64{-1, -1})
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewScorer()
	// "ball vote": politics -1 - 2 + 4 = 1, sport -1 + 3 - 1 = 1.
	p := s.LabelProbs([]int32{0, 1}, []float32{1, 1})
	want := 1 / (1 + math.Exp(-1))
	if math.Abs(p[0]-want) > 1e-15 || math.Abs(p[1]-want) > 1e-15 {
		t.Errorf("probs %v, want both σ(1) = %v", p, want)
	}
	if got := SelectLabels(p, 0.5, 0); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("labels ≥ 0.5: %v", got)
	}
	// "goal": politics -1 - 1 = -2, sport -1 + 2 = 1.
	p = s.LabelProbs([]int32{2}, []float32{1})
	if got := SelectLabels(p, 0.5, 0); !slices.Equal(got, []int{1}) {
		t.Errorf("labels of goal ≥ 0.5: %v (probs %v)", got, p)
	}
	if got := SelectLabels(p, 0.99, 0); len(got) != 0 {
		t.Errorf("labels ≥ 0.99: %v", got)
	}
	if got := SelectLabels(p, 0.99, 2); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("top 2: %v", got)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	if v := buf.Bytes()[8]; v != 3 {
		t.Errorf("multi-label model written as version %d", v)
	}
	got, err := Decode(&buf, "ml.nbm")
	if err != nil {
		t.Fatal(err)
	}
	if !got.MultiLabel || !sameBits(got.W, m.W) {
		t.Errorf("decoded multi-label %v, W %v", got.MultiLabel, got.W)
	}
	if _, err := NewMultiLabel(Multinomial, []string{"a", "b"}, vocab, Params{Alpha: 1}, []float64{math.Inf(-1), 0, 0, 0, 0, 0}, []float64{0, 0}); err == nil {
		t.Error("infinite weights accepted")
	}
	if Sigmoid(-800) != 0 || Sigmoid(800) != 1 || Sigmoid(0) != 0.5 {
		t.Error("sigmoid at the extremes")
	}
}

// TestLabelThresholds checks per-label thresholds: SelectLabelsEach, the
// thresholds Model.Thresholds picks, their round trip through a file, and
// the validation of bad ones.
func TestLabelThresholds(t *testing.T) {
	vocab := testVocab(t, "ball", "vote", "goal")
	p := Params{C: 1, Penalty: "l2", Solver: "sgd", Epochs: 1, BatchSize: 1, LabelThresholds: []float64{0.9, 0.2}}
	m, err := NewMultiLabel(LogReg, []string{"politics", "sport"}, vocab, p, []float64{-2, 3, 4, -1, -1, 2}, []float64{-1, -1})
	if err != nil {
		t.Fatal(err)
	}
	probs := []float64{0.8, 0.3}
	if got := SelectLabelsEach(probs, m.Thresholds(0.5, false), 0); !slices.Equal(got, []int{1}) {
		t.Errorf("tuned thresholds 0.9, 0.2: %v, want [1]", got)
	}
	if got := SelectLabelsEach(probs, m.Thresholds(0.5, true), 0); !slices.Equal(got, []int{0}) {
		t.Errorf("given threshold 0.5: %v, want [0]", got)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(&buf, "ml.nbm")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Params.LabelThresholds, p.LabelThresholds) {
		t.Errorf("decoded thresholds %v", got.Params.LabelThresholds)
	}
	plain := Params{C: 1, Penalty: "l2", Solver: "sgd", Epochs: 1, BatchSize: 1}
	if m, _ := NewMultiLabel(LogReg, []string{"a", "b"}, vocab, plain, make([]float64, 6), make([]float64, 2)); !slices.Equal(m.Thresholds(0.3, false), []float64{0.3, 0.3}) {
		t.Errorf("untuned model: thresholds %v", m.Thresholds(0.3, false))
	}
	for _, bad := range [][]float64{{0.5}, {0.5, 1.5}, {math.NaN(), 0.5}} {
		q := plain
		q.LabelThresholds = bad
		if _, err := NewMultiLabel(LogReg, []string{"a", "b"}, vocab, q, make([]float64, 6), make([]float64, 2)); err == nil {
			t.Errorf("thresholds %v accepted", bad)
		}
	}
	q := plain
	q.LabelThresholds = []float64{0.5, 0.5}
	if _, err := NewLinear(LogReg, []string{"a", "b"}, vocab, q, make([]float64, 6), make([]float64, 2)); err == nil {
		t.Error("thresholds on a single-label model accepted")
	}
}

// TestSelectLabelsTop checks fastText's -k with -threshold (at most k
// labels above the threshold) and the minimum number of labels.
func TestSelectLabelsTop(t *testing.T) {
	p := []float64{0.2, 0.9, 0.6, 0.05}
	th := []float64{0.5, 0.5, 0.5, 0.5}
	for _, c := range []struct {
		k, min int
		want   []int
	}{
		{0, 0, []int{1, 2}},
		{1, 0, []int{1}},
		{3, 0, []int{1, 2}},
		{0, 3, []int{1, 2, 0}},
		{2, 3, []int{1, 2}},
	} {
		if got := SelectLabelsTop(p, th, c.k, c.min); !slices.Equal(got, c.want) {
			t.Errorf("k %d, min %d: %v, want %v", c.k, c.min, got, c.want)
		}
	}
	high := []float64{0.95, 0.95, 0.95, 0.95}
	if got := SelectLabelsTop(p, high, 0, 1); !slices.Equal(got, []int{1}) {
		t.Errorf("min 1 above every probability: %v, want [1]", got)
	}
	if got := SelectLabelsTop(p, high, 0, 0); len(got) != 0 {
		t.Errorf("min 0 above every probability: %v, want none", got)
	}
}
