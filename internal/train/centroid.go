package train

import (
	"fmt"
	"math"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitCentroid fits the nearest-centroid classifier (Rocchio's, with cosine
// similarity; model.NewCentroid states the model) on the rows of X, which
// should be l2-normalised tf-idf (Defaults(model.Centroid)), with label ids
// y. Fitting is one pass over the non-zeros of X that sums each class's
// rows, as multinomial NB's counting pass does, and one normalisation.
//
// Cosine similarities lie in [-1, 1], so softmax of them is close to
// uniform: unless p.Temperature > 0 (a given τ) or opt.NoCalibrate, the
// scores are scaled by a temperature τ fitted on held-out scores, as
// CalibrateNB fits NB's: the documents of the first folds of a stratified
// k = DefaultFolds split (seed p.Seed), until CalibrationDocs documents are
// held out, are each scored by the centroids of all the other documents
// (leave-one-out, exact and cheap; see calibrateCentroid), and τ minimises
// their mean log-loss. Decisions do not depend
// on τ. The returned Calibration is nil when none was attempted.
func FitCentroid(X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, *Calibration, error) {
	if err := checkData(X, y, classes, vocab); err != nil {
		return nil, nil, err
	}
	if err := ValidateParams(model.Centroid, p, len(classes)); err != nil {
		return nil, nil, err
	}
	C := len(classes)
	sums, err := classSums(X, y, C)
	if err != nil {
		return nil, nil, err
	}
	var cal *Calibration
	p.CentroidBias = nil
	switch p.CentroidOffset {
	case "prior":
		p.CentroidBias = logPriorOffsets(ClassSizes(y, C))
	case "fitted":
		if opt.NoCalibrate || p.Temperature > 0 {
			// No held-out pass (a given τ, or none wanted, as --stream
			// and counts have none): the offsets need one.
			p.CentroidOffset = "none"
		}
	}
	if !(p.Temperature > 0) && !opt.NoCalibrate {
		var b []float64
		if cal, b, err = calibrateCentroid(X, y, C, sums, p, opt.workers()); err != nil {
			return nil, nil, err
		}
		if cal.Skipped == "" {
			p.Temperature, p.CentroidBias = cal.Temperature, b
		} else if p.CentroidOffset == "fitted" {
			p.CentroidOffset = "none"
		}
		if !(p.Temperature > 0) {
			p.Temperature = cal.Temperature
		}
	}
	m, err := model.NewCentroid(classes, vocab, p, sums)
	return m, cal, err
}

// logPriorOffsets returns log(n_c/n) for the documents per class n_c (a
// class without documents counts half of one, so that its offset stays
// finite).
func logPriorOffsets(sizes []int) []float64 {
	n := 0.0
	for _, k := range sizes {
		n += max(float64(k), 0.5)
	}
	b := make([]float64, len(sizes))
	for c, k := range sizes {
		b[c] = math.Log(max(float64(k), 0.5) / n)
	}
	return b
}

// classSums returns the feature-major V×C sums of the rows of X by class:
// multinomial NB's statistics (nbCounts), summed exactly in fixed point as
// counting in shards sums them, so that a centroid model fitted from
// merged counts (FitCentroidStats) has the same bits. Values must be
// finite and non-negative, as every weighting's are.
func classSums(X *vectorize.Matrix, y []int, C int) ([]float64, error) {
	_, sums, err := nbCounts(model.Multinomial, X, y, C, nil)
	return sums, err
}

// FitCentroidStats is FitCentroid from the statistics of counts
// (counts.Counts.Stats without presence, or counts.Counter.Stats): their
// per-(term, class) sums are the class sums FitCentroid takes from the
// rows, bit for bit, so the model equals FitCentroid's on the same
// documents with the same settings, except for the temperature and the
// fitted class offsets, whose fitting needs the documents: p.Temperature
// applies as given (0: none), and offsets "fitted" become "none" unless
// p.CentroidBias holds them (a model being updated keeps its own).
func FitCentroidStats(st *counts.Stats, p model.Params) (*model.Model, error) {
	if len(st.Classes) < 2 {
		return nil, fmt.Errorf("need at least two classes to train, got %d", len(st.Classes))
	}
	if err := ValidateParams(model.Centroid, p, len(st.Classes)); err != nil {
		return nil, err
	}
	if p.CentroidOffset == "fitted" && p.CentroidBias == nil {
		// The offsets need held-out documents; counts have none.
		p.CentroidOffset = "none"
	}
	if p.CentroidOffset == "prior" {
		sizes := make([]int, len(st.ClassDocs))
		for c, d := range st.ClassDocs {
			sizes[c] = int(d)
		}
		p.CentroidBias = logPriorOffsets(sizes)
	}
	return model.NewCentroid(st.Classes, st.Vocab, p, st.Stats)
}

// calibrateCentroid chooses the temperature of the centroids of sums (the
// totals of every row of X) on held-out scores; see FitCentroid. Each
// held-out document is scored by the centroids of all the other documents
// (leave-one-out), which need no refit: only its own class's sum changes,
// to s_y − x, so with d_c = x·s_c
//
//	x·(s_y − x) = d_y − ‖x‖²,   ‖s_y − x‖² = ‖s_y‖² − 2·d_y + ‖x‖²
//
// and one pass over the document's non-zeros gives all its scores. The
// documents scored are the first folds of a stratified split, as for NB.
func calibrateCentroid(X *vectorize.Matrix, y []int, C int, sums []float64, p model.Params, workers int) (*Calibration, []float64, error) {
	cal := newCalibration()
	folds, err := calibrationFolds(cal, y, uint64(p.Seed))
	if err != nil {
		return nil, nil, err
	}
	if cal.Skipped != "" {
		return cal, p.CentroidBias, nil
	}
	var held []int
	for _, f := range folds {
		held = append(held, f...)
	}
	norm2 := make([]float64, C)
	for o := 0; o+C <= len(sums); o += C {
		for c, x := range sums[o : o+C] {
			norm2[c] += x * x
		}
	}
	scores := make([]float64, len(held)*C)
	labels := make([]int, len(held))
	parallel(workers, ceilDiv(len(held), tempChunk), func(task int) {
		for j := task * tempChunk; j < min(len(held), (task+1)*tempChunk); j++ {
			i := held[j]
			sc := scores[j*C : (j+1)*C]
			ind, val := X.Row(i)
			xx := 0.0
			for k, t := range ind {
				v := float64(val[k])
				xx += v * v
				for c, s := range sums[int(t)*C : int(t)*C+C] {
					sc[c] += v * s
				}
			}
			yc := y[i]
			labels[j] = yc
			for c := range sc {
				dot, nn := sc[c], norm2[c]
				if c == yc {
					dot, nn = dot-xx, nn-2*dot+xx
				}
				if nn > 1e-12*norm2[c] {
					sc[c] = dot / math.Sqrt(nn)
				} else {
					sc[c] = 0 // the document was its class's only non-zero one
				}
			}
		}
	})
	switch {
	case p.CentroidOffset == "fitted":
		cal, b := fitCentroidOffsets(cal, scores, labels, C, p.Temperature)
		return cal, b, nil
	case p.CentroidBias != nil:
		// A prior: τ is fitted with the offsets added to every score.
		cal, b := fitCentroidTemperature(cal, scores, labels, C, p.CentroidBias)
		return cal, b, nil
	}
	return fitTemperature(cal, scores, labels, C, workers), nil, nil
}
