package search

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// synth returns perClass documents of each of nClasses classes: class
// words ("c<k>w<j>") among shared words and noise, and, with headers, a
// mail header block whose Subject names the class. Deterministic for seed.
func synth(nClasses, perClass int, seed uint64, headers bool) (texts []string, y []int, classes []string) {
	rng := rand.New(rand.NewPCG(seed, 11))
	for c := range nClasses {
		classes = append(classes, fmt.Sprintf("class%d", c))
	}
	for i := range perClass * nClasses {
		c := i % nClasses
		var words []string
		for range 6 + rng.IntN(15) {
			switch u := rng.Float64(); {
			case u < 0.25:
				words = append(words, fmt.Sprintf("c%dw%d", c, rng.IntN(12)))
			case u < 0.40:
				words = append(words, fmt.Sprintf("c%dw%d", rng.IntN(nClasses), rng.IntN(12)))
			case u < 0.95:
				words = append(words, fmt.Sprintf("common%d", rng.IntN(30)))
			default:
				words = append(words, fmt.Sprintf("noise%d", rng.IntN(500)))
			}
		}
		text := strings.Join(words, " ")
		if headers {
			text = fmt.Sprintf("From: a@b.c\nSubject: c%dw%d again\nLines: 3\n\n%s", c, rng.IntN(3), text)
		}
		texts = append(texts, text)
		y = append(y, c)
	}
	return texts, y, classes
}

// smallSpace is a space of a few candidates of two kinds.
func smallSpace() Space {
	return Space{
		Kinds: []KindSpace{
			{Kind: model.Multinomial, Param: "alpha", Values: []float64{0.1, 1}, Cost: 1},
			{Kind: model.LogReg, Param: "C", Values: []float64{1, 10, 100}, Cost: 4},
		},
		StopWords: []string{""},
		NGramMax:  []int{1, 2},
		MinDF:     []int{1},
		Sublinear: []bool{true},
		Fields:    []string{"none"},
	}
}

func TestCandidatesSpace(t *testing.T) {
	sp := DefaultSpace(true)
	var lrValues []float64
	for _, ks := range sp.Kinds {
		if ks.Kind == model.LogReg {
			lrValues = ks.Values
		}
	}
	cands, err := sp.Candidates("")
	if err != nil {
		t.Fatal(err)
	}
	// Bernoulli has no sublinear dimension (binary weighting). The Naive
	// Bayes kinds go up to bigrams; the linear ones to trigrams, which
	// have one min_df (2): 2 + 2 + 1 n-gram × min_df settings.
	want := 2 * 2 * 2 * 2 * 4 /*bernoulli*/ * 1
	want += 2 * (2 * 2 * 2 * 2 * 2 * 4)
	want += 5 * 2 * 2 * 2 * 4                    // logreg
	want += 5 * 2 * 2 * 2 * len(train.SVMCGrid)  // svm: tf-idf
	want += 5 * 2 * 2 * 1 * len(train.NBLRCGrid) // nblr: binary features, no sublinear dimension
	// char_wb 2-4: unigram settings only (min_df × sublinear × grid),
	// with no stop word or field dimension.
	chars := 2*1*4 + 2*(2*2*4) + 2*2*4 + 2*2*len(train.SVMCGrid) + 2*1*len(train.NBLRCGrid)
	// Each kind's default setting is a candidate: in the space when it
	// holds it, else added. With mail headers (the defaults' Subject
	// field terms), the space lacks logreg's C = 300 and NB-LR's min_df
	// 3; without, it lacks every default (fields=none).
	if len(cands) != want+chars+2 {
		t.Fatalf("%d candidates, want %d", len(cands), want+chars+2)
	}
	if n, _ := DefaultSpace(false).Candidates(""); len(n) != want/2+chars+6 {
		t.Errorf("without mail headers: %d candidates, want %d (no field dimension, 6 defaults added)", len(n), want/2+chars+6)
	}
	defaults := map[model.Kind]int{}
	for _, c := range cands {
		if c.Default {
			defaults[c.Spec.Kind]++
			s, p := train.Defaults(c.Spec.Kind)
			if c.Spec.Settings != s || !reflect.DeepEqual(c.Spec.Params, p) {
				t.Errorf("default %s is not train.Defaults", c.Describe())
			}
		}
	}
	if len(defaults) != len(sp.Kinds) {
		t.Errorf("defaults %v, want one of each of the %d kinds", defaults, len(sp.Kinds))
	}
	for k, n := range defaults {
		if n != 1 {
			t.Errorf("%d defaults of %s", n, k)
		}
	}
	cands = slices.DeleteFunc(cands, func(c *Candidate) bool { return c.round < 0 })
	pilots, followers := 0, 0
	for i, c := range cands {
		if c.ID != i+2 {
			t.Fatalf("candidate %d has ID %d, want %d after the 2 added defaults", i, c.ID, i+2)
		}
		if i > 0 && (c.round < cands[i-1].round || c.round == cands[i-1].round && c.cost < cands[i-1].cost) {
			t.Fatalf("candidate %d (%s) races before the one before it: round %d cost %g after round %d cost %g",
				i, c.Describe(), c.round, c.cost, cands[i-1].round, cands[i-1].cost)
		}
		if c.Spec.Kind == model.LogReg {
			if c.lead == nil {
				pilots++
				// The default C when the grid has it, else the grid's middle.
				want := 30.0
				if _, p := train.Defaults(model.LogReg); slices.Contains(lrValues, p.C) {
					want = p.C
				}
				if c.Value != want || len(c.followers) != 3 {
					t.Errorf("logreg pilot %s: C = %g with %d followers, want C = %g and 3", c.Describe(), c.Value, len(c.followers), want)
				}
			} else {
				followers++
			}
		} else if c.Spec.Kind.IsNB() && (c.lead != nil || len(c.followers) > 0) {
			t.Errorf("Naive Bayes candidate %s has a pilot: NB races every α", c.Describe())
		}
		if c.Spec.Kind == model.Bernoulli && c.Spec.Params.Beta != c.Spec.Params.Alpha {
			t.Errorf("%s: β %g does not follow α", c.Describe(), c.Spec.Params.Beta)
		}
	}
	if pilots != 44 || followers != 132 { // 40 and 120 of words, 4 and 12 of char_wb
		t.Errorf("%d logreg pilots and %d followers, want 44 and 132", pilots, followers)
	}
	// Round 0 is every kind's defaults, unigrams then bigrams, cheapest first.
	if got := cands[0].Describe(); got != "multinomial ngram=1,1 stop=none min_df=2 tfidf-sublinear fields=subject:2 alpha=0.03" {
		t.Errorf("first candidate %q, want multinomial NB's defaults", got)
	}
	var round0 []string
	for _, c := range cands {
		if c.round == 0 && c.lead == nil && (c.Spec.Kind != model.Multinomial || c.Value == 0.3) &&
			(c.Spec.Kind != model.Complement || c.Value == 1) && (c.Spec.Kind != model.Bernoulli || c.Value == 0.01) {
			label := fmt.Sprintf("%s %d", c.Spec.Kind, c.Spec.Settings.NGramMax)
			if c.Spec.Settings.Analyzer != "" {
				label = fmt.Sprintf("%s %s", c.Spec.Kind, c.Spec.Settings.Analyzer)
			}
			round0 = append(round0, label)
		}
	}
	if got := strings.Join(round0, ", "); got != "multinomial 1, complement 1, bernoulli 1, svm 1, nblr 1, logreg 1, "+
		"multinomial 2, complement 2, multinomial char_wb, complement char_wb, bernoulli 2, bernoulli char_wb, svm 2, svm char_wb, nblr 2, nblr char_wb, logreg 2, logreg char_wb, "+
		"svm 3, nblr 3, logreg 3" {
		t.Errorf("round 0 races %s", got)
	}
	for _, c := range cands {
		if c.Spec.Settings.NGramMax >= 3 && (c.Spec.Settings.MinDF < trigramMinDF || c.Spec.Kind.IsNB()) {
			t.Errorf("%s: trigrams are searched for linear kinds with min_df ≥ %d only", c.Describe(), trigramMinDF)
		}
	}
}

// TestTokenizationFloorsAndRelease: each tokenization drops the terms
// below the lowest min_df of the candidates it serves, and a rung keeps
// only the tokenizations its jobs use.
func TestTokenizationFloorsAndRelease(t *testing.T) {
	sp := smallSpace()
	sp.NGramMax, sp.MinDF = []int{1, 3}, []int{1, 2}
	cands, err := sp.Candidates("")
	if err != nil {
		t.Fatal(err)
	}
	cands = slices.DeleteFunc(cands, func(c *Candidate) bool { return c.round < 0 }) // the kinds' defaults, outside the space
	floors := minDFFloors(cands)
	var uni, tri vectorize.Settings
	for _, c := range cands {
		if c.Spec.Settings.NGramMax == 1 {
			uni = c.Spec.Settings
		} else {
			tri = c.Spec.Settings
		}
	}
	if len(floors) != 2 || floors[tokKey(uni)] != 1 || floors[tokKey(tri)] != trigramMinDF {
		t.Fatalf("floors %v, want min_df 1 for unigrams and %d for trigrams", floors, trigramMinDF)
	}
	texts, y, classes := synth(3, 30, 1, false)
	r := &runner{texts: texts, y: y, classes: classes, floors: floors, opt: Options{Workers: 1}, toks: map[vectorize.Settings]*tokenization{}, m: wallMeter{}}
	for _, s := range []vectorize.Settings{uni, tri} {
		if _, _, err := r.tokenized(s); err != nil {
			t.Fatal(err)
		}
	}
	s := tri
	s.MinDF = 1
	tk, _, _ := r.tokenized(tri)
	if _, _, _, err := tk.Split([]int{0, 1, 2}, []int{3}, s); err == nil {
		t.Error("the trigram tokenization serves min_df 1")
	}
	var triCand *Candidate
	for _, c := range cands {
		if c.Spec.Settings.NGramMax == 3 {
			triCand = c
		}
	}
	r.keepTokenizations([]*Candidate{triCand})
	if _, ok := r.toks[tokKey(uni)]; ok || len(r.toks) != 1 {
		t.Errorf("after a rung of trigram jobs, %d tokenizations kept, the unigram one among them: %v", len(r.toks), ok)
	}
}

func TestCandidatesBadSpace(t *testing.T) {
	sp := smallSpace()
	sp.Kinds = append(sp.Kinds, KindSpace{Kind: model.Complement, Param: "gamma", Values: []float64{1}})
	if _, err := sp.Candidates(""); err == nil || !strings.Contains(err.Error(), "gamma") {
		t.Errorf("unknown parameter: err = %v", err)
	}
	sp.Kinds = []KindSpace{{Kind: model.Complement, Param: "alpha"}}
	if _, err := sp.Candidates(""); err == nil {
		t.Error("a kind without values: no error")
	}
}

func TestHasMailHeaders(t *testing.T) {
	news, _, _ := synth(2, 10, 1, true)
	plain, _, _ := synth(2, 10, 1, false)
	if !HasMailHeaders(news) {
		t.Error("posts with Subject headers: no mail headers found")
	}
	if HasMailHeaders(plain) {
		t.Error("plain texts: mail headers found")
	}
	if HasMailHeaders([]string{"Subject: only a subject line and no blank line"}) != true {
		t.Error("a text that is one Subject line: not found")
	}
	if HasMailHeaders(append(plain, news[:5]...)) {
		t.Error("a quarter with headers counted as a corpus with mail headers")
	}
}

func TestRunDeterministicAndSensible(t *testing.T) {
	texts, y, classes := synth(3, 40, 1, false)
	run := func(workers int) *Result {
		res, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Folds: 3, Seed: 7, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(2)
	ja, _ := json.Marshal(stripTimes(a))
	jb, _ := json.Marshal(stripTimes(b))
	if string(ja) != string(jb) {
		t.Fatalf("two searches with one seed differ:\n%s\n%s", ja, jb)
	}
	// 3 folds: rung 0 on fold 1, the best third on folds 2 and 3.
	if len(a.Rungs) != 2 || a.Rungs[0].Splits != 1 || a.Rungs[1].Splits != 3 || !a.Rungs[1].Deciding {
		t.Fatalf("rungs %+v, want splits 1 then 3, deciding in the last", a.Rungs)
	}
	// The pilots and NB race first: 2 NB values × 2 n-gram ranges + 2
	// logreg pilots, and the two kinds' defaults (scored before).
	if a.Rungs[0].Entrants != 8 {
		t.Errorf("rung 0 had %d entrants, want 8", a.Rungs[0].Entrants)
	}
	best := a.Leaderboard[0]
	if best.Rank != 1 || best.Folds != 3 || best.Mean < 0.8 {
		t.Errorf("best %+v: want rank 1 over 3 folds with accuracy ≥ 0.8 on separable data", best)
	}
	for i := 1; i < len(a.Leaderboard); i++ {
		p, c := a.Leaderboard[i-1], a.Leaderboard[i]
		if c.Folds > p.Folds || (c.Folds == p.Folds && c.Mean > p.Mean) {
			t.Errorf("leaderboard out of order at %d: %+v after %+v", i, c, p)
		}
	}
	if a.Best() != best.cand {
		t.Error("Best is not the leaderboard's first")
	}
}

// stripTimes returns r without its timings, which vary between runs.
func stripTimes(r *Result) Result {
	s := *r
	s.Seconds, s.Spent = 0, 0
	s.Leaderboard = append([]Entry(nil), r.Leaderboard...)
	for i := range s.Leaderboard {
		s.Leaderboard[i].Seconds = 0
	}
	return s
}

func TestRunValidationSplit(t *testing.T) {
	texts, y, classes := synth(3, 40, 2, false)
	valid := &Split{}
	for i := range texts {
		if i < 90 {
			valid.Train = append(valid.Train, i)
		} else {
			valid.Held = append(valid.Held, i)
		}
	}
	res, err := Run(texts, y, classes, smallSpace(), "", valid, Options{Metric: MacroF1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Splits != 1 || len(res.Rungs) != 1 || res.Leaderboard[0].Folds != 1 {
		t.Fatalf("validation search: %d splits, rungs %+v", res.Splits, res.Rungs)
	}
	// One split: the pilots' followers never race, so 6 candidates and
	// the two kinds' defaults.
	if res.Scored != 8 {
		t.Errorf("%d candidates scored, want 8", res.Scored)
	}
}

func TestRunLogLossLowerIsBetter(t *testing.T) {
	texts, y, classes := synth(2, 30, 3, false)
	res, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Folds: 2, Seed: 1, Metric: LogLoss})
	if err != nil {
		t.Fatal(err)
	}
	lb := res.Leaderboard
	for i := 1; i < len(lb) && lb[i].Folds == lb[0].Folds; i++ {
		if lb[i].Mean < lb[0].Mean {
			t.Errorf("log-loss %.4f ranked below %.4f", lb[i].Mean, lb[0].Mean)
		}
	}
}

func TestRunBudget(t *testing.T) {
	texts, y, classes := synth(3, 40, 1, false)
	// A budget spent before the search: the first two jobs, the
	// strongest kinds' defaults on the first split, run all the same.
	res, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Folds: 3, Budget: Budget{Amount: 10}, Spent: 11})
	if err != nil || res.Scored != 2 || !res.Leaderboard[0].Default || !res.Leaderboard[1].Default || res.Decision != 1 {
		t.Fatalf("a budget already spent: err %v, result %+v; want the two defaults scored on the first split", err, res)
	}
	if len(res.Skipped.Defaults) != 2 || res.Skipped.Unscored["multinomial"] == 0 {
		t.Errorf("a budget already spent: skipped %+v", res.Skipped)
	}
	if _, err := Run(texts, y, classes, smallSpace(), "", nil, Options{Metric: "auc"}); err == nil {
		t.Error("unknown metric: no error")
	}
}

func TestSummaryInModelFile(t *testing.T) {
	texts, y, classes := synth(3, 30, 4, true)
	sp := smallSpace()
	sp.Fields = []string{"subject:2", "none"}
	res, err := Run(texts, y, classes, sp, "", nil, Options{Folds: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, _, _, err := Fit(texts, y, classes, res.Best(), 1)
	if err != nil {
		t.Fatal(err)
	}
	back, _ := saveWithSummary(t, m, res)
	var got Result
	if err := json.Unmarshal(back.Meta.Auto, &got); err != nil {
		t.Fatalf("the model's auto field: %v", err)
	}
	if got.Metric != Accuracy || got.Leaderboard[0].Preprocessing != res.Leaderboard[0].Preprocessing || got.Candidates != res.Candidates {
		t.Errorf("auto field %+v does not record the search", got)
	}
	if back.Kind != res.Best().Spec.Kind || back.Vocab.Settings.Fields != res.Best().Spec.Settings.Fields {
		t.Errorf("model %s fields %q, chosen %s", back.Kind, back.Vocab.Settings.Fields, res.Best().Describe())
	}
}

func TestNestedCV(t *testing.T) {
	texts, y, classes := synth(3, 30, 5, false)
	res, searches, err := NestedCV(texts, y, classes, smallSpace(), "", 3, 1, Options{Folds: 2, Seed: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.K != 3 || len(res.Folds) != 3 || len(searches) != 3 {
		t.Fatalf("nested CV: %d folds, %d searches", len(res.Folds), len(searches))
	}
	for _, f := range res.Folds {
		if f.TrainDocs+f.TestDocs != len(texts) || f.Accuracy <= 0 {
			t.Errorf("fold %+v", f)
		}
	}
	if res.Mean.Accuracy < 0.7 {
		t.Errorf("nested accuracy %.3f on separable data", res.Mean.Accuracy)
	}
}

// TestOrderPilots: after the unigram defaults, the kinds that scored best
// on the first split try their longer n-grams first, whatever their cost.
func TestOrderPilots(t *testing.T) {
	sp := smallSpace() // multinomial (cost 1) and logreg (cost 4), unigrams and bigrams
	cands, err := sp.Candidates("")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cands: cands, metric: Accuracy, scores: make([][]float64, len(cands)), splits: []Split{{Held: make([]int, 1000)}}}
	for i, c := range cands {
		r.scores[i] = []float64{math.NaN()}
		if c.Spec.Settings.NGramMax == 1 {
			r.scores[i][0] = 0.5
			if c.Spec.Kind == model.LogReg {
				r.scores[i][0] = 0.9
			}
		}
	}
	var pilots []*Candidate
	for _, c := range cands {
		if c.lead == nil && c.Spec.Settings.NGramMax == 2 && !c.Default {
			pilots = append(pilots, c)
		}
	}
	if pilots[0].Spec.Kind != model.Multinomial {
		t.Fatalf("the space races %s first, want the cheaper multinomial", pilots[0].Spec.Kind)
	}
	r.orderPilots(pilots)
	if pilots[0].Spec.Kind != model.LogReg {
		t.Errorf("bigrams: %s first, want logreg, the leader on unigrams", pilots[0].Spec.Kind)
	}
	r.metric = LogLoss // lower is better: multinomial leads
	r.orderPilots(pilots)
	if pilots[0].Spec.Kind != model.Multinomial {
		t.Errorf("bigrams under log-loss: %s first, want multinomial", pilots[0].Spec.Kind)
	}
	// Within one standard error (0.0095 of 1000 documents at 0.9) the
	// kinds tie, and the cheaper races first.
	r.metric = Accuracy
	for i, c := range cands {
		if c.Spec.Kind == model.Multinomial && c.Spec.Settings.NGramMax == 1 {
			r.scores[i][0] = 0.895
		}
	}
	r.orderPilots(pilots)
	if pilots[0].Spec.Kind != model.Multinomial {
		t.Errorf("bigrams after a tie on unigrams: %s first, want the cheaper multinomial", pilots[0].Spec.Kind)
	}
}

// TestOrderPilotsTrigrams: the leading kind tries trigrams before a
// lagging kind tries bigrams, unless its bigrams scored below its unigrams.
func TestOrderPilotsTrigrams(t *testing.T) {
	sp := smallSpace()
	sp.NGramMax, sp.MinDF = []int{1, 2, 3}, []int{2}
	cands, err := sp.Candidates("")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cands: cands, metric: Accuracy, scores: make([][]float64, len(cands)), splits: []Split{{Held: make([]int, 1000)}}}
	set := func(bigram float64) []*Candidate {
		var rest []*Candidate
		for i, c := range cands {
			r.scores[i] = []float64{math.NaN()}
			switch ng, lr := c.Spec.Settings.NGramMax, c.Spec.Kind == model.LogReg; {
			case ng == 1 && lr:
				r.scores[i][0] = 0.9
			case ng == 1:
				r.scores[i][0] = 0.5
			case ng == 2 && lr:
				r.scores[i][0] = bigram
			}
			if math.IsNaN(r.scores[i][0]) && c.lead == nil {
				rest = append(rest, c)
			}
		}
		return rest
	}
	rest := set(0.92)
	n := r.orderPilots(rest)
	if c := rest[0]; n != 1 || c.Spec.Kind != model.LogReg || c.Spec.Settings.NGramMax != 3 {
		t.Errorf("bigrams gained: the first phase is %d candidates from %s, want logreg's trigrams alone", n, c.Describe())
	}
	rest = set(0.85)
	r.orderPilots(rest)
	if c := rest[0]; c.Spec.Kind != model.Multinomial || c.Spec.Settings.NGramMax != 2 {
		t.Errorf("bigrams lost: %s first, want multinomial's bigrams before logreg's trigrams", c.Describe())
	}
}

// saveWithSummary records res's summary in m, saves m and loads it back,
// returning the loaded model and its file.
func saveWithSummary(t *testing.T, m *model.Model, res *Result) (*model.Model, string) {
	t.Helper()
	var err error
	if m.Meta.Auto, err = res.Summary(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "auto.nbm")
	if err := model.Save(path, m); err != nil {
		t.Fatal(err)
	}
	back, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return back, path
}

// TestDefaultsFollowProfile: on 1200 short documents the default
// candidate of logreg is the one train fits, char_wb 2,4 (with the
// profile's note), and the fixed defaults' words without the profile;
// multinomial's balanced classes keep tf-idf.
func TestDefaultsFollowProfile(t *testing.T) {
	texts, y, classes := synth(3, 400, 1, false)
	for _, follow := range []bool{true, false} {
		var defs DefaultsFunc
		if follow {
			defs = ProfileDefaults(texts, y, len(classes))
		}
		cands, err := smallSpace().candidates("", defs)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, c := range cands {
			if !c.Default {
				continue
			}
			seen++
			s := c.Spec.Settings
			switch c.Spec.Kind {
			case model.LogReg:
				if got := s.Analyzer == "char_wb" && s.CharMin == train.ProfileCharMin && s.CharMax == train.ProfileCharMax; got != follow {
					t.Errorf("follow %v: logreg's default candidate %s", follow, c.Describe())
				}
				if (c.Spec.Params.Profile != "") != follow {
					t.Errorf("follow %v: logreg's note %q", follow, c.Spec.Params.Profile)
				}
			case model.Multinomial:
				if s.Analyzer != "" || s.Weighting != "tfidf" || c.Spec.Params.Profile != "" {
					t.Errorf("follow %v: multinomial's default candidate %s, note %q", follow, c.Describe(), c.Spec.Params.Profile)
				}
			}
		}
		if seen != 2 {
			t.Errorf("follow %v: %d default candidates, want 2", follow, seen)
		}
	}
}
