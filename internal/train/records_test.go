package train

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// loadIris reads Fisher's iris data (testdata/iris.csv at the repository
// root: 150 rows, four measurements in cm and the species).
func loadIris(t *testing.T) (*Records, []int, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "iris.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	r := &Records{Spec: FieldSpec{Numeric: rows[0][:4]}}
	var classes []string
	var y []int
	for _, row := range rows[1:] {
		rec := model.Record{Num: make([]float64, 4)}
		for j := range 4 {
			if rec.Num[j], err = strconv.ParseFloat(row[j], 64); err != nil {
				t.Fatal(err)
			}
		}
		c := slices.Index(classes, row[4])
		if c < 0 {
			c = len(classes)
			classes = append(classes, row[4])
		}
		r.Recs = append(r.Recs, rec)
		y = append(y, c)
	}
	if len(y) != 150 || len(classes) != 3 {
		t.Fatalf("iris: %d rows, %d classes", len(y), len(classes))
	}
	return r, y, classes
}

// TestIrisGaussianNB runs Gaussian NB on Fisher's iris data in stratified
// 10-fold cross-validation: scikit-learn's GaussianNB reaches about 0.95.
func TestIrisGaussianNB(t *testing.T) {
	r, y, classes := loadIris(t)
	_, p := Defaults(model.Gaussian)
	var accs []float64
	for seed := uint64(1); seed <= 3; seed++ {
		folds, err := corpus.StratifiedKFold(y, 10, seed)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, held := range folds {
			rows := corpus.Complement(len(y), held)
			ytr, yte := corpus.Pick(y, rows), corpus.Pick(y, held)
			m, err := FitRecords(model.Gaussian, r.Subset(rows), ytr, classes, p)
			if err != nil {
				t.Fatal(err)
			}
			sum += AccuracyRecords(m, nil, r.Subset(held), yte, 1)
		}
		accs = append(accs, sum/10)
	}
	t.Logf("iris Gaussian NB, 10-fold CV mean accuracy, seeds 1-3: %.4f", accs)
	for i, a := range accs {
		if a < 0.94 {
			t.Errorf("seed %d: 10-fold CV accuracy %.4f, want ≥ 0.94", i+1, a)
		}
	}
	// The class parameters against the known per-species means.
	m, err := FitRecords(model.Gaussian, r, y, classes, p)
	if err != nil {
		t.Fatal(err)
	}
	info := m.FieldInfo()
	if got := *info[2].Classes[0].Mean; math.Abs(got-1.462) > 1e-12 {
		t.Errorf("setosa mean petal length %v, want 1.462", got)
	}
	if got := math.Exp(m.B[0]); math.Abs(got-1.0/3) > 1e-12 {
		t.Errorf("P(setosa) = %v, want 1/3", got)
	}
}

// TestFitFieldsNB checks the estimates on a hand-made set: counts,
// maximum-likelihood mean and variance, ε, and missing values skipped.
func TestFitFieldsNB(t *testing.T) {
	nan := math.NaN()
	r := &Records{Spec: FieldSpec{Categorical: []string{"color"}, Numeric: []string{"size", "weight"}}, Recs: []model.Record{
		{Cat: []string{"red"}, Num: []float64{1, 10}},
		{Cat: []string{"blue"}, Num: []float64{3, nan}},
		{Cat: []string{""}, Num: []float64{nan, 30}},
		{Cat: []string{"red"}, Num: []float64{8, 20}},
	}}
	y := []int{0, 0, 1, 1}
	f, err := FitFieldsNB(r, y, 2, model.Params{FieldAlpha: 1, VarSmoothing: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	cf := f.Categorical[0]
	if !slices.Equal(cf.Values, []string{"blue", "red"}) || !slices.Equal(cf.Counts, []float64{1, 0, 1, 1}) || cf.Alpha != 1 {
		t.Errorf("categorical %+v", cf)
	}
	size, weight := f.Numeric[0], f.Numeric[1]
	if !slices.Equal(size.N, []float64{2, 1}) || !slices.Equal(size.Mean, []float64{2, 8}) || !slices.Equal(size.Var, []float64{1, 0}) {
		t.Errorf("size %+v", size)
	}
	if !slices.Equal(weight.N, []float64{1, 2}) || !slices.Equal(weight.Mean, []float64{10, 25}) || !slices.Equal(weight.Var, []float64{0, 25}) {
		t.Errorf("weight %+v", weight)
	}
	// Largest variance over all values: size {1, 3, 8} → 78/9 = 8.67,
	// weight {10, 30, 20} → 66.67; ε = 0.1 · 66.67.
	if want := 0.1 * 200.0 / 3; math.Abs(size.Epsilon-want) > 1e-12 || weight.Epsilon != size.Epsilon {
		t.Errorf("ε = %v, %v; want %v", size.Epsilon, weight.Epsilon, want)
	}
	m, err := fitCategoricalOnly(r, y)
	if err != nil {
		t.Fatal(err)
	}
	// P(red|c) = (N_red,c + α + m·P̂_red)/(N_c + 2α + m), P̂_red = (2+1)/(3+2):
	// with m = 0, P(red|0) = (1+1)/(2+2) = 1/2, P(red|1) = (1+1)/(1+2) =
	// 2/3; prior 1/2.
	sh := m.Fields.Categorical[0].Shrink
	pr0, pr1 := (2+0.6*sh)/(4+sh), (2+0.6*sh)/(3+sh)
	p := m.NewScorer().PredictRecord(nil, nil, model.Record{Cat: []string{"red"}})
	if want := pr0 / (pr0 + pr1); math.Abs(math.Exp(p.LogProbs[0])-want) > 1e-9 {
		t.Errorf("P(0|red) = %v, want %v", math.Exp(p.LogProbs[0]), want)
	}
}

// TestRecordsClassWeights: a class weight of 3 on categorical NB counts
// as if every record of the class were there three times (its counts and
// its prior); on Gaussian NB it weighs the prior only, a class's mean and
// variance being those of its records whatever their weight.
func TestRecordsClassWeights(t *testing.T) {
	_, y, r := recordsCorpus(300, 5)
	classes := []string{"a", "b", "c", "d"}
	rows := duplicated(y, 2, 3)
	for _, kind := range []model.Kind{model.Categorical, model.Gaussian} {
		spec := FieldSpec{Categorical: r.Spec.Categorical}
		if kind == model.Gaussian {
			spec = FieldSpec{Numeric: r.Spec.Numeric}
		}
		only := &Records{Spec: spec}
		for _, rec := range r.Recs {
			if kind == model.Gaussian {
				only.Recs = append(only.Recs, model.Record{Num: rec.Num})
			} else {
				only.Recs = append(only.Recs, model.Record{Cat: rec.Cat})
			}
		}
		_, p := Defaults(kind)
		plain, err := FitRecords(kind, only, y, classes, p)
		if err != nil {
			t.Fatal(err)
		}
		pw := p
		pw.ClassWeights = []float64{1, 1, 3, 1}
		mw, err := FitRecords(kind, only, y, classes, pw)
		if err != nil {
			t.Fatal(err)
		}
		md, err := FitRecords(kind, only.Subset(rows), corpus.Pick(y, rows), classes, p)
		if err != nil {
			t.Fatal(err)
		}
		for c := range mw.B {
			if math.Abs(mw.B[c]-md.B[c]) > 1e-12 {
				t.Errorf("%s: prior of class %d weighted %v, duplicated %v", kind, c, mw.B[c], md.B[c])
			}
		}
		if kind == model.Categorical {
			if !slices.Equal(mw.Fields.Categorical[0].Counts, md.Fields.Categorical[0].Counts) {
				t.Errorf("categorical counts weighted %v, duplicated %v", mw.Fields.Categorical[0].Counts, md.Fields.Categorical[0].Counts)
			}
			continue
		}
		if !reflect.DeepEqual(mw.Fields, plain.Fields) {
			t.Errorf("gaussian: class weights changed the fields' means or variances")
		}
	}
}

// fitCategoricalOnly fits categorical NB on the categorical fields of r.
func fitCategoricalOnly(r *Records, y []int) (*model.Model, error) {
	_, p := Defaults(model.Categorical)
	cat := &Records{Spec: FieldSpec{Categorical: r.Spec.Categorical}}
	for _, rec := range r.Recs {
		cat.Recs = append(cat.Recs, model.Record{Cat: rec.Cat})
	}
	return FitRecords(model.Categorical, cat, y, []string{"a", "b"}, p)
}

// recordsCorpus generates support tickets in 4 classes whose text is
// weakly informative (a few class words among common ones) and whose
// "product" field names the class 85% of the time, and an "amount" field
// whose mean depends on the class.
func recordsCorpus(n int, seed uint64) (texts []string, y []int, r *Records) {
	rng := rand.New(rand.NewPCG(seed, 11))
	common := strings.Fields("please help issue problem ticket order account service support thanks hello again still")
	r = &Records{Spec: FieldSpec{Categorical: []string{"product"}, Numeric: []string{"amount"}}}
	products := []string{"phone", "tv", "laptop", "camera"}
	for i := 0; i < n; i++ {
		c := rng.IntN(4)
		var words []string
		for range 12 {
			if rng.Float64() < 0.05 {
				words = append(words, fmt.Sprintf("topic%d", c))
			} else {
				words = append(words, common[rng.IntN(len(common))])
			}
		}
		prod := products[c]
		if rng.Float64() < 0.15 {
			prod = products[rng.IntN(4)]
		}
		rec := model.Record{Cat: []string{prod}, Num: []float64{100*float64(c) + 60*rng.NormFloat64()}}
		if rng.Float64() < 0.1 {
			rec.Cat[0] = "" // missing
		}
		texts = append(texts, strings.Join(words, " "))
		y = append(y, c)
		r.Recs = append(r.Recs, rec)
	}
	return texts, y, r
}

// TestMixedBeatsText fits text-only and mixed models on a records corpus
// whose categorical field carries signal the text lacks: the mixed NB and
// logistic regression and the SVM with fields must beat their text-only versions on
// held-out records.
func TestMixedBeatsText(t *testing.T) {
	texts, y, r := recordsCorpus(3000, 1)
	classes := []string{"c0", "c1", "c2", "c3"}
	tr, te := seq(2000), seq(3000)[2000:]
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.LogReg, model.SVM} {
		s, p := Defaults(kind)
		s.Fields, s.StopWords = "", ""
		vocab, X, err := Prepare(corpus.Pick(texts, tr), corpus.Pick(y, tr), 4, s, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		Xte := PrepareWith(vocab, corpus.Pick(texts, te), 1)
		text, err := Fit(kind, X, corpus.Pick(y, tr), classes, vocab, p, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		p.VarSmoothing = model.DefaultVarSmoothing
		mixed, _, err := FitWithFields(kind, X, corpus.Pick(y, tr), classes, vocab, p, Options{Workers: 1}, r.Subset(tr))
		if err != nil {
			t.Fatal(err)
		}
		if mixed.Kind != kind || mixed.Fields == nil {
			t.Fatalf("%s: fitted a %s with fields %v", kind, mixed.Kind, mixed.Fields)
		}
		if kind == model.SVM && !(mixed.Params.Temperature > 0) {
			t.Errorf("svm with fields: not calibrated (params %+v)", mixed.Params)
		}
		a0 := Accuracy(text, Xte, corpus.Pick(y, te), 1)
		a1 := AccuracyRecords(mixed, Xte, r.Subset(te), corpus.Pick(y, te), 1)
		t.Logf("%-11s held-out accuracy: text only %.4f, with the fields %.4f", kind, a0, a1)
		if a1 < a0+0.2 {
			t.Errorf("%s: with the fields %.4f, text only %.4f: want a gain of 0.2 or more", kind, a1, a0)
		}
	}
	// Categorical NB on the product alone, and Gaussian NB on the amount
	// alone, learn their field's signal too.
	_, p := Defaults(model.Categorical)
	cat := &Records{Spec: FieldSpec{Categorical: r.Spec.Categorical}}
	num := &Records{Spec: FieldSpec{Numeric: r.Spec.Numeric}}
	for _, rec := range r.Recs {
		cat.Recs = append(cat.Recs, model.Record{Cat: rec.Cat})
		num.Recs = append(num.Recs, model.Record{Num: rec.Num})
	}
	for _, c := range []struct {
		kind model.Kind
		r    *Records
		min  float64
	}{{model.Categorical, cat, 0.75}, {model.Gaussian, num, 0.5}} {
		m, err := FitRecords(c.kind, c.r.Subset(tr), corpus.Pick(y, tr), classes, p)
		if err != nil {
			t.Fatal(err)
		}
		if a := AccuracyRecords(m, nil, c.r.Subset(te), corpus.Pick(y, te), 1); a < c.min {
			t.Errorf("%s NB: held-out accuracy %.4f, want ≥ %.2f", c.kind, a, c.min)
		}
	}
	for _, k := range []model.Kind{model.Complement, model.NBLR} {
		if _, _, err := FitWithFields(k, nil, y, classes, nil, p, Options{}, r); err == nil {
			t.Errorf("%s with fields accepted", k)
		}
	}
}
