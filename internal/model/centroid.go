package model

import (
	"errors"
	"fmt"
	"math"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Kinds added for records and centroids. They sit in a block of their own
// so that kinds added elsewhere merge beside them; the numbers are written
// into model files: never renumber them.
const (
	Centroid Kind = 7 // nearest centroid, Rocchio's classifier with cosine similarity
)

// NewCentroid builds a nearest-centroid model (Rocchio 1971; Manning,
// Raghavan & Schütze 2008, ch. 14) from sums, feature-major V×C with V =
// vocab.Len(): sums[t*C+c] = Σ_{i: y_i = c} x_it, the summed (normally
// l2-normalised tf-idf) rows of class c. The centroid of class c is μ_c =
// sums_c / N_c, and a document v is given the class of highest cosine
// similarity cos(v, μ_c) = v·μ_c / (‖v‖ ‖μ_c‖). ‖v‖ is the same for every
// class, and μ_c/‖μ_c‖ = sums_c/‖sums_c‖, so the model is linear:
//
//	W[t,c] = τ · sums[t*C+c] / ‖sums_c‖,   B[c] = p.CentroidBias[c] (0 without)
//
// with τ = p.Temperature (1 when 0). A document's scores are τ‖v‖ times
// its cosine similarities (τ times them for l2-normalised rows); τ scales
// them so that softmax(score) is a calibrated P(c|x) (train.FitCentroid
// fits it on held-out folds) and changes no decision. The offsets B (a
// prior or fitted on held-out scores: p.CentroidOffset) do change them:
// without them cosine similarity to the class means over-predicts small
// classes. A class whose sum is
// the zero vector (no document, or only empty ones) gets W = 0: it scores
// 0, as a document orthogonal to every centroid scores everywhere. sums is
// not kept or modified.
func NewCentroid(classes []string, vocab *vectorize.Vocabulary, p Params, sums []float64) (*Model, error) {
	if err := validateClasses(classes); err != nil {
		return nil, err
	}
	if vocab == nil {
		return nil, errors.New("NewCentroid: nil vocabulary")
	}
	V, C := vocab.Len(), len(classes)
	if len(sums) != V*C {
		return nil, fmt.Errorf("NewCentroid: %d sums, want %d terms × %d classes = %d", len(sums), V, C, V*C)
	}
	tau := p.Temperature
	if tau == 0 {
		tau = 1
	}
	if !(tau > 0) || math.IsInf(tau, 1) {
		return nil, fmt.Errorf("--temperature must be > 0, got %v", p.Temperature)
	}
	B := make([]float64, C)
	if p.CentroidBias != nil {
		if len(p.CentroidBias) != C {
			return nil, fmt.Errorf("NewCentroid: %d class offsets, want %d", len(p.CentroidBias), C)
		}
		for c, b := range p.CentroidBias {
			if math.IsNaN(b) || math.IsInf(b, 0) {
				return nil, fmt.Errorf("NewCentroid: class offset %d is %v", c, b)
			}
			B[c] = b
		}
	}
	W := CentroidWeights(sums, C, tau, nil)
	return NewLinear(Centroid, classes, vocab, p, W, B)
}

// CentroidWeights writes τ·sums_c/‖sums_c‖ (see NewCentroid) into dst,
// which it grows to len(sums), and returns it; a class whose sum is zero
// gets zero weights. It is exported for train's held-out folds, which
// normalise many sums.
func CentroidWeights(sums []float64, C int, tau float64, dst []float64) []float64 {
	if cap(dst) < len(sums) {
		dst = make([]float64, len(sums))
	}
	dst = dst[:len(sums)]
	norm := make([]float64, C)
	for o := 0; o+C <= len(sums); o += C {
		row := sums[o : o+C : o+C]
		norm := norm[:len(row)]
		for c, x := range row {
			norm[c] += x * x
		}
	}
	for c, n := range norm {
		if n > 0 {
			norm[c] = tau / math.Sqrt(n)
		}
	}
	for o := 0; o+C <= len(sums); o += C {
		row, out := sums[o:o+C:o+C], dst[o:o+C:o+C]
		norm := norm[:len(row)]
		for c, x := range row {
			out[c] = x * norm[c]
		}
	}
	return dst
}
