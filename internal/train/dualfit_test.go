package train

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// fitKind is FitSVM or FitNBLR, as kind says.
func fitKind(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	if kind == model.SVM {
		return FitSVM(X, y, classes, vocab, p, opt)
	}
	return FitNBLR(X, y, classes, vocab, p, opt)
}

// dualParams returns the test parameters of kind, model.SVM or model.NBLR.
func dualParams(kind model.Kind) model.Params {
	if kind == model.NBLR {
		return nblrParams(0.5, 0.5)
	}
	return svmParams(1)
}

// TestDualFitRows checks that a dualFit on some rows of the matrix, read
// in place, fits the model a fit on a copy of those rows fits (the SVM bit
// for bit; NB-LR's mean weight magnitude is summed in another order), and
// that a later fit on all rows, which reuses the first fit's arrays, is
// the fresh fit's model bit for bit.
func TestDualFitRows(t *testing.T) {
	s := makeSynthetic(t, 300, 80, 4, 0.3, 21)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	var rows []int
	for i := range s.Y {
		if i%5 != 2 {
			rows = append(rows, i)
		}
	}
	yr := corpus.Pick(s.Y, rows)
	for _, kind := range []model.Kind{model.SVM, model.NBLR} {
		p := dualParams(kind)
		opt := Options{Workers: 2}
		f, err := newDualFit(kind, X, s.Y, s.Classes, vocab, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.fit(rows, yr, opt, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fitKind(kind, X.Subset(rows), yr, s.Classes, vocab, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		tol := 0.0
		if kind == model.NBLR {
			tol = 1e-12
		}
		for i := range want.W {
			if math.Abs(got.W[i]-want.W[i]) > tol*math.Abs(want.W[i]) {
				t.Fatalf("%s on rows in place: W[%d] = %v, on their copy %v", kind, i, got.W[i], want.W[i])
			}
		}
		for c := range want.B {
			if math.Abs(got.B[c]-want.B[c]) > tol*math.Abs(want.B[c]) {
				t.Fatalf("%s on rows in place: B[%d] = %v, on their copy %v", kind, c, got.B[c], want.B[c])
			}
		}
		all, err := f.fit(nil, s.Y, opt, 0)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := fitKind(kind, X, s.Y, s.Classes, vocab, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(all.W, fresh.W) || !slices.Equal(all.B, fresh.B) {
			t.Fatalf("%s: the fit reusing a fold fit's arrays differs from a fresh fit", kind)
		}
	}
}

// TestFitCalibratedSVMAsBefore checks that Fit's SVM, whose calibration
// fold is fitted on the rows in place before the final fit, is the model
// of a final fit calibrated on a fold fitted on a copy of its rows, bit
// for bit.
func TestFitCalibratedSVMAsBefore(t *testing.T) {
	s := makeSynthetic(t, 400, 100, 4, 0.25, 6)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	p := svmParams(1)
	m, cal, err := FitCalibrated(model.SVM, X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	copt := Options{calibEps: CalibrationSVMEps, calibIter: calibrationIter(model.SVM)}
	copyFit := func(rows, y []int) (func() *model.Scorer, error) {
		m, err := FitSVM(X.Subset(rows), y, s.Classes, vocab, p, copt)
		if err != nil {
			return nil, err
		}
		return m.NewScorer, nil
	}
	want, err := calibrateCrossFit(copyFit, X, s.Y, len(s.Classes), p.Seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	if *cal != *want {
		t.Fatalf("calibration %+v, on copied rows %+v", cal, want)
	}
	raw, err := FitSVM(X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := applyTemperature(raw, want.Temperature); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.W, raw.W) || !slices.Equal(m.B, raw.B) || m.Params.Temperature != raw.Params.Temperature {
		t.Fatal("calibrated SVM differs from the final fit calibrated on copied rows")
	}
}

// TestDualFitTemperature checks that a fit given a temperature writes the
// weights applyTemperature would, bit for bit, with two classes and more,
// and fails as it does when the temperature overflows a weight.
func TestDualFitTemperature(t *testing.T) {
	overflows := 0
	for _, nc := range []int{2, 3} {
		s := makeSynthetic(t, 200, 60, nc, 0.3, 5)
		X, vocab := s.weighted(t, "tfidf", true, "l2")
		for _, kind := range []model.Kind{model.SVM, model.NBLR} {
			p := dualParams(kind)
			f, err := newDualFit(kind, X, s.Y, s.Classes, vocab, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.fit(nil, s.Y, Options{}, 3.7)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fitKind(kind, X, s.Y, s.Classes, vocab, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := applyTemperature(want, 3.7); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.W, want.W) || !slices.Equal(got.B, want.B) || got.Params.Temperature != 3.7 {
				t.Fatalf("%s, %d classes: the weights written at τ = 3.7 differ from applyTemperature's", kind, nc)
			}
			// Every weight or bias of magnitude above 1 overflows.
			huge := math.MaxFloat64
			_, err = f.fit(nil, s.Y, Options{}, huge)
			fresh, _ := fitKind(kind, X, s.Y, s.Classes, vocab, p, Options{})
			wantErr := applyTemperature(fresh, huge)
			if (err == nil) != (wantErr == nil) || err != nil && !strings.Contains(err.Error(), "overflows") {
				t.Fatalf("%s, %d classes: τ = MaxFloat64 gave %v, applyTemperature %v", kind, nc, err, wantErr)
			}
			if err != nil {
				overflows++
			}
		}
	}
	if overflows == 0 {
		t.Fatal("no case overflowed: the test checks nothing")
	}
}
