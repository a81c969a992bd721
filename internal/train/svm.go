package train

import (
	"math"

	"github.com/nbtext/nbtext/internal/model"
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
	probs := nc
	if nc == 2 {
		probs = 1
	}
	groups, size := groupsOf(probs, opt.workers())
	W, B = pr.prepare(pr.X.Cols, nc, groups)
	parallel(groups, groups, func(g int) {
		grp := pr.newGroup(g, size, probs, nc, scale)
		grp.w, grp.b = pr.solveGroup(grp.pos, grp.s32, pr.buf.w32[g])
		pr.emitGroup(grp, W, B, nc, perm, scale, beta)
	})
	return W, B
}

// groupsOf returns the number of groups of problems one-vs-rest solves on
// workers goroutines and the number of problems of each (the last may hold
// fewer): groups of consecutive problems, one per worker.
func groupsOf(probs, workers int) (groups, size int) {
	groups = min(workers, probs)
	size = ceilDiv(probs, groups)
	return ceilDiv(probs, size), size
}

// prepare sizes pr.buf for nf terms, nc classes and the given number of
// groups of problems, and returns the model's weights, which emitGroup
// fills, and biases.
func (pr *svc) prepare(nf, nc, groups int) (W, B []float64) {
	if pr.buf == nil {
		pr.buf = &svcBuffers{}
	}
	if len(pr.buf.W) != nf*nc {
		pr.buf.W = make([]float64, nf*nc) // every entry is written by emitGroup
	}
	if len(pr.buf.w32) != groups {
		pr.buf.w32 = make([][]float32, groups)
		pr.buf.s32 = make([][]float32, groups)
	}
	pr.buf.overflow = make([]bool, groups)
	return pr.buf.W, make([]float64, nc)
}

// svcGroup is one group of problems of one-vs-rest: problems lo to hi-1,
// problem k fitting the documents of class pos[k-lo] against the others;
// s32 its features' scales (NB-LR; nil for the SVM), and, once solved, its
// weights w (feature-major, w[t*G + k]) and biases b (see solveGroup).
type svcGroup struct {
	g, lo, hi int
	pos       []int
	s32       []float32
	w         []float32
	b         []float64
}

// newGroup returns group g of problems of size problems each (of probs,
// for nc classes), with its float32 copy of its problems' scales when
// scale is not nil (NB-LR).
func (pr *svc) newGroup(g, size, probs, nc int, scale []float64) *svcGroup {
	nf := pr.X.Cols
	lo, hi := g*size, min(probs, (g+1)*size)
	G := hi - lo
	grp := &svcGroup{g: g, lo: lo, hi: hi, pos: make([]int, G)}
	if scale != nil {
		// The solver's copy of its problems' scales, G per term
		// (every entry is written).
		s32 := pr.buf.s32[g]
		if len(s32) != nf*G {
			s32 = make([]float32, nf*G)
			pr.buf.s32[g] = s32
		}
		for u := 0; u < nf; u++ {
			for k, v := range scale[u*probs+lo : u*probs+hi] {
				s32[u*G+k] = float32(v)
			}
		}
		grp.s32 = s32
	}
	for k := range grp.pos {
		grp.pos[k] = lo + k
		if nc == 2 {
			grp.pos[k] = 1
		}
	}
	return grp
}

// emitGroup writes the solved group's weights and biases into the
// model's W and B (see oneVsRest): NB-LR's interpolation, the temperature
// pr.tau, the order perm of the terms, and for two classes ±f/2.
func (pr *svc) emitGroup(grp *svcGroup, W, B []float64, nc int, perm []int32, scale []float64, beta float64) {
	nf := pr.X.Cols
	probs := nc
	if nc == 2 {
		probs = 1
	}
	lo, G, w, b := grp.lo, grp.hi-grp.lo, grp.w, grp.b
	pr.buf.w32[grp.g] = w
	overflow := &pr.buf.overflow[grp.g]
	*overflow = false
	temper := temperAll(pr.tau, overflow)
	mean := make([]float64, G) // w̄ of each problem
	if scale != nil {
		// w holds the weights of presence, w_u·s_u.
		for u := 0; u < nf; u++ {
			su := scale[u*probs+lo : u*probs+grp.hi]
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

// byFrequency returns perm, which numbers the terms of X by falling
// document frequency (ties by id), and X with its term ids renumbered
// (term t becomes perm[t]; within a row they are no longer ascending).
// The order is a counting sort: the terms of each document frequency take
// consecutive numbers, in the order of their ids.
func byFrequency(X *vectorize.Matrix) ([]int32, *vectorize.Matrix) {
	nnz := X.Indptr[X.Rows()]
	df := make([]int32, X.Cols)
	for _, t := range X.Indices[:nnz] {
		df[t]++
	}
	perm := frequencyOrder(df)
	ind := make([]int32, nnz)
	for j, t := range X.Indices[:nnz] {
		ind[j] = perm[t]
	}
	return perm, &vectorize.Matrix{Indptr: X.Indptr, Indices: ind, Values: X.Values, Cols: X.Cols}
}

// frequencyOrder returns the numbers byFrequency gives the terms of
// document frequencies df, in df's array.
func frequencyOrder(df []int32) []int32 {
	maxDF := int32(0)
	for _, f := range df {
		maxDF = max(maxDF, f)
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
	return perm
}

// unscale returns the weight of a scaled feature from its weight of
// presence v = w·s (0 when s is: the solver never moves such a weight).
func unscale(v, s float64) float64 {
	if s == 0 {
		return 0
	}
	return v / s
}
