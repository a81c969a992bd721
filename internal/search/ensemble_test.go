package search

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// noisyModels returns the probabilities of k models on n documents of C
// classes: model j is right, confidently, on the documents i with
// (i+j) % k != 0 and spreads its mass over a wrong class on the others,
// so that each is right on (k-1)/k of them, and a majority of them on all.
func noisyModels(k, n, C int, seed uint64) ([][]float32, []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	y := make([]int, n)
	for i := range y {
		y[i] = rng.IntN(C)
	}
	probs := make([][]float32, k)
	for j := range probs {
		p := make([]float32, n*C)
		for i := range n {
			right := (i+j)%k != 0
			c := y[i]
			if !right {
				c = (y[i] + 1 + rng.IntN(C-1)) % C
			}
			conf := 0.6 + 0.3*rng.Float64()
			for d := range C {
				p[i*C+d] = float32((1 - conf) / float64(C-1))
			}
			p[i*C+c] = float32(conf)
		}
		probs[j] = p
	}
	return probs, y
}

func admitAll(int, []bool) bool { return true }

func TestSelectEnsembleBeatsSingle(t *testing.T) {
	probs, y := noisyModels(3, 600, 4, 1)
	for _, metric := range []string{Accuracy, MacroF1, LogLoss} {
		sel := SelectEnsemble(probs, y, 4, metric, 25, admitAll)
		counts, score, single := sel.Counts, sel.Score, sel.Single
		if counts == nil || counts[0] == 0 {
			t.Fatalf("%s: counts %v, want the best single model in", metric, counts)
		}
		used := 0
		for _, c := range counts {
			if c > 0 {
				used++
			}
		}
		ev := &probEval{y: y, C: 4, metric: metric, tp: make([]int, 4), fp: make([]int, 4), fn: make([]int, 4)}
		for j, p := range probs {
			s, _ := ev.score(make([]float64, len(p)), p, 1)
			if ev.better(s, 0, score, 0) {
				t.Errorf("%s: model %d alone scores %v, better than the ensemble's %v", metric, j, s, score)
			}
		}
		if used < 2 || !ev.better(score, 0, single, 0) {
			t.Errorf("%s: ensemble of %d models %v scores %v, single %v: the ensemble should win on complementary models", metric, used, counts, score, single)
		}
	}
	// One good model among noise: the ensemble never scores worse than it.
	good, y := noisyModels(1, 400, 3, 2)
	rng := rand.New(rand.NewPCG(9, 9))
	noise := make([]float32, len(good[0]))
	for i := range noise {
		noise[i] = float32(rng.Float64())
	}
	sel := SelectEnsemble([][]float32{good[0], noise}, y, 3, Accuracy, 10, admitAll)
	counts, score, single := sel.Counts, sel.Score, sel.Single
	if score < single || counts[0] == 0 {
		t.Errorf("good model plus noise: counts %v score %v < single %v", counts, score, single)
	}
}

// TestSelectEnsembleByLogLoss checks that the rounds add the model that
// lowers the log-loss of the average, not one that flips a document near
// the decision at the price of the others' probabilities: on four
// documents of class 0, model 1 makes the average right on all four but
// raises its log-loss, model 2 leaves the decisions and lowers it.
func TestSelectEnsembleByLogLoss(t *testing.T) {
	y := []int{0, 0, 0, 0}
	pos := func(ps ...float32) []float32 {
		var out []float32
		for _, p := range ps {
			out = append(out, p, 1-p)
		}
		return out
	}
	probs := [][]float32{pos(0.6, 0.6, 0.6, 0.45), pos(0.41, 0.41, 0.41, 0.999), pos(0.9, 0.9, 0.9, 0.3)}
	for _, metric := range []string{Accuracy, MacroF1, LogLoss} {
		sel := SelectEnsemble(probs, y, 2, metric, 5, admitAll)
		counts, single := sel.Counts, sel.Single
		if counts == nil || counts[1] != 0 || counts[2] == 0 {
			t.Errorf("%s: counts %v, want model 2 and never model 1", metric, counts)
		}
		if metric == Accuracy && single != 0.75 {
			t.Errorf("single accuracy %v, want 0.75", single)
		}
	}
}

func TestSelectEnsembleAdmit(t *testing.T) {
	probs, y := noisyModels(3, 300, 4, 4)
	counts := SelectEnsemble(probs, y, 4, Accuracy, 25, func(i int, in []bool) bool { return i == 0 }).Counts
	if counts == nil || counts[1] != 0 || counts[2] != 0 {
		t.Errorf("admit refusing all but model 0: counts %v", counts)
	}
	none := SelectEnsemble(probs, y, 4, Accuracy, 25, func(int, []bool) bool { return false })
	if none.Counts != nil || !(none.Single > 0) || none.Score != none.Single || !(none.LogLoss > 0) || none.LogLoss != none.SingleLogLoss {
		t.Errorf("admit refusing everything: %+v, want no counts and the single scores twice (never NaN: the summary is JSON)", none)
	}
	sa, sb := SelectEnsemble(probs, y, 4, Accuracy, 25, admitAll), SelectEnsemble(probs, y, 4, Accuracy, 25, admitAll)
	a, b := sa.Counts, sb.Counts
	if sa.Score != sb.Score || sa.LogLoss != sb.LogLoss || !equalInts(a, b) {
		t.Errorf("two selections differ: %v %v, %v %v", a, sa, b, sb)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// hardSynth is synth with more shared words, so that no candidate is
// perfect and the probabilities matter.
func hardSynth() ([]string, []int, []string) {
	texts, y, classes := synth(3, 60, 21, false)
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range texts {
		if rng.IntN(4) == 0 {
			texts[i] = strings.Join(strings.Fields(texts[i])[:3], " ")
		}
	}
	return texts, y, classes
}

func TestRunEnsembleDeterministic(t *testing.T) {
	texts, y, classes := hardSynth()
	run := func(workers int) *Result {
		res, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Folds: 3, Seed: 7, Workers: workers, EnsembleRounds: 25})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(2)
	// The race scores fewer candidates on the later splits, but with no
	// deadline fillLibrary scores the best 20 (here all) on every split the
	// deciding rung had: the library is every candidate, on every
	// document.
	if a.Ensemble == nil || a.Ensemble.Library != a.Scored || a.Ensemble.Docs != len(y) {
		t.Fatalf("ensemble %+v: want a library of all %d candidates on all %d documents", a.Ensemble, a.Scored, len(y))
	}
	for _, en := range a.Leaderboard {
		if en.Folds != 3 {
			t.Errorf("leaderboard entry %d (%s) scored on %d folds, want 3 after the library was filled", en.Rank, en.cand.Describe(), en.Folds)
		}
	}
	for _, e := range []*Ensemble{a.Ensemble, b.Ensemble} {
		for i := range e.Members {
			e.Members[i].Prepare, e.Members[i].Fit = 0, 0
		}
	}
	ja, _ := json.Marshal(a.Ensemble)
	jb, _ := json.Marshal(b.Ensemble)
	if string(ja) != string(jb) {
		t.Fatalf("two searches with one seed chose different ensembles:\n%s\n%s", ja, jb)
	}
	if a.Ensemble.Used != (a.Ensemble.Score > a.Ensemble.Single) {
		t.Errorf("ensemble used = %v with score %v against single %v", a.Ensemble.Used, a.Ensemble.Score, a.Ensemble.Single)
	}
	var sb strings.Builder
	if err := a.WriteTable(&sb, 5); err != nil || !strings.Contains(sb.String(), "ensemble (") {
		t.Errorf("the table does not show the ensemble (err %v):\n%s", err, sb.String())
	}
}

// twoMembers makes res's ensemble the first two candidates of its
// leaderboard, weighted 0.6 and 0.4, as the selection would write it.
func twoMembers(res *Result) {
	e := &Ensemble{Used: true, Rounds: 5}
	for i, w := range []float64{0.6, 0.4} {
		en := res.Leaderboard[i]
		e.Members = append(e.Members, Member{Rank: en.Rank, Candidate: en.cand.Describe(), Weight: w, Temperature: 1.5, cand: en.cand})
	}
	res.Ensemble = e
}

func TestFitEnsembleFileAndPredictions(t *testing.T) {
	texts, y, classes := hardSynth()
	res, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Folds: 3, Seed: 1, EnsembleRounds: 25})
	if err != nil {
		t.Fatal(err)
	}
	twoMembers(res)
	m, err := FitEnsemble(texts, y, classes, res, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != model.Ensemble || len(m.Members) != 2 || m.Weights[0] != 0.6 {
		t.Fatalf("model %s with %d members, weights %v", m.Kind, len(m.Members), m.Weights)
	}
	back, path := saveWithSummary(t, m, res)
	es, bs := m.NewEnsembleScorer(), back.NewEnsembleScorer()
	right := 0
	for i, text := range texts {
		p, q := es.Predict(text), bs.Predict(text)
		if p.Class != q.Class || p.LogProbs[0] != q.LogProbs[0] {
			t.Fatalf("doc %d: loaded ensemble predicts %v, the fitted one %v", i, q, p)
		}
		if p.Class == y[i] {
			right++
		}
	}
	if float64(right) < 0.7*float64(len(y)) {
		t.Errorf("training accuracy of the ensemble %d/%d", right, len(y))
	}
	info, err := model.Inspect(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := info.WriteTable(&sb); err != nil || len(info.Members) != 2 || !strings.Contains(sb.String(), "members (2)") {
		t.Errorf("info of the ensemble (err %v):\n%s", err, sb.String())
	}
}

func TestFitEnsembleBudgetFallback(t *testing.T) {
	texts, y, classes := hardSynth()
	res, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Folds: 3, Seed: 1, EnsembleRounds: 25})
	if err != nil {
		t.Fatal(err)
	}
	twoMembers(res)
	res.Ensemble.Members[1].Fit = 3600                      // an hour: past any deadline below
	res.meter, res.limit = wallMeter{start: time.Now()}, 60 // a minute left
	m, err := FitEnsemble(texts, y, classes, res, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind == model.Ensemble || res.Ensemble.Used || !strings.Contains(res.Ensemble.Why, "budget") {
		t.Errorf("refit past the deadline: model %s, used %v (%q); want the best single model", m.Kind, res.Ensemble.Used, res.Ensemble.Why)
	}
	if m.Kind != res.Best().Spec.Kind {
		t.Errorf("fallback model %s, best single %s", m.Kind, res.Best().Describe())
	}
}

// TestNestedCVEnsemble runs the nested cross-validation of a search that
// builds ensembles: a fold whose search chose one evaluates the ensemble.
// The seed is one under which a fold's ensemble beats its single choice
// on accuracy, so that the test reaches FitEnsemble.
func TestNestedCVEnsemble(t *testing.T) {
	texts, y, classes := hardSynth()
	res, searches, err := NestedCV(texts, y, classes, smallSpace(), "", 3, 2, Options{Folds: 3, Seed: 5, EnsembleRounds: 25}, 0)
	if err != nil {
		t.Fatal(err)
	}
	used := 0
	for f, s := range searches {
		if s.Ensemble == nil {
			t.Fatalf("fold %d: no ensemble selection", f+1)
		}
		if s.Ensemble.Used {
			used++
		}
		if res.Folds[f].Accuracy < 0.5 {
			t.Errorf("fold %d: accuracy %.3f", f+1, res.Folds[f].Accuracy)
		}
	}
	if used == 0 {
		t.Error("no fold chose an ensemble: the test does not reach FitEnsemble (the data are seeded, no deadline)")
	}
	t.Logf("%d of 3 folds chose an ensemble; nested accuracy %.3f", used, res.Mean.Accuracy)
}

// TestHeldOutScoresPrecision checks that the kept float32 scores hold
// differences far below float32's spacing at the scores' magnitude, and
// that a calibrated model's temperature is divided out.
func TestHeldOutScoresPrecision(t *testing.T) {
	vocab, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), []string{"a"}, []int32{1}, []int64{1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.NewLinear(model.SVM, []string{"x", "y"}, vocab, model.Params{C: 1, Temperature: 2},
		[]float64{0, 2e-4}, []float64{2e4, 2e4 + 2e-3})
	if err != nil {
		t.Fatal(err)
	}
	X := &vectorize.Matrix{Indptr: []int{0, 0, 1}, Indices: []int32{0}, Values: []float32{1}, Cols: 1}
	got := heldOutScores(m, X)
	for i, want := range []float64{1e-3, 1.1e-3} { // (B_y - B_x + v·ΔW) / τ
		if d := float64(got[2*i+1] - got[2*i]); math.Abs(d-want) > 1e-9 {
			t.Errorf("row %d: kept difference %g, want %g", i, d, want)
		}
	}
}

// TestLibrarySplits checks the library's splits: the most that the 20 best
// (or all scored) candidates share.
func TestLibrarySplits(t *testing.T) {
	for _, tc := range []struct{ deep, shallow, want int }{{22, 3, 3}, {15, 10, 1}, {4, 0, 3}} {
		n := tc.deep + tc.shallow
		r := &runner{metric: Accuracy, splits: make([]Split, 3), oof: make([][][]float32, n), scores: make([][]float64, n)}
		var board []Entry
		for i := range n {
			c := &Candidate{ID: i}
			k := 3
			if i >= tc.deep {
				k = 1
			}
			r.oof[i] = make([][]float32, 3)
			r.scores[i] = []float64{math.NaN(), math.NaN(), math.NaN()}
			for s := range k {
				r.oof[i][s] = []float32{0}
				r.scores[i][s] = float64(i%7) / 10
			}
			board = append(board, Entry{cand: c})
		}
		lib, got := r.library(board, 3)
		if got != tc.want || len(lib) < min(n, ensemblePool) {
			t.Errorf("%d candidates on 3 splits, %d on 1: library of %d on %d splits, want %d splits", tc.deep, tc.shallow, len(lib), got, tc.want)
		}
		for i := 1; i < len(lib); i++ {
			if m0, m1 := r.scores[lib[i-1].ID][0], r.scores[lib[i].ID][0]; got == 1 && m0 < m1 {
				t.Errorf("library out of order: %v before %v", m0, m1)
			}
		}
	}
}

// TestSpread checks that the library takes at most a quarter of one kind
// while others are left, keeps the ranking's order, and fills its places
// from the best left out when the other kinds run short.
func TestSpread(t *testing.T) {
	var cs []*Candidate
	for i := range 30 {
		k := model.NBLR
		if i%10 == 9 { // ranks 9, 19, 29: svm
			k = model.SVM
		}
		cs = append(cs, &Candidate{ID: i, Spec: eval.ModelSpec{Kind: k}})
	}
	got := spread(cs, 20)
	if len(got) != 20 {
		t.Fatalf("library of %d, want 20", len(got))
	}
	per := map[model.Kind]int{}
	for i, c := range got {
		per[c.Spec.Kind]++
		if i > 0 && got[i-1].ID > c.ID {
			t.Errorf("out of rank order: %d before %d", got[i-1].ID, c.ID)
		}
	}
	// 3 svm, then 5 nblr by the cap and 12 more nblr to fill the places.
	if per[model.SVM] != 3 || per[model.NBLR] != 17 {
		t.Errorf("kinds %v, want every svm (3) and 17 nblr", per)
	}
	if got[0].ID != 0 || got[19].ID != 29 {
		t.Errorf("first %d, last %d: want the best first and the last svm (29) kept", got[0].ID, got[19].ID)
	}
	if short := spread(cs[:5], 20); len(short) != 5 {
		t.Errorf("spread of 5 gave %d", len(short))
	}
}

// TestRefitSecondsOwnTime checks that a candidate's expected refit, and the
// reserve kept for the leader's final fit, come from the candidate's own
// fits when it has scored a split, not from the slowest candidate of its
// kind and n-gram range, and from that one before.
func TestRefitSecondsOwnTime(t *testing.T) {
	s := vectorize.Settings{NGramMin: 1, NGramMax: 3, MinDF: 2}
	fast := &Candidate{ID: 0, Spec: eval.ModelSpec{Kind: model.NBLR, Settings: s}}
	slow := &Candidate{ID: 1, Spec: eval.ModelSpec{Kind: model.NBLR, Settings: s}}
	unseen := &Candidate{ID: 2, Spec: eval.ModelSpec{Kind: model.NBLR, Settings: s}}
	start := time.Now()
	r := &runner{
		m: wallMeter{start: start}, limit: 100, splits: make([]Split, 5),
		candFit: []float64{1, 4, 0},
		fitTime: map[[2]int]float64{jobKey(fast): 4},
		tokTime: map[[2]int]float64{jobKey(fast): 2},
		tokSecs: map[vectorize.Settings]float64{tokKey(s): 2},
	}
	for _, tc := range []struct {
		c         *Candidate
		wantFit   float64
		wantReady float64
	}{{fast, 1, 2}, {slow, 4, 2}, {unseen, 4, 2}} {
		prep, fit := r.refitSeconds(tc.c)
		if want := 1.25 * tc.wantFit; math.Abs(fit-want) > 1e-9 {
			t.Errorf("candidate %d: refit %g s, want %g", tc.c.ID, fit, want)
		}
		if want := tc.wantReady; math.Abs(prep-want) > 1e-9 {
			t.Errorf("candidate %d: preparation %g s, want %g", tc.c.ID, prep, want)
		}
	}
	r.leader = fast
	if got, want := r.reserve(), reserveShare*100+finalFitFactor*(1+2); math.Abs(got-want) > 1e-6 {
		t.Errorf("reserve for the fast leader %g s, want %g", got, want)
	}
	r.leader = slow
	if got, want := r.reserve(), reserveShare*100+finalFitFactor*(4+2); math.Abs(got-want) > 1e-6 {
		t.Errorf("reserve for the slow leader %g s, want %g", got, want)
	}
}

// TestEnsembleKeep checks the time fillLibrary leaves for the ensemble's
// refit: ensembleShare of the budget, or, when the leader's refit is long,
// room for it and a member of its cost beside the margin.
func TestEnsembleKeep(t *testing.T) {
	s := vectorize.Settings{NGramMin: 1, NGramMax: 3, MinDF: 2}
	c := &Candidate{ID: 0, Spec: eval.ModelSpec{Kind: model.NBLR, Settings: s}}
	start := time.Now()
	r := &runner{
		m: wallMeter{start: start}, limit: 60, splits: make([]Split, 5),
		candFit: []float64{0.1}, fitTime: map[[2]int]float64{}, tokTime: map[[2]int]float64{},
		tokSecs: map[vectorize.Settings]float64{tokKey(s): 0.1},
	}
	if got := r.ensembleKeep(); math.Abs(got-ensembleShare*60) > 1e-9 {
		t.Errorf("no leader: keep %g s, want %g", got, ensembleShare*60)
	}
	r.leader = c
	if got := r.ensembleKeep(); math.Abs(got-ensembleShare*60) > 1e-9 {
		t.Errorf("a quick leader: keep %g s, want %g", got, ensembleShare*60)
	}
	r.candFit[0], r.tokSecs[tokKey(s)] = 4, 3
	prep, fit := r.refitSeconds(c)
	if got, want := r.ensembleKeep(), ensembleMargin*60+2*(prep+fit); math.Abs(got-want) > 1e-9 || got <= ensembleShare*60 {
		t.Errorf("a slow leader: keep %g s, want %g (more than %g)", got, want, ensembleShare*60)
	}
}

// TestPlannedRefit checks the plan of an ensemble's refit: members of equal
// settings share one preparation.
func TestPlannedRefit(t *testing.T) {
	a := vectorize.Settings{NGramMin: 1, NGramMax: 3, MinDF: 2, Weighting: "binary"}
	b := vectorize.Settings{NGramMin: 1, NGramMax: 2, MinDF: 2, Weighting: "tfidf"}
	lib := []*Candidate{
		{ID: 0, Spec: eval.ModelSpec{Kind: model.NBLR, Settings: a}},
		{ID: 1, Spec: eval.ModelSpec{Kind: model.NBLR, Settings: a}},
		{ID: 2, Spec: eval.ModelSpec{Kind: model.SVM, Settings: b}},
	}
	prep, fit := []float64{6, 6, 3}, []float64{3, 1.5, 1.5}
	for _, tc := range []struct {
		in   []bool
		i    int
		want float64
	}{
		{[]bool{false, false, false}, 0, 9},
		{[]bool{true, false, false}, 1, 10.5},
		{[]bool{true, false, false}, 2, 13.5},
		{[]bool{true, true, false}, 2, 15},
	} {
		if got := plannedRefit(lib, prep, fit, tc.in, tc.i); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("members %v and %d: planned %g s, want %g", tc.in, tc.i, got, tc.want)
		}
	}
}

// TestSelectionLogLoss checks the log-losses the selection reports beside
// the metric: that of the weighted average of the models it picked, and
// that of the first model alone.
func TestSelectionLogLoss(t *testing.T) {
	y := []int{0, 1}
	probs := [][]float32{{0.9, 0.1, 0.7, 0.3}, {0.3, 0.7, 0.1, 0.9}}
	sel := SelectEnsemble(probs, y, 2, Accuracy, 4, admitAll)
	// Half and half gives P(y) = 0.6 on both documents, the lowest
	// log-loss of any weights.
	if !equalInts(sel.Counts, []int{1, 1}) {
		t.Fatalf("counts %v, want [1 1]", sel.Counts)
	}
	want := -math.Log(0.6)
	if math.Abs(sel.LogLoss-want) > 1e-6 {
		t.Errorf("log-loss %g, want %g", sel.LogLoss, want)
	}
	if want := -(math.Log(0.9) + math.Log(0.3)) / 2; math.Abs(sel.SingleLogLoss-want) > 1e-6 {
		t.Errorf("single log-loss %g, want %g", sel.SingleLogLoss, want)
	}
}
