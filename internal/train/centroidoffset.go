package train

import (
	"math"

	"gonum.org/v1/gonum/optimize"
)

// centroidOffsetRidge is the weight λ of the penalty λ/2·Σ b_c² on the
// fitted class offsets of a nearest centroid: small enough to leave the
// held-out log-loss's optimum where it is, large enough to keep the
// offsets finite when a class is never or always right on the held-out
// scores, and to choose, among offsets that differ by a constant (softmax
// does not see it), those that sum to zero.
const centroidOffsetRidge = 1e-4

// fitCentroidOffsets completes cal with the temperature τ and the class
// offsets b that minimise the mean held-out log-loss of softmax(τ·s_i +
// b) over the leave-one-out cosine scores s_i (row-major, nc per
// document) of documents labelled labels, plus centroidOffsetRidge/2·‖b‖²:
// a multinomial logistic regression with one weight, τ, shared by the
// classes, and one bias per class. The nearest centroid has no class
// prior; its cosine similarities favour a small class whose centroid is
// spread thin less than a large one's, and b corrects what the held-out
// documents show of it. A given τ (tau > 0) is kept, and only b is
// fitted. gonum's L-BFGS minimises over (log τ, b), from the τ of
// fitTemperature and b = 0.
func fitCentroidOffsets(cal *Calibration, scores []float64, labels []int, nc int, tau float64) (*Calibration, []float64) {
	return fitCentroidLogLoss(cal, scores, labels, nc, tau, nil)
}

// fitCentroidTemperature completes cal with the τ that minimises the mean
// held-out log-loss of softmax(τ·s_i + b) with the offsets b fixed (a
// prior); it returns b.
func fitCentroidTemperature(cal *Calibration, scores []float64, labels []int, nc int, b []float64) (*Calibration, []float64) {
	return fitCentroidLogLoss(cal, scores, labels, nc, 0, b)
}

// fitCentroidLogLoss fits τ (unless tau > 0) and b (unless fixed is not
// nil, then b = fixed) as fitCentroidOffsets says, and returns b.
func fitCentroidLogLoss(cal *Calibration, scores []float64, labels []int, nc int, tau float64, fixed []float64) (*Calibration, []float64) {
	n := len(labels)
	if n == 0 {
		cal.Skipped = "no held-out document"
		return cal, nil
	}
	fitTau := !(tau > 0)
	fitB := fixed == nil
	if fitTau {
		t := fitTemperature(newCalibration(), scores, labels, nc, 1)
		tau = t.Temperature
		if t.Skipped != "" || !(tau > 0) {
			tau = 1
		}
	}
	// x = [log τ if fitted] ++ [b if fitted].
	off := 0
	if fitTau {
		off = 1
	}
	unpack := func(x []float64) (float64, []float64) {
		t := tau
		if fitTau {
			t = math.Exp(x[0])
		}
		if fitB {
			return t, x[off:]
		}
		return t, fixed
	}
	z := make([]float64, nc)
	eval := func(x, grad []float64) float64 {
		t, b := unpack(x)
		if grad != nil {
			clear(grad)
		}
		loss := 0.0
		for i, y := range labels {
			s := scores[i*nc : (i+1)*nc]
			for c := range z {
				z[c] = t*s[c] + b[c]
			}
			loss += softmaxResidual(z, y) // z becomes softmax(z) - e_y
			if grad == nil {
				continue
			}
			if fitTau {
				d := 0.0
				for c, r := range z {
					d += r * s[c]
				}
				grad[0] += d * t // ∂/∂log τ
			}
			if fitB {
				for c, r := range z {
					grad[off+c] += r
				}
			}
		}
		inv := 1 / float64(n)
		loss *= inv
		if grad != nil {
			for k := range grad {
				grad[k] *= inv
			}
		}
		if fitB {
			for c, v := range b {
				loss += centroidOffsetRidge / 2 * v * v
				if grad != nil {
					grad[off+c] += centroidOffsetRidge * v
				}
			}
		}
		return loss
	}
	x0 := make([]float64, off+nc)
	if fitTau {
		x0[0] = math.Log(tau)
	}
	if !fitB {
		x0 = x0[:off]
	}
	cal.LogLoss1 = eval(x0, nil)
	cal.Docs = n
	x := x0
	if len(x0) > 0 {
		res, err := optimize.Minimize(optimize.Problem{
			Func: func(x []float64) float64 { return eval(x, nil) },
			Grad: func(g, x []float64) { eval(x, g) },
		}, x0, &optimize.Settings{GradientThreshold: 1e-8, MajorIterations: 200}, &optimize.LBFGS{})
		if res != nil && (err == nil || res.F <= cal.LogLoss1) {
			if t, _ := unpack(res.X); t > 0 && !math.IsInf(t, 1) {
				x = res.X
			}
		}
	}
	t, b := unpack(x)
	cal.Temperature = t
	cal.LogLoss = eval(x, nil)
	return cal, append([]float64(nil), b...)
}
