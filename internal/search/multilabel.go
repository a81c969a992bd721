package search

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// The metrics a multi-label search can optimise (MultiLabelRequest.Metric).
const (
	MicroF1 = "micro_f1"
	PAt1    = "p_at_1"
	// MacroF1 is shared with the single-label search.
)

// ValidMultiLabelMetric reports whether m names a metric of
// MultiLabelRequest.Metric.
func ValidMultiLabelMetric(m string) bool { return m == MicroF1 || m == MacroF1 || m == PAt1 }

// MultiLabelKinds are the kinds a multi-label search tries, in the order
// their defaults are scored (the strongest on held-out GoEmotions
// comments first, docs/multi-label.md), with the grid of each kind's
// parameter: the single-label search's grid (DefaultKinds).
var MultiLabelKinds = []model.Kind{model.NBLR, model.SVM, model.LogReg, model.Centroid, model.Bernoulli, model.Multinomial, model.Complement}

// MultiLabelRequest is a multi-label search: the documents, each one's
// label ids (into Labels), and the search's options.
type MultiLabelRequest struct {
	Texts  []string
	Y      [][]int
	Labels []string
	// Kind, when not 0, narrows the search to that kind.
	Kind   model.Kind
	Remove string
	// Defaults gives each kind's default setting, as 'train --multi-label
	// --model K' fits it on these documents (ProfileDefaults; nil:
	// train.Defaults). The kinds with a C take train.MultiLabelC's.
	Defaults DefaultsFunc
	// Metric is MicroF1 (""), MacroF1 or PAt1, measured on the held-out
	// documents at the threshold a model stores (train.DefaultLabelThreshold).
	Metric string
	// Budget bounds the search and the fit of its choice; Spent is what the
	// caller spent of it before (Budget.Spent).
	Budget Budget
	Spent  float64
	Seed   uint64
	// Workers fit the labels of one candidate at once (0: GOMAXPROCS).
	Workers int
	// ValidTexts and ValidY, when given, are the held-out documents;
	// otherwise one fold of MultiLabelFolds (stratified by each
	// document's rarest label) is held out.
	ValidTexts []string
	ValidY     [][]int
	// Progress, when not nil, is called after each candidate.
	Progress func(done, total int)

	meter    meter            // tests: a fake clock
	afterFit func(c *MLEntry) // tests: a slowed machine
}

// MultiLabelFolds is the number of folds of which a multi-label search
// holds one out: one split, for a candidate is one binary fit per label.
const MultiLabelFolds = 5

// MLEntry is one candidate of a multi-label search and its result.
type MLEntry struct {
	Rank          int     `json:"rank"` // 1 = chosen; 0 = not scored
	Kind          string  `json:"kind"`
	Preprocessing string  `json:"preprocessing"`
	Param         string  `json:"param,omitempty"`
	Value         float64 `json:"value,omitempty"`
	Default       bool    `json:"default,omitempty"`
	Scored        bool    `json:"scored"`
	Score         float64 `json:"score"`
	MicroF1       float64 `json:"micro_f1"`
	MacroF1       float64 `json:"macro_f1"`
	PAt1          float64 `json:"p_at_1"`
	Seconds       float64 `json:"seconds"`

	spec eval.ModelSpec
}

// metric returns the entry's score by the metric m (ValidMultiLabelMetric).
func (e *MLEntry) metric(m string) float64 {
	switch m {
	case MacroF1:
		return e.MacroF1
	case PAt1:
		return e.PAt1
	}
	return e.MicroF1
}

// Describe is the entry's kind, preprocessing and parameter in one line.
func (e *MLEntry) Describe() string {
	s := fmt.Sprintf("%s %s", e.Kind, e.Preprocessing)
	if e.Param != "" {
		s += fmt.Sprintf(" %s=%g", e.Param, e.Value)
	}
	return s
}

// MultiLabelResult is what a multi-label search did: every candidate,
// the scored first (best first), then those the budget skipped.
type MultiLabelResult struct {
	Metric      string    `json:"metric"`
	Budget      string    `json:"budget"`
	Train       int       `json:"train_documents"`
	Held        int       `json:"held_documents"`
	Candidates  int       `json:"candidates"`
	Scored      int       `json:"scored"`
	Leaderboard []MLEntry `json:"leaderboard"`
}

// Best is the chosen candidate.
func (r *MultiLabelResult) Best() *MLEntry { return &r.Leaderboard[0] }

// MultiLabelTrained is the model a multi-label search chose, fitted on
// every document, with its training rows.
type MultiLabelTrained struct {
	Model  *model.Model
	X      *vectorize.Matrix
	Params model.Params
	Result *MultiLabelResult
}

// TrainMultiLabel searches one-vs-rest multi-label models (train.FitMultiLabel)
// of every kind of MultiLabelKinds: each kind's default setting first
// (req.Defaults with train.MultiLabelC, as 'train --multi-label --model
// K' fits it), then the other values of the kind's grid, all scored by
// Metric on the same
// held-out documents; it stops admitting candidates when the budget
// would not cover one more and the final fit, but always scores the first
// default. The choice is the best score (ties: the earlier candidate), so
// it is never below the best default scored. The chosen candidate is
// refitted on every document (and ValidTexts are not used for it).
func TrainMultiLabel(req MultiLabelRequest) (*MultiLabelTrained, error) {
	if req.Metric == "" {
		req.Metric = MicroF1
	}
	if !ValidMultiLabelMetric(req.Metric) {
		return nil, fmt.Errorf("--metric for a multi-label search must be micro_f1, macro_f1 or p_at_1, got %q", req.Metric)
	}
	if len(req.Texts) != len(req.Y) || len(req.Labels) < 2 {
		return nil, fmt.Errorf("a multi-label search needs label sets for the documents and at least two labels")
	}
	cands, err := multiLabelCandidates(req.Kind, req.Remove, req.Defaults)
	if err != nil {
		return nil, err
	}
	trTexts, trY, heldTexts, heldY, err := mlSplit(req)
	if err != nil {
		return nil, err
	}
	m := req.meter
	if m == nil {
		switch req.Budget.Unit {
		case CPUTime:
			s, _ := cpuSeconds()
			m = cpuMeter{start: s}
		default:
			m = wallMeter{start: time.Now()}
		}
	}
	limit := math.Inf(1)
	if req.Budget.Amount > 0 {
		limit = req.Budget.Amount - req.Spent
	}
	type prepared struct {
		vocab     *vectorize.Vocabulary
		Xtr, Xval *vectorize.Matrix
		seconds   float64
	}
	preps := map[vectorize.Settings]*prepared{}
	// uses counts the candidates still to come of each tokenization, so
	// that one is dropped after its last (the search holds at most the
	// tokenizations its remaining candidates share, not all it made).
	uses := map[vectorize.Settings]int{}
	for _, c := range cands {
		uses[c.spec.Settings]++
	}
	cost := map[model.Kind]float64{} // seconds of the kind's last fit and scoring
	trFirst := firstLabels(trY, len(req.Labels))
	res := &MultiLabelResult{Metric: req.Metric, Budget: req.Budget.String(), Train: len(trTexts), Held: len(heldTexts), Candidates: len(cands)}
	bestRefit := 0.0 // estimated seconds to refit the best so far on every document
	var best *MLEntry
	for i, c := range cands {
		for s, n := range uses {
			if n == 0 {
				delete(preps, s)
				delete(uses, s)
			}
		}
		uses[c.spec.Settings]--
		if i > 0 {
			est, known := cost[c.spec.Kind]
			if !known { // the slowest kind so far, as a guess
				for _, v := range cost {
					est = max(est, v)
				}
			}
			refit := max(bestRefit, mlRefitFactor*est)
			switch {
			case req.Budget.Unit == Evaluations && req.Budget.Amount > 0:
				if float64(res.Scored) >= req.Budget.Amount {
					continue
				}
			case m.now()+est+refit > limit:
				continue
			}
		}
		start := m.clock()
		p := preps[c.spec.Settings]
		if p == nil {
			vocab, Xtr, err := train.Prepare(trTexts, trFirst, len(req.Labels)+1, c.spec.Settings, req.Workers, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.Describe(), err)
			}
			p = &prepared{vocab: vocab, Xtr: Xtr, Xval: train.PrepareWith(vocab, heldTexts, req.Workers)}
			preps[c.spec.Settings] = p
		}
		fit, err := train.FitMultiLabel(c.spec.Kind, p.Xtr, trY, req.Labels, p.vocab, c.spec.Params, train.Options{Workers: req.Workers})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Describe(), err)
		}
		th := slices.Repeat([]float64{train.DefaultLabelThreshold}, len(req.Labels))
		pred, probs := eval.PredictLabels(fit, p.Xval, th, 0, req.Workers)
		rep, err := eval.EvaluateMultiLabel(req.Labels, heldY, pred, probs, 1, nil)
		if err != nil {
			return nil, err
		}
		c.MicroF1, c.MacroF1, c.PAt1 = rep.MicroF1, rep.MacroF1, rep.PrecisionAtK
		c.Score = c.metric(req.Metric)
		if req.afterFit != nil {
			req.afterFit(c)
		}
		c.Seconds = m.clock() - start
		c.Scored = true
		res.Scored++
		cost[c.spec.Kind] = c.Seconds
		if best == nil || c.Score > best.Score {
			best = c
			bestRefit = mlRefitFactor * c.Seconds
		}
		if req.Progress != nil {
			req.Progress(i+1, len(cands))
		}
	}
	for _, c := range cands {
		res.Leaderboard = append(res.Leaderboard, *c)
	}
	// Scored first, best first (a stable sort keeps the candidates' order
	// among ties, so the earlier wins), then the skipped in their order.
	slices.SortStableFunc(res.Leaderboard, func(a, b MLEntry) int {
		if a.Scored != b.Scored {
			if a.Scored {
				return -1
			}
			return 1
		}
		if !a.Scored {
			return 0
		}
		return cmp.Compare(b.Score, a.Score)
	})
	for i := range res.Leaderboard {
		if res.Leaderboard[i].Scored {
			res.Leaderboard[i].Rank = i + 1
		}
	}
	clear(preps) // the search's tokenizations, before the final one
	chosen := res.Leaderboard[0].spec
	Y := req.Y
	vocab, X, err := train.Prepare(req.Texts, firstLabels(Y, len(req.Labels)), len(req.Labels)+1, chosen.Settings, req.Workers, nil)
	if err != nil {
		return nil, err
	}
	fitted, err := train.FitMultiLabel(chosen.Kind, X, Y, req.Labels, vocab, chosen.Params, train.Options{Workers: req.Workers})
	if err != nil {
		return nil, err
	}
	fitted.Params.LabelThresholds = slices.Repeat([]float64{train.DefaultLabelThreshold}, len(req.Labels))
	return &MultiLabelTrained{Model: fitted, X: X, Params: chosen.Params, Result: res}, nil
}

// mlRefitFactor is the time of the final fit on every document against a fit
// on the search's training part (four fifths of them), with room for the
// vectorizing.
const mlRefitFactor = 1.5

// multiLabelCandidates lists the candidates: each kind's default, then
// the other values of its grid (in MultiLabelKinds order; only kind when
// not 0).
func multiLabelCandidates(kind model.Kind, remove string, defaults DefaultsFunc) ([]*MLEntry, error) {
	if defaults == nil {
		defaults = train.Defaults
	}
	kinds := MultiLabelKinds
	if kind != 0 {
		if !slices.Contains(kinds, kind) {
			return nil, fmt.Errorf("--auto --multi-label --model %s: a multi-label search covers %s", kind, kindList(kinds))
		}
		kinds = []model.Kind{kind}
	}
	var defs, rest []*MLEntry
	for _, k := range kinds {
		s, p := defaults(k)
		if c, ok := train.MultiLabelC(k); ok {
			p.C = c
		}
		s.Remove = remove
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("search space: %s defaults: %w", k, err)
		}
		param, def := "", 0.0
		var grid []float64
		for _, ks := range DefaultKinds {
			if ks.Kind == k {
				param, grid = ks.Param, ks.Values
			}
		}
		switch param {
		case "alpha":
			def = p.Alpha
		case "C":
			def = p.C
		}
		mk := func(v float64, isDef bool) *MLEntry {
			q := p
			if param != "" {
				q = withValue(k, param, p, v)
			}
			return &MLEntry{Kind: k.String(), Preprocessing: Preprocessing(s), Param: param, Value: v, Default: isDef,
				spec: eval.ModelSpec{Kind: k, Settings: s, Params: q}}
		}
		defs = append(defs, mk(def, true))
		for _, v := range grid {
			if v != def {
				rest = append(rest, mk(v, false))
			}
		}
	}
	return append(defs, rest...), nil
}

func kindList(ks []model.Kind) string {
	var s []string
	for _, k := range ks {
		s = append(s, k.String())
	}
	return strings.Join(s, ", ")
}

// mlSplit returns the training and held-out documents: ValidTexts when
// given, else one of MultiLabelFolds folds stratified by each document's
// rarest label.
func mlSplit(req MultiLabelRequest) (trT []string, trY [][]int, heldT []string, heldY [][]int, err error) {
	if req.ValidTexts != nil {
		return req.Texts, req.Y, req.ValidTexts, req.ValidY, nil
	}
	n, L := len(req.Y), len(req.Labels)
	count := make([]int, L)
	for _, ls := range req.Y {
		for _, l := range ls {
			count[l]++
		}
	}
	strata := make([]int, n)
	for i, ls := range req.Y {
		strata[i] = L
		for _, l := range ls {
			if strata[i] == L || count[l] < count[strata[i]] {
				strata[i] = l
			}
		}
	}
	folds, err := corpus.StratifiedKFold(strata, MultiLabelFolds, req.Seed)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("multi-label search: %w", err)
	}
	held := folds[0]
	rest := corpus.Complement(n, held)
	return corpus.Pick(req.Texts, rest), corpus.Pick(req.Y, rest), corpus.Pick(req.Texts, held), corpus.Pick(req.Y, held), nil
}

// firstLabels returns each document's lowest label id, or none (L) for a
// document without labels: the class ids the vectorizer's supervised
// settings see.
func firstLabels(Y [][]int, L int) []int {
	y := make([]int, len(Y))
	for i, ls := range Y {
		y[i] = L
		if len(ls) > 0 {
			y[i] = slices.Min(ls)
		}
	}
	return y
}

// WriteTable writes the leaderboard: top scored rows, then a line for the
// candidates the budget skipped.
func (r *MultiLabelResult) WriteTable(w io.Writer, top int) error {
	fmt.Fprintf(w, "multi-label search: %d of %d candidates scored on %d held-out documents (budget %s), by %s\n", r.Scored, r.Candidates, r.Held, r.Budget, r.Metric)
	fmt.Fprintf(w, "%4s  %-44s %8s %8s %8s %8s\n", "rank", "candidate", "micro_f1", "macro_f1", "p_at_1", "seconds")
	var skipped []string // by kind: "nblr: C=0.003, 0.03"
	byKind := map[string][]string{}
	for i, e := range r.Leaderboard {
		if !e.Scored {
			v := "default"
			if !e.Default && e.Param != "" {
				v = fmt.Sprintf("%s=%g", e.Param, e.Value)
			}
			if byKind[e.Kind] == nil {
				skipped = append(skipped, e.Kind)
			}
			byKind[e.Kind] = append(byKind[e.Kind], v)
			continue
		}
		if i >= top {
			continue
		}
		d := e.Describe()
		if e.Default {
			d += " (default)"
		}
		fmt.Fprintf(w, "%4d  %-44s %8.4f %8.4f %8.4f %8.1f\n", e.Rank, d, e.MicroF1, e.MacroF1, e.PAt1, e.Seconds)
	}
	if n := r.Candidates - r.Scored; n > 0 {
		for i, k := range skipped {
			skipped[i] = k + " " + strings.Join(byKind[k], ", ")
		}
		fmt.Fprintf(w, "skipped for lack of budget (%d): %s\n", n, strings.Join(skipped, "; "))
	}
	return nil
}

// WriteJSON writes the result as one JSON object.
func (r *MultiLabelResult) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
