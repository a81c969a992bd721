package model

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"sync"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// NewNB builds a Naive Bayes model of the given kind from its sufficient
// statistics, which train counts: classDocs[c] = N_c, the training
// documents of class c, and counts, feature-major V×C with V =
// vocab.Len(): counts[d*C+c] is N_cd, the documents of class c containing
// term d, for Bernoulli, and the summed feature values (counts or tf-idf)
// of term d in class c for multinomial and complement NB. NewNB validates
// the shapes and the parameters (see ValidateParams), keeps classDocs and
// counts in the model without copying or modifying them (so train may
// call NewNB repeatedly on the same counts for a grid of α), and computes
// W and B. With P(c) the prior of p.Prior (see Model.LogPrior):
//
// Bernoulli, the multi-variate Bernoulli event model (McCallum & Nigam
// 1998) with a Beta(α, β) prior:
//
//	θ_cd   = (N_cd + α) / (N_c + α + β)
//	B[c]   = log P(c) + Σ_d log(1 - θ_cd)
//	W[d,c] = log θ_cd - log(1 - θ_cd)        (v_t ignored: Binary is set)
//
// Multinomial (McCallum & Nigam 1998) with a Dirichlet α prior:
//
//	θ_cd   = (count_cd + α) / (Σ_d count_cd + α|V|)
//	B[c]   = log P(c),   W[d,c] = log θ_cd
//
// Complement (Rennie, Shih, Teevan & Karger 2003, Table 9, with their
// weight normalisation; the same weights as scikit-learn's
// ComplementNB(norm=True)): each class is scored by how badly its
// complement, the documents of all other classes, explains the document:
//
//	θ̃_cd   = (Σ_{c'≠c} count_c'd + α) / (Σ_{c'≠c} Σ_d count_c'd + α|V|)
//	w_cd   = log θ̃_cd,   ŵ_cd = w_cd / Σ_d |w_cd|
//	W[d,c] = -ŵ_cd = |w_cd| / Σ_d |w_cd|,   B[c] = 0
//
// Rennie et al. pick argmin_c Σ_t v_t ŵ_ct; negating the weights turns
// that into the argmax of the shared scorer. Like the paper and
// scikit-learn (which adds the prior only when there is a single class,
// where it is 0 anyway), complement NB ignores the prior: B is 0. With
// p.NoWeightNorm, W[d,c] = -w_cd (scikit-learn's norm=False).
// Complement scores are not log probabilities; softmax of them is a
// confidence ranking, not a calibrated posterior, until a temperature
// scales them.
//
// Last, with τ = p.Temperature > 0, W and B are multiplied by τ (the
// temperature scaling of Guo et al. 2017): scores, and so log-odds and
// explanations, are τ times the above, decisions are unchanged, and
// softmax(score) is calibrated when τ was fitted on held-out data (see
// train.CalibrateNB).
//
// α = β = 0 (maximum likelihood) is exact, never NaN. A θ of 0 makes the
// class impossible for a document holding the term (W = -Inf). A
// Bernoulli θ of 1 makes the class impossible for a document lacking the
// term: the term is left out of B's sum, gets W = 0, and the scorer
// requires it (see Scorer.Scores). A 0/0 ratio (a class, or a complement,
// with no data and no smoothing) takes its limit as the smoothing goes to
// 0: θ = 1/2 for Bernoulli (α = β → 0) and 1/|V| for multinomial and
// complement. In complement NB a θ̃ of 0 gives W = +Inf (the class is
// certain when the term is present; tied certain classes share the
// probability) and the normaliser sums the finite |w_cd|.
func NewNB(kind Kind, classes []string, vocab *vectorize.Vocabulary, p Params, classDocs, counts []float64) (*Model, error) {
	if !kind.IsNB() {
		return nil, fmt.Errorf("NewNB: %s is not a Naive Bayes model", kind)
	}
	if err := validateClasses(classes); err != nil {
		return nil, err
	}
	if vocab == nil {
		return nil, errors.New("NewNB: nil vocabulary")
	}
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	if err := validateStats(kind, classes, vocab.Len(), classDocs, counts); err != nil {
		return nil, err
	}
	m := &Model{
		Kind:      kind,
		Classes:   classes,
		Vocab:     vocab,
		Params:    p,
		Binary:    kind == Bernoulli,
		ClassDocs: classDocs,
		Counts:    counts,
	}
	m.W, m.B = fitNB(kind, p, classDocs, counts, len(classes))
	m.d = derive(m)
	return m, nil
}

// fitNB computes W and B from valid NB statistics; see NewNB.
func fitNB(kind Kind, p Params, classDocs, counts []float64, C int) (W, B []float64) {
	V := len(counts) / C
	W = make([]float64, V*C)
	B = make([]float64, C)
	lp := logPrior(p, classDocs, C)
	switch kind {
	case Bernoulli:
		copy(B, lp)
		// Most counts are 0: their weight and log(1-θ) depend on the
		// class only, so they are computed once per class.
		sum1m := make([]float64, C) // Σ_d log(1-θ_cd), required terms left out
		bernoulliRows(p, classDocs, counts, bernoulliZero(p, classDocs), W, sum1m)
		for c := range B {
			B[c] += sum1m[c]
		}
	case Multinomial:
		copy(B, lp)
		// W[d,c] = log(count_cd + α) - log(den_c): log(den_c) once per
		// class, and the weight of a zero count (most of them) once per
		// class too. The same operations on the same operands as a
		// direct evaluation, so the same bits.
		logDen, zero, limit := multinomialDen(p, counts, C, V)
		parallelRange(V, func(lo, hi int) {
			for d := lo; d < hi; d++ {
				multinomialRow(counts[d*C:d*C+C], p.Alpha, logDen, zero, limit, W[d*C:d*C+C])
			}
		})
	case Complement:
		fitComplement(W, p, counts, C, V)
	}
	if t := p.Temperature; t > 0 && t != 1 {
		for i := range W {
			W[i] *= t
		}
		for c := range B {
			B[c] *= t
		}
	}
	return W, B
}

// parallelRange runs fn over [0, n) in contiguous chunks, one per core
// (a single chunk for small n), and waits.
func parallelRange(n int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n/4096)
	if w <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(k*n/w, (k+1)*n/w)
	}
	wg.Wait()
}

// bernoulliZeros holds bernoulliTerm of a zero count in each class.
type bernoulliZeros struct {
	w, log1m []float64
	required []bool
}

// bernoulliZero returns bernoulliTerm of a zero count in each class.
func bernoulliZero(p Params, classDocs []float64) bernoulliZeros {
	C := len(classDocs)
	z := bernoulliZeros{make([]float64, C), make([]float64, C), make([]bool, C)}
	for c, nc := range classDocs {
		z.w[c], z.log1m[c], z.required[c] = bernoulliTerm(0, nc, p.Alpha, p.Beta)
	}
	return z
}

// bernoulliRows sets W to the Bernoulli weights of the terms whose counts
// are counts (len(W) = len(counts), C per term) and adds each term's
// log(1-θ_cd) to sum1m[c], required terms left out, in term order: called
// on consecutive blocks of terms, it sums as one call on all of them.
func bernoulliRows(p Params, classDocs, counts []float64, z bernoulliZeros, W, sum1m []float64) {
	C := len(classDocs)
	for d := 0; d < len(counts); d += C {
		for c, x := range counts[d : d+C] {
			w, l1m, req := z.w[c], z.log1m[c], z.required[c]
			if x != 0 {
				w, l1m, req = bernoulliTerm(x, classDocs[c], p.Alpha, p.Beta)
			}
			W[d+c] = w
			if !req {
				sum1m[c] += l1m
			}
		}
	}
}

// bernoulliTerm returns, for one term and class of a Bernoulli model, the
// weight log θ - log(1-θ), log(1-θ), and whether θ = 1 (the class requires
// the term; the weight is then 0 and log(1-θ) = -Inf is left out of B).
// Both logs are taken of the smoothed counts, not of 1-θ, so that no
// precision is lost when θ is close to 1.
func bernoulliTerm(ncd, nc, alpha, beta float64) (w, log1m float64, required bool) {
	den := nc + alpha + beta
	if den == 0 { // no documents, no smoothing: the limit of Beta(ε, ε) is θ = 1/2
		return 0, -math.Ln2, false
	}
	pos := ncd + alpha     // θ·den
	neg := nc - ncd + beta // (1-θ)·den
	if neg <= 0 {
		return 0, math.Inf(-1), true
	}
	log1m = math.Log(neg) - math.Log(den)
	return math.Log(pos) - math.Log(neg), log1m, false // pos = 0 gives -Inf
}

// bernoulliRequired reports whether θ_cd = 1; see bernoulliTerm.
func bernoulliRequired(ncd, nc, alpha, beta float64) bool {
	return nc+alpha+beta != 0 && nc-ncd+beta <= 0
}

// fitComplement fills W with complement NB weights; see NewNB.
func fitComplement(W []float64, p Params, counts []float64, C, V int) {
	// comp[c] = Σ_{c'≠c} count_c'd + α, computed as a prefix plus a
	// suffix sum rather than (Σ_c' count_c'd) - count_cd, so that a term
	// seen only in class c has a complement count of exactly α.
	// tot[c] = Σ_d comp[c], summed in term order in the same pass.
	// W holds the θ̃ numerators, then the weights, in place.
	tot, logTot := complementTotals(p.Alpha, counts, C, W, C)
	// w_cd = log θ̃_cd = log comp_cd - log tot_c ≤ 0, maybe -Inf; an empty
	// complement without smoothing (tot_c = 0) takes the limit θ̃ = 1/|V|.
	// A term seen in one class only has the same complement count in
	// every other class, so within a row the last log is reused.
	parallelRange(V, func(lo, hi int) {
		for d := lo; d < hi; d++ {
			complementLogs(W[d*C:d*C+C], tot, logTot, V)
		}
	})
	norm := complementNorm(p, C, V, func(d int) []float64 { return W[d*C : d*C+C] })
	for d := 0; d < V; d++ {
		for c, w := range W[d*C : d*C+C] {
			W[d*C+c] = -w / norm[c]
		}
	}
}

// complementTotals computes the complement counts of every term
// (complementRow) into comp[d*stride:], stride C to keep them all, 0 to
// keep only the last in comp[:C], and returns tot[c] = Σ_d comp_cd, summed
// in term order, and its logarithm.
func complementTotals(alpha float64, counts []float64, C int, comp []float64, stride int) (tot, logTot []float64) {
	tot = make([]float64, C)
	for d := 0; d < len(counts)/C; d++ {
		out := comp[d*stride : d*stride+C]
		complementRow(counts[d*C:d*C+C], alpha, out)
		for c, x := range out {
			tot[c] += x
		}
	}
	logTot = make([]float64, C)
	for c, t := range tot {
		logTot[c] = math.Log(t)
	}
	return tot, logTot
}

// complementLogs turns the complement counts of one term, row, into its
// weights before normalisation, in place: w_cd = log comp_cd - log tot_c.
// A term seen in one class only has the same complement count in every
// other class, so the last logarithm is reused.
func complementLogs(row, tot, logTot []float64, V int) {
	last, lastLog := math.NaN(), 0.0
	for c, x := range row {
		if tot[c] == 0 {
			row[c] = -math.Log(float64(V))
			continue
		}
		if x != last {
			last, lastLog = x, math.Log(x)
		}
		row[c] = lastLog - logTot[c]
	}
}

// complementNorm returns the normaliser of each class's complement NB
// weights: Σ_d |w_cd| over its finite weights, summed in term order, with
// w(d) the weights of term d; 1 with p.NoWeightNorm, or when the sum is 0.
func complementNorm(p Params, C, V int, w func(d int) []float64) []float64 {
	norm := make([]float64, C)
	for c := range norm {
		norm[c] = 1
	}
	if p.NoWeightNorm {
		return norm
	}
	sum := make([]float64, C)
	for d := 0; d < V; d++ {
		for c, x := range w(d) {
			if !math.IsInf(x, 0) {
				sum[c] += math.Abs(x)
			}
		}
	}
	for c, x := range sum {
		if x > 0 {
			norm[c] = x
		}
	}
	return norm
}

// NewLinear builds a model from weights fitted elsewhere (logistic
// regression, by train): W feature-major V×C with V = vocab.Len(), B one
// bias per class. It validates the shapes and that every weight and bias is
// finite, and keeps W and B without copying. Binary is false, except for
// NB-LR, whose features are presence only: otherwise the scorer
// multiplies each weight by the feature value, so a model fitted on binary
// features expects rows with binary weighting. The model is scored as
// softmax(B + Σ_t v_t W[t,·]): multinomial logistic regression, or the
// calibrated decision values of an SVM or NB-LR.
func NewLinear(kind Kind, classes []string, vocab *vectorize.Vocabulary, p Params, W, B []float64) (*Model, error) {
	if kind.IsNB() {
		return nil, fmt.Errorf("NewLinear: %s is a Naive Bayes model: use NewNB", kind)
	}
	m := &Model{Kind: kind, Classes: classes, Vocab: vocab, Params: p, W: W, B: B, Binary: kind == NBLR}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}

// Merge adds the sufficient statistics of other, a Naive Bayes model of
// the same kind, classes (in the same order), vocabulary (terms and
// settings) and NB parameters, into m and recomputes W and B: merging
// models trained on the shards of a corpus gives the model trained on the
// whole corpus. The merged model keeps m's temperature (Params.Temperature
// is not compared: it scales scores, it does not count). On error m is
// unchanged. Merge writes fresh slices: it does not modify the statistics
// the models were built from.
func (m *Model) Merge(other *Model) error {
	if m == nil || other == nil {
		return errors.New("merge: nil model")
	}
	switch {
	case !m.Kind.IsNB():
		return fmt.Errorf("merge: %s models cannot be merged (no counts)", m.Kind)
	case m.Fields != nil || other.Fields != nil:
		return errors.New("merge: models with record fields cannot be merged")
	case other.Kind != m.Kind:
		return fmt.Errorf("merge: cannot merge a %s model into a %s model", other.Kind, m.Kind)
	case !slices.Equal(m.Classes, other.Classes):
		return fmt.Errorf("merge: classes differ (%q vs %q)", m.Classes, other.Classes)
	case m.Vocab == nil || other.Vocab == nil:
		return errors.New("merge: model without vocabulary")
	case !reflect.DeepEqual(m.Vocab.Settings, other.Vocab.Settings):
		return errors.New("merge: vocabulary settings differ")
	case !slices.Equal(m.Vocab.Terms, other.Vocab.Terms):
		return fmt.Errorf("merge: vocabularies differ (%d and %d terms)", m.Vocab.Len(), other.Vocab.Len())
	case !sameNBParams(m.Params, other.Params):
		return errors.New("merge: training parameters differ (alpha, beta, prior or weight normalisation)")
	}
	V, C := m.Vocab.Len(), len(m.Classes)
	if err := validateStats(m.Kind, m.Classes, V, m.ClassDocs, m.Counts); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := validateStats(other.Kind, other.Classes, V, other.ClassDocs, other.Counts); err != nil {
		return fmt.Errorf("merge: other model: %w", err)
	}
	classDocs := make([]float64, C)
	for c := range classDocs {
		classDocs[c] = m.ClassDocs[c] + other.ClassDocs[c]
	}
	counts := make([]float64, V*C)
	for i := range counts {
		counts[i] = m.Counts[i] + other.Counts[i]
	}
	if err := validateStats(m.Kind, m.Classes, V, classDocs, counts); err != nil { // overflow to +Inf
		return fmt.Errorf("merge: %w", err)
	}
	m.ClassDocs, m.Counts = classDocs, counts
	m.W, m.B = fitNB(m.Kind, m.Params, classDocs, counts, C)
	m.d = derive(m)
	return nil
}

// sameNBParams reports whether two models were counted and smoothed alike.
func sameNBParams(a, b Params) bool {
	return a.Alpha == b.Alpha && a.Beta == b.Beta && priorName(a.Prior) == priorName(b.Prior) &&
		slices.Equal(a.Priors, b.Priors) && a.NoWeightNorm == b.NoWeightNorm
}

func priorName(s string) string {
	if s == "" {
		return "learned"
	}
	return s
}
