package search

import (
	"math"
	"slices"
)

// SelectEnsemble is the ensemble selection of Caruana, Niculescu-Mizil,
// Crew & Ksikes (2004), as auto-sklearn runs it: a greedy forward selection
// with replacement over a library of models, given by their class
// probabilities probs[i] (row-major, C per document) on held-out documents
// labelled y. The ensemble starts from probs[0] (the best single model)
// and each of the next rounds-1 rounds adds the model, possibly one already
// in, whose addition gives the averaged probabilities the best metric
// (accuracy, macro F1 or log-loss; ties go to the lower log-loss, then the
// lower index). admit(i, in) says whether model i may join an ensemble
// holding the models in (by index): the budget of their refit. The result
// is the best ensemble of the rounds (the earliest on ties): how many
// times each model was picked (its weight is its share of the picks), its
// metric and that of probs[0] alone. counts is nil when admit refuses
// probs[0] alone (score is then single's). The result depends on the inputs only.
func SelectEnsemble(probs [][]float32, y []int, C int, metric string, rounds int, admit func(i int, in []bool) bool) (counts []int, score, single float64) {
	if len(probs) == 0 {
		return nil, 0, 0
	}
	ev := &probEval{y: y, C: C, metric: metric, tp: make([]int, C), fp: make([]int, C), fn: make([]int, C)}
	acc := make([]float64, len(y)*C)
	single, ll := ev.score(acc, probs[0], 1)
	in := make([]bool, len(probs))
	if !admit(0, in) {
		return nil, single, single
	}
	counts = make([]int, len(probs))
	counts[0], in[0] = 1, true
	for k, p := range probs[0] {
		acc[k] = float64(p)
	}
	best, bestLL, bestCounts := single, ll, slices.Clone(counts)
	for t := 1; t < rounds; t++ {
		pick, pickScore, pickLL := -1, 0.0, 0.0
		for i, p := range probs {
			if !in[i] && !admit(i, in) {
				continue
			}
			s, l := ev.score(acc, p, 1/float64(t+1))
			if pick < 0 || ev.better(s, l, pickScore, pickLL) {
				pick, pickScore, pickLL = i, s, l
			}
		}
		if pick < 0 {
			break
		}
		counts[pick]++
		in[pick] = true
		for k, p := range probs[pick] {
			acc[k] += float64(p)
		}
		if ev.better(pickScore, pickLL, best, bestLL) {
			best, bestLL, bestCounts = pickScore, pickLL, slices.Clone(counts)
		}
	}
	return bestCounts, best, single
}

// probEval scores averaged probabilities.
type probEval struct {
	y          []int
	C          int
	metric     string
	tp, fp, fn []int // macro F1 scratch
}

// better reports whether (s, l) beats (s2, l2): the metric, then the
// log-loss.
func (e *probEval) better(s, l, s2, l2 float64) bool {
	if s != s2 {
		if e.metric == LogLoss {
			return s < s2
		}
		return s > s2
	}
	return l < l2
}

// score returns the metric and the log-loss of the probabilities
// scale·(acc + add).
func (e *probEval) score(acc []float64, add []float32, scale float64) (float64, float64) {
	C := e.C
	clear(e.tp)
	clear(e.fp)
	clear(e.fn)
	right, ll := 0, 0.0
	for i, y := range e.y {
		row, a := acc[i*C:(i+1)*C], add[i*C:(i+1)*C]
		best, bv := 0, math.Inf(-1)
		for c := range row {
			if v := row[c] + float64(a[c]); v > bv {
				best, bv = c, v
			}
		}
		ll -= math.Log(max((row[y]+float64(a[y]))*scale, probFloor))
		if best == y {
			right++
			e.tp[y]++
		} else {
			e.fp[best]++
			e.fn[y]++
		}
	}
	n := float64(max(len(e.y), 1))
	ll /= n
	switch e.metric {
	case LogLoss:
		return ll, ll
	case MacroF1:
		f := 0.0
		for c := range C {
			if d := 2*e.tp[c] + e.fp[c] + e.fn[c]; d > 0 {
				f += 2 * float64(e.tp[c]) / float64(d)
			}
		}
		return f / float64(C), ll
	}
	return float64(right) / n, ll
}
