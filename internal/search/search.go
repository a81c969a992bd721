package search

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// The metrics a search can optimise.
const (
	Accuracy = "accuracy"
	MacroF1  = "macro_f1"
	LogLoss  = "log_loss"
)

// ValidMetric reports whether m names a metric of Options.Metric.
func ValidMetric(m string) bool { return m == Accuracy || m == MacroF1 || m == LogLoss }

// eta is the halving rate: a third of each rung goes on to the next one.
const eta = 3

// Options control a search.
type Options struct {
	// Folds is k of the stratified k-fold split (0: train.DefaultFolds),
	// unused when the caller gives Valid.
	Folds int
	// Seed draws the folds and seeds the SGD of logistic regression.
	Seed uint64
	// Metric is Accuracy (""), MacroF1 or LogLoss.
	Metric string
	// Budget bounds the search and the fit of its choice (zero Amount: no
	// bound): the search keeps a reserve for the final fit, in time
	// budgets. Spent is what of it the caller spent before the search
	// (Budget.Spent: reading the corpus).
	Budget Budget
	Spent  float64
	// Workers is the number of jobs run at once (0: GOMAXPROCS); each job
	// fits on one goroutine.
	Workers int
	// Progress, when not nil, is called after each job with the jobs done
	// and the jobs of the current rung.
	Progress func(done, total int)
	// EnsembleRounds, when > 0, makes the search also build an ensemble of
	// the candidates of the deciding rung (Result.Ensemble; see
	// SelectEnsemble) of that many greedy rounds, keeping back time for
	// refitting its members.
	EnsembleRounds int
	// FixedDefaults keeps each kind's fixed defaults (train.Defaults) as
	// its default candidate; otherwise the defaults follow the corpus
	// profile of the texts searched (train.ChooseDefaults), as 'nbtext
	// train' fits them (train --follow-profile=false: FixedDefaults).
	FixedDefaults bool

	// meter, when not nil, replaces the budget's own (tests: a fake clock);
	// afterFit, when not nil, is called after each fit of a candidate on a
	// split (tests: an artificially slowed machine).
	meter    meter
	afterFit func(c *Candidate)
}

// Split is one train/held-out split of the documents, by index.
type Split struct {
	Train, Held []int
}

// Entry is one candidate's result.
type Entry struct {
	Rank          int       `json:"rank"` // 1 = chosen; candidates not scored in the final rung follow by rung
	Kind          string    `json:"kind"`
	Preprocessing string    `json:"preprocessing"`
	Param         string    `json:"param"`
	Value         float64   `json:"value"`
	Folds         int       `json:"folds"` // splits scored
	Mean          float64   `json:"mean"`
	Std           float64   `json:"std"`     // sample standard deviation over the splits
	Seconds       float64   `json:"seconds"` // fitting and scoring time, all splits
	Scores        []float64 `json:"scores"`
	Default       bool      `json:"default,omitempty"` // the kind's default setting (train --model K)
	cand          *Candidate
}

// Result is the outcome of a search.
type Result struct {
	Metric     string  `json:"metric"`
	Splits     int     `json:"splits"` // folds, or 1 for a validation set
	Seed       uint64  `json:"seed"`
	Budget     string  `json:"budget,omitempty"` // as ParseBudget reads it
	Spent      float64 `json:"spent"`            // of the budget by the search, in its unit
	Candidates int     `json:"candidates"`       // in the space
	Scored     int     `json:"scored"`           // scored on at least one split
	Brackets   int     `json:"brackets"`         // races run, each reaching further in rung 0
	Rungs      []Rung  `json:"rungs"`            // of the last race
	Seconds    float64 `json:"seconds"`          // the search, without the final fit (wall)
	// Defaults is how many of the kinds' default settings were scored on
	// the decision splits; Decision is how many splits the choice was
	// made on (those of the defaults, when any was scored).
	Defaults int `json:"defaults"`
	Decision int `json:"decision_splits"`
	// Leaderboard holds every scored candidate, best first: those scored
	// on the decision splits by their mean there, then the others by the
	// splits they scored and their mean there.
	Leaderboard []Entry `json:"leaderboard"`
	// Skipped says what the budget left out.
	Skipped Skipped `json:"skipped"`
	// Ensemble is the ensemble selection over the best candidates, when
	// Options.EnsembleRounds asked for one.
	Ensemble *Ensemble `json:"ensemble,omitempty"`

	meter meter   // the search's, for the fit of its choice
	limit float64 // what the budget allows the meter to read
}

// Skipped is what a search left out for lack of budget.
type Skipped struct {
	// Defaults lists the default settings not scored on every split
	// ("svm: 1 of 5 splits").
	Defaults []string `json:"defaults,omitempty"`
	// Unscored counts, by model kind, the candidates rung 0 never reached:
	// the pilots never scored and their followers (the values of a grid
	// raced after its pilot). A follower of a pilot that lost the race is
	// not counted: the race left it out, not the budget.
	Unscored map[string]int `json:"unscored,omitempty"`
	// Unconfirmed lists the race's leaders that could not be scored on
	// the decision splits, and so could not be chosen.
	Unconfirmed []string `json:"unconfirmed,omitempty"`
}

// Rung says how far one rung of the racing went.
type Rung struct {
	Splits    int  `json:"splits"`    // splits scored by the end of the rung
	Entrants  int  `json:"entrants"`  // candidates promoted to it
	Finished  int  `json:"finished"`  // candidates that scored all its splits
	Deciding  bool `json:"deciding"`  // the race's choice was made here
	CutByTime bool `json:"cut_short"` // the budget stopped it
}

// Best returns the chosen candidate.
func (r *Result) Best() *Candidate { return r.Leaderboard[0].cand }

// BestDefault returns the leaderboard entry of the best default setting
// scored on the decision splits, or nil when none was.
func (r *Result) BestDefault() *Entry {
	for i, e := range r.Leaderboard {
		if e.Default && e.Folds == r.Decision {
			return &r.Leaderboard[i]
		}
	}
	return nil
}

// left returns what the budget leaves for the fit of the choice, in its
// unit (+Inf without a bound, and for an Evaluations budget, which counts
// the search's fits only).
func (r *Result) left() float64 {
	if r.meter == nil || math.IsInf(r.limit, 1) {
		return math.Inf(1)
	}
	if _, ok := r.meter.(*evalMeter); ok {
		return math.Inf(1)
	}
	return r.limit - r.meter.now()
}

// floorJobs is how many jobs start whatever the budget, and are not
// abandoned: the first split of the first defaults in defaultsOrder, NB-LR
// and the SVM, which lead on every corpus measured and share one
// tokenization (so the second costs a fit). A budget too short for them
// is overrun, rather than return an unscored model or none.
const floorJobs = 2

// confirmTop is how many of the race's leaders are scored on the decision
// splits when the race decided on fewer.
const confirmTop = 3

// ProfileDefaults returns the kinds' defaults as train fits them on the
// corpus texts (labels y of nClasses classes): train.Defaults following
// the corpus profile (train.ChooseDefaults).
func ProfileDefaults(texts []string, y []int, nClasses int) DefaultsFunc {
	return func(kind model.Kind) (vectorize.Settings, model.Params) {
		s, p := train.Defaults(kind)
		train.ChooseDefaults(kind, &s, &p, texts, y, nClasses, nil)
		return s, p
	}
}

// Run searches space for the candidate with the best metric on held-out
// documents: stratified k-fold cross-validation of texts (label ids y, into
// classes), or, when valid is not empty, the split given (indices into
// texts). remove is recorded in every candidate's settings.
//
// Each kind's default setting (as 'nbtext train --model K' fits it:
// train.Defaults following the corpus profile of texts, unless
// opt.FixedDefaults) is scored first, on every split when the budget allows, and
// the choice is made on the splits the defaults were scored on: the
// candidate with the best mean there, among the defaults and the
// candidates of the race scored on them. The choice is thus never below
// the best default scored; when the budget runs out, it is that default.
func Run(texts []string, y []int, classes []string, space Space, remove string, valid *Split, opt Options) (*Result, error) {
	start := time.Now()
	if len(texts) != len(y) {
		return nil, fmt.Errorf("%d texts but %d labels", len(texts), len(y))
	}
	if len(classes) < 2 {
		return nil, fmt.Errorf("need at least two classes, got %d", len(classes))
	}
	metric := opt.Metric
	if metric == "" {
		metric = Accuracy
	}
	if !ValidMetric(metric) {
		return nil, fmt.Errorf("--metric must be accuracy, macro_f1 or log_loss, got %q", metric)
	}
	var defs DefaultsFunc
	if !opt.FixedDefaults {
		defs = ProfileDefaults(texts, y, len(classes))
	}
	cands, err := space.candidates(remove, defs)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, errors.New("search space: no candidates")
	}
	for _, c := range cands {
		if err := train.ValidateParams(c.Spec.Kind, c.Spec.Params, len(classes)); err != nil {
			return nil, fmt.Errorf("search space: %s: %w", c.Describe(), err)
		}
	}
	var splits []Split
	if valid != nil {
		splits = []Split{*valid}
	} else {
		k := opt.Folds
		if k == 0 {
			k = train.DefaultFolds
		}
		folds, err := corpus.StratifiedKFold(y, k, opt.Seed)
		if err != nil {
			return nil, err
		}
		for _, held := range folds {
			splits = append(splits, Split{Train: corpus.Complement(len(y), held), Held: held})
		}
	}
	r := &runner{
		cands: cands, texts: texts, y: y, classes: classes, splits: splits, metric: metric, opt: opt,
		scores:  make([][]float64, len(cands)),
		seconds: make([]float64, len(cands)),
		candFit: make([]float64, len(cands)),
		toks:    map[vectorize.Settings]*tokenization{},
		floors:  minDFFloors(cands),
		jobTime: map[[2]int]float64{}, fitTime: map[[2]int]float64{}, tokTime: map[[2]int]float64{},
		tokSecs: map[vectorize.Settings]float64{},
	}
	r.setBudget(start)
	if r.opt.Workers <= 0 {
		r.opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.EnsembleRounds > 0 {
		r.oof = make([][][]float32, len(cands))
	}
	for i := range cands {
		r.scores[i] = make([]float64, len(splits))
		for j := range splits {
			r.scores[i][j] = math.NaN()
		}
	}
	res := &Result{Metric: metric, Splits: len(splits), Seed: opt.Seed, Candidates: len(cands), meter: r.m, limit: r.limit}
	if opt.Budget.Amount > 0 {
		res.Budget = opt.Budget.String()
	}
	// The defaults first, so that the race is measured against them.
	var defaults []*Candidate
	for _, c := range cands {
		if c.Default {
			defaults = append(defaults, c)
		}
	}
	r.floor = min(floorJobs, len(defaults))
	nd, err := r.runDefaults(defaults)
	if err != nil {
		return nil, err
	}
	var pilots []*Candidate // the pilots and the Naive Bayes candidates race first
	for _, c := range cands {
		if c.lead == nil {
			pilots = append(pilots, c)
		}
	}
	// Brackets: a race whose rung 0 was cut short leaves time when its
	// later rungs end early; the next bracket races again with rung 0
	// reaching further (the scores already made are kept), until rung 0
	// covers every pilot or no job fits in the time left.
	deciding := -1
	var leaders []*Candidate
	for bracket := 0; ; bracket++ {
		before := r.jobs()
		rungs, d, top, err := r.race(pilots, r.m.now())
		if err != nil {
			return nil, err
		}
		// The deepest decision stands: a later race that only reached
		// further into rung 0 decides on fewer splits.
		if d >= 0 && (deciding < 0 || rungs[d].Splits >= res.Rungs[deciding].Splits) {
			res.Rungs, deciding, leaders = rungs, d, top
		}
		res.Brackets = bracket + 1
		if d < 0 || !rungs[0].CutByTime || r.jobs() == before {
			break
		}
	}
	raced := 0
	if deciding >= 0 {
		raced = res.Rungs[deciding].Splits
		res.Rungs[deciding].Deciding = true
	}
	n, err := r.decisionSplits(defaults, nd, raced, leaders)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("the budget ran out before any candidate was scored on the first fold: raise --budget")
	}
	if err := r.fillLibrary(n); err != nil {
		return nil, err
	}
	res.Decision = n
	res.Leaderboard = r.leaderboard(cands, n)
	res.Scored = len(res.Leaderboard)
	res.Skipped = r.skipped(defaults, pilots, leaders, n)
	for _, e := range res.Leaderboard {
		if e.Default && e.Folds == n {
			res.Defaults++
		}
	}
	r.buildEnsemble(res, n)
	res.Seconds = time.Since(start).Seconds()
	res.Spent = r.m.now()
	return res, nil
}

// runDefaults scores the default settings defs on the splits, a level of
// the race at a time (the first split, then up to 3^r splits, then all),
// every default on a level before any goes on, the strongest kinds first
// (defaultsOrder). It returns the splits of the deepest level every one
// finished (0 when the budget cut the first).
func (r *runner) runDefaults(defs []*Candidate) (int, error) {
	defs = slices.Clone(defs)
	slices.SortStableFunc(defs, func(a, b *Candidate) int { return defaultRank(a.Spec.Kind) - defaultRank(b.Spec.Kind) })
	done := 0
	for upto := 1; len(defs) > 0; upto = min(upto*eta, len(r.splits)) {
		cut, err := r.runRung(defs, upto, r.limit, nil)
		if err != nil || cut {
			return done, err
		}
		done = upto
		if upto == len(r.splits) {
			break
		}
	}
	return done, nil
}

// decisionSplits returns the number of splits the choice is made on: those
// every scored default was scored on (nd; 1 when the budget cut the first
// level, the defaults that scored it), extended to the race's deciding
// rung's (raced) when the budget lets the defaults catch up; without a
// scored default, raced. When the race decided on fewer splits, its
// leaders are scored on the rest, best first, while the budget lasts.
func (r *runner) decisionSplits(defaults []*Candidate, nd, raced int, leaders []*Candidate) (int, error) {
	var scored []*Candidate
	for _, c := range defaults {
		if r.scored(c) >= max(nd, 1) {
			scored = append(scored, c)
		}
	}
	if len(scored) == 0 {
		return raced, nil
	}
	n := max(nd, 1)
	if raced > n {
		if _, err := r.runRung(scored, raced, r.limit, nil); err != nil {
			return 0, err
		}
		n = raced
		for _, c := range scored {
			n = min(n, r.scored(c))
		}
	}
	if raced < n {
		var top []*Candidate
		for _, c := range leaders {
			if !c.Default && len(top) < confirmTop {
				top = append(top, c)
			}
		}
		// One leader at a time, so that the best is confirmed first.
		for _, c := range top {
			if cut, err := r.runRung([]*Candidate{c}, n, r.limit, nil); cut || err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// skipped returns what the budget left out of a search that chose on n
// splits.
func (r *runner) skipped(defaults, pilots, leaders []*Candidate, n int) Skipped {
	var s Skipped
	for _, c := range defaults {
		if k := r.scored(c); k < len(r.splits) {
			s.Defaults = append(s.Defaults, fmt.Sprintf("%s: %d of %d splits", c.Spec.Kind, k, len(r.splits)))
		}
	}
	for _, c := range pilots {
		if r.scored(c) == 0 {
			if s.Unscored == nil {
				s.Unscored = map[string]int{}
			}
			s.Unscored[c.Spec.Kind.String()] += 1 + len(c.followers)
		}
	}
	for _, c := range leaders {
		if k := r.scored(c); !c.Default && k < n && len(s.Unconfirmed) < confirmTop {
			s.Unconfirmed = append(s.Unconfirmed, fmt.Sprintf("%s: %d of %d splits", c.Describe(), k, n))
		}
	}
	return s
}

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

// runner holds the state of one search.
type runner struct {
	cands   []*Candidate
	texts   []string
	y       []int
	classes []string
	splits  []Split
	metric  string
	opt     Options
	// m reads what the search spent of its budget; limit is what the
	// budget allows it to read (+Inf: no bound); evals is m when the
	// budget counts evaluations.
	m     meter
	limit float64
	evals *evalMeter

	mu     sync.Mutex
	scores [][]float64 // [candidate][split], NaN until scored
	// oof holds, when an ensemble is built, each candidate's raw scores of
	// each split's held-out documents (heldOutScores), nil until scored.
	oof     [][][]float32
	seconds []float64
	candFit []float64 // per candidate, its longest fit and scoring on one split with the split's preparation
	// toks holds the tokenizations, built on first use and dropped when a
	// rung needs them not; floors, the lowest min_df each one serves.
	toks     map[vectorize.Settings]*tokenization
	floors   map[vectorize.Settings]int
	jobTime  map[[2]int]float64             // longest job seen per (kind, n-gram max), seconds
	fitTime  map[[2]int]float64             // longest fit of one candidate on one split, seconds
	tokTime  map[[2]int]float64             // tokenizing all documents, seconds
	tokSecs  map[vectorize.Settings]float64 // the same, per tokenization (tokKey)
	perCost  float64                        // longest job seen per unit of candidate cost
	leader   *Candidate                     // the best candidate so far, whose final fit the reserve covers
	jobsRun  int                            // jobs whose scores were kept
	admitted int                            // jobs admitted to start (admit)
	floor    int                            // the jobs that start whatever the budget (floorJobs)
	maxTok   float64                        // the longest tokenization so far, seconds
	// abandoned is set when the search stopped waiting for its jobs: the
	// jobs still running then keep no scores.
	abandoned bool
}

// better reports whether mean a beats mean b under the metric.
func (r *runner) better(a, b float64) bool {
	if r.metric == LogLoss {
		return a < b
	}
	return a > b
}

// rank sorts cs by their mean over the first n splits, best first, ties to
// the lower ID.
func (r *runner) rank(cs []*Candidate, n int) {
	mean := func(c *Candidate) float64 { m, _ := meanStd(r.scores[c.ID][:n]); return m }
	slices.SortStableFunc(cs, func(a, b *Candidate) int {
		ma, mb := mean(a), mean(b)
		switch {
		case r.better(ma, mb):
			return -1
		case r.better(mb, ma):
			return 1
		}
		return a.ID - b.ID
	})
}

// scored returns how many of the first splits c has scored.
func (r *runner) scored(c *Candidate) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := 0
	for _, s := range r.scores[c.ID] {
		if math.IsNaN(s) {
			break
		}
		k++
	}
	return k
}

// leaderboard lists every scored candidate: those scored on the decision
// splits (n) by their mean there (a tie to a default, then to the lower
// ID), then the others by the number of splits they scored and their mean.
func (r *runner) leaderboard(cands []*Candidate, n int) []Entry {
	var out []Entry
	for _, c := range cands {
		k := r.scored(c)
		if k == 0 {
			continue
		}
		if k > n {
			k = n // a cut rung's scores are not compared
		}
		m, sd := meanStd(r.scores[c.ID][:k])
		out = append(out, Entry{
			Kind: c.Spec.Kind.String(), Preprocessing: Preprocessing(c.Spec.Settings),
			Param: c.Param, Value: c.Value, Folds: k, Mean: m, Std: sd,
			Seconds: r.seconds[c.ID], Scores: slices.Clone(r.scores[c.ID][:k]), Default: c.Default, cand: c,
		})
	}
	slices.SortStableFunc(out, func(a, b Entry) int {
		if a.Folds != b.Folds {
			return b.Folds - a.Folds
		}
		switch {
		case r.better(a.Mean, b.Mean):
			return -1
		case r.better(b.Mean, a.Mean):
			return 1
		case a.Default != b.Default: // a tie goes to the default
			if a.Default {
				return -1
			}
			return 1
		}
		return a.cand.ID - b.cand.ID
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// meanStd returns the mean and the sample standard deviation (0 for one
// value) of xs.
func meanStd(xs []float64) (mean, std float64) {
	if len(xs) < 2 {
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

func pow(b, e int) int {
	p := 1
	for range e {
		p *= b
	}
	return p
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// stableSortBy sorts cs by key, ascending, keeping the order of equal keys.
func stableSortBy(cs []*Candidate, key func(*Candidate) float64) {
	slices.SortStableFunc(cs, func(a, b *Candidate) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
}
