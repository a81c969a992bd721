package model

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestLogSumExpAndLogProbs(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		scores []float64
		want   []float64 // probabilities
		ok     bool
	}{
		{[]float64{0, 0}, []float64{0.5, 0.5}, true},
		{[]float64{1000, 1000 + math.Log(3)}, []float64{0.25, 0.75}, true},        // no overflow
		{[]float64{-1000, -1000 - math.Log(3)}, []float64{0.75, 0.25}, true},      // no underflow
		{[]float64{-inf, 2, -inf}, []float64{0, 1, 0}, true},                      // impossible classes
		{[]float64{-inf, -inf, -inf, -inf}, []float64{.25, .25, .25, .25}, false}, // nothing possible
		{[]float64{inf, 3, inf}, []float64{0.5, 0, 0.5}, true},                    // certain classes share
		{[]float64{math.NaN(), 0}, []float64{0, 1}, true},                         // NaN counts as -Inf
	} {
		dst := make([]float64, len(tc.scores))
		ok := LogProbs(dst, tc.scores)
		if ok != tc.ok || hasNaN(dst) {
			t.Errorf("LogProbs(%v) = %v, %v", tc.scores, dst, ok)
		}
		for c := range dst {
			if !near(math.Exp(dst[c]), tc.want[c], 1e-12) {
				t.Errorf("LogProbs(%v): P = %v, want %v", tc.scores, math.Exp(dst[c]), tc.want[c])
			}
		}
	}
	if got := LogSumExp(nil); !math.IsInf(got, -1) {
		t.Errorf("LogSumExp(nil) = %v", got)
	}
	// In place.
	x := []float64{1, 2, 3}
	LogProbs(x, x)
	if !near(math.Exp(x[0])+math.Exp(x[1])+math.Exp(x[2]), 1, 1e-12) {
		t.Errorf("in place: %v", x)
	}
}

func TestDecide(t *testing.T) {
	lp := []float64{math.Log(0.5), math.Log(0.3), math.Log(0.2)}
	if got := Decide(lp, nil); got != 0 {
		t.Errorf("MAP: %d", got)
	}
	// Missing class 2 costs 3: 3·0.2 = 0.6 > 0.5.
	if got := Decide(lp, []float64{1, 1, 3}); got != 2 {
		t.Errorf("costs: %d", got)
	}
	if got := Decide(lp, []float64{0.2, 0.5, 0.5}); got != 1 {
		t.Errorf("costs: %d", got)
	}
	if got := Decide([]float64{-2, -1, -1}, []float64{1, 4, 4}); got != 1 {
		t.Errorf("tie: %d", got)
	}
	if got := Decide([]float64{math.Log(0.5), math.Log(0.5)}, nil); got != 0 {
		t.Errorf("tie: %d", got)
	}
	inf := math.Inf(-1)
	if got := Decide([]float64{inf, inf, 0}, []float64{5, 5, 1}); got != 2 {
		t.Errorf("impossible classes: %d", got)
	}
}

func TestTopK(t *testing.T) {
	lp := []float64{-2, -1, -2, math.Inf(-1), -1}
	if got := TopK(lp, 4); !reflect.DeepEqual(got, []int{1, 4, 0, 2}) {
		t.Errorf("TopK = %v", got)
	}
	if got := TopK(lp, 99); len(got) != 5 || got[4] != 3 {
		t.Errorf("TopK clamp = %v", got)
	}
	if got := TopK(lp, -1); len(got) != 0 {
		t.Errorf("TopK(-1) = %v", got)
	}
}

func TestParseCosts(t *testing.T) {
	classes := []string{"sci.crypt", "comp.graphics", "misc"}
	got, err := ParseCosts("sci.crypt=5, misc = 0.5", classes)
	if err != nil || !reflect.DeepEqual(got, []float64{5, 1, 0.5}) {
		t.Fatalf("ParseCosts = %v, %v", got, err)
	}
	if got, err := ParseCosts("", classes); got != nil || err != nil {
		t.Fatalf("empty: %v, %v", got, err)
	}
	for in, want := range map[string]string{
		"nope=1":                    `--costs: unknown class "nope"`,
		"misc":                      `--costs: "misc" is not label=weight`,
		"misc=x":                    `--costs: weight of "misc": invalid number "x"`,
		"misc=0":                    `--costs: weight of "misc" must be a finite number > 0, got 0`,
		"misc=-1":                   "must be a finite number > 0, got -1",
		"misc=Inf":                  "must be a finite number > 0, got +Inf",
		"misc=NaN":                  "must be a finite number > 0, got NaN",
		"misc=1,sci.crypt=2,misc=3": `--costs: class "misc" given twice`,
	} {
		if _, err := ParseCosts(in, classes); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCosts(%q): %v, want %q", in, err, want)
		}
	}
}

// TestScoreNoAlloc checks that the hot path and the exact path allocate
// nothing per document.
func TestScoreNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const V, C = 200, 5
	vocab := nTerms(t, V)
	docs, labels := randCorpus(rng, 100, V, C, 10)
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		for _, alpha := range []float64{1, 0} {
			cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
			m := mustNB(t, kind, classNames(C), vocab, Params{Alpha: alpha, Beta: alpha}, cd, cn)
			if (alpha == 0) != m.d.exact {
				t.Fatalf("%s α=%v: exact path = %v", kind, alpha, m.d.exact)
			}
			s := m.NewScorer()
			d := randDoc(rng, V, 20)
			if n := testing.AllocsPerRun(100, func() { s.Predict(d.ind, d.val) }); n != 0 {
				t.Errorf("%s α=%v: %v allocations per document", kind, alpha, n)
			}
		}
	}
}

func TestOutOfRangeTermsSkipped(t *testing.T) {
	vocab := testVocab(t, "x", "y")
	m := mustNB(t, Multinomial, []string{"a", "b"}, vocab, Params{Alpha: 1}, []float64{1, 1}, []float64{1, 0, 0, 1})
	s := m.NewScorer()
	want := append([]float64(nil), s.Scores([]int32{1}, []float32{1})...)
	got := s.Scores([]int32{-1, 1, 2, 1 << 30}, []float32{1, 1, 1, 1})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scores %v, want %v", got, want)
	}
}

func TestExplain(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const V, C = 50, 4
	vocab := nTerms(t, V)
	docs, labels := randCorpus(rng, 80, V, C, 8)
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
		m := mustNB(t, kind, classNames(C), vocab, Params{Alpha: 0.5, Beta: 0.5}, cd, cn)
		s := m.NewScorer()
		for i := 0; i < 10; i++ {
			d := randDoc(rng, V, 12)
			sc := append([]float64(nil), s.Scores(d.ind, d.val)...)
			class := s.Predict(d.ind, d.val).Class
			ex := s.Explain(d.ind, d.val, class, len(d.ind))
			if len(ex) != len(d.ind) {
				t.Fatalf("%d contributions for %d terms", len(ex), len(d.ind))
			}
			o := ex[0].Against
			if o == class || o < 0 {
				t.Fatalf("against %d", o)
			}
			for c := range sc {
				if c != class && sc[c] > sc[o] {
					t.Fatalf("against %d, but class %d scores higher", o, c)
				}
			}
			// The contributions and the biases add up to the log-odds.
			sum := m.B[class] - m.B[o]
			for j, e := range ex {
				sum += e.Value
				if e.Term != vocab.Terms[e.TermID] {
					t.Fatalf("term %q for id %d", e.Term, e.TermID)
				}
				if j > 0 && math.Abs(e.Value) > math.Abs(ex[j-1].Value) {
					t.Fatalf("not sorted: %v", ex)
				}
			}
			if !near(sum, sc[class]-sc[o], 1e-9) {
				t.Fatalf("%s: contributions sum to %v, log-odds %v", kind, sum, sc[class]-sc[o])
			}
			if top := s.Explain(d.ind, d.val, class, 3); !reflect.DeepEqual(top, ex[:min(3, len(ex))]) {
				t.Fatalf("top 3 %v, want %v", top, ex[:3])
			}
		}
	}
}

func TestExplainByHand(t *testing.T) {
	vocab := testVocab(t, "x", "y", "z")
	// W rows: x (2, 0), y (-1, 1), z (0.5, -0.5); the document x=1, y=1, z=2.
	m, err := NewLinear(LogReg, []string{"a", "b"}, vocab, Params{}, []float64{2, 0, -1, 1, 0.5, -0.5}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	got := m.Explain([]int32{0, 1, 2}, []float32{1, 1, 2}, 0, 5)
	want := []Contribution{
		{Term: "x", TermID: 0, Value: 2, Against: 1},
		{Term: "y", TermID: 1, Value: -2, Against: 1}, // |Value| ties: lower id first
		{Term: "z", TermID: 2, Value: 2, Against: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Explain = %+v, want %+v", got, want)
	}
	if got := m.Explain([]int32{0}, []float32{1}, 5, 5); got != nil {
		t.Fatalf("bad class: %v", got)
	}
}

// TestExplainInfinite checks explanations with α = 0: a term that rules
// out the rival is +Inf, one that rules out the class -Inf, never NaN.
func TestExplainInfinite(t *testing.T) {
	vocab := testVocab(t, "x", "y", "z")
	// Multinomial counts: x only in a, y only in b, z in both.
	m := mustNB(t, Multinomial, []string{"a", "b"}, vocab, Params{}, []float64{1, 1}, []float64{1, 0, 0, 1, 1, 1})
	got := m.Explain([]int32{0, 1, 2}, []float32{1, 1, 1}, 0, 3)
	if got[0].Term != "x" || !math.IsInf(got[0].Value, 1) || got[1].Term != "y" || !math.IsInf(got[1].Value, -1) || got[2].Value != 0 {
		t.Fatalf("Explain = %+v", got)
	}
}

// TestTemperatureKeepsDecisions is issue 12 item 13: a tiny temperature
// rounded every probability of a Bernoulli model to 1/C, and the decision,
// taken from the probabilities, became class 0 for every document. The
// decision comes from the scores, whose order a positive factor keeps.
func TestTemperatureKeepsDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	const V, C = 40, 4
	docs, labels := randCorpus(rng, 200, V, C, 8)
	classDocs, counts := countNB(docs, labels, V, C, true)
	vocab := nTerms(t, V)
	p := Params{Alpha: 0.5, Beta: 0.5, Prior: "learned"}
	ref := mustNB(t, Bernoulli, classNames(C), vocab, p, classDocs, counts)
	p.Temperature = 1e-30
	cold := mustNB(t, Bernoulli, classNames(C), vocab, p, classDocs, counts)
	rs, cs := ref.NewScorer(), cold.NewScorer()
	differ := 0
	for _, d := range docs {
		want := rs.Predict(d.ind, d.val).Class
		pr := cs.Predict(d.ind, d.val)
		if pr.Class != want {
			differ++
		}
		if !near(pr.LogProbs[0], -math.Log(C), 1e-12) {
			t.Fatalf("log P = %v at τ = 1e-30, want about log(1/C)", pr.LogProbs[0])
		}
	}
	if differ > 0 {
		t.Errorf("τ = 1e-30 changed %d of %d decisions", differ, len(docs))
	}
}

// TestScoresMatchTermLoop: Scores (kernel.AddScores on the common path)
// gives the same bits as B[c] plus the weights times the values added
// term by term, for binary and valued models with and without a
// remainder of classes beyond the kernels' blocks.
func TestScoresMatchTermLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const V = 300
	vocab := nTerms(t, V)
	for _, C := range []int{2, 5, 12, 20} {
		docs, labels := randCorpus(rng, 200, V, C, 15)
		for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
			cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
			m := mustNB(t, kind, classNames(C), vocab, Params{Alpha: 0.1, Beta: 0.1}, cd, cn)
			s := m.NewScorer()
			for range 20 {
				d := randDoc(rng, V, 40)
				for j := range d.val {
					d.val[j] = rng.Float32() * 3
				}
				want := slices.Clone(m.B)
				for j, tm := range d.ind {
					v := float64(d.val[j])
					if m.Binary {
						v = 1
					}
					for c := range want {
						want[c] += v * m.W[int(tm)*C+c]
					}
				}
				got := s.Scores(d.ind, d.val)
				for c := range want {
					if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
						t.Fatalf("%s C=%d: score %d = %v, the term loop %v", kind, C, c, got[c], want[c])
					}
				}
			}
		}
	}
}

// TestNewLinearScorer checks that NewLinearScorer scores as the Scorer of
// NewLinear's model of the same weights, bit for bit, for the SVM, NB-LR
// (presence) and logistic regression, with terms outside the vocabulary
// skipped, and predicts and explains as it does.
func TestNewLinearScorer(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const V, C = 40, 3
	W, B := make([]float64, V*C), make([]float64, C)
	for i := range W {
		W[i] = rng.NormFloat64()
	}
	for c := range B {
		B[c] = rng.NormFloat64()
	}
	for _, kind := range []Kind{SVM, NBLR, LogReg} {
		m, err := NewLinear(kind, classNames(C), nTerms(t, V), Params{Alpha: 1, C: 1}, W, B)
		if err != nil {
			t.Fatal(err)
		}
		want, got := m.NewScorer(), NewLinearScorer(kind, W, B)
		for i := range 50 {
			d := randDoc(rng, V+5, 8) // ids up to V+4: some outside
			if w, g := want.Scores(d.ind, d.val), got.Scores(d.ind, d.val); !slices.Equal(w, g) {
				t.Fatalf("%s, document %d: scores %v, NewLinear's scorer %v", kind, i, g, w)
			}
			wp, gp := want.Predict(d.ind, d.val), got.Predict(d.ind, d.val)
			if wp.Class != gp.Class || !slices.Equal(wp.LogProbs, gp.LogProbs) {
				t.Fatalf("%s, document %d: prediction %+v, NewLinear's scorer %+v", kind, i, gp, wp)
			}
		}
	}
}

// TestTopKSelectIsTheSort checks TopK's selection (k ≤ topKSelect)
// against the stable sort on random scores with ties and NaNs.
func TestTopKSelectIsTheSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 2000 {
		lp := make([]float64, rng.IntN(40))
		for i := range lp {
			switch rng.IntN(6) {
			case 0:
				lp[i] = math.NaN()
			case 1:
				lp[i] = math.Inf(-1)
			default:
				lp[i] = float64(rng.IntN(8)) // ties
			}
		}
		all := make([]int, len(lp)) // the stable sort, NaN last
		for i := range all {
			all[i] = i
		}
		slices.SortStableFunc(all, func(a, b int) int {
			x, y := lp[a], lp[b]
			switch {
			case x > y || (x == x && y != y):
				return -1
			case y > x || (y == y && x != x):
				return 1
			}
			return 0
		})
		for k := 0; k <= topKSelect; k++ {
			want := all[:min(k, len(lp))]
			if got := TopK(lp, k); !slices.Equal(got, want) {
				t.Fatalf("trial %d, k = %d, scores %v: TopK = %v, the sort gives %v", trial, k, lp, got, want)
			}
		}
	}
}
