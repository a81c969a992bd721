package model

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// NewMultiLabel builds a one-vs-rest multi-label model of kind over one
// shared vocabulary: labels are its Classes, and W (feature-major, V×L) and
// B (L) hold, per label l, the log-odds of a binary classifier of l
// against its absence:
//
//	score[l] = B[l] + Σ_t v_t · W[t*L + l],   P(l ∈ labels(x) | x) = σ(score[l])
//
// train fits each binary model (two classes, "absent" and "present") and
// keeps present − absent of its weights and biases, which for NB is the
// log-odds of the posterior, for logistic regression its logit, and for
// the calibrated complement NB and centroid their calibrated log-odds.
// Weights must be finite (NB with α > 0). A multi-label model is written
// as format version 3, without NB counts.
func NewMultiLabel(kind Kind, labels []string, vocab *vectorize.Vocabulary, p Params, W, B []float64) (*Model, error) {
	if !kind.Valid() || kind.RecordOnly() {
		return nil, fmt.Errorf("multi-label: %s models cannot be multi-label", kind)
	}
	if !allFinite(W) || !allFinite(B) {
		return nil, errors.New("multi-label: weights must be finite (NB needs α > 0)")
	}
	m := &Model{Kind: kind, Classes: labels, Vocab: vocab, Params: p, W: W, B: B, Binary: kind.BinaryFeatures(), MultiLabel: true}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}

// LabelProbs returns P(l|x) = σ(score[l]) for every label of a multi-label
// model (for a single-label model, the softmax probabilities). The result
// is an internal buffer, overwritten by the next call.
func (s *Scorer) LabelProbs(ind []int32, val []float32) []float64 {
	sc := s.Scores(ind, val)
	out := s.lp[:s.nc]
	if !s.m.MultiLabel {
		LogProbs(out, sc)
		for c, x := range out {
			out[c] = math.Exp(x)
		}
		return out
	}
	for l, x := range sc {
		out[l] = Sigmoid(x)
	}
	return out
}

// Sigmoid returns σ(x) = 1/(1 + e^-x), computed without overflow.
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// SelectLabels returns the ids of the labels a multi-label prediction
// keeps: with k > 0 the k most probable (ties to the lower id), else every
// label with probability ≥ threshold, by probability descending (ties to
// the lower id). It may be empty.
func SelectLabels(probs []float64, threshold float64, k int) []int {
	return selectLabels(probs, func(int) float64 { return threshold }, k)
}

// SelectLabelsEach is SelectLabels with a threshold per label:
// thresholds[l] for label l.
func SelectLabelsEach(probs, thresholds []float64, k int) []int {
	return selectLabels(probs, func(l int) float64 { return thresholds[l] }, k)
}

// SelectLabelsTop returns the labels a multi-label prediction keeps with
// fastText's semantics of -k and -threshold: the labels of probability ≥
// thresholds[l], most probable first (ties to the lower id), at most k of
// them when k > 0; then, when fewer than minLabels are kept, the
// minLabels most probable labels (at most k when k > 0) whatever their
// thresholds. Thresholds of 0 make it the top k.
func SelectLabelsTop(probs, thresholds []float64, k, minLabels int) []int {
	ids := selectLabels(probs, func(l int) float64 { return thresholds[l] }, 0)
	if k > 0 && len(ids) > k {
		ids = ids[:k]
	}
	if len(ids) < minLabels {
		n := minLabels
		if k > 0 {
			n = min(n, k)
		}
		ids = selectLabels(probs, nil, n)
	}
	return ids
}

// Thresholds returns the threshold of each label of a multi-label model:
// t for every label when given, else the tuned Params.LabelThresholds
// when the model has them, else t.
func (m *Model) Thresholds(t float64, given bool) []float64 {
	if !given && m.Params.LabelThresholds != nil {
		return m.Params.LabelThresholds
	}
	out := make([]float64, len(m.Classes))
	for l := range out {
		out[l] = t
	}
	return out
}

func selectLabels(probs []float64, threshold func(l int) float64, k int) []int {
	ids := make([]int, 0, len(probs))
	for l, p := range probs {
		if k > 0 || p >= threshold(l) {
			ids = append(ids, l)
		}
	}
	sort.SliceStable(ids, func(a, b int) bool { return probs[ids[a]] > probs[ids[b]] })
	if k > 0 && len(ids) > k {
		ids = ids[:k]
	}
	return ids
}
