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

// ProfileDefaultsMultiLabel is ProfileDefaults for a multi-label search
// over labels labels: the choice of a one-vs-rest fit
// (train.ChooseDefaultsMultiLabel), where a kind keeps the word analyzer
// (as if --analyzer had been given) where train.MultiLabelFollowsAnalyzer
// says so, as multi-label training does; the rest of the profile applies.
func ProfileDefaultsMultiLabel(texts []string, y []int, nClasses, labels int) DefaultsFunc {
	return func(kind model.Kind) (vectorize.Settings, model.Params) {
		words := !train.MultiLabelFollowsAnalyzer(kind, labels)
		s, p := train.Defaults(kind)
		train.ChooseDefaultsMultiLabel(kind, &s, &p, texts, y, nClasses, func(name string) bool { return words && name == "analyzer" })
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
