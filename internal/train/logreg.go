package train

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/prefault"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Fixed work partitions of the gradient. They never depend on the number of
// workers, so neither does any floating-point sum (see objective).
const (
	docChunk  = 128 // documents per task of the forward pass
	featChunk = 256 // features per task of the backward pass
)

// huberEps is the width ε of the Huber-smoothed L1 penalty minimized by
// L-BFGS: h(w) = w²/(2ε) for |w| ≤ ε, |w| - ε/2 beyond.
const huberEps = 1e-3

// FitLogReg fits multinomial (softmax) logistic regression with a bias term
// on the rows of X (already weighted, see Prepare) with label ids y. With
// n documents, weights W (feature-major, W[t*C + c], as the model stores
// them) and biases b, it minimizes
//
//	L2:          F(W, b) = (1/n) Σ_i s_i ℓ_i + ‖W‖² / (2·C·n)
//	L1:          F(W, b) = (1/n) Σ_i s_i ℓ_i + ‖W‖₁ / (C·n)
//	elasticnet:  F(W, b) = (1/n) Σ_i s_i ℓ_i + (ρ‖W‖₁ + (1-ρ)‖W‖²/2) / (C·n)
//	ℓ_i = log Σ_c exp(z_ic) - z_{i,y_i},   z_ic = b_c + Σ_t x_it W[t*C + c]
//
// which is scikit-learn's objective C·Σ s_i ℓ_i + ½‖W‖² (or + ‖W‖₁, or
// its elastic net with l1_ratio ρ = p.L1Ratio) divided by C·n: the same
// minimizer, so p.C means what it means there, while the value stays of
// order one whatever n is. On two classes the L2 term is doubled
// (‖W‖²/(C·n), binaryL2Factor), which makes p.C scikit-learn's binomial
// C too: without it the two softmax weight vectors would share the
// penalty, and C would act as scikit-learn's 2C. s_i is the weight of document i's class
// (p.ClassWeights, 1 without). The bias is not penalized.
//
// p.Solver "lbfgs" runs gonum's optimize.LBFGS (More-Thuente line search)
// for at most p.Epochs iterations; for L1 (and the L1 part of the elastic
// net) it minimizes the Huber-smoothed penalty (ε = 1e-3) and then sets to
// exactly zero every weight within ε of zero, which is where the smoothed
// optimum satisfies the L1 optimality condition |∂ℓ/∂w| ≤ ρ/(C·n). p.Solver "sgd" runs mini-batch stochastic
// gradient descent (see fitSGD). Both stop early when the objective stalls
// (Options.Tol).
//
// The gradient is computed on Options.Workers goroutines and is bit-for-bit
// the same for any worker count: documents and features are split into
// fixed chunks, each chunk writes only its own outputs, and partial sums
// are combined in chunk order. SGD shuffles with p.Seed.
func FitLogReg(X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (_ *model.Model, err error) {
	if err = checkData(X, y, classes, vocab); err != nil {
		return nil, err
	}
	if err = ValidateParams(model.LogReg, p, len(classes)); err != nil {
		return nil, err
	}
	nf, nc := X.Cols, len(classes)
	x0, err := initPoint(opt.Init, nf, nc)
	if err != nil {
		return nil, err
	}
	var (
		w    []float64
		last int // last progress reported
	)
	if fn := opt.Progress; fn != nil {
		opt.Progress = func(done, total int) { last = done; fn(done, total) }
		defer func() {
			if err == nil && last < p.Epochs {
				fn(p.Epochs, p.Epochs)
			}
		}()
	}
	switch p.Solver {
	case "lbfgs":
		obj := newObjective(X, y, nc, p, opt.workers())
		w, err = fitLBFGS(obj, x0, p.Epochs, opt.tol(), opt.Progress)
	case "sgd":
		w, err = fitSGD(X, y, nc, p, x0, opt)
	}
	if err != nil {
		return nil, err
	}
	return newLogReg(w, X.Rows(), classes, vocab, p)
}

// initPoint returns the starting point [W | b] of a fit with nf features
// and nc classes: zero, or the weights and biases of the warm start m.
func initPoint(m *model.Model, nf, nc int) ([]float64, error) {
	x0 := prefault.Make[float64](nf*nc + nc)
	if m != nil {
		if len(m.W) != nf*nc || len(m.B) != nc {
			return nil, fmt.Errorf("warm start model has %d weights and %d biases, want %d and %d", len(m.W), len(m.B), nf*nc, nc)
		}
		copy(x0, m.W)
		copy(x0[nf*nc:], m.B)
	}
	return x0, nil
}

// newLogReg returns the logistic regression model of the fitted point w
// on n documents, or an error when the fit diverged.
func newLogReg(w []float64, n int, classes []string, vocab *vectorize.Vocabulary, p model.Params) (*model.Model, error) {
	p.Docs = n
	nf := len(w) - len(classes)
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("logistic regression diverged (weight %d is %g); try a smaller --C, l2-normalized rows or --solver lbfgs", i, v)
		}
	}
	return model.NewLinear(model.LogReg, classes, vocab, p, w[:nf:nf], w[nf:])
}

// objective evaluates F and ∇F of FitLogReg's L-BFGS problem. The parameter
// vector is [W | b]: the V*C feature-major weights, then the C biases.
//
// value runs the forward pass over fixed chunks of docChunk documents: it
// computes each document's scores, its loss and its residual
// r_i = softmax(z_i) - e_{y_i} (kept in r, n*C), with per-chunk partial
// sums of the loss and of the bias gradient Σ_i r_i, and a penalty pass
// over fixed chunks of featChunk features. grad runs the backward pass over
// the same feature chunks of a column-major (CSC) copy of X: feature t's
// gradient row is (1/n) Σ_{i ∋ t} x_it r_i + penalty', summed over its
// documents in ascending order and written to the t-th C-block of the
// gradient only. Every partial sum has a fixed order, so the result does
// not depend on how many goroutines run the chunks or in which order they
// finish. No pass allocates.
//
// gonum asks for F and then ∇F at the same point; grad reuses the residuals
// of the last forward pass when its point has the same hash, so the pair
// costs one forward and one backward pass and no copy of the point.
type objective struct {
	x       *vectorize.Matrix
	colPtr  []int     // CSC copy of x: column t is colRow/colVal[colPtr[t]:colPtr[t+1]]
	colRow  []int32   // document ids, ascending within a column
	colVal  []float32 // values
	y       []int
	n       int
	nf, nc  int
	lambda  float64 // penalty weight 1/(C·n)
	rho     float64 // share ρ of the L1 penalty: 0 (L2), 1 (L1) or the elastic net's
	l2Mul   float64 // binaryL2Factor: 2 for two classes, else 1
	cw      []float64
	workers int

	r        []float64 // n*C residuals softmax(z_i) - e_{y_i}
	lossPart []float64 // per document chunk: Σ ℓ_i
	biasPart []float64 // per document chunk: Σ r_i (C values)
	penPart  []float64 // per feature chunk: penalty value

	fwdHash  uint64 // hash of the point of the last forward pass
	fwdValid bool

	w, g []float64 // the point and gradient buffer of the pass in progress

	evals int // number of forward passes, for tests and benchmarks
}

func newObjective(X *vectorize.Matrix, y []int, nc int, p model.Params, workers int) *objective {
	n, nf := X.Rows(), X.Cols
	o := &objective{
		x: X, y: y, n: n, nf: nf, nc: nc,
		lambda:  1 / (p.C * float64(n)),
		rho:     l1Share(p),
		l2Mul:   binaryL2Factor(nc),
		cw:      p.ClassWeights,
		workers: workers,
		r:       make([]float64, n*nc),
	}
	// CSC copy: count, prefix-sum, fill in row order (rows ascend per column).
	o.colPtr = make([]int, nf+1)
	for _, t := range X.Indices[:X.Indptr[n]] {
		o.colPtr[t+1]++
	}
	for t := 0; t < nf; t++ {
		o.colPtr[t+1] += o.colPtr[t]
	}
	nnz := o.colPtr[nf]
	o.colRow = make([]int32, nnz)
	o.colVal = make([]float32, nnz)
	next := make([]int, nf)
	copy(next, o.colPtr[:nf])
	for i := 0; i < n; i++ {
		ind, val := X.Row(i)
		for j, t := range ind {
			k := next[t]
			o.colRow[k] = int32(i)
			o.colVal[k] = val[j]
			next[t]++
		}
	}
	o.lossPart = make([]float64, ceilDiv(n, docChunk))
	o.biasPart = make([]float64, ceilDiv(n, docChunk)*nc)
	o.penPart = make([]float64, ceilDiv(nf, featChunk))
	return o
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// eval returns F(w) and stores ∇F(w) in g; both have length V*C + C.
func (o *objective) eval(w, g []float64) float64 {
	f := o.value(w)
	o.grad(w, g)
	return f
}

// value returns F(w), leaving the residuals of w in o.r.
func (o *objective) value(w []float64) float64 {
	o.evals++
	o.w = w
	parallel(o.workers, len(o.lossPart), o.forward)
	parallel(o.workers, len(o.penPart), o.penalty)
	o.w = nil
	o.fwdHash, o.fwdValid = hashFloats(w), true
	loss, pen := 0.0, 0.0
	for _, v := range o.lossPart {
		loss += v
	}
	for _, v := range o.penPart {
		pen += v
	}
	return loss/float64(o.n) + pen
}

// grad stores ∇F(w) in g, running the forward pass first unless the last
// one was at w.
func (o *objective) grad(w, g []float64) {
	if !o.fwdValid || o.fwdHash != hashFloats(w) {
		o.value(w)
	}
	o.w, o.g = w, g
	parallel(o.workers, len(o.penPart), o.backward)
	o.w, o.g = nil, nil
	nc := o.nc
	gb := g[o.nf*nc:]
	clear(gb)
	for k := range o.lossPart {
		part := o.biasPart[k*nc : k*nc+nc]
		for c := range gb {
			gb[c] += part[c]
		}
	}
	invN := 1 / float64(o.n)
	for c := range gb {
		gb[c] *= invN
	}
}

// hashFloats returns a 64-bit FNV-1a style hash of the bits of x.
func hashFloats(x []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range x {
		h = (h ^ math.Float64bits(v)) * 1099511628211
	}
	return h
}

// forward computes the residuals, the loss and the bias gradient of
// document chunk k.
func (o *objective) forward(k int) {
	nc := o.nc
	W, B := o.w[:o.nf*nc], o.w[o.nf*nc:]
	lo, hi := k*docChunk, min(o.n, (k+1)*docChunk)
	bias := o.biasPart[k*nc : k*nc+nc]
	clear(bias)
	loss := 0.0
	X := o.x
	for i := lo; i < hi; i++ {
		z := o.r[i*nc : i*nc+nc]
		copy(z, B)
		for j := X.Indptr[i]; j < X.Indptr[i+1]; j++ {
			t := int(X.Indices[j])
			v := float64(X.Values[j])
			wt := W[t*nc : t*nc+nc]
			wt = wt[:len(z)]
			for c := range z {
				z[c] += v * wt[c]
			}
		}
		if o.cw == nil {
			loss += softmaxResidual(z, o.y[i])
		} else {
			s := o.cw[o.y[i]]
			loss += s * softmaxResidual(z, o.y[i])
			for c := range z {
				z[c] *= s
			}
		}
		for c := range bias {
			bias[c] += z[c]
		}
	}
	o.lossPart[k] = loss
}

// penalty computes the penalty value of feature chunk k.
func (o *objective) penalty(k int) {
	nc := o.nc
	lo, hi := k*featChunk, min(o.nf, (k+1)*featChunk)
	l1, l2 := 0.0, 0.0
	if o.rho > 0 {
		for _, w := range o.w[lo*nc : hi*nc] {
			h, _ := huber(w)
			l1 += h
		}
	}
	if o.rho < 1 {
		for _, w := range o.w[lo*nc : hi*nc] {
			l2 += w * w
		}
	}
	o.penPart[k] = o.lambda * (o.rho*l1 + o.l2Mul*(1-o.rho)*l2/2)
}

// backward computes the weight gradient of feature chunk k from the
// residuals of the last forward pass.
func (o *objective) backward(k int) {
	nc := o.nc
	invN := 1 / float64(o.n)
	lam := o.lambda
	lo, hi := k*featChunk, min(o.nf, (k+1)*featChunk)
	for t := lo; t < hi; t++ {
		gt := o.g[t*nc : t*nc+nc]
		wt := o.w[t*nc : t*nc+nc]
		wt = wt[:len(gt)]
		clear(gt)
		for j := o.colPtr[t]; j < o.colPtr[t+1]; j++ {
			i := int(o.colRow[j])
			v := float64(o.colVal[j])
			ri := o.r[i*nc : i*nc+nc]
			ri = ri[:len(gt)]
			for c := range gt {
				gt[c] += v * ri[c]
			}
		}
		if o.rho > 0 {
			l1, l2 := lam*o.rho, lam*o.l2Mul*(1-o.rho)
			for c, w := range wt {
				_, d := huber(w)
				gt[c] = gt[c]*invN + l1*d + l2*w
			}
		} else {
			l2 := lam * o.l2Mul
			for c, w := range wt {
				gt[c] = gt[c]*invN + l2*w
			}
		}
	}
}

// huber returns the Huber-smoothed absolute value h(w) and its derivative.
func huber(w float64) (h, d float64) {
	a := math.Abs(w)
	if a <= huberEps {
		return w * w / (2 * huberEps), w / huberEps
	}
	return a - huberEps/2, math.Copysign(1, w)
}

// softmaxResidual overwrites the scores z of a document of class y with
// softmax(z) - e_y and returns its log-loss log Σ_c exp(z_c) - z_y,
// computed with the maximum subtracted (log-sum-exp).
func softmaxResidual(z []float64, y int) float64 {
	m := z[0]
	for _, v := range z[1:] {
		m = max(m, v)
	}
	zy := z[y]
	s := 0.0
	for c, v := range z {
		e := math.Exp(v - m)
		z[c] = e
		s += e
	}
	inv := 1 / s
	for c := range z {
		z[c] *= inv
	}
	z[y]--
	return m + math.Log(s) - zy
}

// LBFGSStore is the number of correction pairs L-BFGS keeps. Each costs two
// vectors of V*C+C float64s, which dominate the memory of a logistic
// regression fit.
const LBFGSStore = 5

// LBFGSPatience is the number of consecutive L-BFGS iterations without a
// relative decrease of Options.Tol after which the fit stops.
const LBFGSPatience = 2

// fitLBFGS minimizes obj from x0 with gonum's L-BFGS for at most maxIter
// iterations, stopping when the objective has not decreased by tol relative
// to its best value for LBFGSPatience iterations.
func fitLBFGS(obj *objective, x0 []float64, maxIter int, tol float64, progress func(done, total int)) ([]float64, error) {
	prob := optimize.Problem{Func: obj.value, Grad: func(g, x []float64) { obj.grad(x, g) }}
	settings := &optimize.Settings{
		MajorIterations: maxIter,
		Converger:       &optimize.FunctionConverge{Relative: tol, Iterations: LBFGSPatience},
		Recorder:        &iterRecorder{progress: progress, total: maxIter},
	}
	method := &optimize.LBFGS{Store: LBFGSStore, Linesearcher: &optimize.MoreThuente{}}
	res, err := optimize.Minimize(prob, x0, settings, method)
	if res == nil {
		return nil, fmt.Errorf("logistic regression: %w", err)
	}
	if err != nil && res.MajorIterations == 0 {
		// A line search failure after some iterations means the optimizer
		// cannot improve further in floating point: keep its best point.
		return nil, fmt.Errorf("logistic regression: l-bfgs made no progress: %w", err)
	}
	if math.IsNaN(res.F) {
		return nil, errors.New("logistic regression: objective is NaN")
	}
	w := res.X
	if obj.rho > 0 {
		for i := range w[:obj.nf*obj.nc] {
			if math.Abs(w[i]) < huberEps {
				w[i] = 0
			}
		}
	}
	return w, nil
}

// iterRecorder reports L-BFGS major iterations to a progress callback.
type iterRecorder struct {
	progress func(done, total int)
	total    int
}

func (r *iterRecorder) Init() error { return nil }

func (r *iterRecorder) Record(_ *optimize.Location, op optimize.Operation, st *optimize.Stats) error {
	if op == optimize.MajorIteration && r.progress != nil {
		r.progress(min(st.MajorIterations, r.total), r.total)
	}
	return nil
}

// binaryL2Factor is the factor of the L2 penalty (and of the L2 part of
// the elastic net) for nc classes: 2 for two classes, 1 otherwise. With
// two classes the softmax's two weight vectors w₀, w₁ act only through
// their difference v = w₁ - w₀, and at the optimum w₁ = -w₀ = v/2, so
// ½(‖w₀‖² + ‖w₁‖²) = ¼‖v‖²: half of scikit-learn's binomial penalty ½‖v‖².
// Doubling it makes p.C mean LogisticRegression(C=p.C)'s C on two classes
// as on more (where scikit-learn's multinomial penalty is ½Σ_c‖w_c‖², as
// here). The L1 part needs no factor: min over w₀ of |w₀| + |w₀ + v| is
// |v|, scikit-learn's binomial L1 penalty. Models written before this
// factor existed were fitted, on two classes, as with twice their C.
func binaryL2Factor(nc int) float64 {
	if nc == 2 {
		return 2
	}
	return 1
}

// l1Share returns the share ρ of the L1 penalty in p's penalty: 0 for L2,
// 1 for L1, p.L1Ratio for the elastic net.
func l1Share(p model.Params) float64 {
	switch p.Penalty {
	case "l1":
		return 1
	case "elasticnet":
		return p.L1Ratio
	}
	return 0
}
