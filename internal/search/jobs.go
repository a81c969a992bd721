package search

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file runs the jobs of a race within the budget: a job fits one
// group of candidates on one split and scores them.
// tokenization is a lazily built eval.Tokenized.
type tokenization struct {
	once    sync.Once
	tk      *eval.Tokenized
	seconds float64
	err     error
}

// reserveShare is the part of the whole budget kept back for the final fit,
// beside finalFitFactor times what the leading candidate's kind and n-gram
// range took to tokenize the documents and to fit one split (a final fit
// tokenizes the documents, then fits k/(k-1) times a split's documents,
// maybe beside an abandoned job still running). With 0.05 and 1.5, the
// budget benchmark on 20 Newsgroups ended at 1.32 times a 10 s budget on
// a loaded machine; with these, at 0.74.
const (
	reserveShare   = 0.08
	finalFitFactor = 2
	// unseenFactor pads the estimate of a job whose kind and n-gram range
	// were not timed yet (it tokenizes, and costs are rough).
	unseenFactor = 2
)

// setBudget sets the search's meter and limit from its options; the search
// started at start.
func (r *runner) setBudget(start time.Time) {
	b := r.opt.Budget
	r.limit = math.Inf(1)
	if b.Amount > 0 {
		r.limit = b.Amount - r.opt.Spent
	}
	switch {
	case r.opt.meter != nil:
		r.m = r.opt.meter
	case b.Unit == CPUTime:
		s, _ := cpuSeconds()
		r.m = cpuMeter{start: s}
	case b.Unit == Evaluations:
		r.evals = &evalMeter{splits: len(r.splits), start: start}
		r.m = r.evals
	default:
		r.m = wallMeter{start: start}
	}
}

// bounded reports whether the search has a budget.
func (r *runner) bounded() bool { return !math.IsInf(r.limit, 1) }

// rungEnd returns the meter's reading at which a rung of a bracket that
// started at start must stop starting jobs: rung 0 may use 55% of the
// budget left, rung 1 80%, and the last rung all of it; a rung that ends
// early leaves its share to the next.
func (r *runner) rungEnd(start float64, rung int, last bool) float64 {
	if !r.bounded() || last {
		return r.limit
	}
	share := 1 - math.Pow(0.45, float64(rung+1))
	return start + share*(r.limit-start)
}

// job is one group of candidates (one kind and preprocessing, several
// values) on one split.
type job struct {
	cands []*Candidate
	split int
}

// runRung scores the candidates alive on the splits [0, upto) they have
// not scored yet: a job is the candidates of one group that lack one split,
// groups in the order of their best member in alive, each group on all its
// splits before the next, until the jobs run out or the next one is not
// expected to end before end. It reports whether the deadline stopped it.
// keep lists candidates beyond alive whose tokenizations the rung keeps
// (keepTokenizations).
func (r *runner) runRung(alive []*Candidate, upto int, end float64, keep []*Candidate) (cut bool, err error) {
	var groups [][]*Candidate
	at := map[int]int{}
	for _, c := range alive {
		g, ok := at[c.group]
		if !ok {
			g = len(groups)
			at[c.group] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], c)
	}
	var jobs []job
	for _, g := range groups {
		for s := range upto {
			var need []*Candidate
			for _, c := range g {
				if math.IsNaN(r.scores[c.ID][s]) {
					need = append(need, c)
				}
			}
			if len(need) > 0 {
				jobs = append(jobs, job{cands: need, split: s})
			}
		}
	}
	for _, jb := range jobs {
		keep = append(keep, jb.cands[0])
	}
	r.keepTokenizations(keep)
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
		doneN int
	)
	for range min(r.opt.Workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= len(jobs) || first != nil || cut {
					mu.Unlock()
					return
				}
				jb := jobs[next]
				if !r.admit(jb, end) {
					cut = true
					mu.Unlock()
					return
				}
				next++
				mu.Unlock()
				err := r.runJob(jb)
				mu.Lock()
				if err != nil && first == nil && !errors.Is(err, errAbandoned) {
					first = err
				}
				doneN++
				if r.opt.Progress != nil && !cut {
					r.opt.Progress(doneN, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	if !r.bounded() || r.evals != nil {
		<-finished
	} else {
		// A job that overruns its estimate is abandoned when the reserve
		// for the final fit is reached: its goroutine runs on, but its
		// scores are dropped, and the search returns. (An Evaluations
		// budget admits no job it cannot pay for.)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-tick.C:
				// Not before a first job has kept its scores: a
				// search returns a scored candidate.
				if r.m.now() > r.limit-r.reserve() && r.jobs() >= r.floor {
					r.mu.Lock()
					r.abandoned = true
					r.mu.Unlock()
					mu.Lock()
					cut = true
					mu.Unlock()
					break wait
				}
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return cut, first
}

// errAbandoned is what a job returns when the search stopped waiting for it.
var errAbandoned = errors.New("job abandoned at the deadline")

// admit reports whether jb may start: whether it is expected to end
// before the meter reads end, and before the budget's limit less the
// reserve for the final fit. A job's expected time is the longest of its
// kind and n-gram range so far, or, before one was timed, the longest per
// unit of cost times its cost. Under an Evaluations budget, a job costs
// its fits (jobFits) over the number of splits, claimed when it is
// admitted: jobs are admitted in their fixed order, so what the budget
// admits depends on no clock.
func (r *runner) admit(jb job, end float64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.bounded() || r.admitted < r.floor {
		// The first jobs, the strongest kinds' defaults on the first
		// split (floorJobs), start whatever the budget: a search
		// returns the better of them at least.
		r.admitted++
		if r.evals != nil {
			r.evals.claim(r.jobFits(jb))
		}
		return true
	}
	if r.evals != nil {
		k := float64(len(r.splits))
		n := r.jobFits(jb)
		// In fits, to compare integers: the readings are fits over k.
		have := math.Floor(min(end, r.limit)*k + 1e-9)
		if r.evals.now()*k+float64(n) > have {
			return false
		}
		r.evals.claim(n)
		r.admitted++
		return true
	}
	c := jb.cands[0]
	expect, seen := r.jobTime[jobKey(c)]
	if !seen {
		expect = unseenFactor * r.perCost * c.cost
	}
	// Tokenizing the documents, unless a tokenization serves the job: as
	// long as it took, or, before it was timed, the longest one so far.
	if t, ok := r.toks[tokKey(c.Spec.Settings)]; !ok || t.tk == nil {
		if tok, ok := r.tokSecs[tokKey(c.Spec.Settings)]; ok {
			expect += tok
		} else {
			expect += unseenFactor * r.maxTok
		}
	}
	if r.abandoned {
		return false
	}
	reserve := r.reserveLocked()
	now := r.m.now()
	ok := now+expect < end && now+expect+reserve < r.limit
	if ok {
		r.admitted++
	}
	return ok
}

// jobFits returns the fits jb makes: one per candidate, but one for all
// the Naive Bayes candidates of a job, which share their counts (runJob).
func (r *runner) jobFits(jb job) int {
	if jb.cands[0].Spec.Kind.IsNB() && r.metric != LogLoss {
		return 1
	}
	return len(jb.cands)
}

// jobs returns the number of jobs whose scores were kept.
func (r *runner) jobs() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.jobsRun
}

// reserve returns the seconds kept back for the final fit.
func (r *runner) reserve() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reserveLocked()
}

func (r *runner) reserveLocked() float64 {
	if r.evals != nil || !r.bounded() {
		return 0 // the fit of the choice is not an evaluation
	}
	reserve := reserveShare * r.limit
	if r.leader != nil {
		reserve += finalFitFactor * (r.fitSecondsLocked(r.leader) + r.tokTime[jobKey(r.leader)])
	}
	return reserve
}

// fitSecondsLocked returns the longest time c took to fit and score on one
// split, the preparation of the split's matrices included; before c has
// scored a split, the longest of its kind and n-gram range. A kind's
// grid spans solver times several times apart (on the IMDB reviews, NB-LR
// with C = 0.01 takes 4 times as long as with C = 0.03), so c's own time
// is the estimate of its final fit, not its slowest sibling's.
func (r *runner) fitSecondsLocked(c *Candidate) float64 {
	if t := r.candFit[c.ID]; t > 0 {
		return t
	}
	return r.fitTime[jobKey(c)]
}

func jobKey(c *Candidate) [2]int { return [2]int{int(c.Spec.Kind), c.Spec.Settings.NGramMax} }

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// tokKey returns the key of the tokenization that serves settings s: what
// decides how it tokenizes.
func tokKey(s vectorize.Settings) vectorize.Settings {
	return vectorize.Settings{Lowercase: s.Lowercase, StopWords: s.StopWords, NGramMin: s.NGramMin, NGramMax: s.NGramMax, Fields: s.Fields, Remove: s.Remove, Analysis: s.Analysis}
}

// minDFFloors returns, for each tokenization the candidates need, the
// lowest min_df among the candidates it serves: the terms in fewer
// documents can be dropped from it (eval.Tokenize).
func minDFFloors(cands []*Candidate) map[vectorize.Settings]int {
	floors := map[vectorize.Settings]int{}
	for _, c := range cands {
		key := tokKey(c.Spec.Settings)
		if f, ok := floors[key]; !ok || c.Spec.Settings.MinDF < f {
			floors[key] = c.Spec.Settings.MinDF
		}
	}
	return floors
}

// keepTokenizations drops the tokenizations that none of cands uses, so
// that the memory of the search holds those a rung needs, not those of
// every setting tried: a later rung that needs one again tokenizes anew.
func (r *runner) keepTokenizations(cands []*Candidate) {
	used := map[vectorize.Settings]bool{}
	for _, c := range cands {
		used[tokKey(c.Spec.Settings)] = true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for key := range r.toks {
		if !used[key] {
			delete(r.toks, key)
		}
	}
}

// tokenized returns the documents tokenized as s says, building it on first
// use, and the seconds that took when this call built it (else 0).
func (r *runner) tokenized(s vectorize.Settings) (*eval.Tokenized, float64, error) {
	key := tokKey(s)
	r.mu.Lock()
	t, ok := r.toks[key]
	if !ok {
		t = &tokenization{}
		r.toks[key] = t
	}
	r.mu.Unlock()
	did := false
	t.once.Do(func() {
		did = true
		start := r.m.clock()
		s := s
		if f, ok := r.floors[key]; ok {
			s.MinDF = f
		}
		t.tk, t.err = eval.Tokenize(r.texts, r.y, len(r.classes), s, r.opt.Workers)
		t.seconds = r.m.clock() - start
		r.mu.Lock()
		if r.tokSecs != nil {
			r.tokSecs[key] = max(r.tokSecs[key], t.seconds)
		}
		r.mu.Unlock()
	})
	if !did {
		return t.tk, 0, t.err
	}
	return t.tk, t.seconds, t.err
}

// runJob scores the candidates of jb on its split.
func (r *runner) runJob(jb job) error {
	start := r.m.clock()
	c0 := jb.cands[0]
	tk, tokSeconds, err := r.tokenized(c0.Spec.Settings)
	if err != nil {
		return err
	}
	sp := r.splits[jb.split]
	vocab, Xtr, Xho, err := tk.Split(sp.Train, sp.Held, c0.Spec.Settings)
	if err != nil {
		return fmt.Errorf("%s: %w", c0.Describe(), err)
	}
	ytr, yho := corpus.Pick(r.y, sp.Train), corpus.Pick(r.y, sp.Held)
	shared := r.m.clock() - start - tokSeconds // a candidate's fit does not count the tokenizing
	var counted *model.Model                   // NB: the counts every α shares
	if c0.Spec.Kind.IsNB() && r.metric != LogLoss {
		if counted, err = train.FitNB(c0.Spec.Kind, Xtr, ytr, r.classes, vocab, c0.Spec.Params); err != nil {
			return fmt.Errorf("%s: %w", c0.Describe(), err)
		}
		shared = r.m.clock() - start - tokSeconds
	}
	type result struct {
		id             int
		score, seconds float64
		fit            float64 // the shared part and this candidate's own fit and scoring
		oof            []float32
	}
	var results []result
	for _, c := range jb.cands {
		t0 := r.m.clock()
		var m *model.Model
		switch {
		case counted != nil:
			m, err = model.NewNB(c.Spec.Kind, r.classes, vocab, c.Spec.Params, counted.ClassDocs, counted.Counts)
		default:
			p := c.Spec.Params
			// Calibration changes probabilities only: it is needed for
			// log-loss alone.
			m, err = train.Fit(c.Spec.Kind, Xtr, ytr, r.classes, vocab, p, train.Options{Workers: 1, NoCalibrate: r.metric != LogLoss})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.Describe(), err)
		}
		score, err := r.score(m, Xho, yho)
		if err != nil {
			return err
		}
		var oof []float32
		if r.opt.EnsembleRounds > 0 {
			oof = heldOutScores(m, Xho)
		}
		if r.opt.afterFit != nil {
			r.opt.afterFit(c)
		}
		own := r.m.clock() - t0
		results = append(results, result{c.ID, score, own + shared/float64(len(jb.cands)), shared + own, oof})
	}
	took := r.m.clock() - start - tokSeconds
	fit := took
	if !c0.Spec.Kind.IsNB() {
		fit /= float64(len(jb.cands))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.abandoned {
		return errAbandoned
	}
	for _, res := range results {
		r.scores[res.id][jb.split] = res.score
		r.seconds[res.id] += res.seconds
		r.candFit[res.id] = max(r.candFit[res.id], res.fit)
		if res.oof != nil && r.oof != nil {
			if r.oof[res.id] == nil {
				r.oof[res.id] = make([][]float32, len(r.splits))
			}
			r.oof[res.id][jb.split] = res.oof
		}
	}
	r.jobsRun++
	key := jobKey(c0)
	r.jobTime[key] = max(r.jobTime[key], took)
	r.fitTime[key] = max(r.fitTime[key], fit)
	r.tokTime[key] = max(r.tokTime[key], tokSeconds)
	r.perCost = max(r.perCost, took/c0.cost)
	r.maxTok = max(r.maxTok, tokSeconds)
	if jb.split == 0 {
		for _, c := range jb.cands {
			if r.leader == nil || r.better(r.scores[c.ID][0], r.scores[r.leader.ID][0]) {
				r.leader = c
			}
		}
	}
	return nil
}

// score returns the metric of m on the held-out rows X with labels y.
func (r *runner) score(m *model.Model, X *vectorize.Matrix, y []int) (float64, error) {
	if r.metric == Accuracy {
		return train.Accuracy(m, X, y, 1), nil
	}
	pred, lp, _ := eval.Score(m, X, 1, r.metric == LogLoss)
	rep, err := eval.Evaluate(eval.Input{Classes: r.classes, Truth: y, Pred: pred, LogProb: lp}, eval.Options{})
	if err != nil {
		return 0, err
	}
	if r.metric == LogLoss {
		return rep.LogLoss, nil
	}
	return rep.Macro.F1, nil
}
