package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitDualWarm updates the SVM or NB-LR model m (its weights, biases,
// classes, vocabulary and parameters) with the documents of X (weighted
// over m's vocabulary, as PrepareWith gives them) labelled y (ids into
// m.Classes) by a proximal step from m: each one-vs-rest problem k solves
//
//	min_w  ½‖w - w₀‖² + Σ_i C_i · max(0, 1 - y_i wᵀx_i)²
//
// over the documents of X only, w₀ being m's weights and bias of problem
// k divided by m's temperature (its decision values), with the same C and
// class weights as m. Its dual is FitSVM's with w = w₀ + Σ_i α_i y_i x_i:
// descend runs from w = w₀ and α = 0, with FitSVM's tolerance, for at
// most epochs passes (m.Params.Epochs when epochs ≤ 0). The result is the
// model closest to m (in the Euclidean norm of its decision weights) that
// fits the new documents, not the model of the union of old and new
// documents: the old documents enter only through w₀ (and any of them the
// caller adds to X, a replay sample).
//
// NB-LR's features are NB-scaled presence, r ∘ x̂, but the model keeps
// only W = w'∘r (the log-count ratios r folded into the interpolated
// weights w'), not r nor the counts that give it. The step is then taken
// on the features the model scores, presence x̂ (the ratios of the old
// documents stay folded into w₀, and no new ratios are counted), and the
// interpolation towards the mean magnitude is not applied again: the
// model is the linear scorer W (biases B) closest to m's that fits the
// new documents' presence rows.
//
// The model keeps m's temperature: its new weights are multiplied by it
// (no held-out documents to fit another). The model's Params are m's.
func FitDualWarm(m *model.Model, X *vectorize.Matrix, y []int, epochs int, opt Options) (*model.Model, error) {
	return fitDualWarm(m, X, y, epochs, opt, opt.svmEps(m.Kind))
}

// fitDualWarm is FitDualWarm stopping at the tolerance eps.
func fitDualWarm(m *model.Model, X *vectorize.Matrix, y []int, epochs int, opt Options, eps float64) (*model.Model, error) {
	if m.Kind != model.SVM && m.Kind != model.NBLR {
		return nil, fmt.Errorf("FitDualWarm: a %s model has no dual solver", m.Kind)
	}
	nc, nf := len(m.Classes), m.Vocab.Len()
	if err := checkData(X, y, m.Classes, m.Vocab); err != nil {
		return nil, err
	}
	if len(m.W) != nf*nc || len(m.B) != nc {
		return nil, fmt.Errorf("warm start model has %d weights and %d biases, want %d and %d", len(m.W), len(m.B), nf*nc, nc)
	}
	p := m.Params
	if epochs <= 0 {
		epochs = p.Epochs
	}
	if epochs <= 0 {
		epochs = DefaultSVMIter
	}
	if m.Kind == model.NBLR {
		X = presence(X)
	}
	tau := p.Temperature
	if tau <= 0 {
		tau = 1
	}
	probs := nc
	if nc == 2 {
		probs = 1
	}
	pr := newSVC(X, y, nc, p)
	pr.eps, pr.maxIter = eps, epochs
	groups, size := groupsOf(probs, opt.workers())
	W, B := make([]float64, nf*nc), make([]float64, nc)
	overflow := make([]bool, groups)
	parallel(groups, groups, func(g int) {
		lo, hi := g*size, min(probs, (g+1)*size)
		G := hi - lo
		pos := make([]int, G)
		w32, wb := make([]float32, nf*G), make([]float64, G)
		// w₀: problem k's decision weights (for two classes, the second
		// class's score minus the first's, W[t*2+1] - W[t*2] = f).
		for k := range pos {
			c := lo + k
			pos[k] = c
			if nc == 2 {
				pos[k] = 1
				for t := 0; t < nf; t++ {
					w32[t*G+k] = float32((m.W[t*2+1] - m.W[t*2]) / tau)
				}
				wb[k] = (m.B[1] - m.B[0]) / tau / svcBias
				continue
			}
			for t := 0; t < nf; t++ {
				w32[t*G+k] = float32(m.W[t*nc+c] / tau)
			}
			wb[k] = m.B[c] / tau / svcBias
		}
		alpha := make([]float64, pr.docs()*G)
		pr.descend(pos, nil, w32, wb, alpha, rand.New(rand.NewPCG(pr.seed, svmStream)), nil, nil)
		temper := temperAll(p.Temperature, &overflow[g])
		for t := 0; t < nf; t++ {
			for k, v := range w32[t*G : t*G+G] {
				x := float64(v)
				if nc == 2 {
					W[t*2], W[t*2+1] = temper(-x/2), temper(x/2)
					continue
				}
				W[t*nc+lo+k] = temper(x)
			}
		}
		for k, b := range wb {
			if nc == 2 {
				B[0], B[1] = temper(-b*svcBias/2), temper(b*svcBias/2)
				continue
			}
			B[lo+k] = temper(b * svcBias)
		}
	})
	for _, o := range overflow {
		if o {
			return nil, fmt.Errorf("temperature %v overflows a weight", p.Temperature)
		}
	}
	for i, v := range W {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("warm start diverged (weight %d is %g)", i, v)
		}
	}
	return model.NewLinear(m.Kind, m.Classes, m.Vocab, p, W, B)
}

// presence returns X with every stored value 1 (the rows' terms unchanged):
// the binarised rows NB-LR scores.
func presence(X *vectorize.Matrix) *vectorize.Matrix {
	nnz := X.Indptr[X.Rows()]
	v := make([]float32, nnz)
	for j := range v {
		v[j] = 1
	}
	return &vectorize.Matrix{Indptr: X.Indptr, Indices: X.Indices, Values: v, Cols: X.Cols}
}
