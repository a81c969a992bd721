package eval

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

func TestCrossValidate(t *testing.T) {
	texts, y, classes := synthCorpus(3, 30, 9)
	spec := DefaultModelSpec(model.Multinomial)
	var first *CVResult
	for _, w := range []int{1, 2} {
		calls := 0
		res, err := CrossValidate(texts, y, classes, spec.Settings, spec.Kind, spec.Params, 3, 7,
			CVOptions{Workers: w, Progress: func(done, total int) { calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 3 {
			t.Errorf("progress called %d times, want 3", calls)
		}
		if first == nil {
			first = res
			continue
		}
		for i := range res.Folds {
			res.Folds[i].Report, first.Folds[i].Report = nil, nil
		}
		if !reflect.DeepEqual(res, first) {
			t.Errorf("workers %d: result differs", w)
		}
	}
	total := 0
	sum := 0.0
	for _, f := range first.Folds {
		total += f.TestDocs
		sum += f.Accuracy
		if f.TrainDocs+f.TestDocs != 90 {
			t.Errorf("fold %d: %d + %d documents", f.Fold, f.TrainDocs, f.TestDocs)
		}
	}
	if total != 90 || math.Abs(first.Mean.Accuracy-sum/3) > 1e-12 || first.Std.Accuracy < 0 {
		t.Errorf("held-out total %d, mean %g vs %g", total, first.Mean.Accuracy, sum/3)
	}

	// Fold 1 by hand: vocabulary fitted on the training part only.
	folds, _ := corpus.StratifiedKFold(y, 3, 7)
	rows := corpus.Complement(90, folds[0])
	var trT, hoT []string
	var trY []int
	for _, r := range rows {
		trT, trY = append(trT, texts[r]), append(trY, y[r])
	}
	var hoL []string
	for _, r := range folds[0] {
		hoT, hoL = append(hoT, texts[r]), append(hoL, classes[y[r]])
	}
	v, X, err := train.Prepare(trT, trY, 3, spec.Settings, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.Fit(spec.Kind, X, trY, classes, v, spec.Params, train.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := EvaluateTexts(m, hoT, hoL, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := first.Folds[0]
	if f.Terms != v.Len() || f.Accuracy != rep.Accuracy || f.MacroF1 != rep.Macro.F1 || f.LogLoss != rep.LogLoss {
		t.Errorf("fold 1 = %+v; by hand: %d terms, accuracy %g, macro F1 %g, log-loss %g", f, v.Len(), rep.Accuracy, rep.Macro.F1, rep.LogLoss)
	}

	if _, err := CrossValidate(texts, y, classes, spec.Settings, spec.Kind, spec.Params, 1, 7, CVOptions{}); err == nil || !strings.Contains(err.Error(), "folds must be at least 2") {
		t.Errorf("k=1: %v", err)
	}
}

// TestCVGolden pins the three CV formats on a hand-made result.
func TestCVGolden(t *testing.T) {
	r := &CVResult{Model: "multinomial", K: 3, Seed: 1, N: 300}
	for i, a := range []float64{0.81, 0.84, 0.79} {
		r.Folds = append(r.Folds, Fold{Fold: i + 1, TrainDocs: 200, TestDocs: 100, Terms: 1500 + 10*i,
			Accuracy: a, MacroF1: a - 0.02, WeightedF1: a - 0.01, LogLoss: 1 - a})
	}
	r.summarize()
	if math.Abs(r.Mean.Accuracy-0.8133333333333334) > 1e-12 || math.Abs(r.Std.Accuracy-0.025166114784235856) > 1e-12 {
		t.Errorf("mean %v std %v", r.Mean.Accuracy, r.Std.Accuracy)
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"cv.txt":  func(b *bytes.Buffer) error { return r.WriteTable(b) },
		"cv.tsv":  func(b *bytes.Buffer) error { return r.WriteTSV(b) },
		"cv.json": func(b *bytes.Buffer) error { return r.WriteJSON(b) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, name, b.Bytes())
	}
}

// TestCurveTableGolden pins the learning-curve table on a hand-made result,
// crossovers included.
func TestCurveTableGolden(t *testing.T) {
	c := handCurve(MetricError, []string{"bernoulli", "multinomial", "logreg"}, []int{10, 100, 1000, 2000}, [][]float64{
		{0.60, 0.75, 0.85, 0.86},
		{0.70, 0.84, 0.90, 0.91},
		{0.65, 0.80, 0.89, 0.93},
	}, 0.004)
	c.Corpus, c.Classes, c.Seed = "20news-bydate", []string{"comp.graphics", "sci.crypt"}, 1
	var b bytes.Buffer
	if err := c.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "curve_hand.txt", b.Bytes())
}

func TestEvaluateModelNeedsLabels(t *testing.T) {
	texts, y, classes := synthCorpus(2, 10, 1)
	spec := DefaultModelSpec(model.Bernoulli)
	v, X, err := train.Prepare(texts, y, 2, spec.Settings, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.Fit(spec.Kind, X, y, classes, v, spec.Params, train.Options{})
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]string, len(texts))
	for i := range labels {
		labels[i] = classes[y[i]]
	}
	labels[3] = "other"
	r, err := EvaluateModel(m, X, labels, Options{TopK: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Unknown["other"] != 1 || r.N != 20 || r.Correct > 19 {
		t.Errorf("unknown %v n %d correct %d", r.Unknown, r.N, r.Correct)
	}
	labels[5] = ""
	if _, err := EvaluateModel(m, X, labels, Options{}, 1); err == nil || !strings.Contains(err.Error(), "document 6 has no label") {
		t.Errorf("unlabelled: %v", err)
	}
}

// TestCrossValidateFit checks that CVOptions.Fit fits every fold, and
// that a Fit which fits as the default does gives the same result.
func TestCrossValidateFit(t *testing.T) {
	texts, y, classes := synthCorpus(3, 30, 4)
	spec := DefaultModelSpec(model.Complement)
	spec.Settings.MinDF = 1
	want, err := CrossValidate(texts, y, classes, spec.Settings, spec.Kind, spec.Params, 3, 5, CVOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	fits := 0
	opt := CVOptions{Workers: 2, Fit: func(X *vectorize.Matrix, y []int, vocab *vectorize.Vocabulary, recs *train.Records) (*model.Model, error) {
		mu.Lock()
		fits++
		mu.Unlock()
		if recs != nil {
			t.Errorf("records %v for a text model", recs)
		}
		return train.Fit(spec.Kind, X, y, classes, vocab, spec.Params, train.Options{Workers: 1})
	}}
	got, err := CrossValidate(texts, y, classes, spec.Settings, spec.Kind, spec.Params, 3, 5, opt)
	if err != nil {
		t.Fatal(err)
	}
	if fits != 3 {
		t.Errorf("Fit called %d times, want 3", fits)
	}
	if got.Mean != want.Mean || got.Std != want.Std {
		t.Errorf("with Fit: mean %+v ± %+v, want %+v ± %+v", got.Mean, got.Std, want.Mean, want.Std)
	}
	// A Fit that fails fails the cross-validation, naming the fold.
	opt.Fit = func(*vectorize.Matrix, []int, *vectorize.Vocabulary, *train.Records) (*model.Model, error) {
		return nil, errors.New("no fit")
	}
	if _, err := CrossValidate(texts, y, classes, spec.Settings, spec.Kind, spec.Params, 3, 5, opt); err == nil || !strings.Contains(err.Error(), "fold 1: no fit") {
		t.Errorf("failing Fit: error %v", err)
	}
}
