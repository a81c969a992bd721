package train

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"unsafe"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/prefault"
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
	if err := model.CheckSize(kind, false, vocab.Len(), len(classes)); err != nil {
		return nil, err
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
// the result is deterministic. Values that are not all whole numbers
// (tf-idf, normalized rows) are summed in fixed point (counts.Fixed), as
// counting in shards sums them, so that the result is the same bits as a
// model fitted from merged counts (counts.Counts.NB), or in float64 when
// every sum is exact, which gives the same bits faster (addExactCounts);
// whole numbers sum exactly in float64 already. With class weights cw
// (nil: all 1) a document of class c counts cw[c] times (--class-weight):
// the sums of class c are multiplied by cw[c] once counted (weighClasses),
// as FitNBStats weighs counts, which carry no weights, so that the two
// agree bit for bit.
func nbCounts(kind model.Kind, X *vectorize.Matrix, y []int, nClasses int, cw []float64) (classDocs, counts []float64, err error) {
	classDocs = make([]float64, nClasses)
	counts = prefault.Make[float64](X.Cols * nClasses)
	if kind != model.Bernoulli && !wholeValues(X) {
		if !addExactCounts(X, y, classDocs, counts) {
			clear(classDocs)
			clear(counts)
			err = addFixedCounts(X, y, classDocs, counts)
		}
	} else {
		err = addCounts(kind, X, y, classDocs, counts)
	}
	if err != nil {
		return nil, nil, err
	}
	weighClasses(classDocs, counts, cw)
	return classDocs, counts, nil
}

// weighClasses multiplies the document count classDocs[c] and the
// statistics stats[t*C + c] (C = len(cw)) of each class c by its weight
// cw[c]; cw nil leaves them as they are, and either slice may be nil.
// Every document of a class weighs the same, so weighing the sums is
// weighing the documents, with one rounding per cell.
func weighClasses(classDocs, stats, cw []float64) {
	if cw == nil {
		return
	}
	C := len(cw)
	for c := range classDocs {
		classDocs[c] *= cw[c]
	}
	for o := 0; o+C <= len(stats); o += C {
		row := stats[o : o+C : o+C]
		for c, w := range cw {
			row[c] *= w
		}
	}
}

// wholeValues reports whether every value of X is a whole number.
func wholeValues(X *vectorize.Matrix) bool {
	for _, v := range X.Values {
		if v != float32(int32(v)) {
			return false
		}
	}
	return true
}

// addExactCounts adds the statistics of every row of X to classDocs and
// stats (both zero) in float64 and reports whether every sum is the one
// addFixedCounts computes. It is when every value is 0 or in [2⁻⁴¹, 2⁶²)
// (where counts.FixedOf is exact) and every addition is exact: then each
// sum is the exact sum of the values, which Fixed.Float64 returns too
// (a number a float64 holds converts exactly from fixed point). An
// addition s + v = r of non-negative numbers is exact when r - s = v and
// r - v = s: with a = max(s, v) and b = min(s, v), r - a is computed
// exactly (Dekker's Fast2Sum), so it equals b only if r = a + b. On tf-idf
// rows every sum is exact, and this runs at the speed of a float64 sum, a
// cell in one array; when it reports false, the caller starts again in
// fixed point (which also reports the invalid values).
//
// A large matrix is counted on all cores, each taking a range of terms
// (addExactRange): every cell is still summed by one goroutine in row
// order, so the sums are the same bits.
func addExactCounts(X *vectorize.Matrix, y []int, classDocs, stats []float64) bool {
	workers := 1
	if len(X.Indices) >= parallelCountNNZ {
		workers = runtime.GOMAXPROCS(0)
	}
	return addExactCountsOn(X, y, classDocs, stats, workers)
}

// parallelCountNNZ is the number of non-zeros from which addExactCounts
// spreads over the cores (20 Newsgroups' train split has 1.3 million).
const parallelCountNNZ = 1 << 16

// addExactCountsOn is addExactCounts on workers goroutines, each summing
// the cells of a contiguous range of terms.
func addExactCountsOn(X *vectorize.Matrix, y []int, classDocs, stats []float64, workers int) bool {
	for _, c := range y {
		classDocs[c]++
	}
	workers = max(1, min(workers, X.Cols))
	exact := make([]bool, workers)
	parallel(workers, workers, func(k int) {
		lo, hi := k*X.Cols/workers, (k+1)*X.Cols/workers
		exact[k] = addExactRange(X, y, len(classDocs), stats, int32(lo), int32(hi))
	})
	return !slices.Contains(exact, false)
}

// addExactRange adds the values of terms lo ≤ t < hi of every row of X to
// stats (C classes) and reports whether every value is in range and every
// sum exact (see addExactCounts). The rows' term ids are ascending.
func addExactRange(X *vectorize.Matrix, y []int, C int, stats []float64, lo, hi int32) bool {
	exact := true
	for i, c := range y {
		ind, val := X.Row(i)
		val = val[:len(ind)]
		j := 0
		if lo > 0 {
			j, _ = slices.BinarySearch(ind, lo)
		}
		for ; j < len(ind); j++ {
			t := ind[j]
			if t >= hi {
				break
			}
			v := float64(val[j])
			if !(v >= 0x1p-41 && v < 0x1p62) {
				if v == 0 {
					continue
				}
				return false
			}
			k := int(t)*C + c
			s := stats[k]
			r := s + v
			exact = exact && r-s == v && r-v == s
			stats[k] = r
		}
	}
	return exact
}

// addFixedCounts adds the statistics of every row of X to classDocs and
// counts (both zero), summing the values in fixed point.
func addFixedCounts(X *vectorize.Matrix, y []int, classDocs, stats []float64) error {
	C := len(classDocs)
	// The integer parts live in stats' own memory until the end, the
	// fractions beside them: 8 more bytes per cell, not 16.
	his := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(stats))), len(stats))
	los := make([]uint64, len(stats))
	for i, c := range y {
		classDocs[c]++
		ind, val := X.Row(i)
		for j, t := range ind {
			f, err := counts.FixedOf(val[j])
			if err != nil {
				return fmt.Errorf("document %d, term %d: feature value %g: %w (naive bayes needs counts or non-negative weights)", i, t, val[j], err)
			}
			k := int(t)*C + c
			sum, over := counts.Fixed{Hi: his[k], Lo: los[k]}.Add(f)
			if over {
				return fmt.Errorf("term %d: the sum of its values overflows", t)
			}
			his[k], los[k] = sum.Hi, sum.Lo
		}
	}
	for k, hi := range his {
		if hi != 0 || los[k] != 0 {
			stats[k] = counts.Fixed{Hi: hi, Lo: los[k]}.Float64()
		}
	}
	return nil
}

// addCounts adds the statistics of the rows of X, in order, to classDocs
// and stats.
func addCounts(kind model.Kind, X *vectorize.Matrix, y []int, classDocs, stats []float64) error {
	C := len(classDocs)
	presence := kind == model.Bernoulli
	for i, c := range y {
		classDocs[c]++
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
				stats[int(t)*C+c]++
			} else {
				stats[int(t)*C+c] += float64(v)
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

// FitNBCounts fits a Naive Bayes estimator of kind from counts (merged
// shards, see internal/counts): the vocabulary is cs's terms pruned with
// its settings as vectorize.Fit prunes them (round one) or the vocabulary
// its weighted sums were counted over (round two), and the statistics are
// those FitNB sums over the rows of the same documents, bit for bit. So
// the model equals FitNB's on those documents with those settings; only
// the temperature calibration, which needs the documents, is not done
// (p.Temperature applies as given).
func FitNBCounts(kind model.Kind, cs *counts.Counts, p model.Params) (*model.Model, error) {
	if err := checkNBCounts(kind, p, len(cs.Classes)); err != nil {
		return nil, err
	}
	// The size rule on the pruned vocabulary, before the dense statistics.
	v, _, err := cs.Vocabulary()
	if err != nil {
		return nil, err
	}
	if err := model.CheckSize(kind, false, v.Len(), len(cs.Classes)); err != nil {
		return nil, err
	}
	st, err := cs.Stats(kind == model.Bernoulli)
	if err != nil {
		return nil, err
	}
	return FitNBStats(kind, st, p)
}

// FitNBStats is FitNBCounts from the statistics of counts (Counts.Stats,
// or Counter.Stats, which reads no document twice and builds no counts).
func FitNBStats(kind model.Kind, st *counts.Stats, p model.Params) (*model.Model, error) {
	if err := checkNBCounts(kind, p, len(st.Classes)); err != nil {
		return nil, err
	}
	if err := model.CheckSize(kind, false, st.Vocab.Len(), len(st.Classes)); err != nil {
		return nil, err
	}
	// Counts carry no document weights: class weights weigh the sums, in
	// place, as nbCounts does.
	weighClasses(st.ClassDocs, st.Stats, p.ClassWeights)
	return model.NewNB(kind, st.Classes, st.Vocab, p, st.ClassDocs, st.Stats)
}

// checkNBCounts checks that an NB model of kind with parameters p can be
// fitted from counts of nClasses classes.
func checkNBCounts(kind model.Kind, p model.Params, nClasses int) error {
	if !kind.IsNB() {
		return fmt.Errorf("a model from counts is a naive bayes model (bernoulli, multinomial or complement), got %s", kind)
	}
	if nClasses < 2 {
		return fmt.Errorf("need at least two classes to train, got %d", nClasses)
	}
	return ValidateParams(kind, p, nClasses)
}
