package semisup

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// matrix builds a CSR matrix of V columns from dense rows.
func matrix(V int, rows ...[]float32) *vectorize.Matrix {
	X := &vectorize.Matrix{Indptr: []int{0}, Cols: V}
	for _, r := range rows {
		for t, v := range r {
			if v != 0 {
				X.Indices = append(X.Indices, int32(t))
				X.Values = append(X.Values, v)
			}
		}
		X.Indptr = append(X.Indptr, len(X.Indices))
	}
	return X
}

func vocabOf(t testing.TB, V int) *vectorize.Vocabulary {
	t.Helper()
	terms := make([]string, V)
	df := make([]int32, V)
	cf := make([]int64, V)
	for i := range terms {
		terms[i] = fmt.Sprintf("w%04d", i)
		df[i], cf[i] = 1, 1
	}
	s := vectorize.DefaultSettings()
	s.Weighting, s.Norm = "count", "none"
	v, err := vectorize.NewVocabulary(s, terms, df, cf, 1)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func checkAll(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

// TestEMStepMultinomialByHand checks one EM step against a hand
// computation. Labelled: A = (2, 0) in class 0, B = (0, 2) in class 1;
// α = 1 gives θ_0 = (3/4, 1/4), θ_1 = (1/4, 3/4), P(c) = 1/2. The
// unlabelled U = (2, 1) has P(U|0)/P(U|1) = (9/16·1/4)/(1/16·3/4) = 3, so
// P(0|U) = 3/4 and P(1|U) = 1/4; with λ the M-step's statistics are
// N_c = (1 + 3λ/4, 1 + λ/4), N_c0 = (2 + 3λ/2, λ/2), N_c1 = (3λ/4, 2 + λ/4).
func TestEMStepMultinomialByHand(t *testing.T) {
	X := matrix(2, []float32{2, 0}, []float32{0, 2})
	y := []int{0, 1}
	U := MatrixRows{matrix(2, []float32{2, 1})}
	vocab := vocabOf(t, 2)
	p := model.Params{Alpha: 1, Prior: "learned"}
	classes := []string{"a", "b"}

	m0, err := train.FitNB(model.Multinomial, X, y, classes, vocab, p)
	if err != nil {
		t.Fatal(err)
	}
	e := &estep{kind: model.Multinomial, C: 2, V: 2, accDocs: make([]float64, 2), acc: make([]float64, 4), post: make([]float64, 2)}
	llU, err := e.run(m0, U, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, "posteriors", e.accDocs, []float64{0.75, 0.25})
	checkAll(t, "posterior-weighted counts", e.acc, []float64{1.5, 0.5, 0.75, 0.25})
	// P(U) = 1/2·9/64 + 1/2·3/64 = 3/32.
	if !near(llU, math.Log(3.0/32)) {
		t.Fatalf("log P(U) = %v, want log(3/32) = %v", llU, math.Log(3.0/32))
	}

	for _, lambda := range []float64{1, 0.5} {
		var its []Iteration
		r, err := FitEM(model.Multinomial, X, y, classes, vocab, p, U, Options{Weight: lambda, MaxIter: 1, Iteration: func(it Iteration) { its = append(its, it) }})
		if err != nil {
			t.Fatal(err)
		}
		m := r.Model
		checkAll(t, fmt.Sprintf("λ=%g class docs", lambda), m.ClassDocs, []float64{1 + 0.75*lambda, 1 + 0.25*lambda})
		checkAll(t, fmt.Sprintf("λ=%g counts", lambda), m.Counts, []float64{2 + 1.5*lambda, 0.5 * lambda, 0.75 * lambda, 2 + 0.25*lambda})
		// θ of class 0 after the step: (N_00 + 1, N_01 + 1) / (Σ + 2).
		den := 2 + 1.5*lambda + 0.75*lambda + 2
		checkAll(t, "W class 0", []float64{m.W[0], m.W[2]}, []float64{math.Log((3 + 1.5*lambda) / den), math.Log((1 + 0.75*lambda) / den)})
		// ℓ of the labelled model: each labelled document log(1/2·9/16),
		// λ·log(3/32), and α Σ log θ = 2 log(3/4) + 2 log(1/4).
		want := 2*math.Log(0.5*9.0/16) + lambda*math.Log(3.0/32) + 2*math.Log(0.75) + 2*math.Log(0.25)
		if len(its) != 1 || its[0].N != 1 || !near(its[0].LogLik, want) || !math.IsNaN(its[0].Change) {
			t.Fatalf("λ=%g iterations %+v, want one with ℓ = %v", lambda, its, want)
		}
		em := m.Params.EM
		if em == nil || em.Iterations != 1 || em.Unlabeled != 1 || em.Weight != lambda || len(em.LogLikelihood) != 1 {
			t.Fatalf("λ=%g record %+v", lambda, em)
		}
	}
}

// TestEMStepBernoulliByHand: labelled A = {t0} in class 0, B = {t1} in
// class 1, α = β = 1: θ_0 = (2/3, 1/3), θ_1 = (1/3, 2/3). U = {t0}:
// P(U|0) = 2/3·2/3 = 4/9, P(U|1) = 1/3·1/3 = 1/9, so P(0|U) = 4/5; with
// λ = 1 the statistics become N_c = (9/5, 6/5), N_c0 = (9/5, 1/5), N_c1 =
// (0, 1).
func TestEMStepBernoulliByHand(t *testing.T) {
	X := matrix(2, []float32{1, 0}, []float32{0, 1})
	y := []int{0, 1}
	U := MatrixRows{matrix(2, []float32{1, 0})}
	vocab := vocabOf(t, 2)
	p := model.Params{Alpha: 1, Beta: 1, Prior: "learned"}
	r, err := FitEM(model.Bernoulli, X, y, []string{"a", "b"}, vocab, p, U, Options{Weight: 1, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, "class docs", r.Model.ClassDocs, []float64{1.8, 1.2})
	checkAll(t, "counts", r.Model.Counts, []float64{1.8, 0.2, 0, 1})
	// ℓ: labelled log(1/2·4/9) twice, log P(U) = log(1/2·4/9 + 1/2·1/9) =
	// log(5/18), and the Beta(1, 1) prior Σ log θ + log(1-θ) = 4 log(2/9).
	want := 2*math.Log(2.0/9) + math.Log(5.0/18) + 4*math.Log(2.0/9)
	if !near(r.LogLik[0], want) {
		t.Fatalf("ℓ = %v, want %v", r.LogLik[0], want)
	}
}

// synth draws n documents of two or more classes over V terms: each class
// prefers its own block of terms (a share signal of each document's
// tokens), the rest are uniform.
func synth(n, V, C int, signal float64, seed uint64) (*vectorize.Matrix, []int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	rows := make([][]float32, n)
	y := make([]int, n)
	block := V / C
	for i := range rows {
		c := i % C
		y[i] = c
		r := make([]float32, V)
		for range 10 + rng.IntN(30) {
			if rng.Float64() < signal {
				r[c*block+rng.IntN(block)]++
			} else {
				r[rng.IntN(V)]++
			}
		}
		rows[i] = r
	}
	return matrix(V, rows...), y
}

// TestEMLikelihoodIncreases: each EM iteration never lowers ℓ, EM stops on
// its tolerance, and with few labelled documents the unlabelled ones raise
// the accuracy on held-out documents.
func TestEMLikelihoodIncreases(t *testing.T) {
	const V, C = 200, 4
	Xall, yall := synth(2400, V, C, 0.3, 1)
	lab := []int{}
	for i := range 16 { // 4 per class
		lab = append(lab, i)
	}
	unl := []int{}
	for i := 16; i < 1600; i++ {
		unl = append(unl, i)
	}
	test := []int{}
	for i := 1600; i < 2400; i++ {
		test = append(test, i)
	}
	X, y := Xall.Subset(lab), pick(yall, lab)
	U := MatrixRows{Xall.Subset(unl)}
	Xte, yte := Xall.Subset(test), pick(yall, test)
	vocab := vocabOf(t, V)
	classes := []string{"a", "b", "c", "d"}
	p := model.Params{Alpha: 1, Prior: "learned"}
	r, err := FitEM(model.Multinomial, X, y, classes, vocab, p, U, Options{Weight: 1, MaxIter: 50, Tol: 1e-7})
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(r.LogLik); k++ {
		if r.LogLik[k] < r.LogLik[k-1]-1e-9*math.Abs(r.LogLik[k-1]) {
			t.Fatalf("ℓ fell at iteration %d: %v", k+1, r.LogLik)
		}
	}
	if !r.Converged || r.Iterations >= 50 {
		t.Fatalf("did not converge in 50 iterations: %v", r.LogLik)
	}
	base, err := train.FitNB(model.Multinomial, X, y, classes, vocab, p)
	if err != nil {
		t.Fatal(err)
	}
	a0, a1 := train.Accuracy(base, Xte, yte, 1), train.Accuracy(r.Model, Xte, yte, 1)
	if a1 < a0+0.05 {
		t.Fatalf("EM accuracy %.3f, labelled only %.3f: want ≥ 5 points better", a1, a0)
	}
	t.Logf("accuracy %.3f -> %.3f in %d iterations", a0, a1, r.Iterations)
}

func pick(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// TestEMDeterministic: the same inputs give the same model file bytes
// whatever GOMAXPROCS, and from a row cache on disk as from memory.
func TestEMDeterministic(t *testing.T) {
	const V, C = 300, 3
	Xall, yall := synth(1500, V, C, 0.3, 2)
	lab := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	unl := make([]int, 0, 1400)
	for i := 100; i < 1500; i++ {
		unl = append(unl, i)
	}
	X, y := Xall.Subset(lab), pick(yall, lab)
	Um := Xall.Subset(unl)
	vocab := vocabOf(t, V)
	classes := []string{"a", "b", "c"}
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli} {
		p := model.Params{Alpha: 0.5, Beta: 0.5, Prior: "learned", Temperature: 0.7}
		fit := func(procs int, U Rows) []byte {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			r, err := FitEM(kind, X, y, classes, vocab, p, U, Options{Weight: 0.3, MaxIter: 5})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := model.Encode(&b, r.Model); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		rc, err := train.NewRowCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		for i := 0; i < Um.Rows(); i++ {
			ind, val := Um.Row(i)
			if err := rc.Add(0, ind, val); err != nil {
				t.Fatal(err)
			}
		}
		one := fit(1, MatrixRows{Um})
		if !bytes.Equal(one, fit(4, MatrixRows{Um})) {
			t.Fatalf("%s: GOMAXPROCS 1 and 4 give different models", kind)
		}
		if !bytes.Equal(one, fit(2, rc)) {
			t.Fatalf("%s: the row cache and the matrix give different models", kind)
		}
	}
}

// TestEMBadInput: parameters and rows EM cannot fit are errors that say why.
func TestEMBadInput(t *testing.T) {
	X := matrix(2, []float32{2, 0}, []float32{0, 2})
	y := []int{0, 1}
	vocab := vocabOf(t, 2)
	classes := []string{"a", "b"}
	good := MatrixRows{matrix(2, []float32{1, 1})}
	p := model.Params{Alpha: 1, Beta: 1, Prior: "learned"}
	neg := MatrixRows{matrix(2, []float32{1, 1}, []float32{-1, 0})}
	wide := MatrixRows{&vectorize.Matrix{Indptr: []int{0, 1}, Indices: []int32{5}, Values: []float32{1}, Cols: 6}}
	cases := []struct {
		name string
		kind model.Kind
		p    model.Params
		U    Rows
		opt  Options
		want string
	}{
		{"complement", model.Complement, p, good, Options{Weight: 1, MaxIter: 1}, "not a generative model"},
		{"logreg", model.LogReg, p, good, Options{Weight: 1, MaxIter: 1}, "--model multinomial or bernoulli"},
		{"no smoothing", model.Multinomial, model.Params{Alpha: 0, Prior: "learned"}, good, Options{Weight: 1, MaxIter: 1}, "--alpha"},
		{"negative weight", model.Multinomial, p, good, Options{Weight: -1, MaxIter: 1}, "--unlabeled-weight must be"},
		{"NaN weight", model.Multinomial, p, good, Options{Weight: math.NaN(), MaxIter: 1}, "--unlabeled-weight must be"},
		{"negative iterations", model.Multinomial, p, good, Options{Weight: 1, MaxIter: -1}, "--em-iterations must be"},
		{"negative tol", model.Multinomial, p, good, Options{Weight: 1, MaxIter: 1, Tol: -1}, "--em-tol must be"},
		{"negative value", model.Multinomial, p, neg, Options{Weight: 1, MaxIter: 1}, "unlabelled document 1, term 0: feature value -1"},
		{"term out of range", model.Multinomial, p, wide, Options{Weight: 1, MaxIter: 1}, "unlabelled document 0: term id 5 out of range"},
		{"no rows", model.Multinomial, p, nil, Options{Weight: 1, MaxIter: 1}, "no unlabelled rows"},
	}
	for _, tc := range cases {
		_, err := FitEM(tc.kind, X, y, classes, vocab, tc.p, tc.U, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// λ = 0 reads nothing: the labelled model, recorded with no iteration.
	r, err := FitEM(model.Multinomial, X, y, classes, vocab, p, neg, Options{Weight: 0, MaxIter: 5})
	if err != nil || r.Iterations != 0 || r.Model.Params.EM == nil {
		t.Fatalf("λ = 0: %v, %+v", err, r)
	}
}

// TestChooseWeight: cross-validation on the labelled rows scores every
// weight and prefers EM when the unlabelled rows help.
func TestChooseWeight(t *testing.T) {
	const V, C = 200, 4
	Xall, yall := synth(1640, V, C, 0.3, 3)
	lab := make([]int, 40)
	for i := range lab {
		lab[i] = i
	}
	unl := make([]int, 0, 1600)
	for i := 40; i < 1640; i++ {
		unl = append(unl, i)
	}
	X, y := Xall.Subset(lab), pick(yall, lab)
	U := MatrixRows{Xall.Subset(unl)}
	var calls int
	ch, err := ChooseWeight(model.Multinomial, X, y, []string{"a", "b", "c", "d"}, vocabOf(t, V), model.Params{Alpha: 1, Prior: "learned"}, U,
		Options{MaxIter: 5, Tol: 1e-4}, 5, 1, nil, nil, 1, func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Scores) != len(DefaultWeightGrid) || calls != 5*len(DefaultWeightGrid) {
		t.Fatalf("scores %+v after %d progress calls", ch.Scores, calls)
	}
	if ch.Weight() == 0 {
		t.Fatalf("chose λ = 0 where EM helps: %+v", ch.Scores)
	}
	if _, err := ChooseWeight(model.Multinomial, X, y, []string{"a", "b", "c", "d"}, vocabOf(t, V), model.Params{Alpha: 1, Prior: "learned"}, U,
		Options{MaxIter: 5}, 100, 1, nil, nil, 1, nil); err == nil || !strings.Contains(err.Error(), "folds") {
		t.Fatalf("100 folds of 40 documents: %v", err)
	}
}

// TestLabelledLambdaZero: λ = 0 fits the labelled texts over their own
// vocabulary, in the cross-validation of λ too.
func TestLabelledLambdaZero(t *testing.T) {
	const V, C = 3000, 3
	Xall, yall := synth(660, V, C, 0.4, 5)
	texts := make([]string, Xall.Rows())
	for i := range texts {
		ind, val := Xall.Row(i)
		var b strings.Builder
		for j, tid := range ind {
			for range int(val[j]) {
				fmt.Fprintf(&b, "w%04d ", tid)
			}
		}
		texts[i] = b.String()
	}
	s := vectorize.DefaultSettings()
	s.Weighting, s.Norm, s.MinDF = "count", "none", 1
	lab := &Labelled{Texts: texts[:60], Settings: s, Workers: 1}
	y := yall[:60]
	classes := []string{"a", "b", "c"}
	p := model.Params{Alpha: 0.1, Prior: "learned"}
	m, X, err := lab.Fit(model.Multinomial, nil, y, classes, p)
	if err != nil {
		t.Fatal(err)
	}
	vocab, err := vectorize.FitVocabulary(texts, nil, 0, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Vocab.Len() >= vocab.Len() || X.Rows() != 60 {
		t.Fatalf("λ = 0 vocabulary of %d terms, all documents' %d", m.Vocab.Len(), vocab.Len())
	}
	Xl := vocab.Transform(texts[:60], 1)
	U := MatrixRows{vocab.Transform(texts[60:], 1)}
	ch, err := ChooseWeight(model.Multinomial, Xl, y, classes, vocab, p, U, Options{MaxIter: 3}, 3, 1, []float64{0, 1}, lab, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := corpus.StratifiedKFold(y, 3, 1)
	want := 0.0
	for _, te := range folds {
		a, err := lab.accuracy(model.Multinomial, corpus.Complement(60, te), te, y, classes, p)
		if err != nil {
			t.Fatal(err)
		}
		want += a / 3
	}
	if math.Abs(ch.Scores[0].Mean-want) > 1e-12 {
		t.Fatalf("λ = 0 scored %v, the labelled folds' own vocabularies give %v", ch.Scores[0].Mean, want)
	}
}
