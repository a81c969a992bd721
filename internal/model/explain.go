package model

import (
	"math"
	"sort"
)

// Contribution is one term's share in a decision; see Scorer.Explain.
type Contribution struct {
	Term   string  // the term, from the model's vocabulary
	TermID int32   // its id (row of W)
	Value  float64 // its exact contribution to the log-odds of the explained class against Against
	// Against is the class the log-odds are taken against: the
	// best-scoring other class (-1 when the model has a single class).
	Against int
}

// Explain returns the n terms of the document (ind, val) that weigh most,
// by absolute value, in the decision for class against its strongest
// rival, the best-scoring other class o (ties: lower id). A term's value is
// its exact contribution to the log-odds of class against o:
//
//	Value_t = v_t · (W[t*C + class] - W[t*C + o])     (v_t = 1 when Binary)
//
// so that, for finite weights, score[class] - score[o] = B[class] - B[o] +
// Σ_t Value_t, with the sum over all the document's terms: for NB this is
// log P(class|x) - log P(o|x), for LR the difference of logits. Positive
// values push towards class, negative ones towards o. With infinite
// weights (α = 0) a term that rules out o (or, for complement NB, makes
// class certain) is +Inf, one that rules out class is -Inf, and one that
// rules out both is 0. With a single class, Value_t = v_t·W[t*C+class] and
// Against is -1. Terms with v_t = 0 are left out; ties in |Value| go to
// the lower term id, so the result is deterministic. Explain allocates its
// result; it is for the few documents a person reads, not the hot path.
func (s *Scorer) Explain(ind []int32, val []float32, class, n int) []Contribution {
	C := s.nc
	if class < 0 || class >= C || n <= 0 {
		return nil
	}
	sc := s.Scores(ind, val)
	o := -1
	for c, x := range sc {
		if c != class && (o < 0 || x > sc[o]) {
			o = c
		}
	}
	return s.ExplainAgainst(ind, val, class, o, n)
}

// ExplainAgainst is Explain with the rival class o given (-1: none, the
// contributions to the score of class alone): the ensemble of
// EnsembleScorer explains each member against the ensemble's rival.
func (s *Scorer) ExplainAgainst(ind []int32, val []float32, class, o, n int) []Contribution {
	C := s.nc
	if class < 0 || class >= C || n <= 0 || o >= C {
		return nil
	}
	if !s.binary {
		val = val[:len(ind)]
	}
	var terms []string
	if s.m.Vocab != nil {
		terms = s.m.Vocab.Terms
	}
	out := make([]Contribution, 0, len(ind))
	for i, t := range ind {
		if uint(t) >= uint(s.nv) {
			continue
		}
		v := 1.0
		if !s.binary {
			v = float64(val[i])
		}
		if v == 0 || v != v {
			continue
		}
		row := s.w[int(t)*C : int(t)*C+C]
		x := termScore(row[class], v)
		if o >= 0 {
			y := termScore(row[o], v)
			if math.IsInf(x, 0) && x == y {
				x = 0 // rules out (or makes certain) both
			} else {
				x -= y
			}
		}
		c := Contribution{TermID: t, Value: x, Against: o}
		if int(t) < len(terms) {
			c.Term = s.m.Vocab.DisplayName(int(t))
		}
		out = append(out, c)
	}
	return strongest(out, n, func(a, b Contribution) bool { return a.TermID < b.TermID })
}

// strongest sorts out by the magnitude of the contributions, largest
// first, ties by tie, and keeps the first n.
func strongest(out []Contribution, n int, tie func(a, b Contribution) bool) []Contribution {
	sort.SliceStable(out, func(a, b int) bool {
		x, y := math.Abs(out[a].Value), math.Abs(out[b].Value)
		if x != y {
			return x > y
		}
		return tie(out[a], out[b])
	})
	if len(out) > n {
		out = out[:n:n]
	}
	return out
}

// Explain is Scorer.Explain with a fresh Scorer, for one-off use.
func (m *Model) Explain(ind []int32, val []float32, class, n int) []Contribution {
	return m.NewScorer().Explain(ind, val, class, n)
}

// termScore is what a term of value v adds to a class score through weight
// w, as Scores computes it: v·w, but an infinite weight only when v > 0.
func termScore(w, v float64) float64 {
	if math.IsInf(w, 0) {
		if v > 0 {
			return w
		}
		return 0
	}
	return v * w
}
