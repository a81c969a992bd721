package model

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// denseBernoulli is the textbook multi-variate Bernoulli log joint
// probability, summed over the whole vocabulary.
func denseBernoulli(p Params, classDocs, counts []float64, C int, x []float64) []float64 {
	V := len(x)
	lp := logPrior(p, classDocs, C)
	out := make([]float64, C)
	for c := 0; c < C; c++ {
		s := lp[c]
		for d := 0; d < V; d++ {
			th := (counts[d*C+c] + p.Alpha) / (classDocs[c] + p.Alpha + p.Beta)
			if x[d] > 0 {
				s += math.Log(th)
			} else {
				s += math.Log(1 - th)
			}
		}
		out[c] = s
	}
	return out
}

func denseMultinomial(p Params, classDocs, counts []float64, C int, x []float64) []float64 {
	V := len(x)
	lp := logPrior(p, classDocs, C)
	out := make([]float64, C)
	for c := 0; c < C; c++ {
		tot := 0.0
		for d := 0; d < V; d++ {
			tot += counts[d*C+c]
		}
		s := lp[c]
		for d := 0; d < V; d++ {
			s += x[d] * math.Log((counts[d*C+c]+p.Alpha)/(tot+p.Alpha*float64(V)))
		}
		out[c] = s
	}
	return out
}

// denseComplement follows Rennie et al. 2003, Table 9, literally: it
// returns Σ_d x_d ŵ_cd, whose argmin is the decision.
func denseComplement(p Params, counts []float64, C int, x []float64, norm bool) []float64 {
	V := len(x)
	out := make([]float64, C)
	for c := 0; c < C; c++ {
		comp := make([]float64, V)
		tot := 0.0
		for d := 0; d < V; d++ {
			comp[d] = p.Alpha
			for c2 := 0; c2 < C; c2++ {
				if c2 != c {
					comp[d] += counts[d*C+c2]
				}
			}
			tot += comp[d]
		}
		w := make([]float64, V)
		abs := 0.0
		for d := range w {
			w[d] = math.Log(comp[d] / tot)
			abs += math.Abs(w[d])
		}
		for d := range w {
			if norm {
				w[d] /= abs
			}
			out[c] += x[d] * w[d]
		}
	}
	return out
}

func TestNBMatchesDenseFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const V, C = 30, 4
	vocab := nTerms(t, V)
	docs, labels := randCorpus(rng, 60, V, C, 6)
	for _, p := range []Params{
		{Alpha: 1, Beta: 1},
		{Alpha: 0.01, Beta: 0.5, Prior: "uniform"},
		{Alpha: 0.3, Beta: 2, Prior: "given", Priors: []float64{0.1, 0.2, 0.3, 0.4}},
	} {
		bd, bc := countNB(docs, labels, V, C, true)
		md, mc := countNB(docs, labels, V, C, false)
		bern := mustNB(t, Bernoulli, classNames(C), vocab, p, bd, bc)
		mult := mustNB(t, Multinomial, classNames(C), vocab, p, md, mc)
		comp := mustNB(t, Complement, classNames(C), vocab, p, md, mc)
		p2 := p
		p2.NoWeightNorm = true
		compRaw := mustNB(t, Complement, classNames(C), vocab, p2, md, mc)
		sb, sm, sc, sr := bern.NewScorer(), mult.NewScorer(), comp.NewScorer(), compRaw.NewScorer()
		for i := 0; i < 20; i++ {
			d := randDoc(rng, V, 1+rng.IntN(10))
			x := d.dense(V)
			check := func(name string, got, want []float64) {
				t.Helper()
				for c := range want {
					if !near(got[c], want[c], 1e-10) {
						t.Fatalf("%s %+v doc %d class %d: score %v, want %v", name, p, i, c, got[c], want[c])
					}
				}
			}
			check("bernoulli", sb.Scores(d.ind, nil), denseBernoulli(p, bd, bc, C, x))
			check("multinomial", sm.Scores(d.ind, d.val), denseMultinomial(p, md, mc, C, x))
			// Complement: our scores are the negated Rennie scores (argmax
			// instead of argmin), with no prior.
			neg := func(xs []float64) []float64 {
				for i := range xs {
					xs[i] = -xs[i]
				}
				return xs
			}
			check("complement", sc.Scores(d.ind, d.val), neg(denseComplement(p, mc, C, x, true)))
			check("complement raw", sr.Scores(d.ind, d.val), neg(denseComplement(p, mc, C, x, false)))
		}
	}
}

// TestComplementByHand checks complement NB on two classes, where the
// complement of each class is the other one.
func TestComplementByHand(t *testing.T) {
	// Class a saw "x" 3 times and "y" once, class b "x" once and "y" 3
	// times. With α = 1, the complement of a is b: θ̃_a = (1+1, 3+1)/6 =
	// (1/3, 2/3), w_a = (log 1/3, log 2/3) = (-1.0986, -0.4055), and
	// normalised by |w| = 1.5041: ŵ_a = (-0.7304, -0.2696). By symmetry
	// ŵ_b = (-0.2696, -0.7304). A document "x x" has Rennie scores
	// 2ŵ_a(x) = -1.4608 (a) and 2ŵ_b(x) = -0.5392 (b): the argmin is a.
	vocab := testVocab(t, "x", "y")
	counts := []float64{3, 1, 1, 3} // x: a=3 b=1; y: a=1 b=3
	m := mustNB(t, Complement, []string{"a", "b"}, vocab, Params{Alpha: 1}, []float64{2, 2}, counts)
	la, lb := math.Log(1.0/3), math.Log(2.0/3)
	wa := la / (math.Abs(la) + math.Abs(lb))
	wantA, wantB := -2*wa, -2*(lb/(math.Abs(la)+math.Abs(lb)))
	s := m.NewScorer()
	sc := s.Scores([]int32{0}, []float32{2})
	if !near(sc[0], wantA, 1e-12) || !near(sc[1], wantB, 1e-12) {
		t.Fatalf("scores %v, want [%v %v]", sc, wantA, wantB)
	}
	if p := s.Predict([]int32{0}, []float32{2}); p.Class != 0 {
		t.Fatalf("predicted %d, want class a", p.Class)
	}
	if !near(wantA, 1.4608, 1e-4) {
		t.Fatalf("hand value %v", wantA)
	}
}

func TestPriors(t *testing.T) {
	vocab := testVocab(t, "x")
	cd := []float64{1, 3}
	counts := []float64{1, 1}
	for _, tc := range []struct {
		p    Params
		want []float64
	}{
		{Params{Alpha: 1}, []float64{0.25, 0.75}},
		{Params{Alpha: 1, Prior: "learned"}, []float64{0.25, 0.75}},
		{Params{Alpha: 1, Prior: "uniform"}, []float64{0.5, 0.5}},
		{Params{Alpha: 1, Prior: "given", Priors: []float64{0.9, 0.1}}, []float64{0.9, 0.1}},
	} {
		m := mustNB(t, Multinomial, []string{"a", "b"}, vocab, tc.p, cd, counts)
		for c, want := range tc.want {
			if !near(m.B[c], math.Log(want), 1e-12) || !near(m.LogPrior()[c], math.Log(want), 1e-12) {
				t.Errorf("%+v: B = %v, want log %v", tc.p, m.B, tc.want)
			}
		}
		// An empty document is predicted from the prior.
		p := m.NewScorer().Predict(nil, nil)
		if !p.Empty || p.Fallback || !near(math.Exp(p.LogProbs[0]), tc.want[0], 1e-12) {
			t.Errorf("%+v: empty document: %+v", tc.p, p)
		}
	}
}

func TestNewNBValidation(t *testing.T) {
	vocab := testVocab(t, "x", "y")
	good := func() (Kind, []string, Params, []float64, []float64) {
		return Bernoulli, []string{"a", "b"}, Params{Alpha: 1, Beta: 1}, []float64{2, 2}, []float64{1, 2, 0, 0}
	}
	for _, tc := range []struct {
		name string
		mod  func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64)
		want string
	}{
		{"alpha", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { p.Alpha = -1 }, "--alpha must be ≥ 0, got -1"},
		{"alpha NaN", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { p.Alpha = math.NaN() }, "--alpha must be ≥ 0, got NaN"},
		{"alpha Inf", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { p.Alpha = math.Inf(1) }, "--alpha must be ≥ 0, got +Inf"},
		{"beta", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { p.Beta = -0.5 }, "--beta must be ≥ 0, got -0.5"},
		{"prior", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { p.Prior = "flat" }, `--prior must be learned, uniform or given, got "flat"`},
		{"priors len", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) {
			p.Prior, p.Priors = "given", []float64{1}
		}, "--priors: want one probability per class (2), got 1"},
		{"priors sum", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) {
			p.Prior, p.Priors = "given", []float64{0.5, 0.6}
		}, "--priors must sum to 1, got 1.1"},
		{"priors neg", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) {
			p.Prior, p.Priors = "given", []float64{-0.5, 1.5}
		}, "--priors: probability 1 must be in [0, 1], got -0.5"},
		{"kind", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { *k = LogReg }, "not a Naive Bayes model"},
		{"no classes", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { *cl = nil }, "model has no classes"},
		{"dup class", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { *cl = []string{"a", "a"} }, `class "a" appears twice`},
		{"counts shape", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { *cn = (*cn)[:3] }, "counts has 3 entries, want 2 terms × 2 classes = 4"},
		{"docs shape", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { *cd = (*cd)[:1] }, "classDocs has 1 entries"},
		{"negative count", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { (*cn)[0] = -1 }, "is -1 (want a finite number ≥ 0)"},
		{"NaN count", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { (*cn)[0] = math.NaN() }, "is NaN"},
		{"count > docs", func(k *Kind, cl *[]string, p *Params, cd, cn *[]float64) { (*cn)[1] = 3 }, `term 0 occurs in 3 documents of class "b", which has only 2`},
	} {
		k, cl, p, cd, cn := good()
		tc.mod(&k, &cl, &p, &cd, &cn)
		_, err := NewNB(k, cl, vocab, p, cd, cn)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	k, cl, p, cd, cn := good()
	if _, err := NewNB(k, cl, vocab, p, cd, cn); err != nil {
		t.Fatal(err)
	}
}

// bruteForce computes P(c|x) for α = β = 0 directly in linear space, with
// the 0/0 limits documented in NewNB; ok is false when P(x) = 0.
func bruteForce(kind Kind, p Params, classDocs, counts []float64, C int, x []float64) (post []float64, ok bool) {
	V := len(x)
	prior := logPrior(p, classDocs, C)
	joint := make([]float64, C)
	sum := 0.0
	for c := 0; c < C; c++ {
		j := math.Exp(prior[c])
		tot := 0.0
		for d := 0; d < V; d++ {
			tot += counts[d*C+c]
		}
		for d := 0; d < V; d++ {
			switch kind {
			case Bernoulli:
				th := 0.5
				if classDocs[c] > 0 {
					th = counts[d*C+c] / classDocs[c]
				}
				if x[d] > 0 {
					j *= th
				} else {
					j *= 1 - th
				}
			case Multinomial:
				th := 1 / float64(V)
				if tot > 0 {
					th = counts[d*C+c] / tot
				}
				if x[d] > 0 {
					j *= math.Pow(th, x[d])
				}
			}
		}
		joint[c] = j
		sum += j
	}
	if sum == 0 {
		return nil, false
	}
	for c := range joint {
		joint[c] /= sum
	}
	return joint, true
}

// TestMaximumLikelihoodExact checks α = β = 0 against brute force on small
// random corpora full of zero and one θ: no NaN, impossible classes get
// probability 0, and a document no class can produce falls back to the
// prior.
func TestMaximumLikelihoodExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const V, C = 5, 3
	vocab := nTerms(t, V)
	fallbacks, impossible := 0, 0
	for trial := 0; trial < 200; trial++ {
		docs, labels := randCorpus(rng, 2+rng.IntN(6), V, C, 2)
		for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
			cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
			p := Params{Prior: []string{"learned", "uniform"}[trial%2]}
			m := mustNB(t, kind, classNames(C), vocab, p, cd, cn)
			s := m.NewScorer()
			for i := 0; i < 10; i++ {
				d := randDoc(rng, V, rng.IntN(4))
				pr := s.Predict(d.ind, d.val)
				if hasNaN(pr.LogProbs) || hasNaN(s.Scores(d.ind, d.val)) {
					t.Fatalf("%s: NaN for %v", kind, d)
				}
				total := 0.0
				for _, l := range pr.LogProbs {
					total += math.Exp(l)
				}
				if !near(total, 1, 1e-9) {
					t.Fatalf("%s: probabilities sum to %v", kind, total)
				}
				if kind == Complement {
					continue
				}
				want, ok := bruteForce(kind, p, cd, cn, C, d.dense(V))
				if !ok {
					fallbacks++
					if !pr.Fallback {
						t.Fatalf("%s: no class can produce %v, but no fallback: %+v", kind, d, pr)
					}
					if !reflect.DeepEqual(pr.LogProbs, m.LogPrior()) || pr.Class != Decide(m.LogPrior(), nil) {
						t.Fatalf("%s: fallback %v, want the prior %v", kind, pr.LogProbs, m.LogPrior())
					}
					continue
				}
				if pr.Fallback {
					t.Fatalf("%s: unexpected fallback for %v", kind, d)
				}
				for c := range want {
					if want[c] == 0 {
						impossible++
					}
					if !near(math.Exp(pr.LogProbs[c]), want[c], 1e-9) {
						t.Fatalf("%s trial %d doc %v: P(%d|x) = %v, want %v", kind, trial, d, c, math.Exp(pr.LogProbs[c]), want[c])
					}
				}
			}
		}
	}
	if fallbacks == 0 || impossible == 0 {
		t.Fatalf("corpora too easy: %d fallbacks, %d impossible classes", fallbacks, impossible)
	}
}

// TestComplementAlphaZero checks that a term seen only in class c makes c
// certain, with no NaN.
func TestComplementAlphaZero(t *testing.T) {
	vocab := testVocab(t, "x", "y", "z")
	// x only in a, y only in b, z in both.
	counts := []float64{2, 0, 0, 3, 1, 1}
	m := mustNB(t, Complement, []string{"a", "b"}, vocab, Params{}, []float64{1, 1}, counts)
	s := m.NewScorer()
	p := s.Predict([]int32{0, 2}, []float32{1, 1})
	if p.Class != 0 || p.LogProbs[0] != 0 || !math.IsInf(p.LogProbs[1], -1) {
		t.Fatalf("x z: %+v", p)
	}
	p = s.Predict([]int32{0, 1}, []float32{1, 1}) // both certain: shared
	if hasNaN(p.LogProbs) || !near(p.LogProbs[0], math.Log(0.5), 1e-12) || p.Class != 0 {
		t.Fatalf("x y: %+v", p)
	}
	p = s.Predict(nil, nil)
	if !p.Empty || !p.Fallback || p.Class != 0 {
		t.Fatalf("empty: %+v", p)
	}
}

// TestMerge checks that merging models trained on shards gives the model
// trained on their union.
func TestMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const V, C = 40, 3
	vocab := nTerms(t, V)
	docs, labels := randCorpus(rng, 90, V, C, 5)
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		for _, p := range []Params{{Alpha: 0.5, Beta: 1}, {}} {
			binary := kind == Bernoulli
			ud, uc := countNB(docs, labels, V, C, binary)
			union := mustNB(t, kind, classNames(C), vocab, p, ud, uc)
			var merged *Model
			for _, sh := range [][2]int{{0, 30}, {30, 31}, {31, 90}} {
				sd, sc := countNB(docs[sh[0]:sh[1]], labels[sh[0]:sh[1]], V, C, binary)
				m := mustNB(t, kind, classNames(C), vocab, p, sd, sc)
				if merged == nil {
					merged = m
				} else if err := merged.Merge(m); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(merged, union) {
				t.Errorf("%s %+v: merged model differs from the union model", kind, p)
			}
		}
	}
}

func TestMergeErrors(t *testing.T) {
	vocab := testVocab(t, "x", "y")
	base := func() *Model {
		return mustNB(t, Multinomial, []string{"a", "b"}, vocab, Params{Alpha: 1}, []float64{1, 1}, []float64{1, 0, 0, 1})
	}
	lr, err := NewLinear(LogReg, []string{"a", "b"}, vocab, Params{}, make([]float64, 4), make([]float64, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		into  *Model
		other *Model
		want  string
	}{
		{"kind", base(), mustNB(t, Complement, []string{"a", "b"}, vocab, Params{Alpha: 1}, []float64{1, 1}, []float64{1, 0, 0, 1}), "cannot merge a complement model into a multinomial model"},
		{"classes", base(), mustNB(t, Multinomial, []string{"b", "a"}, vocab, Params{Alpha: 1}, []float64{1, 1}, []float64{1, 0, 0, 1}), "classes differ"},
		{"vocab", base(), mustNB(t, Multinomial, []string{"a", "b"}, testVocab(t, "x", "z"), Params{Alpha: 1}, []float64{1, 1}, []float64{1, 0, 0, 1}), "vocabularies differ"},
		{"params", base(), mustNB(t, Multinomial, []string{"a", "b"}, vocab, Params{Alpha: 2}, []float64{1, 1}, []float64{1, 0, 0, 1}), "training parameters differ"},
		{"logreg", lr, lr, "logreg models cannot be merged"},
	} {
		before := *tc.into
		err := tc.into.Merge(tc.other)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if !reflect.DeepEqual(before, *tc.into) {
			t.Errorf("%s: failed merge changed the model", tc.name)
		}
	}
}

func TestNewLinear(t *testing.T) {
	vocab := testVocab(t, "x", "y")
	m, err := NewLinear(LogReg, []string{"a", "b"}, vocab, Params{C: 10}, []float64{1, -1, 0, 2}, []float64{0.5, -0.5})
	if err != nil {
		t.Fatal(err)
	}
	sc := m.NewScorer().Scores([]int32{0, 1}, []float32{2, 1})
	if sc[0] != 0.5+2 || sc[1] != -0.5-2+2 {
		t.Fatalf("scores %v", sc)
	}
	for _, tc := range []struct {
		W, B []float64
		want string
	}{
		{[]float64{1, 2, 3}, []float64{0, 0}, "W has 3 weights, want 2 terms × 2 classes = 4"},
		{[]float64{1, 2, 3, 4}, []float64{0}, "B has 1 entries"},
		{[]float64{1, math.NaN(), 3, 4}, []float64{0, 0}, "W[1] is NaN"},
		{[]float64{1, math.Inf(-1), 3, 4}, []float64{0, 0}, "W[1] is -Inf in a logreg model"},
		{[]float64{1, 2, 3, 4}, []float64{0, math.Inf(1)}, "B[1] is +Inf"},
	} {
		_, err := NewLinear(LogReg, []string{"a", "b"}, vocab, Params{}, tc.W, tc.B)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	if _, err := NewLinear(Bernoulli, []string{"a"}, vocab, Params{}, nil, nil); err == nil {
		t.Error("NewLinear accepted an NB kind")
	}
}
