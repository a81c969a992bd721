package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// ovrSGD fits the binary logistic regressions of a one-vs-rest model
// with the SGD solver (p.Solver "sgd", FitMultiLabel's default for
// logistic regression) as one weight vector per label, with a sigmoid,
// instead of FitLogReg's two-class softmax.
//
// The two are the same iterates. FitLogReg on the classes absent and
// present keeps two weight vectors w₀, w₁ (and biases) whose steps are
// opposite (the softmax residuals of two classes are r and −r), so from
// zero w₀ = −w₁ throughout and only v = w₁ − w₀ = 2w₁ and b = b₁ − b₀
// act: the score is z = b + v·x, the loss the logistic loss of z, and a
// step of η on each class's weights is a step of 2η on v (its L2 shrink
// factor and its L1 pull, kept per weight, are the same numbers). ovrSGD
// therefore runs fitSGDData's schedule (η_t, the annealed last quarter,
// the stall test on the epoch's loss, the shrink scalar, the cumulative
// L1 penalty) with 2η_t on v alone: half the multiply-adds, one
// exponential per document instead of two and a logarithm, and no matrix
// of n×2 scores. The biases' final refit (refitBias) is a convex problem
// in b alone, solved by a safeguarded Newton iteration.
//
// What the labels share is computed once: the visiting order of each
// epoch (FitLogReg shuffles with p.Seed, so every label visits the
// documents in the same order) and the step sizes. Each goroutine keeps
// one workspace (a weight vector and the L1 bookkeeping) for the labels
// it fits; nothing is copied per label but the label's column of the
// result.
type ovrSGD struct {
	X     *vectorize.Matrix
	n, nf int
	p     model.Params
	tol   float64

	eta0, rate, lam1, lam2 float64 // fitSGDData's schedule and penalties
	cw0, cw1               float64 // class weights of absent and present

	orders [][]int32 // each epoch's visiting order; nil: reshuffle per label

	mu   sync.Mutex
	free []*ovrWork
}

// fitOVRSGD fits FitMultiLabel's logistic regression with the SGD solver
// (useOVRSGD): the labels on some documents and not on others in blocks
// of ovrBlock on workers goroutines, the others to priorBias. Label l's
// weights go to column l of W (feature-major, len(labels) columns), its
// bias to B[l]; report(k) says k more labels are done.
func fitOVRSGD(X *vectorize.Matrix, present [][]bool, count []int, labels []string, p model.Params, opt Options, workers int, report func(int), W, B []float64) error {
	n, L := X.Rows(), len(labels)
	var fit []int
	for l := range L {
		if count[l] == 0 || count[l] == n {
			B[l] = priorBias(count[l], n)
			report(1)
		} else {
			fit = append(fit, l)
		}
	}
	if len(fit) == 0 {
		return nil
	}
	if err := ValidateParams(model.LogReg, p, 2); err != nil {
		return err
	}
	o := newOVRSGD(X, p, opt)
	errs := make([]error, ceilDiv(len(fit), ovrBlock))
	parallel(workers, len(errs), func(k int) {
		ls := fit[k*ovrBlock : min(len(fit), (k+1)*ovrBlock)]
		if err := o.fit(ls, present, W, B, L); err != nil {
			names := make([]string, len(ls))
			for j, l := range ls {
				names[j] = labels[l]
			}
			errs[k] = fmt.Errorf("labels %q: %w", names, err)
		}
		report(len(ls))
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ovrWork is the workspace of one goroutine of ovrSGD.
type ovrWork struct {
	v    []float64 // the weights of a block, v[t*ovrBlock+k], in units of the shrink scalars
	q    []float64 // L1: penalty already applied to each weight (same layout)
	mark []int     // L1: last step at which a term's weights were penalized
	base []float64 // the scores v·x_i, base[i*ovrBlock+k], for the bias refit
	ord  []int     // the visiting order when ovrSGD keeps none
}

// ovrBlock is the number of labels ovrSGD fits together, in one pass
// over the documents: each document's terms are read once for all of
// them, a term's weights fill one 64-byte cache line, and the labels'
// scores, exponentials and steps, which do not depend on each other,
// overlap in the processor. Each label's arithmetic is
// the same as alone, in the same order, so its weights do not depend on
// the block it is in.
const ovrBlock = 8

// maxSharedOrder is the most int32s ovrSGD keeps for the epochs' visiting
// orders (64 MB); beyond, each block reshuffles as FitLogReg does.
const maxSharedOrder = 1 << 24

// useOVRSGD reports whether FitMultiLabel fits the labels of kind with
// parameters p by ovrSGD.
func useOVRSGD(kind model.Kind, p model.Params) bool {
	return kind == model.LogReg && p.Solver == "sgd" && p.BatchSize == 1 && (p.ClassWeights == nil || len(p.ClassWeights) == 2)
}

func newOVRSGD(X *vectorize.Matrix, p model.Params, opt Options) *ovrSGD {
	n := X.Rows()
	o := &ovrSGD{X: X, n: n, nf: X.Cols, p: p, tol: opt.tol(), cw0: 1, cw1: 1}
	if p.ClassWeights != nil {
		o.cw0, o.cw1 = p.ClassWeights[0], p.ClassWeights[1]
	}
	// fitSGDData's step sizes for two classes, which act on v doubled.
	sq := 0.0
	for _, v := range X.Values[:X.Indptr[n]] {
		sq += float64(v) * float64(v)
	}
	lam := 1 / (p.C * float64(n))
	rho := l1Share(p)
	o.lam1, o.lam2 = lam*rho, lam*(1-rho)*binaryL2Factor(2)
	o.eta0 = opt.eta0() / max(1, sq/float64(n))
	if o.lam2 > 0 {
		o.eta0 = min(o.eta0, 0.5/o.lam2)
	}
	o.rate = o.eta0 * (o.lam1 + o.lam2)
	if p.Epochs*n <= maxSharedOrder {
		rng := rand.New(rand.NewPCG(uint64(p.Seed), sgdStream))
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		o.orders = make([][]int32, p.Epochs)
		for e := range o.orders {
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
			o.orders[e] = make([]int32, n)
			for k, i := range order {
				o.orders[e][k] = int32(i)
			}
		}
	}
	return o
}

func (o *ovrSGD) work() *ovrWork {
	o.mu.Lock()
	defer o.mu.Unlock()
	if k := len(o.free); k > 0 {
		w := o.free[k-1]
		o.free = o.free[:k-1]
		return w
	}
	w := &ovrWork{v: make([]float64, o.nf*ovrBlock), base: make([]float64, o.n*ovrBlock)}
	if o.lam1 > 0 {
		w.q, w.mark = make([]float64, o.nf*ovrBlock), make([]int, o.nf)
	}
	return w
}

func (o *ovrSGD) release(w *ovrWork) {
	o.mu.Lock()
	o.free = append(o.free, w)
	o.mu.Unlock()
}

// fit fits the labels ls (at most ovrBlock), each on some documents and
// not on others (present[l][i]), and writes label l's weights into
// column l of the feature-major W (L columns) and its bias into B[l].
func (o *ovrSGD) fit(ls []int, present [][]bool, W, B []float64, L int) error {
	w := o.work()
	defer o.release(w)
	ys := make([][]bool, len(ls))
	for k, l := range ls {
		ys[k] = present[l]
	}
	b, err := o.fitBlock(ys, w)
	if err != nil {
		return err
	}
	for t := 0; t < o.nf; t++ {
		for k, l := range ls {
			W[t*L+l] = w.v[t*ovrBlock+k]
		}
	}
	for k, l := range ls {
		B[l] = b[k]
	}
	return nil
}

// fitBlock runs the SGD of the labels ys (at most ovrBlock; label k is
// on document i when ys[k][i]) in the workspace w and returns their
// refitted biases; label k's weights are w.v[t*ovrBlock+k].
func (o *ovrSGD) fitBlock(ys [][]bool, w *ovrWork) (b [ovrBlock]float64, err error) {
	const K = ovrBlock
	X, n, nk := o.X, o.n, len(ys)
	v, q, mark := w.v, w.q, w.mark
	clear(v)
	l1 := o.lam1 > 0
	if l1 {
		clear(q)
		for i := range mark {
			mark[i] = -1
		}
	}
	var (
		scale, u, prev     [K]float64 // shrink scalar, L1 pull (u) and last epoch's loss of each label
		epochs, annealFrom [K]int
	)
	window := max(1, o.p.Epochs/4)
	for k := range K {
		scale[k], prev[k] = 1, math.Inf(1)
		epochs[k], annealFrom[k] = o.p.Epochs, o.p.Epochs-window
	}
	penalize := func(k int, t int32) {
		j := int(t)*K + k
		x := v[j]
		switch {
		case x > 0:
			v[j] = max(0, x-(u[k]+q[j]))
		case x < 0:
			v[j] = min(0, x+(u[k]-q[j]))
		}
		q[j] += v[j] - x
	}
	var rng *rand.Rand
	if o.orders == nil {
		rng = rand.New(rand.NewPCG(uint64(o.p.Seed), sgdStream))
		if len(w.ord) != n {
			w.ord = make([]int, n)
		}
		for i := range w.ord {
			w.ord[i] = i
		}
	}
	step := 0
	for epoch := 0; ; epoch++ {
		var running [K]bool
		any := false
		for k := range nk {
			running[k] = epoch < epochs[k]
			any = any || running[k]
		}
		if !any {
			break
		}
		var order []int32
		if o.orders != nil {
			order = o.orders[epoch]
		} else {
			rng.Shuffle(n, func(i, j int) { w.ord[i], w.ord[j] = w.ord[j], w.ord[i] })
		}
		// The epoch's loss: Σ s_i (max(0, ∓z) + log1p(e^−|z|)); without
		// class weights the logarithms are summed as the logarithm of a
		// product, taken when it grows large.
		var lin, logs, prod [K]float64
		for k := range prod {
			prod[k] = 1
		}
		for pos := 0; pos < n; pos++ {
			var i int
			if order != nil {
				i = int(order[pos])
			} else {
				i = w.ord[pos]
			}
			eta0 := o.eta0 / (1 + o.rate*float64(step))
			lo, hi := X.Indptr[i], X.Indptr[i+1]
			ind, val := X.Indices[lo:hi], X.Values[lo:hi]
			val = val[:len(ind)]
			s := blockDot(ind, val, v)
			var a [K]float64
			for k := range K {
				if !running[k] {
					continue
				}
				eta := eta0
				if epoch >= annealFrom[k] {
					eta *= float64((epochs[k]-epoch)*n-pos) / float64(window*n)
				}
				z := b[k] + scale[k]*s[k]
				e := math.Exp(-math.Abs(z))
				r := e / (1 + e) // σ(z)
				if z >= 0 {
					r = 1 / (1 + e)
				}
				sw := o.cw0
				if ys[k][i] {
					sw = o.cw1
					r--
					lin[k] += sw * max(0, -z)
				} else {
					lin[k] += sw * max(0, z)
				}
				if o.p.ClassWeights == nil {
					prod[k] *= 1 + e
					if prod[k] > 1e200 {
						logs[k] += math.Log(prod[k])
						prod[k] = 1
					}
				} else {
					logs[k] += sw * math.Log1p(e)
					r *= sw
				}
				if l1 {
					u[k] += 2 * eta * o.lam1 / scale[k]
				}
				if o.lam2 > 0 {
					scale[k] *= 1 - eta*o.lam2
					if scale[k] < 1e-9 {
						for t := k; t < len(v); t += K {
							v[t] *= scale[k]
						}
						u[k] *= scale[k]
						for t := k; t < len(q); t += K {
							q[t] *= scale[k]
						}
						scale[k] = 1
					}
				}
				a[k] = 2 * eta * r / scale[k]
				b[k] -= 2 * eta * r
			}
			for j, t := range ind {
				x := float64(val[j])
				wt := (*[K]float64)(v[int(t)*K:])
				wt[0] -= a[0] * x
				wt[1] -= a[1] * x
				wt[2] -= a[2] * x
				wt[3] -= a[3] * x
				wt[4] -= a[4] * x
				wt[5] -= a[5] * x
				wt[6] -= a[6] * x
				wt[7] -= a[7] * x
			}
			if l1 {
				for _, t := range ind {
					if mark[t] != step {
						mark[t] = step
						for k := range K {
							if running[k] {
								penalize(k, t)
							}
						}
					}
				}
			}
			step++
		}
		for k := range K {
			if !running[k] || epoch == epochs[k]-1 {
				continue
			}
			loss := (lin[k] + logs[k] + math.Log(prod[k])) / float64(n)
			if o.tol > 0 && epoch < annealFrom[k] && prev[k]-loss < o.tol*loss {
				epochs[k] = min(epochs[k], epoch+1+window)
				annealFrom[k] = epochs[k] - window
			}
			prev[k] = loss
		}
	}
	for k := range nk {
		if l1 {
			for t := range o.nf {
				penalize(k, int32(t))
			}
		}
		for t := k; t < len(v); t += K {
			v[t] *= scale[k]
		}
	}
	base := w.base
	for i := range n {
		lo, hi := X.Indptr[i], X.Indptr[i+1]
		ind, val := X.Indices[lo:hi], X.Values[lo:hi]
		val = val[:len(ind)]
		s := blockDot(ind, val, v)
		copy(base[i*K:i*K+K], s[:])
	}
	for k := range nk {
		b[k] = o.refitBias(base[k:], K, ys[k], b[k])
		for t := k; t < len(v); t += K {
			if x := v[t]; math.IsNaN(x) || math.IsInf(x, 0) {
				return b, fmt.Errorf("logistic regression diverged (weight %d is %g); try a smaller --C, l2-normalized rows or --solver lbfgs", t/K, x)
			}
		}
		if math.IsNaN(b[k]) || math.IsInf(b[k], 0) {
			return b, fmt.Errorf("logistic regression diverged (bias is %g); try a smaller --C", b[k])
		}
	}
	return b, nil
}

// refitBias returns the bias that minimizes the weighted log-loss
// Σ_i s_i ℓ(base_i + b) (base_i is base[i*stride]) of the label present on y (refitBias's problem
// for two classes, in the difference of the biases), from b: Newton's
// method on the derivative g(b) = Σ s_i (σ(base_i + b) − y_i), which
// increases with b, kept inside the bracket of the signs seen so far
// (bisection when a step leaves it). The label is on some documents and
// not on others, so the minimizer exists.
func (o *ovrSGD) refitBias(base []float64, stride int, y []bool, b float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for range 100 {
		g, h := 0.0, 0.0
		for i := range y {
			z := base[i*stride] + b
			e := math.Exp(-math.Abs(z))
			p := e / (1 + e)
			if z >= 0 {
				p = 1 / (1 + e)
			}
			sw := o.cw0
			if y[i] {
				sw = o.cw1
				g += sw * (p - 1)
			} else {
				g += sw * p
			}
			h += sw * p * (1 - p)
		}
		switch {
		case g > 0:
			hi = b
		case g < 0:
			lo = b
		default:
			return b
		}
		nb := b - g/h
		if h <= 0 || !(nb > lo && nb < hi) {
			switch {
			case !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
				nb = lo + (hi-lo)/2
			case g > 0:
				nb = b - max(1, math.Abs(b))
			default:
				nb = b + max(1, math.Abs(b))
			}
		}
		if math.Abs(nb-b) <= 1e-12*(1+math.Abs(b)) {
			return nb
		}
		b = nb
	}
	return b
}

// blockDot returns the scores of the row (ind, val) under the weights v of
// a block of ovrBlock labels, v[t*ovrBlock+k]: one pass over the row, the
// labels' sums in registers.
func blockDot(ind []int32, val []float32, v []float64) [ovrBlock]float64 {
	const K = ovrBlock
	var s [K]float64
	val = val[:len(ind)]
	for j, t := range ind {
		x := float64(val[j])
		wt := (*[K]float64)(v[int(t)*K:])
		s[0] += x * wt[0]
		s[1] += x * wt[1]
		s[2] += x * wt[2]
		s[3] += x * wt[3]
		s[4] += x * wt[4]
		s[5] += x * wt[5]
		s[6] += x * wt[6]
		s[7] += x * wt[7]
	}
	return s
}
