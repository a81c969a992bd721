package train

import (
	"math"
	"math/rand/v2"

	"github.com/nbtext/nbtext/internal/model"
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
// with λ = 1/(C·n), t the number of steps taken (Bottou 2012, "Stochastic
// gradient descent tricks") and η0 = Options.Eta0, divided by the mean
// squared row norm when that exceeds 1. p.BatchSize 1 (the default) is
// plain SGD.
//
// For L2 the shrink factor (1 - η_t λ) is kept as a scalar in front of W,
// so a step touches only the weights of the batch's terms. For L1 the
// penalty is the cumulative one of Tsuruoka, Tsujii and Ananiadou (2009): u
// accumulates η_t λ, and a weight is pulled towards zero by what it has not
// received yet, clipped at zero, whenever a batch touches its term (and
// once more for every weight at the end), which makes weights exactly zero.
//
// The scores of a batch are computed at the batch's starting point, in
// parallel when it holds at least two chunks of sgdChunk documents; the
// updates are applied in batch order on one goroutine, so the result
// depends on the seed only. Training stops early when an epoch's mean loss
// (each document's measured just before its step) falls by less than
// Options.Tol relative to the previous epoch's.
func fitSGD(X *vectorize.Matrix, y []int, nc int, p model.Params, x0 []float64, opt Options) ([]float64, error) {
	n, nf := X.Rows(), X.Cols
	w := x0
	W, B := w[:nf*nc], w[nf*nc:]
	lam := 1 / (p.C * float64(n))
	// The loss of one document has curvature at most ‖x‖²/2 along any
	// direction, so a step that suits unit rows is scaled down for longer
	// ones (count weighting, no normalization).
	sq := 0.0
	for _, v := range X.Values[:X.Indptr[n]] {
		sq += float64(v) * float64(v)
	}
	eta0 := opt.eta0() / max(1, sq/float64(n))
	tol := opt.tol()
	l1 := p.Penalty == "l1"
	workers := opt.workers()

	rng := rand.New(rand.NewPCG(uint64(p.Seed), sgdStream))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
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
		q = make([]float64, nf*nc)
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

	var batch []int
	forward := func(k int) {
		lo, hi := k*sgdChunk, min(len(batch), (k+1)*sgdChunk)
		loss := 0.0
		for bi := lo; bi < hi; bi++ {
			i := batch[bi]
			z := res[bi*nc : bi*nc+nc]
			clear(z)
			ind, val := X.Row(i)
			for j, t := range ind {
				v := float64(val[j])
				wt := W[int(t)*nc : int(t)*nc+nc]
				wt = wt[:len(z)]
				for c := range z {
					z[c] += v * wt[c]
				}
			}
			for c := range z {
				z[c] = B[c] + scale*z[c]
			}
			loss += softmaxResidual(z, y[i])
		}
		lossPart[k] = loss
	}

	step := 0
	prev := math.Inf(1)
	for epoch := 0; epoch < p.Epochs; epoch++ {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		epochLoss := 0.0
		for start := 0; start < n; start += bs {
			batch = order[start:min(n, start+bs)]
			eta := eta0 / (1 + eta0*lam*float64(step))
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
				u += eta * lam
			} else {
				scale *= 1 - eta*lam
				if scale < 1e-9 {
					for i := range W {
						W[i] *= scale
					}
					scale = 1
				}
			}
			a := eta / (float64(len(batch)) * scale)
			ab := eta / float64(len(batch))
			for bi, i := range batch {
				r := res[bi*nc : bi*nc+nc]
				ind, val := X.Row(i)
				for j, t := range ind {
					av := a * float64(val[j])
					wt := W[int(t)*nc : int(t)*nc+nc]
					wt = wt[:len(r)]
					for c := range r {
						wt[c] -= av * r[c]
					}
				}
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
		if opt.Progress != nil {
			opt.Progress(epoch+1, p.Epochs)
		}
		epochLoss /= float64(n)
		if tol > 0 && prev-epochLoss < tol*epochLoss {
			break
		}
		prev = epochLoss
	}
	if l1 {
		for t := 0; t < nf; t++ {
			penalize(t)
		}
	} else if scale != 1 {
		for i := range W {
			W[i] *= scale
		}
	}
	return w, nil
}
