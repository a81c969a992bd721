package train

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nbtext/nbtext/internal/model"
)

// records2D returns records of two numeric fields x, y.
func records2D(pts [][2]float64) *Records {
	r := &Records{Spec: FieldSpec{Numeric: []string{"x", "y"}}}
	for _, p := range pts {
		r.Recs = append(r.Recs, model.Record{Num: []float64{p[0], p[1]}})
	}
	return r
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// TestLDABoundary checks LDA on two squares of side 2 centred at (1, 1)
// and (5, 1): by hand, Σ = I (each coordinate takes two values ±1 about
// its class mean), W_a = Σ⁻¹μ_a = (1, 1), W_b = (5, 1), and with equal
// priors δ_b(x) - δ_a(x) = 4x₁ - 12: the boundary is the line x₁ = 3,
// whatever x₂, and at (4, 1) P(b|x) = σ(4).
func TestLDABoundary(t *testing.T) {
	r := records2D([][2]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}, {4, 0}, {6, 0}, {4, 2}, {6, 2}})
	y := []int{0, 0, 0, 0, 1, 1, 1, 1}
	m, err := FitDiscriminant(model.LDA, r, y, []string{"a", "b"}, model.Params{Prior: "learned"})
	if err != nil {
		t.Fatal(err)
	}
	f := m.Fields.Numeric
	want := [2][2]float64{{1, 5}, {1, 1}} // [field][class]
	for j := range 2 {
		for c := range 2 {
			if !near(f[j].Weights[c], want[j][c], 1e-12) {
				t.Errorf("W[%s][%d] = %v, want %v", f[j].Name, c, f[j].Weights[c], want[j][c])
			}
		}
	}
	s := m.NewScorer()
	logOdds := func(x, y float64) float64 {
		sc := s.ScoresRecord(nil, nil, model.Record{Num: []float64{x, y}})
		return sc[1] - sc[0]
	}
	for _, x2 := range []float64{-10, 1, 7} {
		if lo := logOdds(3, x2); math.Abs(lo) > 1e-12 {
			t.Errorf("log-odds on the boundary (3, %v) = %v, want 0", x2, lo)
		}
		if lo := logOdds(2.9, x2); !near(lo, -0.4, 1e-12) {
			t.Errorf("log-odds at (2.9, %v) = %v, want -0.4", x2, lo)
		}
	}
	p := s.PredictRecord(nil, nil, model.Record{Num: []float64{4, 1}})
	if want := 1 / (1 + math.Exp(-4)); p.Class != 1 || !near(math.Exp(p.LogProbs[1]), want, 1e-12) {
		t.Errorf("at (4, 1): class %d, P(b) = %v, want 1 and %v", p.Class, math.Exp(p.LogProbs[1]), want)
	}
	// A missing value is the training mean (3 for x): on the boundary.
	if sc := s.ScoresRecord(nil, nil, model.Record{Num: []float64{math.NaN(), 5}}); math.Abs(sc[1]-sc[0]) > 1e-12 {
		t.Errorf("missing x: log-odds %v, want 0", sc[1]-sc[0])
	}
	// The explanation is each field's exact share of the log-odds.
	ex := s.ExplainFields(model.Record{Num: []float64{4, 1}}, 1, 0)
	if len(ex) != 2 || !near(ex[0].Value+ex[1].Value+m.B[1]-m.B[0], 4, 1e-12) {
		t.Errorf("explanation %+v does not add up to the log-odds 4", ex)
	}
}

// TestQDAOneField checks QDA on one field where class a is {-1, 1}
// (mean 0, ML variance 1) and b is {-3, 3} (variance 9): by hand,
// δ_a(x) - δ_b(x) = ½ log 9 - x²·(1 - 1/9)/2, so P(a|0) = 3/4 and the
// boundary is |x| = √(9/8 · log 9) ≈ 1.5722.
func TestQDAOneField(t *testing.T) {
	r := &Records{Spec: FieldSpec{Numeric: []string{"x"}}}
	for _, x := range []float64{-1, 1, -3, 3} {
		r.Recs = append(r.Recs, model.Record{Num: []float64{x}})
	}
	m, err := FitDiscriminant(model.QDA, r, []int{0, 0, 1, 1}, []string{"a", "b"}, model.Params{})
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewScorer()
	p := s.PredictRecord(nil, nil, model.Record{Num: []float64{0}})
	if p.Class != 0 || !near(math.Exp(p.LogProbs[0]), 0.75, 1e-12) {
		t.Errorf("P(a|0) = %v (class %d), want 0.75", math.Exp(p.LogProbs[0]), p.Class)
	}
	xb := math.Sqrt(9.0 / 8 * math.Log(9))
	for _, x := range []float64{xb, -xb} {
		if sc := s.ScoresRecord(nil, nil, model.Record{Num: []float64{x}}); math.Abs(sc[0]-sc[1]) > 1e-12 {
			t.Errorf("log-odds at %v = %v, want 0", x, sc[0]-sc[1])
		}
	}
	// The score is the log joint density: log ½ + log N(2; 0, 1).
	sc := s.ScoresRecord(nil, nil, model.Record{Num: []float64{2}})
	if want := math.Log(0.5) - 0.5*math.Log(2*math.Pi) - 2; !near(sc[0], want, 1e-12) {
		t.Errorf("score of a at 2 = %v, want %v", sc[0], want)
	}
}

// TestQDATwoFields checks the covariance, precision and log-determinant of
// a 2-D class by hand: class a's points (-1, -1) and (1, 1) give the ML
// covariance S_a = [[1, 1], [1, 1]], singular without --reg-param; with
// r = 0.5, Σ_a = 0.5·S_a + 0.5·I = [[1, .5], [.5, 1]] and |Σ_a| = 0.75.
func TestQDATwoFields(t *testing.T) {
	r := records2D([][2]float64{{-1, -1}, {1, 1}, {-1, -1}, {1, 1}, {0, 0}, {2, 0}, {0, 2}, {2, 2}})
	y := []int{0, 0, 0, 0, 1, 1, 1, 1}
	_, err := FitDiscriminant(model.QDA, r, y, []string{"a", "b"}, model.Params{})
	if err == nil || !strings.Contains(err.Error(), "class a") || !strings.Contains(err.Error(), "--reg-param") {
		t.Fatalf("singular class covariance: got %v, want an error naming class a and --reg-param", err)
	}
	m, err := FitDiscriminant(model.QDA, r, y, []string{"a", "b"}, model.Params{RegParam: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	q := m.Fields.Quadratic
	for i, want := range []float64{1, 0.5, 0.5, 1} {
		if !near(q.Cov[i], want, 1e-12) {
			t.Errorf("Σ_a[%d] = %v, want %v", i, q.Cov[i], want)
		}
	}
	// B[a] = log ½ - ½ log 0.75 - log 2π; at x = μ_a = 0 the score is B.
	sc := m.NewScorer().ScoresRecord(nil, nil, model.Record{Num: []float64{0, 0}})
	if want := math.Log(0.5) - 0.5*math.Log(0.75) - math.Log(2*math.Pi); !near(sc[0], want, 1e-12) {
		t.Errorf("score of a at its mean = %v, want %v", sc[0], want)
	}
	// At (1, -1): Δᵀ Σ⁻¹ Δ with Σ⁻¹ = (4/3)[[1, -.5], [-.5, 1]] is 4.
	sc = m.NewScorer().ScoresRecord(nil, nil, model.Record{Num: []float64{1, -1}})
	if want := math.Log(0.5) - 0.5*math.Log(0.75) - math.Log(2*math.Pi) - 2; !near(sc[0], want, 1e-12) {
		t.Errorf("score of a at (1, -1) = %v, want %v", sc[0], want)
	}
}

// TestLedoitWolf checks the shrinkage against scikit-learn's
// ledoit_wolf_shrinkage on the same 5×3 matrix (computed by hand with
// scikit-learn 1.2.1: 0.6668293493699184).
func TestLedoitWolf(t *testing.T) {
	X := mat.NewDense(5, 3, []float64{1, 2, 0.5, 2, 1, 1.5, 3, 5, 2, 4, 3, -1, 0, 0, 1})
	for j := range 3 {
		mu := mat.Sum(X.ColView(j)) / 5
		for i := range 5 {
			X.Set(i, j, X.At(i, j)-mu)
		}
	}
	if got := LedoitWolf(X); !near(got, 0.6668293493699184, 1e-12) {
		t.Errorf("LedoitWolf = %v, want 0.6668293493699184", got)
	}
	if got := LedoitWolf(mat.NewDense(3, 1, []float64{-1, 0, 1})); got != 0 {
		t.Errorf("one field: %v, want 0", got)
	}
}

// TestLDAShrinkageIris checks LDA with --shrinkage auto on iris against
// scikit-learn's LinearDiscriminantAnalysis(solver="lsqr",
// shrinkage="auto").decision_function at four points (values computed by
// hand with scikit-learn 1.2.1): nbtext's score is the same function.
func TestLDAShrinkageIris(t *testing.T) {
	r, y, classes := loadIris(t)
	m, err := FitDiscriminant(model.LDA, r, y, classes, model.Params{Shrinkage: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	pts := [][]float64{{5.0, 3.0, 1.5, 0.2}, {6.0, 2.8, 4.5, 1.4}, {6.5, 3.0, 5.5, 2.0}, {6.0, 2.7, 5.0, 1.6}}
	want := [][]float64{
		{72.56925541204674, 36.55727288402932, -5.800568408707761},
		{32.637375270740634, 80.79924310226546, 74.76685355429484},
		{26.00984272759989, 101.91591240506922, 109.77095123964244},
		{20.896679227173948, 85.05373370134969, 85.6450329503599},
	}
	s := m.NewScorer()
	for i, x := range pts {
		sc := s.ScoresRecord(nil, nil, model.Record{Num: x})
		for c := range sc {
			if !near(sc[c], want[i][c], 1e-9) {
				t.Errorf("point %d class %s: score %v, scikit-learn %v", i, classes[c], sc[c], want[i][c])
			}
		}
	}
}

// TestDiscriminantSingular checks the errors for a singular covariance
// without regularisation, and that regularisation cures them.
func TestDiscriminantSingular(t *testing.T) {
	// y is constant: variance 0.
	r := records2D([][2]float64{{0, 1}, {1, 1}, {2, 1}, {5, 1}, {6, 1}, {7, 1}})
	y := []int{0, 0, 0, 1, 1, 1}
	_, err := FitDiscriminant(model.LDA, r, y, []string{"a", "b"}, model.Params{})
	if err == nil || !strings.Contains(err.Error(), "field y has variance 0") || !strings.Contains(err.Error(), "--shrinkage") {
		t.Errorf("constant field: got %v", err)
	}
	// y = 2x: collinear.
	r = records2D([][2]float64{{0, 0}, {1, 2}, {2, 4}, {5, 10}, {6, 12}, {7, 14}})
	_, err = FitDiscriminant(model.LDA, r, y, []string{"a", "b"}, model.Params{})
	if err == nil || !strings.Contains(err.Error(), "collinear") || !strings.Contains(err.Error(), "--shrinkage") {
		t.Errorf("collinear fields: got %v", err)
	}
	for _, s := range []string{"auto", "0.5"} {
		m, err := FitDiscriminant(model.LDA, r, y, []string{"a", "b"}, model.Params{Shrinkage: s})
		if err != nil {
			t.Fatalf("--shrinkage %s: %v", s, err)
		}
		if p := m.NewScorer().PredictRecord(nil, nil, model.Record{Num: []float64{6.5, 13}}); p.Class != 1 {
			t.Errorf("--shrinkage %s: (6.5, 13) is %d, want b", s, p.Class)
		}
	}
	// Categorical fields and too few records are refused with a reason.
	rc := &Records{Spec: FieldSpec{Categorical: []string{"k"}, Numeric: []string{"x"}}, Recs: make([]model.Record, 2)}
	if _, err := FitDiscriminant(model.LDA, rc, []int{0, 1}, []string{"a", "b"}, model.Params{}); err == nil || !strings.Contains(err.Error(), "numeric fields only") {
		t.Errorf("categorical field: got %v", err)
	}
	r = records2D([][2]float64{{0, 0}, {1, 2}, {2, 4}})
	if _, err := FitDiscriminant(model.QDA, r, []int{0, 0, 1}, []string{"a", "b"}, model.Params{RegParam: 0.1}); err == nil || !strings.Contains(err.Error(), "class b has 1 training records") {
		t.Errorf("one record in a class: got %v", err)
	}
}
