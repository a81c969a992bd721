package train

import (
	"fmt"
	"math"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitNB fits a Naive Bayes estimator of the given kind (model.Bernoulli,
// model.Multinomial or model.Complement) on the rows of X with label ids y
// (indices into classes). Fitting is counting: one pass over the non-zeros
// of X accumulates the sufficient statistics
//
//	N_c    = number of training documents in class c
//	N_cd   = Σ_{i: y_i = c} [x_id > 0]   (Bernoulli: documents of c containing d)
//	N_cd   = Σ_{i: y_i = c} x_id         (multinomial, complement: summed values)
//
// stored feature-major (counts[d*C + c]), and model.NewNB turns them into
// log weights with the smoothing in p (McCallum & Nigam 1998 for the
// Bernoulli and multinomial event models, Rennie et al. 2003 for complement
// NB). X must already carry the weighting the model is meant for (see
// Prepare); its values must be non-negative. The model keeps vocab, so
// that it scores new text as it was trained.
func FitNB(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params) (*model.Model, error) {
	if !kind.IsNB() {
		return nil, fmt.Errorf("FitNB needs a naive bayes model, got %s", kind)
	}
	if err := checkData(X, y, classes, vocab); err != nil {
		return nil, err
	}
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	classDocs, counts, err := nbCounts(kind, X, y, len(classes), p.ClassWeights)
	if err != nil {
		return nil, err
	}
	return model.NewNB(kind, classes, vocab, p, classDocs, counts)
}

// nbCounts returns N_c and the feature-major V*C statistics N_cd described
// at FitNB, in one pass over the non-zeros of X. Sums run in row order, so
// the result is deterministic. With class weights cw (nil: all 1) a
// document of class c counts cw[c] times (--class-weight).
func nbCounts(kind model.Kind, X *vectorize.Matrix, y []int, nClasses int, cw []float64) (classDocs, counts []float64, err error) {
	classDocs = make([]float64, nClasses)
	counts = make([]float64, X.Cols*nClasses)
	if err := addCounts(kind, X, y, nil, cw, classDocs, counts); err != nil {
		return nil, nil, err
	}
	return classDocs, counts, nil
}

// addCounts adds the statistics of the rows of X listed in rows (all rows
// when rows is nil), in the order given, to classDocs and counts, a
// document of class c weighing cw[c] (cw nil: 1).
func addCounts(kind model.Kind, X *vectorize.Matrix, y []int, rows []int, cw []float64, classDocs, counts []float64) error {
	C := len(classDocs)
	presence := kind == model.Bernoulli
	n := len(rows)
	if rows == nil {
		n = len(y)
	}
	for k := 0; k < n; k++ {
		i := k
		if rows != nil {
			i = rows[k]
		}
		c := y[i]
		wc := 1.0
		if cw != nil {
			wc = cw[c]
		}
		classDocs[c] += wc
		ind, val := X.Row(i)
		for j, t := range ind {
			v := val[j]
			switch {
			case v > 0 && !math.IsInf(float64(v), 1):
			case v == 0:
				continue
			default:
				return fmt.Errorf("document %d, term %d: feature value %g is not a finite non-negative number (naive bayes needs counts or non-negative weights)", i, t, v)
			}
			if presence {
				counts[int(t)*C+c] += wc
			} else {
				counts[int(t)*C+c] += wc * float64(v)
			}
		}
	}
	return nil
}

// checkData verifies that X, y, classes and vocab describe one training set:
// one label per row, label ids in range, at least two classes, at least one
// document, and a vocabulary (when given) as wide as X.
func checkData(X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary) error {
	if X == nil || X.Rows() <= 0 {
		return fmt.Errorf("no training documents")
	}
	if X.Rows() != len(y) {
		return fmt.Errorf("%d documents but %d labels", X.Rows(), len(y))
	}
	if len(classes) < 2 {
		return fmt.Errorf("need at least two classes to train, got %d", len(classes))
	}
	if vocab != nil && vocab.Len() != X.Cols {
		return fmt.Errorf("vocabulary has %d terms but the matrix has %d columns", vocab.Len(), X.Cols)
	}
	for i, c := range y {
		if c < 0 || c >= len(classes) {
			return fmt.Errorf("document %d: label id %d out of range [0, %d)", i, c, len(classes))
		}
	}
	for i := 0; i < X.Rows(); i++ {
		ind, _ := X.Row(i)
		for j, t := range ind {
			if int(t) < 0 || int(t) >= X.Cols {
				return fmt.Errorf("document %d: term id %d out of range [0, %d)", i, t, X.Cols)
			}
			if j > 0 && ind[j-1] >= t {
				return fmt.Errorf("document %d: term ids not strictly ascending (%d then %d)", i, ind[j-1], t)
			}
		}
	}
	return nil
}
