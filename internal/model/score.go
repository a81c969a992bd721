package model

import (
	"math"
	"sort"

	"github.com/nbtext/nbtext/internal/kernel"
)

// Scorer scores documents against one model with its own scratch buffers,
// so that scoring allocates nothing per document. A Scorer is not safe for
// concurrent use: give each goroutine its own (the Model is shared).
type Scorer struct {
	m      *Model
	d      *derived
	w, b   []float64
	nc, nv int
	binary bool

	scores []float64 // returned by Scores
	lp     []float64 // returned in Prediction.LogProbs
	cnt    []int32   // exact path: required terms seen per class
	ones   []float32 // binary path: the values of its terms, all 1
}

// onesFor returns n values of 1 (a buffer that grows as documents do).
func (s *Scorer) onesFor(n int) []float32 {
	if len(s.ones) < n {
		s.ones = make([]float32, max(n, 2*len(s.ones)))
		for i := range s.ones {
			s.ones[i] = 1
		}
	}
	return s.ones[:n]
}

// NewScorer returns a Scorer for m. m must be valid (as built by NewNB,
// NewLinear, Merge or Decode, or an equivalent literal) and must not be
// modified while the Scorer is in use.
func (m *Model) NewScorer() *Scorer {
	d := m.d
	if d == nil {
		d = derive(m)
	}
	C := len(m.Classes)
	s := &Scorer{
		m: m, d: d, w: m.W, b: m.B, nc: C, binary: m.Binary,
		scores: make([]float64, C),
		lp:     make([]float64, C),
	}
	if C > 0 {
		s.nv = len(m.W) / C
	}
	if d.exact {
		s.cnt = make([]int32, C)
	}
	return s
}

// NewLinearScorer returns a Scorer of the feature-major weights W (V×C,
// every one finite) and biases B of a linear model of kind (SVM, NB-LR,
// logistic regression): the Scorer of the model NewLinear would build of
// them, bit for bit, without building it (NewLinear checks and scans the
// V×C weights). It is for a fit's own scores, such as the held-out scores
// that calibrate an SVM; its Model has no vocabulary or parameters, so
// Explain names terms by id. W and B must not change while it is in use.
func NewLinearScorer(kind Kind, W, B []float64) *Scorer {
	C := len(B)
	m := &Model{Kind: kind, Classes: make([]string, C), W: W, B: B, Binary: kind == NBLR}
	m.d = &derived{logPrior: logPrior(m.Params, nil, C)}
	return m.NewScorer()
}

// Model returns the model s scores against.
func (s *Scorer) Model() *Model { return s.m }

// Scores returns the score of every class for the document whose term ids
// are ind (ascending, distinct) with values val:
//
//	score[c] = B[c] + Σ_i val[i] · W[ind[i]*C + c]
//
// For a binary (Bernoulli) model val is ignored (it may be nil) and every
// listed term counts as present with v = 1; otherwise len(val) must be at
// least len(ind). Term ids outside the vocabulary are skipped. The result
// is an internal buffer, overwritten by the next call.
//
// The common path loops over the non-zeros only, reading one contiguous
// row of C weights per term, without branches or allocation
// (kernel.AddScores, when every term is in the vocabulary). A model with
// infinite weights or required terms (α = 0; see NewNB) takes an exact
// path instead: a term contributes ±Inf only when present (v > 0, never
// 0·Inf), and a Bernoulli class missing one of its required terms (θ = 1)
// scores -Inf. Scores are never NaN: a NaN arising from non-finite feature
// values is reported as -Inf.
func (s *Scorer) Scores(ind []int32, val []float32) []float64 {
	C := s.nc
	sc := s.scores[:C]
	copy(sc, s.b)
	switch {
	case s.d.exact:
		s.scoresExact(sc, ind, val)
	case s.binary:
		if kernel.InRange(ind, s.nv) {
			// A product by 1 is exact: the same bits as adding the weights.
			kernel.AddScores(sc, s.w[:s.nv*C], ind, s.onesFor(len(ind)))
			break
		}
		w, nv := s.w, uint(s.nv)
		for _, t := range ind {
			if uint(t) >= nv {
				continue
			}
			o := int(t) * C
			row := w[o : o+C : o+C]
			sc := sc[:len(row)]
			for c, x := range row {
				sc[c] += x
			}
		}
	default:
		val = val[:len(ind)]
		if kernel.InRange(ind, s.nv) {
			kernel.AddScores(sc, s.w[:s.nv*C], ind, val)
			break
		}
		w, nv := s.w, uint(s.nv)
		for i, t := range ind {
			if uint(t) >= nv {
				continue
			}
			v := float64(val[i])
			o := int(t) * C
			row := w[o : o+C : o+C]
			sc := sc[:len(row)]
			for c, x := range row {
				sc[c] += v * x
			}
		}
	}
	for c, x := range sc {
		if x != x {
			sc[c] = math.Inf(-1)
		}
	}
	return sc
}

// scoresExact is the scoring path of models with infinite weights or
// required terms; see Scores.
func (s *Scorer) scoresExact(sc []float64, ind []int32, val []float32) {
	C := s.nc
	d := s.d
	cnt := s.cnt[:C]
	clear(cnt)
	if !s.binary {
		val = val[:len(ind)]
	}
	for i, t := range ind {
		if uint(t) >= uint(s.nv) {
			continue
		}
		v := 1.0
		if !s.binary {
			v = float64(val[i])
		}
		o := int(t) * C
		row := s.w[o : o+C]
		for c, x := range row {
			if math.IsInf(x, 0) {
				if v > 0 {
					sc[c] += x
				}
				continue
			}
			sc[c] += v * x
		}
		if d.reqPtr != nil && (s.binary || v > 0) {
			for _, c := range d.reqCls[d.reqPtr[t]:d.reqPtr[t+1]] {
				cnt[c]++
			}
		}
	}
	if d.nReq != nil {
		for c := range sc {
			if cnt[c] < d.nReq[c] {
				sc[c] = math.Inf(-1)
			}
		}
	}
}

// Prediction is the outcome of scoring one document.
type Prediction struct {
	// Class is the most probable class, argmax_c LogProbs[c], ties broken
	// by the lower class id; it is computed from the scores (the same
	// argmax, without the rounding of the probabilities), so that a
	// temperature never changes it. Decide(LogProbs, costs) gives the decision
	// under class costs.
	Class int
	// LogProbs holds log P(c|x) for every class. It aliases the Scorer's
	// buffer and is overwritten by its next Predict.
	LogProbs []float64
	// Fallback is set when the model gives the document no posterior and
	// LogProbs is the prior (Model.LogPrior) instead: no class can produce
	// the document (every score is -Inf, possible only with α = 0), or the
	// document is empty for a complement NB model, whose scores are then
	// all equal and carry no information.
	Fallback bool
	// Empty is set when the document has no term of the vocabulary. NB and
	// LR still score it from B: the prior for multinomial NB, the prior and
	// the absence of every word for Bernoulli NB, the biases for LR.
	Empty bool
	// Scores are the class scores the probabilities are the softmax of
	// (b[c] + Σ_t v_t·W[t*C+c]: NB's log joint probabilities, LR's
	// logits, SVM's margins): the decision values. They alias the
	// Scorer's buffer, as LogProbs does; nil for an ensemble.
	Scores []float64
}

// Prob returns P(c|x) = exp(LogProbs[c]), e.g. to compare the best class's
// probability with --threshold.
func (p Prediction) Prob(c int) float64 { return math.Exp(p.LogProbs[c]) }

// Predict scores a document (see Scores) and returns its class
// probabilities and most probable class. It allocates nothing; the
// returned LogProbs is overwritten by the next call.
func (s *Scorer) Predict(ind []int32, val []float32) Prediction {
	return s.predictScores(s.Scores(ind, val), len(ind) == 0)
}

// predictScores turns the scores sc of a document into a Prediction.
func (s *Scorer) predictScores(sc []float64, empty bool) Prediction {
	p := Prediction{LogProbs: s.lp[:s.nc], Empty: empty, Scores: sc}
	ok := LogProbs(p.LogProbs, sc)
	if !ok || (p.Empty && s.m.Kind == Complement) {
		copy(p.LogProbs, s.d.logPrior)
		p.Fallback = true
	}
	if p.Fallback {
		p.Class = Decide(p.LogProbs, nil)
	} else {
		// From the scores, not the probabilities: a temperature scales
		// the scores, and a tiny one can round every probability to the
		// same value (issue 12 item 13), while the scores keep their order.
		p.Class = Decide(sc, nil)
	}
	return p
}

// Predict is a convenience for one-off use: it scores one document with a
// fresh Scorer and returns a Prediction whose LogProbs the caller owns. Use
// a Scorer to score many documents.
func (m *Model) Predict(ind []int32, val []float32) Prediction {
	return m.NewScorer().Predict(ind, val)
}

// LogSumExp returns log Σ_i exp(x_i), computed as max + log Σ exp(x_i -
// max) so that nothing overflows or underflows. It is -Inf when x is empty
// or every x_i is -Inf, +Inf when some x_i is +Inf; NaN entries count as
// -Inf.
func LogSumExp(x []float64) float64 {
	mx := math.Inf(-1)
	for _, v := range x {
		if v > mx {
			mx = v
		}
	}
	if math.IsInf(mx, 0) {
		return mx
	}
	sum := 0.0
	for _, v := range x {
		if v > math.Inf(-1) {
			sum += math.Exp(v - mx)
		}
	}
	return mx + math.Log(sum)
}

// LogProbs writes the log-softmax of scores into dst (which may be scores
// itself, and must be as long): dst[c] = scores[c] - LogSumExp(scores),
// so exp(dst) sums to 1. Scores of -Inf (and NaN) get -Inf. If some scores
// are +Inf (complement NB with α = 0), those classes share the probability
// equally. If every score is -Inf, LogProbs writes the uniform
// distribution and returns false: the scores carry no posterior.
func LogProbs(dst, scores []float64) bool {
	dst = dst[:len(scores)]
	lse := LogSumExp(scores)
	switch {
	case math.IsInf(lse, -1):
		u := -math.Log(float64(len(scores)))
		for c := range dst {
			dst[c] = u
		}
		return false
	case math.IsInf(lse, 1):
		n := 0
		for _, v := range scores {
			if math.IsInf(v, 1) {
				n++
			}
		}
		l := -math.Log(float64(n))
		for c, v := range scores {
			if math.IsInf(v, 1) {
				dst[c] = l
			} else {
				dst[c] = math.Inf(-1)
			}
		}
		return true
	}
	for c, v := range scores {
		if v > math.Inf(-1) {
			dst[c] = v - lse
		} else {
			dst[c] = math.Inf(-1)
		}
	}
	return true
}

// Decide returns the decision that minimises the expected loss when
// missing class y costs λ_y = costs[y] (and a correct decision costs 0):
//
//	a(x) = argmax_y λ_y P(y|x) = argmax_y log λ_y + log P(y|x)
//
// computed in log space. With costs nil (or all equal) it is the MAP
// decision argmax_y P(y|x). Ties go to the lower class id. Costs must be
// positive and finite (see ParseCosts); logProbs must not be empty.
func Decide(logProbs, costs []float64) int {
	best, bv := 0, math.NaN()
	for c, v := range logProbs {
		if costs != nil {
			v += math.Log(costs[c])
		}
		if v > bv || (bv != bv && v == v) {
			best, bv = c, v
		}
	}
	return best
}

// topKSelect is the largest k for which TopK selects instead of sorting.
const topKSelect = 16

// TopK returns the ids of the k most probable classes, by logProbs
// descending, ties broken by the lower class id (NaN last). k is clamped
// to [0, len(logProbs)].
//
// For k up to topKSelect it keeps the k best seen so far, each new class
// inserted after the ones that are not worse (the order of the stable
// sort, without sorting every class: a multi-label model's 735 labels
// for its top 5); beyond, it sorts.
func TopK(logProbs []float64, k int) []int {
	k = min(max(k, 0), len(logProbs))
	if k <= topKSelect {
		before := func(x, y float64) bool { return x > y || (x == x && y != y) }
		ids := make([]int, 0, k)
		for i, x := range logProbs {
			if len(ids) == k && (k == 0 || !before(x, logProbs[ids[k-1]])) {
				continue
			}
			p := len(ids)
			for p > 0 && before(x, logProbs[ids[p-1]]) {
				p--
			}
			if len(ids) < k {
				ids = append(ids, 0)
			}
			copy(ids[p+1:], ids[p:len(ids)-1])
			ids[p] = i
		}
		return ids
	}
	ids := make([]int, len(logProbs))
	for i := range ids {
		ids[i] = i
	}
	sort.SliceStable(ids, func(a, b int) bool {
		x, y := logProbs[ids[a]], logProbs[ids[b]]
		return x > y || (x == x && y != y)
	})
	return ids[:k:k]
}
