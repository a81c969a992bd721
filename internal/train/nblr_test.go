package train

import (
	"math"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

func nblrParams(C, beta float64) model.Params {
	_, p := Defaults(model.NBLR)
	p.C, p.Interpolation = C, beta
	return p
}

// TestNBLRLogCountRatio checks the log-count ratios folded into the
// weights: with β = 0 the model is w̄·r with a zero bias, so for two
// classes a document's score difference is proportional to Σ r_t over its
// terms, r computed here from presence counts as Wang & Manning define it.
func TestNBLRLogCountRatio(t *testing.T) {
	s := makeSynthetic(t, 120, 30, 2, 0.4, 9)
	X, vocab := s.weighted(t, "binary", false, "none")
	p := nblrParams(0.1, 0)
	m, err := Fit(model.NBLR, X, s.Y, s.Classes, vocab, p, Options{NoCalibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Binary || m.B[0] != 0 || m.B[1] != 0 {
		t.Fatalf("binary %v, biases %v: want presence features and zero biases at β = 0", m.Binary, m.B)
	}
	V := X.Cols
	pc, qc := make([]float64, V), make([]float64, V)
	for i, c := range s.Y {
		ind, _ := X.Row(i)
		for _, t := range ind {
			if c == 1 {
				pc[t]++
			} else {
				qc[t]++
			}
		}
	}
	a := p.Alpha
	sp, sq := 0.0, 0.0
	for t := range pc {
		sp += a + pc[t]
		sq += a + qc[t]
	}
	ratio := math.NaN()
	for j := range pc {
		r := math.Log((a+pc[j])/sp) - math.Log((a+qc[j])/sq)
		got := m.W[j*2+1] - m.W[j*2]
		if math.Abs(r) < 1e-9 {
			continue
		}
		if math.IsNaN(ratio) {
			ratio = got / r
		}
		if math.Abs(got-ratio*r) > 1e-9*math.Abs(ratio*r)+1e-12 {
			t.Fatalf("term %d: weight difference %v, want %v·r = %v", j, got, ratio, ratio*r)
		}
	}
	if !(ratio > 0) {
		t.Fatalf("w̄ = %v, want > 0", ratio)
	}
	// Presence: the values of a row do not matter.
	ind, val := X.Row(0)
	big := make([]float32, len(val))
	for j := range big {
		big[j] = 7
	}
	s1 := append([]float64(nil), m.NewScorer().Scores(ind, val)...)
	s2 := m.NewScorer().Scores(ind, big)
	if s1[0] != s2[0] || s1[1] != s2[1] {
		t.Errorf("scores %v with values 1, %v with values 7", s1, s2)
	}
}

// TestNBLRLearns checks NB-LR on a noisy multi-class problem: it learns
// it, keeps every class's weights, and its calibrated model makes the
// uncalibrated one's decisions.
func TestNBLRLearns(t *testing.T) {
	s := makeSynthetic(t, 500, 100, 5, 0.3, 10)
	X, vocab := s.weighted(t, "binary", false, "none")
	tr, te := make([]int, 0), make([]int, 0)
	for i := range s.Y {
		if i%7 == 0 {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	p := nblrParams(0.01, 0.25)
	m, err := Fit(model.NBLR, X.Subset(tr), corpus.Pick(s.Y, tr), s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := Fit(model.NBLR, X.Subset(tr), corpus.Pick(s.Y, tr), s.Classes, vocab, p, Options{NoCalibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	acc := Accuracy(m, X.Subset(te), corpus.Pick(s.Y, te), 1)
	if acc < 0.85 || acc != Accuracy(raw, X.Subset(te), corpus.Pick(s.Y, te), 1) {
		t.Errorf("held-out accuracy %.4f (uncalibrated %.4f), want ≥ 0.85 and equal", acc, Accuracy(raw, X.Subset(te), corpus.Pick(s.Y, te), 1))
	}
	if !(m.Params.Temperature > 0) {
		t.Errorf("temperature %v, want > 0", m.Params.Temperature)
	}
}

// TestNBLRInterpolation checks the interpolation oneVsRest applies to
// NB-LR's problems against its definition: from the presence weights v_u
// = w_u·s_u the solver returns, w̄ = Σ|w_u|/V and W_u = ((1-β)·w̄ + β·w_u)·s_u,
// bias β·b, for every problem of a group.
func TestNBLRInterpolation(t *testing.T) {
	s := makeSynthetic(t, 200, 50, 4, 0.4, 11)
	X, _ := s.weighted(t, "binary", false, "none")
	p := nblrParams(0.1, 0.3)
	scale := logCountRatios(X, nil, s.Y, 4, p)
	pr := newSVC(X, s.Y, 4, p)
	W, B := pr.oneVsRest(4, nil, scale, p.Interpolation, Options{Workers: 1})
	s32 := make([]float32, len(scale))
	for i, v := range scale {
		s32[i] = float32(v)
	}
	v, b := pr.solveGroup([]int{0, 1, 2, 3}, s32, nil)
	beta, nf := p.Interpolation, X.Cols
	for k := 0; k < 4; k++ {
		mean := 0.0
		for u := 0; u < nf; u++ {
			if s := scale[u*4+k]; s != 0 {
				mean += math.Abs(float64(v[u*4+k]) / s)
			}
		}
		mean /= float64(nf)
		for u := 0; u < nf; u++ {
			s := scale[u*4+k]
			want := 0.0
			if s != 0 {
				want = ((1-beta)*mean + beta*float64(v[u*4+k])/s) * s
			}
			if got := W[u*4+k]; math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("problem %d, term %d: W = %v, want %v", k, u, got, want)
			}
		}
		if B[k] != beta*b[k]*svcBias {
			t.Errorf("problem %d: bias %v, want β·b = %v", k, B[k], beta*b[k])
		}
	}
}

// TestLogCountRatiosTable checks that the table of logs of whole counts
// (no class weights) gives exactly the ratios of math.Log (class weights
// all 1, which take the other path).
func TestLogCountRatiosTable(t *testing.T) {
	for _, nc := range []int{2, 3} {
		s := makeSynthetic(t, 150, 40, nc, 0.4, 12)
		X, _ := s.weighted(t, "binary", false, "none")
		p := nblrParams(0.1, 0.5)
		table := logCountRatios(X, nil, s.Y, nc, p)
		p.ClassWeights = make([]float64, nc)
		for c := range p.ClassWeights {
			p.ClassWeights[c] = 1
		}
		logs := logCountRatios(X, nil, s.Y, nc, p)
		if len(table) != len(logs) {
			t.Fatalf("%d classes: %d ratios from the table, %d from math.Log", nc, len(table), len(logs))
		}
		for i := range table {
			if table[i] != logs[i] {
				t.Fatalf("%d classes: ratio %d = %v from the table, %v from math.Log", nc, i, table[i], logs[i])
			}
		}
	}
}
