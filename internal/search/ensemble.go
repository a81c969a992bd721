package search

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file builds the ensemble of a search (Caruana et al. 2004): the
// candidates' held-out scores are kept as the jobs score them, and after
// the race a greedy forward selection with replacement picks a weighted
// average of the candidates' probabilities.

// Knobs of the ensemble selection.
const (
	// DefaultEnsembleRounds is the number of greedy rounds (Caruana et al.
	// use a fixed number; auto-sklearn's default ensemble size is 50, 25
	// keeps the weights to multiples of 1/25).
	DefaultEnsembleRounds = 25
	// ensemblePool bounds the library: the best candidates of the deciding
	// rung (auto-sklearn's ensemble_nbest plays this part).
	ensemblePool = 20
	// kindShare: at most 1/kindShare of the library is of one model kind
	// while candidates of other kinds are left (spread).
	kindShare = 4
	// refitFactor pads the expected time of refitting a member on all the
	// documents (tokenizing, then fitting k/(k-1) times a split's rows)
	// where FitEnsemble checks it against the deadline.
	refitFactor = 1.5
	// ensembleShare is the part of the whole budget that fillLibrary
	// leaves for refitting the ensemble's members.
	ensembleShare = 0.15
	// ensembleMargin is the part of the whole budget the refit of the
	// ensemble's members leaves unplanned (writing the model, and the
	// refit's estimates).
	ensembleMargin = 0.5 * reserveShare
	// probFloor clips the probabilities of the log-loss, as scikit-learn's
	// log_loss does.
	probFloor = 1e-15
)

// Ensemble says how the search's ensemble was chosen and what it holds.
type Ensemble struct {
	// Used is set when the ensemble scored better than the best single
	// candidate on the same held-out documents, and its refit fits in the
	// time left: the model written is then the ensemble.
	Used bool `json:"used"`
	// Why says why the ensemble was not used, or is "".
	Why string `json:"why,omitempty"`
	// Rounds of the greedy selection; Docs the held-out documents scored
	// (those of the deciding rung's splits); Library the candidates it
	// drew from.
	Rounds  int `json:"rounds"`
	Docs    int `json:"docs"`
	Library int `json:"library"`
	// Score is the metric of the ensemble's averaged probabilities on the
	// held-out documents, Single that of the best single candidate.
	Score  float64 `json:"score"`
	Single float64 `json:"single"`
	// Default is the metric of the best default setting on the same
	// documents (nil when it was not scored on all of them): the ensemble
	// is used only when it scores at least as well.
	Default *float64 `json:"default,omitempty"`
	// LogLoss and SingleLogLoss are the log-losses of the same
	// probabilities, the selection's objective (SelectEnsemble).
	LogLoss       float64 `json:"log_loss"`
	SingleLogLoss float64 `json:"single_log_loss"`
	// Members are the candidates chosen, by weight (the best single first
	// on ties).
	Members []Member `json:"members"`
}

// Member is one candidate of the ensemble.
type Member struct {
	Rank        int     `json:"rank"` // in the leaderboard
	Candidate   string  `json:"candidate"`
	Weight      float64 `json:"weight"`      // its share of the rounds
	Temperature float64 `json:"temperature"` // τ of its probabilities softmax(τ·score), fitted on its held-out scores (1: none)
	// Prepare and Fit are the expected seconds of its refit: preparing
	// the documents (shared by the members of equal settings) and fitting.
	// FitEnsemble pads them by refitFactor when it checks them against
	// the deadline.
	Prepare float64 `json:"prepare_seconds"`
	Fit     float64 `json:"fit_seconds"`
	cand    *Candidate
}

// heldOutScores returns m's scores of the held-out rows X, row-major: the
// raw scores, less each row's best, with the temperature a calibrated fit
// applied divided out, so that every kind's probabilities are later
// calibrated the same way.
func heldOutScores(m *model.Model, X *vectorize.Matrix) []float32 {
	C := m.NumClasses()
	out := make([]float32, X.Rows()*C)
	s := m.NewScorer()
	tau := 1.0
	if m.Params.Temperature > 0 && m.Kind != model.LogReg {
		tau = m.Params.Temperature
	}
	for i := range X.Rows() {
		sc := s.Scores(X.Row(i))
		// Less the row's best score, which changes no probability at any
		// temperature, so that float32 keeps the differences that matter
		// (complement NB's scores differ by parts per million).
		top := math.Inf(-1)
		for _, v := range sc {
			top = max(top, v)
		}
		if math.IsInf(top, 0) {
			top = 0
		}
		for c, v := range sc {
			out[i*C+c] = float32((v - top) / tau)
		}
	}
	return out
}

// buildEnsemble runs the ensemble selection and fills res.Ensemble. The
// library is the best ensemblePool candidates (all, when fewer were
// scored) on the most splits they all scored, n ≤ deciding, by their mean
// there, with the search's choice (res.Best) first: a deeper rung shares
// more documents but holds fewer, and more alike, candidates, which is what
// an ensemble needs least; the first split alone is a holdout every
// scored candidate shares, as auto-sklearn's ensemble builder has.
func (r *runner) buildEnsemble(res *Result, deciding int) {
	rounds := r.opt.EnsembleRounds
	if rounds <= 0 {
		return
	}
	e := &Ensemble{Rounds: rounds}
	res.Ensemble = e
	best := res.Best()
	lib, n := r.library(res.Leaderboard, deciding)
	lib = slices.DeleteFunc(lib, func(c *Candidate) bool { return c == best })
	lib = spread(append([]*Candidate{best}, lib...), ensemblePool)
	rank := map[*Candidate]int{}
	for _, en := range res.Leaderboard {
		rank[en.cand] = en.Rank
	}
	ranks := make([]int, len(lib))
	for i, c := range lib {
		ranks[i] = rank[c]
	}
	e.Library = len(lib)
	if len(lib) < 2 || !r.hasOOF(best, n) {
		e.Why = "fewer than two candidates scored the same held-out documents"
		return
	}
	var y []int
	for _, sp := range r.splits[:n] {
		for _, i := range sp.Held {
			y = append(y, r.y[i])
		}
	}
	e.Docs = len(y)
	C := len(r.classes)
	// The best default, when outside the library, is scored on the same
	// documents: the ensemble must beat it too.
	var defProbs []float32
	if bd := res.BestDefault(); bd != nil && !slices.Contains(lib, bd.cand) && r.hasOOF(bd.cand, n) {
		defProbs, _ = r.oofProbs(bd.cand, n, y)
	}
	r.keepOOF(lib)
	probs := make([][]float32, len(lib))
	taus := make([]float64, len(lib))
	prep := make([]float64, len(lib))
	fit := make([]float64, len(lib))
	for i, c := range lib {
		probs[i], taus[i] = r.oofProbs(c, n, y)
		prep[i], fit[i] = r.refitSeconds(c)
	}
	avail := math.Inf(1)
	if r.bounded() && r.evals == nil {
		avail = r.limit - r.m.now() - ensembleMargin*r.limit
	}
	sel := SelectEnsemble(probs, y, C, r.metric, rounds, func(i int, in []bool) bool {
		return plannedRefit(lib, prep, fit, in, i) <= avail
	})
	counts, score, single := sel.Counts, sel.Score, sel.Single
	e.Score, e.Single = score, single
	noDefault := false
	if bd := res.BestDefault(); bd != nil {
		p := defProbs
		if i := slices.Index(lib, bd.cand); i >= 0 {
			p = probs[i]
		}
		if p != nil {
			v, _ := newProbEval(y, C, r.metric).score(make([]float64, len(y)*C), p, 1)
			e.Default = &v
		} else {
			noDefault = true
		}
	}
	if counts != nil {
		e.LogLoss, e.SingleLogLoss = sel.LogLoss, sel.SingleLogLoss
	}
	r.dropOOF()
	for i, k := range counts {
		if k > 0 {
			e.Members = append(e.Members, Member{Rank: ranks[i], Candidate: lib[i].Describe(), Weight: float64(k) / float64(sum(counts)),
				Temperature: taus[i], Prepare: prep[i], Fit: fit[i], cand: lib[i]})
		}
	}
	slices.SortStableFunc(e.Members, func(a, b Member) int {
		switch {
		case a.Weight > b.Weight:
			return -1
		case a.Weight < b.Weight:
			return 1
		}
		return a.Rank - b.Rank
	})
	switch {
	case counts == nil:
		e.Why = "refitting the best candidate alone is not expected to end within the budget"
	case len(e.Members) < 2:
		e.Why = "no candidate added to the best single one improved it"
	case !r.better(score, single):
		e.Why = "the ensemble did not score better than the best single candidate"
	case noDefault:
		e.Why = "the best default was not scored on the same held-out documents"
	case e.Default != nil && r.better(*e.Default, score):
		e.Why = "the ensemble did not score as well as the best default"
	default:
		e.Used = true
	}
}

// fillLibrary spends the time a race left on the ensemble's library: the
// best ensemblePool candidates on the first split are scored on more
// splits, up to splits (the deciding rung's), one level of the race (3^r
// splits) at a time, so that the library shares more held-out documents
// and the selection overfits them less. No job starts that is expected to
// end later than the deadline less ensembleShare of the budget, the time
// kept for refitting the members.
func (r *runner) fillLibrary(splits int) error {
	if r.oof == nil {
		return nil
	}
	var pool []*Candidate
	for _, c := range r.cands {
		if r.scored(c) >= 1 && r.hasOOF(c, 1) {
			pool = append(pool, c)
		}
	}
	r.rank(pool, 1)
	pool = spread(pool, ensemblePool)
	end := r.limit
	if r.bounded() && r.evals == nil {
		end -= r.ensembleKeep()
	}
	for upto := eta; ; upto *= eta {
		upto = min(upto, splits)
		if cut, err := r.runRung(pool, upto, end, nil); cut || err != nil {
			return err
		}
		if upto == splits {
			return nil
		}
	}
}

// plannedRefit returns the expected seconds of refitting the members in
// of lib and lib[i] (prep and fit their expected times, Member's Prepare
// and Fit; members of equal settings share one preparation of the
// documents). The selection plans with what the refit is expected to
// take, unpadded: FitEnsemble, which refits the search's choice first and
// falls back to it when the next member's time padded by refitFactor
// would pass the deadline, checks the others against the clock. Planning
// with the padded times, a search on the IMDB train reviews under load
// admitted no member, refusing even the choice alone (expected 12 s and
// more, refitted in 5 to 6 s).
func plannedRefit(lib []*Candidate, prep, fit []float64, in []bool, i int) float64 {
	prepared := map[vectorize.Settings]bool{}
	total := 0.0
	for j, ok := range in {
		if ok || j == i {
			if s := lib[j].Spec.Settings; !prepared[s] {
				prepared[s] = true
				total += prep[j]
			}
			total += fit[j]
		}
	}
	return total
}

// ensembleKeep returns the seconds fillLibrary leaves before the deadline:
// ensembleShare of the budget, or, when more, what buildEnsemble needs to
// admit a member beside the search's choice (the leader) of about its
// cost, twice its planned refit (plannedRefit), beside the margin it keeps.
func (r *runner) ensembleKeep() float64 {
	budget := r.limit
	keep := ensembleShare * budget
	if r.leader != nil {
		prep, fit := r.refitSeconds(r.leader)
		keep = max(keep, ensembleMargin*budget+2*(prep+fit))
	}
	return keep
}

// spread returns the first size of the ranked candidates cs, in their
// order, taking at most size/kindShare of one model kind while others are
// left: an ensemble gains from members that err differently, and the best
// candidates of a corpus are often variants of one kind (auto-sklearn's
// libraries mix model families for the same reason). Kinds with too few
// candidates leave their places to the best of the others.
func spread(cs []*Candidate, size int) []*Candidate {
	if len(cs) <= size {
		return cs
	}
	per := map[model.Kind]int{}
	take := make([]bool, len(cs))
	n := 0
	for i, c := range cs {
		if n < size && per[c.Spec.Kind] < max(1, size/kindShare) {
			take[i] = true
			per[c.Spec.Kind]++
			n++
		}
	}
	for i := range cs {
		if n < size && !take[i] {
			take[i] = true
			n++
		}
	}
	out := make([]*Candidate, 0, size)
	for i, c := range cs {
		if take[i] {
			out = append(out, c)
		}
	}
	return out
}

// library returns the candidates of the ensemble's library, best first by
// their mean over the first n splits, and n: the most splits (at most
// deciding) whose held-out scores at least min(ensemblePool, all that
// have the first split's) candidates kept.
func (r *runner) library(board []Entry, deciding int) ([]*Candidate, int) {
	var scored []*Candidate
	for _, en := range board {
		if r.hasOOF(en.cand, 1) {
			scored = append(scored, en.cand)
		}
	}
	want := min(ensemblePool, len(scored))
	n := deciding
	var lib []*Candidate
	for ; n >= 1; n-- {
		lib = slices.DeleteFunc(slices.Clone(scored), func(c *Candidate) bool { return !r.hasOOF(c, n) })
		if len(lib) >= want {
			break
		}
	}
	n = max(n, 1)
	r.rank(lib, n)
	return lib, n
}

// hasOOF reports whether c's held-out scores of the first n splits are kept.
func (r *runner) hasOOF(c *Candidate, n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.oof == nil || r.oof[c.ID] == nil {
		return false
	}
	for _, s := range r.oof[c.ID][:n] {
		if s == nil {
			return false
		}
	}
	return true
}

// dropOOF frees the held-out scores.
func (r *runner) dropOOF() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.oof = nil
}

// keepOOF frees the held-out scores of the candidates outside lib, so that
// the library's probabilities are not made beside every scored candidate's
// scores.
func (r *runner) keepOOF(lib []*Candidate) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kept := make([][][]float32, len(r.oof))
	for _, c := range lib {
		kept[c.ID] = r.oof[c.ID]
	}
	r.oof = kept
}

// oofProbs returns c's held-out class probabilities over the first n
// splits (row-major, len(y) documents of labels y) with the temperature τ
// that minimizes their log-loss (train.FitTemperature; 1 for logistic
// regression, whose softmax is its fitted model), and τ. It frees c's
// held-out scores, which the probabilities replace.
func (r *runner) oofProbs(c *Candidate, n int, y []int) ([]float32, float64) {
	C := len(r.classes)
	r.mu.Lock()
	raw := make([]float64, 0, len(y)*C)
	for _, s := range r.oof[c.ID][:n] {
		for _, v := range s {
			raw = append(raw, float64(v))
		}
	}
	r.oof[c.ID] = nil
	r.mu.Unlock()
	tau := 1.0
	if c.Spec.Kind != model.LogReg {
		if cal := train.FitTemperature(raw, y, C, r.opt.Workers); cal.Skipped == "" {
			tau = cal.Temperature
		}
	}
	out := make([]float32, len(raw))
	lp := make([]float64, C)
	for i := range y {
		row := raw[i*C : (i+1)*C]
		for k := range row {
			row[k] *= tau
		}
		model.LogProbs(lp, row)
		for k, v := range lp {
			out[i*C+k] = float32(math.Exp(v))
		}
	}
	return out, tau
}

// refitSeconds returns the expected times of fitting c on all the
// documents: preparing them (as long as tokenizing them took in the
// search) and fitting k/(k-1) times one split's rows, as long as c's own
// longest fit on a split (fitSecondsLocked).
func (r *runner) refitSeconds(c *Candidate) (prepare, fit float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	share := 1.0
	if k := len(r.splits); k > 1 {
		share = float64(k) / float64(k-1)
	}
	tok := r.tokSecs[tokKey(c.Spec.Settings)]
	if tok == 0 {
		tok = r.tokTime[jobKey(c)]
	}
	return tok, share * r.fitSecondsLocked(c)
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// writeTable writes the ensemble for people, after the leaderboard.
func (e *Ensemble) writeTable(w io.Writer, metric string) {
	if e == nil {
		return
	}
	verdict := "chosen"
	if !e.Used {
		verdict = "not used: " + e.Why
	}
	fmt.Fprintf(w, "\nensemble (%s)\n", verdict)
	if e.Docs == 0 {
		return
	}
	fmt.Fprintf(w, "  %d rounds over the %d best candidates, on the %d held-out documents they all scored: %s %.4f, best single %.4f\n",
		e.Rounds, e.Library, e.Docs, metric, e.Score, e.Single)
	for _, m := range e.Members {
		fmt.Fprintf(w, "  weight %.2f  rank %-3d  %s  (temperature %.3g)\n", m.Weight, m.Rank, m.Candidate, m.Temperature)
	}
}
