package train

import (
	"math"
	"math/rand/v2"

	"github.com/nbtext/nbtext/internal/kernel"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/prefault"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// svmStream is the PCG stream of the SVM's permutations (the seed is
// p.Seed): every problem visits the documents in the same orders.
const svmStream = 0x6e62747261696e02

// svcGradTiny is the projected gradient below which the dual solver leaves
// a coordinate alone (liblinear's 1e-12).
const svcGradTiny = 1e-12

// FitSVM fits a linear support vector machine on the rows of X (already
// weighted, see Prepare) with label ids y: one-vs-rest, one binary problem
// per class (a single one for two classes), each the L2-regularised
// squared-hinge (L2-loss) SVC
//
//	min_w  ½‖w‖² + Σ_i C_i · max(0, 1 - y_i wᵀx_i)²,   C_i = C · weight(class of i)
//
// over the features of X plus a bias feature of value 1 (as liblinear's
// -B 1 and scikit-learn's LinearSVC: the bias is penalised with the
// weights). It is solved in the dual by coordinate descent with shrinking
// (Hsieh, Chang, Lin, Keerthi & Sundararajan 2008; liblinear's
// solve_l2r_l1l2_svc), visiting the active coordinates in a random order
// drawn from p.Seed and stopping when the projected gradient's spread is at
// most DefaultSVMEps (Options.svmEps) or after p.Epochs passes. The class weights of
// p.ClassWeights scale each document's loss.
//
// The model's scores are the decision values wᵀx + b of each class (for
// two classes ±f/2, f the decision value of the second class against the
// first), so the decision is the class of largest decision value. Fit
// multiplies them by a temperature chosen on held-out folds (see
// FitCalibrated) so that softmax of the scores is a calibrated posterior.
// The classes' problems run on opt.Workers goroutines; the result does not
// depend on how many.
func FitSVM(X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	f, err := newDualFit(model.SVM, X, y, classes, vocab, p)
	if err != nil {
		return nil, err
	}
	return f.fit(nil, y, opt, 0)
}

// svc holds the data of the binary L2-loss SVC problems of one training
// set; solveGroup fits some of them.
type svc struct {
	X *vectorize.Matrix
	// rows, when not nil, lists the rows of X that are the training
	// documents (a calibration fold's rest), document i being row
	// rows[i]; y is then indexed by i.
	rows    []int
	y       []int
	cost    []float64 // per class: C times the class weight
	eps     float64
	maxIter int
	seed    uint64
	// buf, when not nil, holds arrays of an earlier fit on the same
	// matrix that this one reuses (see dualFit).
	buf *svcBuffers
	// tau, when > 0, is a temperature the weights and biases oneVsRest
	// returns are multiplied by, as they are written (see dualFit.fit).
	tau float64
}

// svcBuffers are the arrays of V×C floats of one-vs-rest that a second fit
// on the same matrix reuses rather than allocating fresh pages: the
// model's weights, each group's float32 weights and NB-LR's ratios.
type svcBuffers struct {
	W   []float64
	w32 [][]float32 // per group of problems
	// NB-LR's: the presence counts that become the log-count ratios (see
	// logCountRatiosIn), and each group's float32 copy of its ratios.
	counts []float64
	s32    [][]float32
	// overflow records, per group, whether the temperature made a finite
	// weight or bias infinite.
	overflow []bool
}

// docs returns the number of training documents.
func (pr *svc) docs() int {
	if pr.rows != nil {
		return len(pr.rows)
	}
	return pr.X.Rows()
}

// row returns training document i's term ids and values.
func (pr *svc) row(i int) ([]int32, []float32) {
	if pr.rows != nil {
		return pr.X.Row(pr.rows[i])
	}
	return pr.X.Row(i)
}

// svcBias is the value of the bias feature appended to every document.
const svcBias = 1.0

func newSVC(X *vectorize.Matrix, y []int, nc int, p model.Params) *svc {
	cost := make([]float64, nc)
	for c := range cost {
		cost[c] = p.C * classWeight(p, c)
	}
	return &svc{X: X, y: y, cost: cost, eps: DefaultSVMEps, maxIter: p.Epochs, seed: uint64(p.Seed)}
}

// newSolver is newSVC with kind's stopping tolerance (Options.svmEps) and
// the pass cap of a calibration fit.
func newSolver(kind model.Kind, X *vectorize.Matrix, y []int, nc int, p model.Params, opt Options) *svc {
	pr := newSVC(X, y, nc, p)
	pr.eps = opt.svmEps(kind)
	if opt.calibIter > 0 {
		pr.maxIter = min(pr.maxIter, opt.calibIter)
	}
	return pr
}

// oneVsRest solves the binary problem of every class against the others
// (of class 1 against class 0 when there are two) and returns the
// feature-major weights W[t*C + c] and biases. The term ids of pr.X are
// perm[t] for term t of the vocabulary (byFrequency; nil: the same ids).
// scale, when non-nil, makes the features binary (presence), term u of
// pr.X having the value s_u = scale[u*P + k] in problem k of P (NB-LR's
// log-count ratios); each problem's weights w_u of the scaled features
// are then interpolated towards their mean magnitude w̄ = Σ_u |w_u| / V
// with beta, w'_u = (1-β)·w̄ + β·w_u, its bias scaled to β·b, and the
// returned weights are those of presence, w'_u·s_u (see FitNBLR).
//
// The problems are split into groups of consecutive classes, one per
// worker, and each group is solved by solveGroup. A problem's solution
// does not depend on its group: see solveGroup.
func (pr *svc) oneVsRest(nc int, perm []int32, scale []float64, beta float64, opt Options) (W, B []float64) {
	nf := pr.X.Cols
	probs := nc
	if nc == 2 {
		probs = 1
	}
	groups := min(opt.workers(), probs)
	size := ceilDiv(probs, groups)
	groups = ceilDiv(probs, size)
	if pr.buf == nil {
		pr.buf = &svcBuffers{}
	}
	if len(pr.buf.W) != nf*nc {
		pr.buf.W = make([]float64, nf*nc) // every entry is written below
	}
	if len(pr.buf.w32) != groups {
		pr.buf.w32 = make([][]float32, groups)
		pr.buf.s32 = make([][]float32, groups)
	}
	pr.buf.overflow = make([]bool, groups)
	W = pr.buf.W
	B = make([]float64, nc)
	parallel(groups, groups, func(g int) {
		lo, hi := g*size, min(probs, (g+1)*size)
		G := hi - lo
		var s32 []float32
		if scale != nil {
			// The solver's copy of its problems' scales, G per term
			// (every entry is written).
			if s32 = pr.buf.s32[g]; len(s32) != nf*G {
				s32 = make([]float32, nf*G)
				pr.buf.s32[g] = s32
			}
			for u := 0; u < nf; u++ {
				for k, v := range scale[u*probs+lo : u*probs+hi] {
					s32[u*G+k] = float32(v)
				}
			}
		}
		ps := make([]int, G)
		for k := range ps {
			ps[k] = lo + k
			if nc == 2 {
				ps[k] = 1
			}
		}
		w, b := pr.solveGroup(ps, s32, pr.buf.w32[g])
		pr.buf.w32[g] = w
		overflow := &pr.buf.overflow[g]
		*overflow = false
		temper := temperAll(pr.tau, overflow)
		mean := make([]float64, G) // w̄ of each problem
		if scale != nil {
			// w holds the weights of presence, w_u·s_u.
			for u := 0; u < nf; u++ {
				su := scale[u*probs+lo : u*probs+hi]
				for k, v := range w[u*G : u*G+G] {
					mean[k] += math.Abs(unscale(float64(v), su[k]))
				}
			}
			for k := range mean {
				mean[k] /= float64(max(nf, 1))
				b[k] *= beta
			}
		}
		// Term by term, so that the reads of w and the writes of W stay
		// contiguous.
		for t := 0; t < nf; t++ {
			u := t
			if perm != nil {
				u = int(perm[t])
			}
			for k, v := range w[u*G : u*G+G] {
				x := float64(v)
				if scale != nil {
					// (1-β)·w̄·s_u + β·w_u·s_u
					x = (1-beta)*mean[k]*scale[u*probs+lo+k] + beta*x
				}
				if nc == 2 {
					W[t*2], W[t*2+1] = temper(-x/2), temper(x/2)
					continue
				}
				W[t*nc+lo+k] = temper(x)
			}
		}
		for k := range b {
			if nc == 2 {
				B[0], B[1] = temper(-b[k]*svcBias/2), temper(b[k]*svcBias/2)
				continue
			}
			B[lo+k] = temper(b[k] * svcBias)
		}
	})
	return W, B
}

// temperAll returns the function that multiplies a weight by the
// temperature tau > 0 (the identity for tau 0 or 1), as applyTemperature
// does, bit for bit, and records in *overflow whether a finite weight
// became infinite.
func temperAll(tau float64, overflow *bool) func(float64) float64 {
	if tau == 0 || tau == 1 {
		return func(x float64) float64 { return x }
	}
	return func(x float64) float64 {
		y := x * tau
		if math.IsInf(y, 0) && !math.IsInf(x, 0) {
			*overflow = true
		}
		return y
	}
}

// solveGroup fits, for each k, the documents of class pos[k] (+1) against
// the others (-1) by dual coordinate descent, and returns the weights
// feature-major, w[t*G + k] (G = len(pos)), and the bias features'
// weights. With s nil the features are the values of X; otherwise term t
// of a document has the value s[t*G + k] in problem k when present
// (NB-LR), and the returned weights are those of presence, w_t·s_t: the
// solver keeps them so, so that a score reads no scale (an update adds
// d·s_t² instead of d·s_t). The dual of the L2-loss SVC is
//
//	min_α ½ αᵀ(Q + D)α - Σ_i α_i,  α_i ≥ 0,  Q_ij = y_i y_j x_iᵀx_j,  D_ii = 1/(2C_i)
//
// with w = Σ_i α_i y_i x_i. Each step minimises over one α_i exactly:
// G = y_i wᵀx_i - 1 + D_ii α_i, α_i ← max(0, α_i - G/(Q_ii + D_ii)).
// Shrinking: a coordinate at its bound α_i = 0 whose gradient exceeds the
// largest projected gradient of the previous pass leaves the problem's
// active set; when the active set has converged (the projected gradient
// spread is at most pr.eps), every coordinate is checked again, and the
// problem is solved when that pass converges too, or after pr.maxIter
// passes (liblinear's solve_l2r_l1l2_svc).
//
// The G problems share the passes: each pass visits the documents in one
// random order (a permutation of all documents drawn from pr.seed), a
// document's row is read once for all problems, and its G weights per term
// are contiguous, which is what makes one-vs-rest cheap: a problem visits
// its active documents in the order of that permutation, so its solution
// depends on pr.seed and its own data only, not on the other problems of
// its group. The weights are kept as float32, which halves the memory the
// random reads of the rows touch (the gain in speed is about a third), and
// a document's wᵀx is summed in float32 before its bias is added in
// float64: no float64 conversion per non-zero, 10-15% less time on word
// bigrams of 20 Newsgroups, the same held-out accuracy. A document's sums,
// its steps and NB-LR's squared norms run in the packed loops of package
// kernel over all G problems of each term (see wide), with the same bits
// as the loops over the problems needed.
func (pr *svc) solveGroup(pos []int, s []float32, reuse []float32) (w32 []float32, wb []float64) {
	n, nf, G := pr.docs(), pr.X.Cols, len(pos)
	rng := rand.New(rand.NewPCG(pr.seed, svmStream))
	if len(reuse) == nf*G {
		w32 = reuse
		clear(w32)
	} else {
		w32 = prefault.Make[float32](nf * G)
	}
	wb = make([]float64, G)
	alpha := make([]float64, n*G)
	qd := make([]float64, n*G)
	inactive := make([]bool, n*G) // shrunk: (document, problem) left out
	nActive := make([]int, n)     // problems in which a document is active
	count := make([]int, G)       // active documents per problem
	done := make([]bool, G)
	pgMaxOld := make([]float64, G)
	pgMaxNew := make([]float64, G)
	pgMinNew := make([]float64, G)
	iters := make([]int, G)
	z := make([]float32, G)
	d := make([]float64, G)
	d32 := make([]float32, G)
	act := make([]int, 0, G) // problems in which the document is active
	mv := make([]int, 0, G)  // problems whose α_i moved
	order := make([]int, n)
	for i := range order {
		order[i] = i
		nActive[i] = G
		ind, val := pr.row(i)
		q := qd[i*G : (i+1)*G]
		base := 0.5/pr.cost[pr.y[i]] + svcBias*svcBias
		if s != nil {
			for k := range q {
				q[k] = base
			}
			kernel.AddSquares32(q, s, G, ind)
			continue
		}
		for _, v := range val {
			base += float64(v) * float64(v)
		}
		for k := range q {
			q[k] = base
		}
	}
	for k := range pgMaxOld {
		pgMaxOld[k] = math.Inf(1)
		count[k] = n
	}
	left := G
	for left > 0 {
		for k := range pgMaxNew {
			pgMaxNew[k], pgMinNew[k] = math.Inf(-1), math.Inf(1)
		}
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			if nActive[i] == 0 {
				continue
			}
			act = act[:0]
			for k := 0; k < G; k++ {
				if !done[k] && !inactive[i*G+k] {
					act = append(act, k)
					z[k] = 0
				}
			}
			if len(act) == 0 {
				continue
			}
			ind, val := pr.row(i)
			val = val[:len(ind)]
			switch {
			case wide(len(act), G) && s != nil:
				// All sums at once, those of the inactive problems
				// unused: reading a term's weights costs more than
				// summing them.
				kernel.Sums32(z[:G], w32, G, ind, nil)
			case wide(len(act), G):
				kernel.Sums32(z[:G], w32, G, ind, val)
			case s != nil:
				for _, t := range ind {
					o := int(t) * G
					wt := w32[o : o+G : o+G]
					for _, k := range act {
						z[k] += wt[k]
					}
				}
			default:
				for j, t := range ind {
					o := int(t) * G
					wt, v := w32[o:o+G:o+G], val[j]
					for _, k := range act {
						z[k] += wt[k] * v
					}
				}
			}
			diag := 0.5 / pr.cost[pr.y[i]]
			mv = mv[:0]
			clear(d32) // the steps of the problems that do not move
			for _, k := range act {
				ik := i*G + k
				yi := -1.0
				if pr.y[i] == pos[k] {
					yi = 1
				}
				a := alpha[ik]
				g := yi*(float64(z[k])+wb[k]*svcBias) - 1 + a*diag
				pg := g
				if a == 0 {
					if g > pgMaxOld[k] {
						inactive[ik] = true
						nActive[i]--
						count[k]--
						continue
					}
					pg = min(g, 0)
				}
				pgMaxNew[k], pgMinNew[k] = max(pgMaxNew[k], pg), min(pgMinNew[k], pg)
				if math.Abs(pg) > svcGradTiny {
					na := max(a-g/qd[ik], 0)
					alpha[ik] = na
					d[k] = (na - a) * yi
					d32[k] = float32(d[k])
					wb[k] += d[k] * svcBias
					mv = append(mv, k)
				}
			}
			if len(mv) == 0 {
				continue
			}
			// The steps of many problems at once: those that did not move
			// add a step of 0, which leaves their weights as they are
			// (w + 0 = w, bit for bit, as a weight never holds -0: it
			// starts at +0, and a rounded sum is -0 only when both terms
			// are).
			switch {
			case wide(len(mv), G) && s == nil:
				kernel.AddSteps32(w32, G, d32[:G], ind, val)
			case wide(len(mv), G) && s != nil:
				kernel.AddScaledSteps32(w32, s, G, d32[:G], ind)
			case s != nil:
				for _, t := range ind {
					o := int(t) * G
					wt, st := w32[o:o+G:o+G], s[o:o+G:o+G]
					for _, k := range mv {
						wt[k] += d32[k] * st[k] * st[k]
					}
				}
			default:
				for j, t := range ind {
					o := int(t) * G
					wt, v := w32[o:o+G:o+G], val[j]
					for _, k := range mv {
						wt[k] += d32[k] * v
					}
				}
			}
		}
		for k := range done {
			if done[k] {
				continue
			}
			iters[k]++
			switch {
			case pgMaxNew[k]-pgMinNew[k] <= pr.eps && count[k] == n, iters[k] >= pr.maxIter:
				done[k] = true
				left--
			case pgMaxNew[k]-pgMinNew[k] <= pr.eps:
				// Converged on the active set: check every document again.
				for i := 0; i < n; i++ {
					if inactive[i*G+k] {
						inactive[i*G+k] = false
						nActive[i]++
					}
				}
				count[k] = n
				pgMaxOld[k] = math.Inf(1)
			default:
				// α has no upper bound (L2 loss), so only the largest
				// projected gradient drives shrinking (liblinear keeps
				// PGmin for the L1 loss).
				pgMaxOld[k] = pgMaxNew[k]
				if pgMaxOld[k] <= 0 {
					pgMaxOld[k] = math.Inf(1)
				}
			}
		}
	}
	return w32, wb
}

// wide reports whether solveGroup reads or updates the weights of all G
// problems of a document's terms, m of which it needs, with the packed
// loops of package kernel rather than those m alone: when m is at least a
// tenth of G, so for any m in a group of up to ten problems. The loop
// over the m alone gains nothing there: the time goes to bringing each
// term's weights (and NB-LR's scales) into the cache, a line or two per
// term, which both loops do (on the 20NG train split, NB-LR's fit takes
// 1.2 CPU seconds with this rule, 1.7 with a quarter of G instead).
func wide(m, G int) bool { return 10*m >= G }

// byFrequency returns perm, which numbers the terms of X by falling
// document frequency (ties by id), and X with its term ids renumbered
// (term t becomes perm[t]; within a row they are no longer ascending).
// The order is a counting sort: the terms of each document frequency take
// consecutive numbers, in the order of their ids.
func byFrequency(X *vectorize.Matrix) ([]int32, *vectorize.Matrix) {
	nnz := X.Indptr[X.Rows()]
	df := make([]int32, X.Cols)
	maxDF := int32(0)
	for _, t := range X.Indices[:nnz] {
		df[t]++
		maxDF = max(maxDF, df[t])
	}
	// first[maxDF-f] is the first number of the terms of frequency f.
	first := make([]int32, maxDF+2)
	for _, f := range df {
		first[maxDF-f+1]++
	}
	for i := 1; i < len(first); i++ {
		first[i] += first[i-1]
	}
	perm := df // each term's frequency is read once, then its number is written
	for t, f := range df {
		perm[t] = first[maxDF-f]
		first[maxDF-f]++
	}
	ind := make([]int32, nnz)
	for j, t := range X.Indices[:nnz] {
		ind[j] = perm[t]
	}
	return perm, &vectorize.Matrix{Indptr: X.Indptr, Indices: ind, Values: X.Values, Cols: X.Cols}
}

// unscale returns the weight of a scaled feature from its weight of
// presence v = w·s (0 when s is: the solver never moves such a weight).
func unscale(v, s float64) float64 {
	if s == 0 {
		return 0
	}
	return v / s
}
