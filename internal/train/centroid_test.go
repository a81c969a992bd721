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
