package model

import (
	"bytes"
	"math"
	"testing"
)

// addRecordFixtures adds the pinned models of format version 3 (record
// fields) and the centroid model to the fixtures.
func addRecordFixtures(t testing.TB, fx map[string]*Model) {
	t.Helper()
	cent, err := NewCentroid([]string{"a", "b"}, testVocab(t, "x", "y"), Params{Temperature: 40}, []float64{1, 0, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	cent.Meta = Meta{Version: "fixture", CreatedBy: "model test"}
	fx["centroid"] = cent

	mixed, err := NewNB(Multinomial, []string{"a", "b"}, testVocab(t, "x", "y", "z"),
		Params{Alpha: 0.5, Prior: "learned", FieldAlpha: 1, VarSmoothing: 1e-9}, []float64{2, 1}, []float64{3, 0, 0, 1.5, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := mixed.SetFields(&Fields{
		Categorical: []CategoricalField{{Name: "product", Values: []string{"phone", "tv"}, Counts: []float64{2, 0, 0, 1}, Alpha: 1}},
		Numeric:     []NumericField{{Name: "amount", N: []float64{2, 1}, Mean: []float64{10, 30}, Var: []float64{4, 0}, Epsilon: 0.5}},
	}); err != nil {
		t.Fatal(err)
	}
	mixed.Meta = Meta{Version: "fixture", CreatedBy: "model test: multinomial NB with a categorical and a numeric field"}
	fx["mixed"] = mixed

	gauss, err := NewRecordModel(Gaussian, []string{"a", "b", "c"}, Params{Prior: "learned", VarSmoothing: 1e-9}, []float64{3, 2, 1}, &Fields{
		Numeric: []NumericField{
			{Name: "len", N: []float64{3, 2, 0}, Mean: []float64{1.5, -2, 0}, Var: []float64{0.25, 1, 0}, Epsilon: 1e-9},
			{Name: "wid", N: []float64{3, 2, 1}, Mean: []float64{0, 1, 2}, Var: []float64{1, 2, 0}, Epsilon: 2e-9},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	gauss.Meta = Meta{Version: "fixture", CreatedBy: "model test"}
	fx["gaussian"] = gauss

	lr, err := NewLinear(LogReg, []string{"a", "b"}, testVocab(t, "word"),
		Params{C: 10, Penalty: "l2", Solver: "sgd", Epochs: 3, BatchSize: 1, Seed: 1}, []float64{0.5, -0.5}, []float64{0.1, -0.1})
	if err != nil {
		t.Fatal(err)
	}
	if err := lr.SetFields(&Fields{
		Categorical: []CategoricalField{{Name: "shop", Values: []string{"x", "y"}, Weights: []float64{1, -1, -0.5, 0.5}}},
		Numeric:     []NumericField{{Name: "price", Center: 3, Scale: 2, Weights: []float64{0.25, -0.25}}},
	}); err != nil {
		t.Fatal(err)
	}
	lr.Meta = Meta{Version: "fixture", CreatedBy: "model test"}
	fx["logreg-fields"] = lr

	ml, err := NewMultiLabel(Multinomial, []string{"politics", "sport", "tech"}, testVocab(t, "ball", "vote"),
		Params{Alpha: 0.1, Prior: "learned"}, []float64{-1.5, 2, -0.5, 1.25, -2, -0.75}, []float64{-0.5, -1, -0.25})
	if err != nil {
		t.Fatal(err)
	}
	ml.Meta = Meta{Version: "fixture", CreatedBy: "model test: one-vs-rest multinomial NB"}
	fx["multilabel"] = ml
}

// TestMixedMAPByHand checks the course's mixed MAP rule,
//
//	argmax_y P(y) Π_discrete P(x_i|y) Π_continuous f(x_i|y),
//
// on a small example computed by hand. Two classes with priors 2/3 and
// 1/3 (N = 2, 1); a categorical field "product" whose training values are
// phone (class a twice) and tv (class b once), add-one smoothed (K = 2):
// P(phone|a) = 3/4, P(tv|a) = 1/4, P(phone|b) = 1/3, P(tv|b) = 2/3, an
// unseen value 1/4 and 1/3; a numeric field "amount" with μ = 10, 30 and
// σ² = 4 + 0.5, 0 + 0.5. No text: the vocabulary is empty.
func TestMixedMAPByHand(t *testing.T) {
	m, err := NewRecordModel(Categorical, []string{"a", "b"}, Params{Prior: "learned", FieldAlpha: 1}, []float64{2, 1}, &Fields{
		Categorical: []CategoricalField{{Name: "product", Values: []string{"phone", "tv"}, Counts: []float64{2, 0, 0, 1}, Alpha: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewScorer()
	for _, tc := range []struct {
		value string
		pa    float64 // P(a|x) by hand
	}{
		{"phone", (2.0 / 3 * 3 / 4) / (2.0/3*3/4 + 1.0/3*1/3)}, // 0.5/(0.5+1/9) = 9/11
		{"tv", (2.0 / 3 * 1 / 4) / (2.0/3*1/4 + 1.0/3*2/3)},    // (1/6)/(1/6+2/9) = 3/7
		{"radio", (2.0 / 3 * 1 / 4) / (2.0/3*1/4 + 1.0/3*1/3)}, // unseen: (1/6)/(1/6+1/9) = 3/5
		{"", 2.0 / 3}, // missing: the prior
	} {
		p := s.PredictRecord(nil, nil, Record{Cat: []string{tc.value}})
		if got := math.Exp(p.LogProbs[0]); math.Abs(got-tc.pa) > 1e-12 {
			t.Errorf("product=%q: P(a|x) = %v, want %v", tc.value, got, tc.pa)
		}
	}

	// The mixed model: multinomial text NB (fixture "mixed") with both
	// fields. For the document "x" with product=tv and amount=12:
	// score_c = log P(c) + log θ_xc + log P(tv|c) + log N(12; μ_c, σ²_c).
	fx := map[string]*Model{}
	addRecordFixtures(t, fx)
	mixed := fx["mixed"]
	gauss := func(x, mu, v float64) float64 {
		return math.Exp(-(x-mu)*(x-mu)/(2*v)) / math.Sqrt(2*math.Pi*v)
	}
	// θ_xc = (count + α)/(Σ count + α|V|): class a counts (3, 0, 1) → 3.5/5.5,
	// class b counts (0, 1.5, 0) → 0.5/3.
	ja := 2.0 / 3 * (3.5 / 5.5) * (1.0 / 4) * gauss(12, 10, 4.5)
	jb := 1.0 / 3 * (0.5 / 3) * (2.0 / 3) * gauss(12, 30, 0.5)
	rec := Record{Cat: []string{"tv"}, Num: []float64{12}}
	sc := mixed.NewScorer().ScoresRecord([]int32{0}, []float32{1}, rec)
	if math.Abs(sc[0]-math.Log(ja)) > 1e-9 || math.Abs(sc[1]-math.Log(jb)) > 1e-9 {
		t.Errorf("mixed scores %v, want log joints %v, %v", sc, math.Log(ja), math.Log(jb))
	}
	p := mixed.NewScorer().PredictRecord([]int32{0}, []float32{1}, rec)
	if want := ja / (ja + jb); math.Abs(math.Exp(p.LogProbs[0])-want) > 1e-9 || p.Class != 0 {
		t.Errorf("P(a|x) = %v (class %d), want %v", math.Exp(p.LogProbs[0]), p.Class, want)
	}
	// Missing fields are skipped: the scores are the text ones.
	text := mixed.NewScorer().Scores([]int32{0}, []float32{1})
	miss := mixed.NewScorer().ScoresRecord([]int32{0}, []float32{1}, Record{Cat: []string{""}, Num: []float64{math.NaN()}})
	for c := range text {
		if text[c] != miss[c] {
			t.Errorf("missing fields changed class %d's score: %v -> %v", c, text[c], miss[c])
		}
	}
	// Explanations: each field's log-odds share, which sum with the terms'
	// and the biases' to the score difference.
	ex := mixed.NewScorer().ExplainFields(rec, 0, 1)
	if len(ex) != 2 || ex[0].Term != "product=tv" || ex[1].Term != "amount=12" {
		t.Fatalf("ExplainFields = %+v", ex)
	}
	if want := math.Log(0.25 / (2.0 / 3)); math.Abs(ex[0].Value-want) > 1e-12 {
		t.Errorf("product=tv contributes %v, want %v", ex[0].Value, want)
	}
	if want := math.Log(gauss(12, 10, 4.5) / gauss(12, 30, 0.5)); math.Abs(ex[1].Value-want) > 1e-9*math.Abs(want) {
		t.Errorf("amount=12 contributes %v, want %v", ex[1].Value, want)
	}
}

// TestFieldsFile checks that fields survive a save and load and that a
// model with fields is written as version 3, one without as version 2.
func TestFieldsFile(t *testing.T) {
	fx := map[string]*Model{}
	addRecordFixtures(t, fx)
	for name, m := range fx {
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatal(err)
		}
		if v := buf.Bytes()[8]; (m.Fields != nil || m.MultiLabel) != (v == 3) {
			t.Errorf("%s: written as version %d", name, v)
		}
		got, err := Decode(&buf, name)
		if err != nil {
			t.Fatal(err)
		}
		rec := Record{Cat: []string{"tv"}, Num: []float64{12, 1}}
		a := m.NewScorer().ScoresRecord([]int32{0}, []float32{1}, rec)
		b := got.NewScorer().ScoresRecord([]int32{0}, []float32{1}, rec)
		if !sameBits(a, b) {
			t.Errorf("%s: scores %v after a round trip, %v before", name, b, a)
		}
	}
}

// TestFieldsValidate checks that bad fields are refused.
func TestFieldsValidate(t *testing.T) {
	m, err := NewNB(Multinomial, []string{"a", "b"}, testVocab(t, "x"), Params{Alpha: 1}, []float64{1, 1}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*Fields{
		"unsorted":      {Categorical: []CategoricalField{{Name: "p", Values: []string{"b", "a"}, Counts: []float64{1, 1, 1, 1}, Alpha: 1}}},
		"alpha 0":       {Categorical: []CategoricalField{{Name: "p", Values: []string{"a"}, Counts: []float64{1, 1}}}},
		"short counts":  {Categorical: []CategoricalField{{Name: "p", Values: []string{"a"}, Counts: []float64{1}, Alpha: 1}}},
		"twice":         {Numeric: []NumericField{{Name: "n", N: []float64{1, 1}, Mean: []float64{0, 0}, Var: []float64{1, 1}}, {Name: "n", N: []float64{1, 1}, Mean: []float64{0, 0}, Var: []float64{1, 1}}}},
		"zero variance": {Numeric: []NumericField{{Name: "n", N: []float64{1, 1}, Mean: []float64{0, 0}, Var: []float64{0, 1}}}},
		"NaN mean":      {Numeric: []NumericField{{Name: "n", N: []float64{1, 1}, Mean: []float64{math.NaN(), 0}, Var: []float64{1, 1}}}},
	} {
		if err := m.SetFields(f); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	comp, err := NewNB(Complement, []string{"a", "b"}, testVocab(t, "x"), Params{Alpha: 1}, []float64{1, 1}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := comp.SetFields(&Fields{Numeric: []NumericField{{Name: "n", N: []float64{1, 1}, Mean: []float64{0, 0}, Var: []float64{1, 1}}}}); err == nil {
		t.Error("complement NB accepted fields")
	}
}

// TestFieldsOwnScale checks the two scales of the fields of a calibrated
// mixed NB: with OwnScale (every mixed model trained now) the fields'
// log-likelihoods are added as they are to τ·(text score), the text's
// calibrated log-posterior; without it (older files) they are multiplied
// by τ as the text weights are, and such a file keeps scoring as before.
func TestFieldsOwnScale(t *testing.T) {
	const tau = 3
	build := func(own bool) *Model {
		m, err := NewNB(Multinomial, []string{"a", "b"}, testVocab(t, "x", "y", "z"),
			Params{Alpha: 0.5, Prior: "learned", FieldAlpha: 1, Temperature: tau}, []float64{2, 1}, []float64{3, 0, 0, 1.5, 1, 0})
		if err != nil {
			t.Fatal(err)
		}
		f := &Fields{Categorical: []CategoricalField{{Name: "product", Values: []string{"phone", "tv"}, Counts: []float64{2, 0, 0, 1}, Alpha: 1}}, OwnScale: own}
		if err := m.SetFields(f); err != nil {
			t.Fatal(err)
		}
		return m
	}
	rec := Record{Cat: []string{"tv"}}
	field := []float64{math.Log(1.0 / 4), math.Log(2.0 / 3)} // log P(tv|c)
	for _, own := range []bool{false, true} {
		m := build(own)
		text := m.NewScorer().Scores([]int32{0}, []float32{1}) // already times τ
		sc := m.NewScorer().ScoresRecord([]int32{0}, []float32{1}, rec)
		k := 1.0
		if !own {
			k = tau
		}
		for c := range sc {
			if want := text[c] + k*field[c]; math.Abs(sc[c]-want) > 1e-12 {
				t.Errorf("own scale %v: class %d scores %v, want %v", own, c, sc[c], want)
			}
		}
		ex := m.NewScorer().ExplainFields(rec, 0, 1)
		if want := k * (field[0] - field[1]); len(ex) != 1 || math.Abs(ex[0].Value-want) > 1e-12 {
			t.Errorf("own scale %v: explanation %+v, want %v", own, ex, want)
		}
		// The flag survives a save and load.
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(&buf, "own-scale")
		if err != nil {
			t.Fatal(err)
		}
		if back.Fields.OwnScale != own {
			t.Errorf("own scale %v: read back as %v", own, back.Fields.OwnScale)
		}
	}
}
