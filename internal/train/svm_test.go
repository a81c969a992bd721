package train

import (
	"math"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

func svmParams(C float64) model.Params {
	_, p := Defaults(model.SVM)
	p.C = C
	return p
}

// primalGradient returns the largest absolute component of the gradient
// of the L2-loss SVC primal of class pos against the rest,
// ½‖w‖² + Σ_i C_i max(0, 1 - y_i(wᵀx_i + b))², the bias feature's weight
// last; w = (W[·, pos], b) as oneVsRest stores a problem's solution.
func primalGradient(X *vectorize.Matrix, y []int, pos int, cost []float64, w []float64, b float64) float64 {
	nf := X.Cols
	g := make([]float64, nf+1)
	copy(g, w)
	g[nf] = b
	for i := 0; i < X.Rows(); i++ {
		yi := -1.0
		if y[i] == pos {
			yi = 1
		}
		ind, val := X.Row(i)
		z := b
		for j, t := range ind {
			z += w[t] * float64(val[j])
		}
		if m := 1 - yi*z; m > 0 {
			c := -2 * cost[y[i]] * m * yi
			for j, t := range ind {
				g[t] += c * float64(val[j])
			}
			g[nf] += c
		}
	}
	worst := 0.0
	for _, v := range g {
		worst = max(worst, math.Abs(v))
	}
	return worst
}

// TestSVMOptimal checks that the dual solver reaches the primal optimum of
// every one-vs-rest problem: with a tight tolerance the primal gradient
// vanishes, for two classes (one problem, W = ±f/2) and for four, with
// class weights.
func TestSVMOptimal(t *testing.T) {
	for _, nc := range []int{2, 4} {
		s := makeSynthetic(t, 200, 60, nc, 0.6, 3)
		X, _ := s.weighted(t, "tfidf", true, "l2")
		p := svmParams(2)
		p.ClassWeights = make([]float64, nc)
		for c := range p.ClassWeights {
			p.ClassWeights[c] = 1 + float64(c)/2
		}
		pr := newSVC(X, s.Y, nc, p)
		pr.eps = 1e-6
		W, B := pr.oneVsRest(nc, nil, nil, 1, Options{Workers: 2})
		probs := nc
		if nc == 2 {
			probs = 1
		}
		for k := 0; k < probs; k++ {
			pos, col, scale := k, k, 1.0
			if nc == 2 {
				pos, col, scale = 1, 1, 2
			}
			w := make([]float64, X.Cols)
			for t := range w {
				w[t] = W[t*nc+col] * scale
			}
			if g := primalGradient(X, s.Y, pos, pr.cost, w, B[col]*scale); g > 1e-3 {
				t.Errorf("%d classes, problem %d: primal gradient %.3g at the solution", nc, k, g)
			}
		}
		if nc == 2 {
			for j := 0; j < X.Cols; j++ {
				if W[j*2] != -W[j*2+1] {
					t.Fatalf("two classes: W[%d] = %v, %v, want opposite", j, W[j*2], W[j*2+1])
				}
			}
		}
	}
}

// TestSVMGroupsIndependent checks that a problem's solution does not
// depend on the other problems solved with it, so that neither the
// grouping nor the worker count changes the model.
func TestSVMGroupsIndependent(t *testing.T) {
	s := makeSynthetic(t, 300, 80, 5, 0.5, 4)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	pr := newSVC(X, s.Y, 5, svmParams(1))
	all, ball := pr.solveGroup([]int{0, 1, 2, 3, 4}, nil, nil)
	for k := 0; k < 5; k++ {
		one, b := pr.solveGroup([]int{k}, nil, nil)
		for j := 0; j < X.Cols; j++ {
			if one[j] != all[j*5+k] {
				t.Fatalf("problem %d alone: w[%d] = %v, in the group %v", k, j, one[j], all[j*5+k])
			}
		}
		if b[0] != ball[k] {
			t.Fatalf("problem %d alone: bias %v, in the group %v", k, b[0], ball[k])
		}
	}
	var ref *model.Model
	for _, workers := range []int{1, 2, 3, 4} {
		m, err := Fit(model.SVM, X, s.Y, s.Classes, vocab, svmParams(1), Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = m
			continue
		}
		if !slices.Equal(m.W, ref.W) || !slices.Equal(m.B, ref.B) || m.Params.Temperature != ref.Params.Temperature {
			t.Errorf("%d workers: a different model than with 1", workers)
		}
	}
}

// TestSVMCalibrated checks that Fit calibrates the SVM's decision values
// (a temperature that lowers the held-out log-loss, recorded in the
// model) without changing a decision, and learns a separable problem.
func TestSVMCalibrated(t *testing.T) {
	s := makeSynthetic(t, 400, 100, 4, 0.25, 6)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	p := svmParams(1)
	raw, err := Fit(model.SVM, X, s.Y, s.Classes, vocab, p, Options{NoCalibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	m, cal, err := FitCalibrated(model.SVM, X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cal == nil || cal.Skipped != "" || !(cal.LogLoss < cal.LogLoss1) {
		t.Fatalf("calibration %+v, want a temperature lowering the held-out log-loss", cal)
	}
	if m.Params.Temperature != cal.Temperature || m.W[7] != raw.W[7]*cal.Temperature {
		t.Errorf("model temperature %v, calibration %v, W[7] %v vs raw %v", m.Params.Temperature, cal.Temperature, m.W[7], raw.W[7])
	}
	if a, b := Accuracy(m, X, s.Y, 1), Accuracy(raw, X, s.Y, 1); a != b || a < 0.9 {
		t.Errorf("training accuracy calibrated %.4f, raw %.4f", a, b)
	}
}

// TestClassWeightsSVMDuplicate checks that a class weight of 2 is the same
// problem as every document of that class given twice.
func TestClassWeightsSVMDuplicate(t *testing.T) {
	s := makeSynthetic(t, 150, 40, 3, 0.5, 8)
	X, _ := s.weighted(t, "tfidf", true, "l2")
	p := svmParams(1)
	p.ClassWeights = []float64{1, 2, 1}
	var rows []int
	for i, c := range s.Y {
		rows = append(rows, i)
		if c == 1 {
			rows = append(rows, i)
		}
	}
	pw, pd := newSVC(X, s.Y, 3, p), newSVC(X.Subset(rows), corpus.Pick(s.Y, rows), 3, svmParams(1))
	pw.eps, pd.eps = 1e-7, 1e-7
	Ww, Bw := pw.oneVsRest(3, nil, nil, 1, Options{})
	Wd, Bd := pd.oneVsRest(3, nil, nil, 1, Options{})
	for i := range Ww {
		if math.Abs(Ww[i]-Wd[i]) > 1e-4 {
			t.Fatalf("W[%d]: weighted %v, duplicated %v", i, Ww[i], Wd[i])
		}
	}
	for c := range Bw {
		if math.Abs(Bw[c]-Bd[c]) > 1e-4 {
			t.Fatalf("B[%d]: weighted %v, duplicated %v", c, Bw[c], Bd[c])
		}
	}
}

// TestTuneLinearC checks that --C auto searches the SVM's and NB-LR's own
// grids.
func TestTuneLinearC(t *testing.T) {
	s := makeSynthetic(t, 120, 40, 3, 0.4, 14)
	for kind, grid := range map[model.Kind][]float64{model.SVM: SVMCGrid, model.NBLR: NBLRCGrid} {
		set, p := Defaults(kind)
		X, vocab := s.weighted(t, set.Weighting, set.Sublinear, set.Norm)
		tu, err := TuneMatrix(kind, X, s.Y, s.Classes, vocab, p, TuneOptions{Folds: 3, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if tu.Param != "C" || len(tu.Candidates) != len(grid) || tu.Candidates[0].Value != grid[0] {
			t.Errorf("%s: searched %s over %d candidates", kind, tu.Param, len(tu.Candidates))
		}
		if tu.Candidates[tu.Best].Mean < 0.8 {
			t.Errorf("%s: best cross-validated accuracy %.3f", kind, tu.Candidates[tu.Best].Mean)
		}
	}
}

// TestSolverTolerance checks that the SVM and NB-LR stop at their own
// tolerances (defaults.go), and that a calibration fit's looser one
// replaces a tighter one only.
func TestSolverTolerance(t *testing.T) {
	for _, c := range []struct {
		kind        model.Kind
		calib, want float64
	}{
		{model.SVM, 0, DefaultSVMEps},
		{model.NBLR, 0, DefaultNBLREps},
		{model.SVM, CalibrationSVMEps, CalibrationSVMEps},
		{model.NBLR, 0.01, DefaultNBLREps},
	} {
		if got := (Options{calibEps: c.calib}).svmEps(c.kind); got != c.want {
			t.Errorf("%s, calibration eps %v: eps %v, want %v", c.kind, c.calib, got, c.want)
		}
	}
}

// TestCalibrationPassCap checks that the fold fits of the calibration stop
// after CalibrationSVMIter passes: a fit with the cap is the fit with
// p.Epochs = CalibrationSVMIter.
func TestCalibrationPassCap(t *testing.T) {
	s := makeSynthetic(t, 300, 80, 4, 0.5, 13)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	p := svmParams(1)
	capped, err := FitSVM(X, s.Y, s.Classes, vocab, p, Options{calibIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	p1 := p
	p1.Epochs = 1
	one, err := FitSVM(X, s.Y, s.Classes, vocab, p1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := FitSVM(X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(capped.W, one.W) || slices.Equal(capped.W, full.W) {
		t.Errorf("a fit capped at 1 pass: equal to 1 epoch %v, to the uncapped fit %v", slices.Equal(capped.W, one.W), slices.Equal(capped.W, full.W))
	}
}

// TestCalibrationIter checks each kind's pass cap of the calibration fold
// fits: 2 for the SVM, 3 for NB-LR (defaults.go).
func TestCalibrationIter(t *testing.T) {
	if got := calibrationIter(model.SVM); got != 2 {
		t.Errorf("svm: %d passes, want 2", got)
	}
	if got := calibrationIter(model.NBLR); got != 3 {
		t.Errorf("nblr: %d passes, want 3", got)
	}
}

// TestByFrequency checks byFrequency's numbering against its definition,
// a stable sort of the term ids by falling document frequency, on a
// corpus with many ties and terms that no document holds, and that it
// renumbers every non-zero.
func TestByFrequency(t *testing.T) {
	s := makeSynthetic(t, 200, 300, 4, 0.5, 21)
	X, _ := s.weighted(t, "tfidf", true, "l2")
	X.Cols += 7 // terms of frequency 0
	df := make([]int, X.Cols)
	for _, t := range X.Indices[:X.Indptr[X.Rows()]] {
		df[t]++
	}
	ids := make([]int32, X.Cols)
	for t := range ids {
		ids[t] = int32(t)
	}
	slices.SortStableFunc(ids, func(a, b int32) int { return df[b] - df[a] })
	perm, Xp := byFrequency(X)
	for u, id := range ids {
		if perm[id] != int32(u) {
			t.Fatalf("term %d (df %d): number %d, want %d", id, df[id], perm[id], u)
		}
	}
	for j, id := range X.Indices[:X.Indptr[X.Rows()]] {
		if Xp.Indices[j] != perm[id] {
			t.Fatalf("non-zero %d: term %d renumbered %d, want %d", j, id, Xp.Indices[j], perm[id])
		}
	}
}
