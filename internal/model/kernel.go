package model

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// KernelGrid is the number G of grid points onto which a kernel density
// bins a numeric field's training values (see NumericField): the model
// stores G weights per class, whatever the number of training values.
const KernelGrid = 1024

// kernelClass is one class's binned kernel density, ready to score: the
// grid points with a non-zero weight and the logs of those weights.
type kernelClass struct {
	x, logw []float64 // ascending grid points
	norm    float64   // -log(N_c · h_c · √(2π))
	inv2h2  float64   // 1 / (2 h_c²)
	reach   float64   // kernelReach · h_c
	logN    float64   // log N_c
}

// kernelReach is the half-width, in bandwidths, of the window of grid
// points kernelLog sums first: the points outside it add at most
// N_c·e^(-kernelReach²/2) = N_c·e^-50 to the sum, which is left out when
// the window's sum exceeds that by a factor e^37 (10^16, below the last
// bit of a float64), and summed otherwise.
const kernelReach = 10

// prepareKernel checks a numeric field's binned kernel densities for C
// classes and computes what scoring needs. It runs after the Gaussian
// statistics are prepared: a class without values keeps the Gaussian of
// the field's overall mean and variance.
func (f *NumericField) prepareKernel(C int) error {
	if len(f.Bandwidth) != C || len(f.Bins) == 0 || len(f.Bins)%C != 0 {
		return fmt.Errorf("kernel density: %d bandwidths and %d bins for %d classes", len(f.Bandwidth), len(f.Bins), C)
	}
	G := len(f.Bins) / C
	if G > KernelGrid || !allFinite([]float64{f.GridMin, f.GridStep}) || !(f.GridStep >= 0) || (G > 1 && !(f.GridStep > 0)) {
		return fmt.Errorf("kernel density: a grid of %d points from %v by %v", G, f.GridMin, f.GridStep)
	}
	f.kern = make([]kernelClass, C)
	for c := 0; c < C; c++ {
		row := f.Bins[c*G : (c+1)*G]
		n := 0.0
		for _, w := range row {
			if !(w >= 0) || math.IsInf(w, 1) {
				return errors.New("kernel density: a bin weight is negative or not finite")
			}
			n += w
		}
		if n == 0 {
			if f.N[c] != 0 {
				return fmt.Errorf("kernel density: class %d has %v values and empty bins", c, f.N[c])
			}
			continue // the Gaussian fallback
		}
		h := f.Bandwidth[c]
		if !(h > 0) || math.IsInf(h, 1) {
			return fmt.Errorf("kernel density: class %d has bandwidth %v", c, h)
		}
		k := &f.kern[c]
		for g, w := range row {
			if w > 0 {
				k.x = append(k.x, f.GridMin+float64(g)*f.GridStep)
				k.logw = append(k.logw, math.Log(w))
			}
		}
		k.norm = -math.Log(n) - math.Log(h) - 0.5*math.Log(2*math.Pi)
		k.inv2h2 = 0.5 / (h * h)
		k.reach, k.logN = kernelReach*h, math.Log(n)
	}
	return nil
}

// kernelLog returns log f̂_c(x), the binned Gaussian kernel density of
// class c at x:
//
//	f̂_c(x) = 1/(N_c h_c) Σ_g w_cg φ((x - x_g)/h_c)
//
// with w_cg the weight of grid point x_g and φ the standard normal
// density, summed in log space (a running log-sum-exp, one exp per
// non-empty bin), so that it is finite however far x lies from the
// training values: first over the grid points within kernelReach·h_c of
// x, and over all of them only when those do not make the rest
// negligible (see kernelReach). ok is false when class c uses the
// Gaussian fallback.
func (f *NumericField) kernelLog(x float64, c int) (v float64, ok bool) {
	k := &f.kern[c]
	if k.x == nil {
		return 0, false
	}
	lo := sort.SearchFloat64s(k.x, x-k.reach)
	hi := lo
	for hi < len(k.x) && k.x[hi] <= x+k.reach {
		hi++
	}
	if lo < hi {
		if v := k.logSum(x, lo, hi); v > k.logN-kernelReach*kernelReach/2+37 {
			return v + k.norm, true
		}
	}
	return k.logSum(x, 0, len(k.x)) + k.norm, true
}

// logSum returns log Σ_{lo ≤ i < hi} w_i·e^(-(x - x_i)²/(2h²)).
func (k *kernelClass) logSum(x float64, lo, hi int) float64 {
	m, s := math.Inf(-1), 0.0
	for i := lo; i < hi; i++ {
		d := x - k.x[i]
		t := k.logw[i] - d*d*k.inv2h2
		if t > m {
			s = s*math.Exp(m-t) + 1
			m = t
		} else {
			s += math.Exp(t - m)
		}
	}
	return m + math.Log(s)
}
