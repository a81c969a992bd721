package train

import (
	"math"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestFitCentroid checks the centroids of the hand-made corpus and that
// the fitted model predicts by cosine similarity.
func TestFitCentroid(t *testing.T) {
	X, y, classes, vocab := handMade(t)
	m, cal, err := FitCentroid(X, y, classes, vocab, model.Params{Temperature: 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cal != nil {
		t.Errorf("a given temperature still calibrated: %+v", cal)
	}
	// Sums: class 0 = (2, 0, 4, 0), class 1 = (1, 5, 0, 1).
	n0, n1 := math.Sqrt(20), math.Sqrt(27)
	want := []float64{2 / n0, 1 / n1, 0, 5 / n1, 4 / n0, 0, 0, 1 / n1}
	for i, w := range want {
		if math.Abs(m.W[i]-w) > 1e-15 {
			t.Errorf("W[%d] = %v, want %v", i, m.W[i], w)
		}
	}
	// (1, 0, 0, 0): cos with class 0 is 2/√20 = 0.447, with class 1
	// 1/√27 = 0.192; (0, 0, 0, 1): only class 1.
	if p := m.Predict([]int32{0}, []float32{1}); p.Class != 0 {
		t.Errorf("t0 alone: class %d, want 0", p.Class)
	}
	if p := m.Predict([]int32{3}, []float32{1}); p.Class != 1 {
		t.Errorf("t3 alone: class %d, want 1", p.Class)
	}
	if _, _, err := FitCentroid(X, y[:3], classes, vocab, model.Params{}, Options{}); err == nil {
		t.Error("3 labels for 4 documents accepted")
	}
}

// TestFitCentroidCalibrated checks that Fit calibrates centroid
// probabilities on held-out folds: the temperature lowers the held-out
// log-loss of a separate test set, and no decision changes.
func TestFitCentroidCalibrated(t *testing.T) {
	Xtr, ytr, Xte, yte, classes, vocab, p := calibData(t, model.Centroid, 2000)
	// The temperature alone, which changes no decision; the class offsets
	// of the default (fitted) do: TestCentroidOffsets.
	p.CentroidOffset = "none"
	raw, _, err := FitCentroid(Xtr, ytr, classes, vocab, p, Options{NoCalibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	m, cal, err := FitCalibrated(model.Centroid, Xtr, ytr, classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cal == nil || cal.Skipped != "" || !(cal.Temperature > 1) {
		t.Fatalf("calibration %+v, want a temperature > 1", cal)
	}
	if m.Params.Temperature != cal.Temperature {
		t.Errorf("model records τ = %v, calibration %v", m.Params.Temperature, cal.Temperature)
	}
	l0, pred0 := meanLogLoss(raw, Xte, yte)
	l1, pred1 := meanLogLoss(m, Xte, yte)
	t.Logf("τ = %.4g, test log-loss %.4f -> %.4f", cal.Temperature, l0, l1)
	if !(l1 < l0) {
		t.Errorf("test log-loss %v at τ = %v, not below %v at τ = 1", l1, cal.Temperature, l0)
	}
	for i := range pred0 {
		if pred0[i] != pred1[i] {
			t.Fatalf("document %d: decision %d became %d", i, pred0[i], pred1[i])
		}
	}
	again, _, err := FitCalibrated(model.Centroid, Xtr, ytr, classes, vocab, p, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if again.Params.Temperature != m.Params.Temperature {
		t.Errorf("τ %v with 1 worker, %v with all", again.Params.Temperature, m.Params.Temperature)
	}
}

// BenchmarkFitCentroid times the default centroid fit (summing, the
// held-out calibration, normalising); compare BenchmarkFitMultinomial.
func BenchmarkFitCentroid(b *testing.B) { benchFit(b, model.Centroid, nil) }

// TestCentroidOffsets checks the class offsets of the nearest centroid on
// a corpus whose class 0 has nine times the documents of each other
// class: "prior" adds the log of each class's share; "fitted" finds
// offsets that lower the held-out log-loss below that of τ alone, which
// sum to about zero (the ridge picks them among offsets equal up to a
// constant) and favour the large class; "none" keeps B = 0. The offsets
// are saved in the parameters, so a model rebuilt from counts
// (FitCentroidStats, as 'nbtext update' does) keeps them.
func TestCentroidOffsets(t *testing.T) {
	s := makeSkewed(t, 1200, 60, 4, 8, 0.35, 3)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	fit := func(offset string) (*model.Model, *Calibration) {
		t.Helper()
		m, cal, err := FitCentroid(X, s.Y, s.Classes, vocab, model.Params{CentroidOffset: offset, Seed: 1}, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return m, cal
	}
	none, calNone := fit("none")
	for c, b := range none.B {
		if b != 0 {
			t.Errorf("none: B[%d] = %v, want 0", c, b)
		}
	}
	prior, _ := fit("prior")
	sizes := ClassSizes(s.Y, len(s.Classes))
	for c, b := range prior.B {
		if want := math.Log(float64(sizes[c]) / float64(len(s.Y))); math.Abs(b-want) > 1e-12 {
			t.Errorf("prior: B[%d] = %v, want log(%d/%d) = %v", c, b, sizes[c], len(s.Y), want)
		}
	}
	fitted, cal := fit("fitted")
	if cal == nil || cal.Skipped != "" {
		t.Fatalf("fitted: no calibration: %+v", cal)
	}
	if !(cal.LogLoss < calNone.LogLoss) {
		t.Errorf("fitted offsets: held-out log-loss %v, not below τ alone's %v", cal.LogLoss, calNone.LogLoss)
	}
	sum := 0.0
	for _, b := range fitted.B {
		sum += b
	}
	if math.Abs(sum) > 1e-3 {
		t.Errorf("fitted offsets sum to %v, want about 0", sum)
	}
	for c := 1; c < len(s.Classes); c++ {
		if !(fitted.B[0] > fitted.B[c]) {
			t.Errorf("fitted: B[0] = %v of the large class not above B[%d] = %v", fitted.B[0], c, fitted.B[c])
		}
	}
	if fitted.Params.CentroidOffset != "fitted" || len(fitted.Params.CentroidBias) != len(s.Classes) {
		t.Fatalf("fitted: params %+v do not record the offsets", fitted.Params)
	}
	sums, err := classSums(X, s.Y, len(s.Classes))
	if err != nil {
		t.Fatal(err)
	}
	again, err := model.NewCentroid(s.Classes, vocab, fitted.Params, sums)
	if err != nil {
		t.Fatal(err)
	}
	for c := range fitted.B {
		if again.B[c] != fitted.B[c] {
			t.Errorf("rebuilt from sums: B[%d] = %v, want %v", c, again.B[c], fitted.B[c])
		}
	}
	if _, _, err := FitCentroid(X, s.Y, s.Classes, vocab, model.Params{CentroidOffset: "median"}, Options{}); err == nil {
		t.Error("--centroid-offset median accepted")
	}
}
