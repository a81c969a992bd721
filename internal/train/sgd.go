package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/optimize"

	"github.com/nbtext/nbtext/internal/kernel"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/prefault"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// sgdChunk is the number of documents of a mini-batch per forward task; a
// batch smaller than two chunks is scored on one goroutine.
const sgdChunk = 64

// sgdStream is the PCG stream of the SGD shuffle (the seed is p.Seed).
const sgdStream = 0x6e62747261696e01

// fitSGD minimizes FitLogReg's objective by mini-batch stochastic gradient
// descent from x0 (modified in place and returned). Each epoch visits the
// documents in an order shuffled with p.Seed, in batches b of p.BatchSize,
// and takes the step
//
//	W ← W - η_t · ( (1/|b|) Σ_{i∈b} x_i r_iᵀ + λ W ),   r_i = softmax(z_i) - e_{y_i}
//	η_t = η0 / (1 + η0 λ t)
//
// with λ = 1/(C·n) (2/(C·n) for L2 on two classes: binaryL2Factor), t the number of steps taken (Bottou 2012, "Stochastic
// gradient descent tricks") and η0 = Options.Eta0, divided by the mean
// squared row norm when that exceeds 1 and capped at 1/(2λ) so that the
// shrink factor 1 - η_t λ of the first steps stays in [½, 1) however
// small C is. p.BatchSize 1 (the default) is plain SGD; a document's
// residual is multiplied by its class weight (p.ClassWeights).
//
// For L2 the shrink factor (1 - η_t λ) is kept as a scalar in front of W,
// so a step touches only the weights of the batch's terms. For L1 the
// penalty is the cumulative one of Tsuruoka, Tsujii and Ananiadou (2009): u
// accumulates η_t λ, and a weight is pulled towards zero by what it has not
// received yet, clipped at zero, whenever a batch touches its term (and
// once more for every weight at the end), which makes weights exactly zero.
// The elastic net does both, with λ(1-ρ) in the shrink factor and λρ in u
// (kept in the units of the stored weights, which the scalar divides).
//
// The last quarter of the epochs (at least one; after the loss has stalled,
// the quarter that follows) scales the step down linearly to 0: with a
// large C (λ → 0) η_t stays near η0, and the last iterate would be as
// noisy as one document's gradient, its log-loss 10% above the optimum's
// (TestSGDMatchesLBFGSAcrossC); the annealed epochs settle it, like an
// average of the iterates, without slowing the epochs before.
//
// The biases are not penalized, so nothing keeps their decaying step
// large enough to reach their optimum (with a small C, η_t falls as
// 1/(λt) and the biases freeze after a few steps): after the last epoch
// they are refitted exactly with W fixed (refitBias), a convex problem in
// C variables.
//
// The scores of a batch are computed at the batch's starting point, in
// parallel when it holds at least two chunks of sgdChunk documents; the
// updates are applied in batch order on one goroutine, so the result
// depends on the seed only. Training stops early when an epoch's mean loss
// (each document's measured just before its step) falls by less than
// Options.Tol relative to the previous epoch's.
func fitSGD(X *vectorize.Matrix, y []int, nc int, p model.Params, x0 []float64, opt Options) ([]float64, error) {
	n := X.Rows()
	sq := 0.0
	for _, v := range X.Values[:X.Indptr[n]] {
		sq += float64(v) * float64(v)
	}
	var base []float64 // the scores of the final W, computed once
	scores := func(fn func(base []float64, y []int)) error {
		if base == nil {
			base = prefault.Make[float64](n * nc)
			parallel(opt.workers(), ceilDiv(n, docChunk), func(k int) {
				for i := k * docChunk; i < min(n, (k+1)*docChunk); i++ {
					ind, val := X.Row(i)
					kernel.AddScores(base[i*nc:i*nc+nc], x0[:X.Cols*nc], ind, val)
				}
			})
		}
		fn(base, y)
		return nil
	}
	return fitSGDData(memData{X, y}, n, X.Cols, sq, nc, p, x0, opt, scores)
}

// sgdData is the training rows of fitSGDData: each calls fn with the
// blocks of rows of one pass, in order (the whole matrix in memory, or
// bounded buffers read from a RowCache).
type sgdData interface {
	each(fn func(X *vectorize.Matrix, y []int) error) error
}

// memData is a matrix in memory: one block.
type memData struct {
	X *vectorize.Matrix
	y []int
}

func (d memData) each(fn func(X *vectorize.Matrix, y []int) error) error { return fn(d.X, d.y) }

// fitSGDData is fitSGD over the n rows of d (nf features, Σ of the
// squared values sq). Each block of d is shuffled on its own, with one
// permutation kept across epochs while the block size stays the same, so
// a single block of all the rows visits them exactly as fitSGD does.
// scores returns the biases' refit data (see refitBias) once W is final.
func fitSGDData(d sgdData, n, nf int, sq float64, nc int, p model.Params, x0 []float64, opt Options, scores biasScores) ([]float64, error) {
	w := x0
	W, B := w[:nf*nc], w[nf*nc:]
	lam := 1 / (p.C * float64(n))
	// The loss of one document has curvature at most ‖x‖²/2 along any
	// direction, so a step that suits unit rows is scaled down for longer
	// ones (count weighting, no normalization).
	rho := l1Share(p)
	lam1, lam2 := lam*rho, lam*(1-rho)*binaryL2Factor(nc)
	eta0 := opt.eta0() / max(1, sq/float64(n))
	if lam2 > 0 {
		eta0 = min(eta0, 0.5/lam2)
	}
	rate := eta0 * (lam1 + lam2) // eta0·λ; 2·eta0·λ for L2 on two classes
	tol := opt.tol()
	l1 := rho > 0
	workers := opt.workers()
	cw := p.ClassWeights

	rng := rand.New(rand.NewPCG(uint64(p.Seed), sgdStream))
	var order []int
	bs := min(p.BatchSize, n)
	res := make([]float64, bs*nc)
	lossPart := make([]float64, ceilDiv(bs, sgdChunk))

	scale := 1.0 // L2: the true weights are scale·W
	var (
		q    []float64 // L1: penalty already applied to each weight
		u    float64   // L1: total penalty each weight should have received
		mark []int     // L1: last step at which a term's weights were penalized
	)
	if l1 {
		q = prefault.Make[float64](nf * nc)
		mark = make([]int, nf)
		for i := range mark {
			mark[i] = -1
		}
	}
	penalize := func(t int) {
		wt, qt := W[t*nc:t*nc+nc], q[t*nc:t*nc+nc]
		for c, v := range wt {
			switch {
			case v > 0:
				wt[c] = max(0, v-(u+qt[c]))
			case v < 0:
				wt[c] = min(0, v+(u-qt[c]))
			}
			qt[c] += wt[c] - v
		}
	}

	var (
		batch []int
		X     *vectorize.Matrix // the block in progress
		y     []int
	)
	forward := func(k int) {
		lo, hi := k*sgdChunk, min(len(batch), (k+1)*sgdChunk)
		loss := 0.0
		for bi := lo; bi < hi; bi++ {
			i := batch[bi]
			z := res[bi*nc : bi*nc+nc]
			clear(z)
			ind, val := X.Row(i)
			kernel.AddScores(z, W, ind, val)
			for c := range z {
				z[c] = B[c] + scale*z[c]
			}
			if cw == nil {
				loss += softmaxResidual(z, y[i])
				continue
			}
			s := cw[y[i]]
			loss += s * softmaxResidual(z, y[i])
			for c := range z {
				z[c] *= s
			}
		}
		lossPart[k] = loss
	}

	step := 0
	prev := math.Inf(1)
	// The annealing: the step falls linearly to 0 over the last window
	// epochs (a quarter of them), from the start of epoch annealFrom.
	window := max(1, p.Epochs/4)
	annealFrom := p.Epochs - window
	for epoch := 0; epoch < p.Epochs; epoch++ {
		last := epoch == p.Epochs-1
		epochLoss := 0.0
		offset := 0 // rows of the epoch before the block
		err := d.each(func(bx *vectorize.Matrix, by []int) error {
			X, y = bx, by
			m := X.Rows()
			if len(order) != m {
				order = make([]int, m)
				for i := range order {
					order[i] = i
				}
			}
			rng.Shuffle(m, func(i, j int) { order[i], order[j] = order[j], order[i] })
			for start := 0; start < m; start += bs {
				batch = order[start:min(m, start+bs)]
				eta := eta0 / (1 + rate*float64(step))
				if epoch >= annealFrom {
					eta *= float64((p.Epochs-epoch)*n-offset-start) / float64(window*n)
				}
				chunks := ceilDiv(len(batch), sgdChunk)
				if chunks >= 2 {
					parallel(workers, chunks, forward)
				} else {
					parallel(1, chunks, forward)
				}
				for _, v := range lossPart[:chunks] {
					epochLoss += v
				}
				if l1 {
					u += eta * lam1 / scale
				}
				if lam2 > 0 {
					scale *= 1 - eta*lam2
					if scale < 1e-9 {
						for i := range W {
							W[i] *= scale
						}
						u *= scale
						for i := range q {
							q[i] *= scale
						}
						scale = 1
					}
				}
				a := eta / (float64(len(batch)) * scale)
				ab := eta / float64(len(batch))
				for bi, i := range batch {
					r := res[bi*nc : bi*nc+nc]
					ind, val := X.Row(i)
					kernel.SubScaled(W, r, a, ind, val)
					for c := range r {
						B[c] -= ab * r[c]
					}
				}
				if l1 {
					for _, i := range batch {
						ind, _ := X.Row(i)
						for _, t := range ind {
							if mark[t] != step {
								mark[t] = step
								penalize(int(t))
							}
						}
					}
				}
				step++
			}
			offset += m
			return nil
		})
		if err != nil {
			return nil, err
		}
		if opt.Progress != nil {
			opt.Progress(epoch+1, p.Epochs)
		}
		epochLoss /= float64(n)
		if last {
			break
		}
		if tol > 0 && epoch < annealFrom && prev-epochLoss < tol*epochLoss {
			// Stalled: anneal over the next window epochs and stop.
			p.Epochs = min(p.Epochs, epoch+1+window)
			annealFrom = p.Epochs - window
		}
		prev = epochLoss
	}
	if l1 {
		for t := 0; t < nf; t++ {
			penalize(t)
		}
	}
	if scale != 1 {
		for i := range W {
			W[i] *= scale
		}
	}
	if err := refitBias(scores, n, nc, B, cw); err != nil {
		return nil, err
	}
	return w, nil
}

// biasScores calls fn with the scores Σ_t x_it W[t*C+c] (n*C, without
// the biases) and the labels of the rows, in one call or in blocks that
// cover the rows in order.
type biasScores func(fn func(base []float64, y []int)) error

// refitBias sets the biases B to the minimizer of the weighted mean
// log-loss (1/n) Σ_i s_i ℓ_i with the weights W fixed (s_i the class
// weight of document i, 1 when cw is nil): scores gives the scores of W
// (computed once in memory, or again at each evaluation from a row
// cache), and gonum's L-BFGS minimizes over the C biases, from B. The
// objective is convex; its value and gradient cost O(n·C).
func refitBias(scores biasScores, n, nc int, B, cw []float64) error {
	z := make([]float64, nc)
	var fail error
	eval := func(b, grad []float64) float64 {
		loss := 0.0
		if grad != nil {
			clear(grad)
		}
		err := scores(func(base []float64, y []int) {
			for i := range y {
				for c := range z {
					z[c] = base[i*nc+c] + b[c]
				}
				s := 1.0
				if cw != nil {
					s = cw[y[i]]
				}
				loss += s * softmaxResidual(z, y[i])
				if grad != nil {
					for c, r := range z {
						grad[c] += s * r
					}
				}
			}
		})
		if err != nil && fail == nil {
			fail = err
		}
		inv := 1 / float64(n)
		for c := range grad {
			grad[c] *= inv
		}
		return loss * inv
	}
	prob := optimize.Problem{
		Func: func(b []float64) float64 { return eval(b, nil) },
		Grad: func(g, b []float64) { eval(b, g) },
	}
	settings := &optimize.Settings{
		MajorIterations: biasIter,
		Converger:       &optimize.FunctionConverge{Relative: 1e-8, Iterations: 2},
	}
	res, err := optimize.Minimize(prob, B, settings, &optimize.LBFGS{})
	if fail != nil {
		return fmt.Errorf("logistic regression: refitting the biases: %w", fail)
	}
	if res == nil {
		return fmt.Errorf("logistic regression: refitting the biases: %w", err)
	}
	if res.F <= eval(B, nil) {
		copy(B, res.X)
	}
	return fail
}

// biasIter is the most L-BFGS iterations of refitBias.
const biasIter = 50
