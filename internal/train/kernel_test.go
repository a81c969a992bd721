package train

import (
	"math"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// oneField returns records of one numeric field x.
func oneField(xs ...float64) *Records {
	r := &Records{Spec: FieldSpec{Numeric: []string{"x"}}}
	for _, x := range xs {
		r.Recs = append(r.Recs, model.Record{Num: []float64{x}})
	}
	return r
}

// TestKernelDensityValue checks a kernel density by hand: class a's values
// 0 and 1 lie on the first and last grid points, so binning is exact, and
// with h = 1, f̂_a(0.5) = (φ(0.5) + φ(-0.5))/2 = φ(0.5) = e^(-1/8)/√(2π)
// ≈ 0.35207; at 3, f̂_a = (φ(3) + φ(2))/2.
func TestKernelDensityValue(t *testing.T) {
	r := oneField(0, 1, 0.2, 0.8)
	p := model.Params{Prior: "learned", NumericDensity: "kernel", Bandwidth: "1", VarSmoothing: 1e-9}
	m, err := FitRecords(model.Gaussian, r, []int{0, 0, 1, 1}, []string{"a", "b"}, p)
	if err != nil {
		t.Fatal(err)
	}
	phi := func(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }
	s := m.NewScorer()
	for _, c := range []struct{ x, want float64 }{{0.5, phi(0.5)}, {3, (phi(3) + phi(2)) / 2}, {-40, (phi(40) + phi(41)) / 2}} {
		sc := s.ScoresRecord(nil, nil, model.Record{Num: []float64{c.x}})
		if got := sc[0] - math.Log(0.5); !near(got, math.Log(c.want), 1e-9) {
			t.Errorf("log f̂_a(%v) = %v, want log %v = %v", c.x, got, c.want, math.Log(c.want))
		}
	}
	// The explanation is the difference of the two log-densities.
	ex := s.ExplainFields(model.Record{Num: []float64{0.5}}, 0, 1)
	sc := s.ScoresRecord(nil, nil, model.Record{Num: []float64{0.5}})
	if len(ex) != 1 || !near(ex[0].Value, sc[0]-sc[1], 1e-12) {
		t.Errorf("explanation %+v, want %v", ex, sc[0]-sc[1])
	}
	fi := m.FieldInfo()
	if len(fi) != 1 || fi[0].Density != "kernel" || fi[0].Bins != model.KernelGrid || *fi[0].Classes[0].Bandwidth != 1 {
		t.Errorf("field info %+v", fi)
	}
}

// TestKernelBinning checks linear binning: a value 30% of the way from one
// grid point to the next puts 0.7 on the first and 0.3 on the second.
func TestKernelBinning(t *testing.T) {
	nf := &model.NumericField{}
	kernelGrid(nf, 1, 0, float64(model.KernelGrid-1)) // grid step 1
	binValue(nf, 1, 0, 5.3)
	if !near(nf.Bins[5], 0.7, 1e-12) || !near(nf.Bins[6], 0.3, 1e-12) {
		t.Errorf("bins 5, 6 = %v, %v, want 0.7, 0.3", nf.Bins[5], nf.Bins[6])
	}
}

// TestKernelBandwidthRules checks the rules by hand on class values
// 0..4 (n = 5, ML σ = √2, quartiles 1 and 3 so IQR/1.34 = 1.4925 > σ):
// Silverman 0.9·√2·5^(-1/5) = 0.92249, Scott 1.06·√2·5^(-1/5) = 1.08649.
func TestKernelBandwidthRules(t *testing.T) {
	for _, c := range []struct {
		rule string
		want float64
	}{{"silverman", 0.9 * math.Sqrt2 * math.Pow(5, -0.2)}, {"scott", 1.06 * math.Sqrt2 * math.Pow(5, -0.2)}, {"0.25", 0.25}} {
		p := model.Params{NumericDensity: "kernel", Bandwidth: c.rule, VarSmoothing: 1e-9}
		f, err := FitFieldsNB(oneField(0, 1, 2, 3, 4, 10), []int{0, 0, 0, 0, 0, 1}, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		if h := f.Numeric[0].Bandwidth[0]; !near(h, c.want, 1e-12) {
			t.Errorf("%s: h = %v, want %v", c.rule, h, c.want)
		}
	}
}

// TestKernelBimodal checks that kernel densities learn what a Gaussian
// cannot: class a's values at ±4, class b's at 0 and 8 (the modes
// interleave). Gaussian NB sees two classes of variance 17 and means 0
// and 4; the kernel density classifies each mode right.
func TestKernelBimodal(t *testing.T) {
	var xs []float64
	var y []int
	for i := range 200 {
		d := float64(i%10)/10 - 0.45
		modes := [2][2]float64{{-4, 4}, {0, 8}}
		c := i % 2
		xs = append(xs, modes[c][(i/2)%2]+d)
		y = append(y, c)
	}
	acc := map[string]float64{}
	for _, density := range []string{"gaussian", "kernel"} {
		m, err := FitRecords(model.Gaussian, oneField(xs...), y, []string{"a", "b"}, model.Params{NumericDensity: density, VarSmoothing: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		acc[density] = AccuracyRecords(m, nil, oneField(-4, 4, 0, 8), []int{0, 0, 1, 1}, 1)
	}
	if acc["kernel"] != 1 || acc["gaussian"] > 0.5 {
		t.Errorf("accuracy on the four modes: kernel %v (want 1), gaussian %v (want ≤ 0.5)", acc["kernel"], acc["gaussian"])
	}
}

// TestKernelCVBandwidth checks "cv" where binning is exact (integer values
// on a grid of step 1): the chosen h is the candidate with the largest
// leave-one-out log-likelihood Σ_i log (1/((n-1)h) Σ_{j≠i} φ((x_i-x_j)/h)),
// computed here directly from the values.
func TestKernelCVBandwidth(t *testing.T) {
	xs := []float64{100, 103, 104, 110, 130, 131, 131, 200, 205, 260, 262, 300}
	row := make([]float64, model.KernelGrid)
	for _, x := range xs {
		row[int(x)]++
	}
	n := float64(len(xs))
	loo := func(h float64) float64 {
		ll := 0.0
		for i, x := range xs {
			s := 0.0
			for j, y := range xs {
				if i != j {
					z := (x - y) / h
					s += math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
				}
			}
			ll += math.Log(max(s/((n-1)*h), 1e-300))
		}
		return ll
	}
	h0 := 40.0
	best, bestH := math.Inf(-1), 0.0
	for _, f := range cvFactors {
		if ll := loo(h0 * f); ll >= best {
			best, bestH = ll, h0*f
		}
	}
	if got := cvBandwidth(row, 0, 1, h0); !near(got, bestH, 1e-12) {
		t.Errorf("cv bandwidth %v, want %v (LOO log-likelihood %v)", got, bestH, best)
	}
	if bestH == h0*cvFactors[0] || bestH == h0*cvFactors[len(cvFactors)-1] {
		t.Errorf("the best h %v is at the end of the candidates: the case tests nothing", bestH)
	}
}
