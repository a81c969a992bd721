package search

import (
	"math"
	"slices"
)

// The race of a search (Run): successive halving over the candidates
// that are not defaults, rung 0 in phases ordered by what the leaders
// showed so far.

// race runs successive halving over pilots from bracketStart: rung r
// scores the candidates alive on the first min(k, 3^r) splits, and the best
// third of those that finished go on, each pilot with its followers. It
// returns the rungs, the deciding one (-1 when rung 0 finished none) and
// the candidates that finished it, best first.
func (r *runner) race(pilots []*Candidate, bracketStart float64) ([]Rung, int, []*Candidate, error) {
	var rungs []Rung
	alive := pilots
	deciding := -1
	var top []*Candidate
	for rung := 0; len(alive) > 0; rung++ {
		upto := min(len(r.splits), pow(eta, rung))
		last := upto == len(r.splits)
		end := r.rungEnd(bracketStart, rung, last)
		var cut bool
		var err error
		if rung == 0 {
			cut, err = r.runFirstRung(alive, end)
		} else {
			cut, err = r.runRung(alive, upto, end, nil)
		}
		if err != nil {
			return nil, -1, nil, err
		}
		var finished []*Candidate
		for _, c := range alive {
			if r.scored(c) >= upto {
				finished = append(finished, c)
			}
		}
		rungs = append(rungs, Rung{Splits: upto, Entrants: len(alive), Finished: len(finished), CutByTime: cut})
		if len(finished) == 0 {
			break
		}
		deciding = rung
		r.rank(finished, upto)
		r.leader = finished[0]
		top = finished
		if last || (len(finished) == 1 && len(finished[0].followers) == 0) {
			break
		}
		alive = nil
		for _, c := range finished[:ceilDiv(len(finished), eta)] {
			alive = append(alive, c)
			alive = append(alive, c.followers...)
		}
	}
	return rungs, deciding, top, nil
}

// runFirstRung runs rung 0 (the first split) in phases: the defaults of
// every kind on unigrams, then the defaults on longer n-grams, then each
// later round of preprocessing. Before each phase the pilots left are
// ordered by how well their kind and n-gram range did so far
// (orderPilots): the kinds that lead on unigrams try 1-2 grams, then 1-3
// grams, before the others try 1-2 grams, and lead the later rounds, so a
// budget that cuts rung 0 short has spent it where the leaders are, on any
// corpus. It reports whether the deadline stopped it.
func (r *runner) runFirstRung(pilots []*Candidate, end float64) (bool, error) {
	rest := slices.Clone(pilots)
	for len(rest) > 0 {
		n := r.orderPilots(rest)
		// Besides the phase's own, the tokenizations of the pilots that
		// would go on to rung 1 now are kept.
		scored := slices.DeleteFunc(slices.Clone(pilots), func(c *Candidate) bool { return r.scored(c) == 0 })
		r.rank(scored, 1)
		if cut, err := r.runRung(rest[:n], 1, end, scored[:ceilDiv(len(scored), eta)]); cut || err != nil {
			return cut, err
		}
		rest = rest[n:]
	}
	return false, nil
}

// orderPilots sorts the pilots cs for rung 0 and returns how many of the
// first form the next phase. The key is the round (a kind's defaults
// first); within a round, the leaders first: a candidate leads when its
// kind has no first-split score yet, or when the best one of its kind and
// n-gram range (else of its kind) is within one standard error of the best
// of the round (differences the first split cannot tell apart), except
// that trigrams of a kind whose bigrams scored below its unigrams do not
// lead. In round 0 the leaders go by n-gram range; the leaders go cheapest
// first, the others best first; ties by ID. A phase is the first run of
// candidates of one round, leadership and (in round 0) n-gram range.
func (r *runner) orderPilots(cs []*Candidate) int {
	type key struct{ kind, ngram int }
	best := map[key]float64{}
	r.mu.Lock()
	for _, c := range r.cands {
		v := r.scores[c.ID][0]
		if math.IsNaN(v) {
			continue
		}
		for _, k := range []key{{int(c.Spec.Kind), c.Spec.Settings.NGramMax}, {int(c.Spec.Kind), 0}} {
			if b, ok := best[k]; !ok || r.better(v, b) {
				best[k] = v
			}
		}
	}
	r.mu.Unlock()
	prior := func(c *Candidate) (float64, bool) {
		if v, ok := best[key{int(c.Spec.Kind), c.Spec.Settings.NGramMax}]; ok {
			return v, true
		}
		v, ok := best[key{int(c.Spec.Kind), 0}]
		return v, ok
	}
	top := map[int]float64{} // per round
	for _, c := range cs {
		if v, ok := prior(c); ok {
			if b, seen := top[c.round]; !seen || r.better(v, b) {
				top[c.round] = v
			}
		}
	}
	leads := map[*Candidate]bool{}
	for _, c := range cs {
		v, ok := prior(c)
		lead := !ok || math.Abs(v-top[c.round]) <= r.tieTolerance(top[c.round])
		if ng := c.Spec.Settings.NGramMax; lead && ng >= 3 {
			b1, ok1 := best[key{int(c.Spec.Kind), ng - 2}]
			b2, ok2 := best[key{int(c.Spec.Kind), ng - 1}]
			lead = !(ok1 && ok2 && r.better(b1, b2))
		}
		leads[c] = lead
	}
	// phase is what a phase's candidates share.
	phase := func(c *Candidate) [3]int {
		p := [3]int{c.round, 1, 0}
		if leads[c] {
			p[1] = 0
		}
		if c.round == 0 {
			p[2] = c.Spec.Settings.NGramMax
		}
		return p
	}
	slices.SortStableFunc(cs, func(a, b *Candidate) int {
		if pa, pb := phase(a), phase(b); pa != pb {
			return slices.Compare(pa[:], pb[:])
		}
		if !leads[a] {
			va, _ := prior(a)
			vb, _ := prior(b)
			if r.better(va, vb) {
				return -1
			}
			if r.better(vb, va) {
				return 1
			}
		}
		if a.cost != b.cost {
			if a.cost < b.cost {
				return -1
			}
			return 1
		}
		return a.ID - b.ID
	})
	n := 1
	for n < len(cs) && phase(cs[n]) == phase(cs[0]) {
		n++
	}
	return n
}

// tieTolerance returns how far a first-split score may be from the best
// one, v, and still count as a tie: one standard error of a proportion v
// over the split's held-out documents for accuracy and macro F1, none for
// log-loss.
func (r *runner) tieTolerance(v float64) float64 {
	if r.metric == LogLoss {
		return 0
	}
	return math.Sqrt(v * (1 - v) / float64(max(len(r.splits[0].Held), 1)))
}
