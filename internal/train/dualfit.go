package train

import (
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// dualFit fits the one-vs-rest dual-solver models (SVM, NB-LR) of one
// kind and parameters on the rows of one training matrix, or on a subset
// of them, sharing the work two fits of Fit have in common: the matrix
// renumbered by frequency once for all of them (byFrequency), and the
// arrays of V×C floats, which a later fit takes over from an earlier one
// rather than touching fresh pages (page faults cost about as much as the
// calibration fold's solver on 20 Newsgroups' bigrams). A fit on a subset
// reads the rows in place, with no copy of the matrix, and gives the same
// weights as a fit on the copy, bit for bit (SVM; NB-LR's mean weight
// magnitude is summed over the terms in the full matrix's order, so its
// last bits may differ). A model a fit returns is valid until the next fit
// of the same dualFit, which reuses its weights: fit the model to keep
// last.
type dualFit struct {
	kind    model.Kind
	X       *vectorize.Matrix // renumbered by falling document frequency
	perm    []int32           // term t of the vocabulary is term perm[t] of X
	classes []string
	vocab   *vectorize.Vocabulary
	p       model.Params
	buf     svcBuffers
}

// newDualFit checks the training data X, y and the parameters p of kind
// and prepares their fits.
func newDualFit(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params) (*dualFit, error) {
	if err := checkData(X, y, classes, vocab); err != nil {
		return nil, err
	}
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	f := &dualFit{kind: kind, classes: classes, vocab: vocab, p: p}
	// Renumber the terms by falling document frequency, so that the
	// weights of the frequent terms, which most non-zeros touch, sit
	// together in memory (a large share of them then stays in cache).
	f.perm, f.X = byFrequency(X)
	return f, nil
}

// fit fits the model on the rows of the matrix listed in rows (nil: all),
// labelled y (one label per listed row, a subset of the labels newDualFit
// checked). tau, when > 0, is the model's temperature: its weights and
// biases are multiplied by it as they are written, which gives the bits
// applyTemperature gives (and its error when a weight overflows) without
// another pass over the weights.
func (f *dualFit) fit(rows []int, y []int, opt Options, tau float64) (*model.Model, error) {
	W, B := f.weights(rows, y, opt, tau)
	p := f.p
	if tau > 0 && tau != 1 {
		if slices.Contains(f.buf.overflow, true) {
			return nil, fmt.Errorf("temperature %v overflows a weight", tau)
		}
		p.Temperature = tau
	}
	return model.NewLinear(f.kind, f.classes, f.vocab, p, W, B)
}

// fitScorer is fit with no temperature for a calibration fold: it returns
// what makes scorers of the weights, which score as the model's would, bit
// for bit, with no model built (model.NewLinear checks and scans the V×C
// weights).
func (f *dualFit) fitScorer(rows []int, y []int, opt Options) func() *model.Scorer {
	W, B := f.weights(rows, y, opt, 0)
	return func() *model.Scorer { return model.NewLinearScorer(f.kind, W, B) }
}

// weights solves the problems of the fit and returns the model's weights
// and biases (see fit).
func (f *dualFit) weights(rows []int, y []int, opt Options, tau float64) (W, B []float64) {
	nc := len(f.classes)
	pr := newSolver(f.kind, f.X, y, nc, f.p, opt)
	pr.rows, pr.buf, pr.tau = rows, &f.buf, tau
	var scale []float64
	beta := 1.0
	if f.kind == model.NBLR {
		scale = logCountRatiosIn(f.buf.counts, f.X, rows, y, nc, f.p)
		if len(scale) == f.X.Cols*nc {
			f.buf.counts = scale // the counts' array, holding the ratios
		}
		beta = f.p.Interpolation
	}
	return pr.oneVsRest(nc, f.perm, scale, beta, opt)
}
