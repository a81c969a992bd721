package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitMultiLabel fits a one-vs-rest multi-label model of kind on the rows
// of X (weighted as Prepare weights them) with label sets Y: Y[i] holds
// the ids (into labels) of document i's labels. For each label l it fits,
// with Fit, a binary model of kind on the same rows and vocabulary with
// the classes "absent" and "present" (document i is present when l ∈
// Y[i]), and keeps present − absent of its weights and biases: the
// log-odds that model.NewMultiLabel scores. Every label must occur in at
// least one document and be absent from another.
func FitMultiLabel(kind model.Kind, X *vectorize.Matrix, Y [][]int, labels []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	if X == nil || X.Rows() != len(Y) {
		return nil, fmt.Errorf("%d label sets for the documents", len(Y))
	}
	if len(labels) < 1 {
		return nil, fmt.Errorf("no labels")
	}
	L, V := len(labels), X.Cols
	present := make([][]bool, L)
	count := make([]int, L)
	for l := range present {
		present[l] = make([]bool, len(Y))
	}
	for i, ls := range Y {
		for _, l := range ls {
			if l < 0 || l >= L {
				return nil, fmt.Errorf("document %d: label id %d out of range [0, %d)", i, l, L)
			}
			if !present[l][i] {
				present[l][i] = true
				count[l]++
			}
		}
	}
	W, B := make([]float64, V*L), make([]float64, L)
	y := make([]int, len(Y))
	binary := []string{"absent", "present"}
	var bp model.Params
	for l := range labels {
		if count[l] == 0 || count[l] == len(Y) {
			return nil, fmt.Errorf("label %q is on %d of %d documents: one-vs-rest needs documents with and without it", labels[l], count[l], len(Y))
		}
		for i := range y {
			y[i] = 0
			if present[l][i] {
				y[i] = 1
			}
		}
		bp = p
		if p.Prior == "given" {
			bp.Prior, bp.Priors = "learned", nil
		}
		m, err := Fit(kind, X, y, binary, vocab, bp, Options{Workers: opt.Workers, Tol: opt.Tol, Eta0: opt.Eta0})
		if err != nil {
			return nil, fmt.Errorf("label %q: %w", labels[l], err)
		}
		for t := 0; t < V; t++ {
			W[t*L+l] = m.W[t*2+1] - m.W[t*2]
		}
		B[l] = m.B[1] - m.B[0]
		if opt.Progress != nil {
			opt.Progress(l+1, L)
		}
	}
	bp.Temperature = 0 // each label has its own; they are in the weights
	return model.NewMultiLabel(kind, labels, vocab, bp, W, B)
}
