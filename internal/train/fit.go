package train

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Fit fits an estimator of kind on X, which must already be weighted as the
// vocabulary's settings say (Prepare and PrepareWith do that): FitNB for
// the Naive Bayes kinds, followed by the temperature calibration of their
// probabilities for the kinds DefaultCalibrate names (unless
// opt.NoCalibrate), FitLogReg for model.LogReg, FitCentroid (calibrated
// alike) for model.Centroid, and FitSVM or FitNBLR for model.SVM and
// model.NBLR, whose decision values are then calibrated the same way
// (calibrateCrossFit: a temperature fitted on held-out folds) unless
// opt.NoCalibrate or p.Temperature > 0. FitCalibrated also returns the
// calibration. opt is otherwise used by the linear models only.
func Fit(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	m, _, err := FitCalibrated(kind, X, y, classes, vocab, p, opt)
	return m, err
}

// FitCalibrated is Fit, returning also the calibration of a Naive Bayes
// model: the temperature τ chosen by CalibrateNB, which the model records
// in Params.Temperature (so that it is saved) and by which its weights and
// biases have been multiplied, so that its probabilities are
// softmax(τ·score) and its decisions those of the uncalibrated model. The
// calibration is nil when none was attempted (logistic regression, a kind
// DefaultCalibrate leaves alone, opt.NoCalibrate, or p.Temperature > 0: a
// given temperature, which FitNB applies as it is); it says so when it was
// skipped (Calibration.Skipped, τ = 1).
func FitCalibrated(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, *Calibration, error) {
	if vocab != nil {
		if err := model.CheckSize(kind, false, vocab.Len(), len(classes)); err != nil {
			return nil, nil, err
		}
	}
	switch {
	case kind.IsNB():
		m, err := FitNB(kind, X, y, classes, vocab, p)
		if err != nil || opt.NoCalibrate || p.Temperature > 0 || !DefaultCalibrate(kind) {
			return m, nil, err
		}
		cal, err := calibrate(m, X, y, opt.workers())
		if err != nil {
			return nil, nil, err
		}
		if err := applyTemperature(m, cal.Temperature); err != nil {
			return nil, nil, err
		}
		return m, cal, nil
	case kind == model.LogReg:
		m, err := FitLogReg(X, y, classes, vocab, p, opt)
		return m, nil, err
	case kind == model.Centroid:
		return FitCentroid(X, y, classes, vocab, p, opt)
	case kind == model.SVM || kind == model.NBLR:
		p.Temperature = max(p.Temperature, 0)
		f, err := newDualFit(kind, X, y, classes, vocab, p)
		if err != nil {
			return nil, nil, err
		}
		// The calibration's fold fit comes first: the final fit then
		// reuses its arrays, and the model it returns is the one kept.
		tau, cal := p.Temperature, (*Calibration)(nil)
		if tau == 0 && !opt.NoCalibrate {
			copt := opt
			copt.calibEps, copt.calibIter = CalibrationSVMEps, calibrationIter(kind)
			fold := func(rows, y []int) (func() *model.Scorer, error) { return f.fitScorer(rows, y, copt), nil }
			if cal, err = calibrateCrossFit(fold, X, y, len(classes), p.Seed, opt.workers()); err != nil {
				return nil, nil, err
			}
			tau = cal.Temperature
		}
		// The final fit writes its weights multiplied by τ.
		m, err := f.fit(nil, y, opt, tau)
		if err != nil {
			return nil, nil, err
		}
		return m, cal, nil
	}
	return nil, nil, fmt.Errorf("unknown model kind %s", kind)
}

// Prepare builds a vocabulary from texts with settings s (label ids y and
// nClasses are used only by supervised selection, s.Select = "mi:K") and
// returns it with the training matrix, weighted as s.Weighting, s.Sublinear
// and s.Norm say: the input Fit expects.
func Prepare(texts []string, y []int, nClasses int, s vectorize.Settings, workers int, progress func(done, total int)) (*vectorize.Vocabulary, *vectorize.Matrix, error) {
	vocab, X, err := vectorize.Fit(texts, y, nClasses, s, workers, progress)
	if err != nil {
		return nil, nil, err
	}
	vocab.Weight(X)
	return vocab, X, nil
}

// PrepareWith turns texts into rows over an existing vocabulary (loaded from
// a file, or built on other documents) and weights them as its settings
// say.
func PrepareWith(vocab *vectorize.Vocabulary, texts []string, workers int) *vectorize.Matrix {
	X := vocab.Transform(texts, workers)
	vocab.Weight(X)
	return X
}

// releaseBytes is the size of one V×C matrix from which ReleaseBeforeFit
// collects the vectorizer's garbage.
const releaseBytes = 32 << 20

// ReleaseBeforeFit prepares a process to fit one model of kind, V terms
// and C classes on a matrix it has just built (train, not
// cross-validation): when the model's V×C arrays are large, it lets go of
// what the caller no longer needs (drop, when not nil: the texts) and
// collects the vectorizer's garbage. For most kinds it then returns the
// freed pages to the operating system (debug.FreeOSMemory), so that the
// fit allocates its arrays in fresh pages rather than beside the freed
// but still resident ones, which the collector cannot hand out as one
// large block: the peak is the larger of the two phases, not their sum.
// The dual solvers' fits (SVM, NB-LR) take the freed memory as it is:
// their arrays fit in it, and every page handed back would fault again at
// once (on the 20NG train split the svm peak stays at 227 MB, with 17,000
// fewer faults; multinomial NB on word bigrams would peak at 280 MB
// rather than 210 MB). Small models skip it (it costs a collection).
func ReleaseBeforeFit(kind model.Kind, V, C int, drop func()) {
	if 8*V*C < releaseBytes {
		return
	}
	if drop != nil {
		drop()
	}
	if kind == model.SVM || kind == model.NBLR {
		runtime.GC()
		return
	}
	debug.FreeOSMemory()
}
