package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// fitFunc fits a model of one kind and parameters on the rows of the
// training matrix listed in rows, labelled y (one label per listed row),
// and returns what makes its scorers, which need only stay valid until the
// next call.
type fitFunc func(rows, y []int) (func() *model.Scorer, error)

// calibrateCrossFit chooses the temperature τ of a linear model (SVM,
// NB-LR) by cross-fitting, as CalibrateNB does for NB: the training
// documents are split into DefaultFolds stratified folds (seeded with
// seed); each of the first folds, until CalibrationDocs documents are held
// out, is scored by the model fit fits on the other folds, and τ minimizes
// the mean held-out log-loss of softmax(τ·scores) (see CalibrateNB for the
// objective and when calibration is skipped). Each fold used costs one
// fit.
func calibrateCrossFit(fit fitFunc, X *vectorize.Matrix, y []int, nc int, seed int64, workers int) (*Calibration, error) {
	cal := newCalibration()
	folds, err := calibrationFolds(cal, y, uint64(seed))
	if err != nil {
		return nil, err
	}
	if cal.Skipped != "" {
		return cal, nil
	}
	var (
		scores []float64
		labels []int
	)
	for f, held := range folds {
		rest := corpus.Complement(len(y), held)
		newScorer, err := fit(rest, corpus.Pick(y, rest))
		if err != nil {
			return nil, fmt.Errorf("calibration fold %d: %w", f+1, err)
		}
		out := make([]float64, len(held)*nc)
		scoreRows(newScorer, X, held, out, nc, workers)
		scores = append(scores, out...)
		for _, i := range held {
			labels = append(labels, y[i])
		}
	}
	return fitTemperature(cal, scores, labels, nc, workers), nil
}

// FitTemperature chooses the temperature τ that minimizes the mean
// log-loss of softmax(τ·scores) over held-out scores (row-major, nc per
// document) of documents labelled labels, as the calibration of Fit does
// on the scores of its own held-out folds (see CalibrateNB for the
// objective and when it is skipped: Skipped set, τ = 1).
func FitTemperature(scores []float64, labels []int, nc, workers int) *Calibration {
	return fitTemperature(newCalibration(), scores, labels, nc, workers)
}

// fitTemperature completes cal with the temperature that minimizes the
// held-out log-loss of the scores (row-major, nc per document) of
// documents labelled labels.
func fitTemperature(cal *Calibration, scores []float64, labels []int, nc, workers int) *Calibration {
	obj := newTempObjective(scores, labels, nc, workers)
	if cal.Docs = obj.docs(); cal.Docs == 0 {
		cal.Skipped = "no held-out document has a finite score for its own class"
		return cal
	}
	cal.LogLoss1, _, _ = obj.eval(1)
	cal.LogLoss = cal.LogLoss1
	tau, L, why := obj.minimize()
	if why != "" {
		cal.Skipped = why
		return cal
	}
	cal.Temperature, cal.LogLoss = tau, L
	return cal
}
