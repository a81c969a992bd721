package train

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/nbtext/nbtext/internal/model"
)

// Options are the run-time knobs of a fit that do not change the fitted
// model's decisions and are therefore not saved in the model file (the
// training parameters are model.Params); NoCalibrate changes its
// probabilities.
type Options struct {
	// Workers is the number of goroutines computing gradients (0: GOMAXPROCS).
	// The fitted weights do not depend on it.
	Workers int
	// Progress, when non-nil, is called after each L-BFGS iteration or SGD
	// epoch with the number done and the maximum (p.Epochs), and once more
	// with (p.Epochs, p.Epochs) when the fit stops early.
	Progress func(done, total int)
	// Tol stops logistic regression early: L-BFGS when LBFGSPatience
	// iterations in a row lower the objective by less than Tol times its
	// value, SGD when an epoch's mean loss is less than Tol (relatively)
	// below the previous epoch's. 0 means DefaultTol; a negative value
	// disables the test, so the run takes p.Epochs iterations or epochs.
	Tol float64
	// Eta0 is the initial SGD step size η0 (0: DefaultEta0).
	Eta0 float64
	// NoCalibrate turns off the temperature calibration of Naive Bayes
	// probabilities that Fit applies by default to the kinds
	// DefaultCalibrate names (see CalibrateNB): the model is then as
	// counted. It changes probabilities only, never decisions.
	NoCalibrate bool
	// Init, when non-nil, is a logistic regression model over the same
	// vocabulary and classes whose weights start the optimization (a warm
	// start, as TuneMatrix does along its C grid).
	Init *model.Model
	// twoClassOVR makes FitMultiLabel fit logistic regression's labels
	// with Fit's two-class softmax, not fitOVRSGD (benchmarks compare).
	twoClassOVR bool
	// calibEps, when > 0, replaces the stopping tolerance of kind's dual
	// solver (DefaultSVMEps, DefaultNBLREps) when it is looser: the
	// tolerance of the fits whose held-out scores calibrate an SVM or
	// NB-LR.
	calibEps float64
	// calibIter, when > 0, caps the passes of those fits (p.Epochs).
	calibIter int
}

func (o Options) svmEps(kind model.Kind) float64 {
	eps := DefaultSVMEps
	if kind == model.NBLR {
		eps = DefaultNBLREps
	}
	return max(eps, o.calibEps)
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (o Options) tol() float64 {
	switch {
	case o.Tol == 0:
		return DefaultTol
	case o.Tol < 0:
		return 0
	}
	return o.Tol
}

func (o Options) eta0() float64 {
	if o.Eta0 > 0 {
		return o.Eta0
	}
	return DefaultEta0
}

// ValidateParams checks the training parameters of a model of kind with
// nClasses classes and returns a readable reason naming the command-line
// flag, such as "--C must be > 0, got 0". The Naive Bayes parameters and
// the prior are checked by model.ValidateParams; the logistic regression
// ones here. Parameters that kind does not use are ignored.
func ValidateParams(kind model.Kind, p model.Params, nClasses int) error {
	if err := model.ValidateParams(kind, p, nClasses); err != nil {
		return err
	}
	if kind == model.Centroid && p.ClassWeights != nil {
		return errors.New("--class-weight: nearest centroid has no class weights (a class's centroid is the mean of its documents whatever their weight): drop it")
	}
	if kind == model.Centroid {
		switch p.CentroidOffset {
		case "", "none", "prior", "fitted":
		default:
			return fmt.Errorf("--centroid-offset must be none, prior or fitted, got %q", p.CentroidOffset)
		}
	}
	if !kind.IsLinear() {
		return nil
	}
	if !(p.C > 0) || math.IsInf(p.C, 1) {
		return fmt.Errorf("--C must be > 0, got %g", p.C)
	}
	if kind != model.LogReg {
		if p.Epochs < 1 {
			return fmt.Errorf("--epochs must be ≥ 1, got %d", p.Epochs)
		}
		return nil
	}
	switch p.Penalty {
	case "l2", "l1":
	case "elasticnet":
		if !(p.L1Ratio >= 0 && p.L1Ratio <= 1) {
			return fmt.Errorf("--l1-ratio must be in [0, 1], got %v", p.L1Ratio)
		}
	default:
		return fmt.Errorf("--penalty must be l2, l1 or elasticnet, got %q", p.Penalty)
	}
	if p.Solver != "lbfgs" && p.Solver != "sgd" {
		return fmt.Errorf("--solver must be lbfgs or sgd, got %q", p.Solver)
	}
	if p.Epochs < 1 {
		return fmt.Errorf("--epochs must be ≥ 1, got %d", p.Epochs)
	}
	if p.Solver == "sgd" && p.BatchSize < 1 {
		return fmt.Errorf("--batch-size must be ≥ 1, got %d", p.BatchSize)
	}
	return nil
}

// DegenerateWarning returns a warning for parameters that are valid but
// give a degenerate model, or "": α = 0 for Naive Bayes, where a term
// never seen in a class rules that class out (probability 0), so that a
// document holding terms unseen in every class is predicted from the prior
// alone (model.Prediction.Fallback; Bernoulli NB then predicts most
// documents that way).
func DegenerateWarning(kind model.Kind, p model.Params) string {
	if kind.IsNB() && p.Alpha == 0 {
		return "--alpha 0: a term unseen in a class rules the class out, and documents no class can produce are predicted from the prior (eval reports how many); use --alpha > 0"
	}
	return ""
}

// MinTemperature and MaxTemperature bound a temperature given on the
// command line (--temperature): wide enough for every temperature
// calibration fits (complement NB's weight-normalized scores are about
// 1e-5 to 1e-7, so its fitted τ is about 1e5 to 1e7, 1.5e7 on 20
// Newsgroups), so that a model fitted from counts can be given the
// in-memory model's τ and be that model bit for bit; and far from where
// τ·w under- or overflows for weights of ordinary size (|w| ≤ 1e3).
const (
	MinTemperature = 1e-30
	MaxTemperature = 1e30
)
