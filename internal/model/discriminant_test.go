package model

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// gdaFixtures returns an LDA, a QDA and a kernel-density Gaussian NB model
// built from hand-set statistics.
func gdaFixtures(t *testing.T) map[string]*Model {
	t.Helper()
	out := map[string]*Model{}
	classes := []string{"a", "b"}
	lda, err := NewDiscriminant(LDA, classes, Params{Prior: "learned", Shrinkage: "auto"}, []float64{3, 1}, &Fields{Numeric: []NumericField{
		{Name: "x", Center: 3, Scale: 1, Weights: []float64{1, 5}},
		{Name: "y", Center: 1, Scale: 1, Weights: []float64{1, 1}},
	}}, []float64{-1 + 4, -13 + 16})
	if err != nil {
		t.Fatal(err)
	}
	out["lda"] = lda
	qda, err := NewDiscriminant(QDA, classes, Params{Prior: "uniform", RegParam: 0.5}, []float64{2, 2}, &Fields{
		Numeric:   []NumericField{{Name: "x", Center: 0.5, Scale: 1}, {Name: "y", Center: 0, Scale: 1}},
		Quadratic: &Quadratic{Mean: []float64{0, 0, 1, 0}, Cov: []float64{1, 0.5, 0.5, 1, 2, 0, 0, 0.5}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out["qda"] = qda
	kde, err := NewRecordModel(Gaussian, classes, Params{Prior: "learned", NumericDensity: "kernel", Bandwidth: "silverman", VarSmoothing: 1e-9}, []float64{2, 1}, &Fields{Numeric: []NumericField{{
		Name: "x", N: []float64{2, 1}, Mean: []float64{0.5, 0.25}, Var: []float64{0.25, 0}, Epsilon: 1e-9,
		Bandwidth: []float64{1, 0.5}, GridMin: 0, GridStep: 1.0 / 3, Bins: []float64{1, 0, 0, 1, 0.25, 0.75, 0, 0},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	out["kde"] = kde
	return out
}

// TestGDAFileRoundTrip checks that LDA, QDA and kernel-density models load
// back with the same scores and encode to the same bytes.
func TestGDAFileRoundTrip(t *testing.T) {
	rec := Record{Num: []float64{0.7, -0.3}}
	for name, m := range gdaFixtures(t) {
		var b1, b2 bytes.Buffer
		if err := Encode(&b1, m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m2, err := Decode(bytes.NewReader(b1.Bytes()), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Encode(&b2, m2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Errorf("%s: re-encoded bytes differ", name)
		}
		s1, s2 := m.NewScorer().ScoresRecord(nil, nil, rec), m2.NewScorer().ScoresRecord(nil, nil, rec)
		for c := range s1 {
			if s1[c] != s2[c] || math.IsNaN(s1[c]) || math.IsInf(s1[c], 0) {
				t.Errorf("%s: class %d scores %v then %v", name, c, s1[c], s2[c])
			}
		}
	}
}

// TestQDAScoreByHand checks QDA's class b at (0.7, -0.3): Σ_b = diag(2,
// 0.5), so -½Δᵀ Σ⁻¹ Δ = -½(0.09/2 + 0.09/0.5) and -½ log|Σ_b| = 0; with a
// uniform prior, score = log ½ - log 2π - 0.1125. The explanation shares
// the quadratic term between the fields exactly.
func TestQDAScoreByHand(t *testing.T) {
	m := gdaFixtures(t)["qda"]
	s := m.NewScorer()
	rec := Record{Num: []float64{0.7, -0.3}}
	sc := s.ScoresRecord(nil, nil, rec)
	if want := math.Log(0.5) - math.Log(2*math.Pi) - 0.1125; math.Abs(sc[1]-want) > 1e-12 {
		t.Errorf("score of b = %v, want %v", sc[1], want)
	}
	ex := s.ExplainFields(rec, 1, 0)
	sum := m.B[1] - m.B[0]
	for _, e := range ex {
		sum += e.Value
	}
	if len(ex) != 2 || math.Abs(sum-(sc[1]-sc[0])) > 1e-12 {
		t.Errorf("explanation %+v sums to %v, want %v", ex, sum, sc[1]-sc[0])
	}
	// A missing value is the field's center (x = 0.5).
	a := s.ScoresRecord(nil, nil, Record{Num: []float64{math.NaN(), -0.3}})
	b := s.ScoresRecord(nil, nil, Record{Num: []float64{0.5, -0.3}})
	if a[0] != b[0] || a[1] != b[1] {
		t.Errorf("missing x scores %v, x = center %v", a, b)
	}
}

// TestGDACorrupt checks that a non-positive-definite covariance or a
// kernel without bandwidth is refused at load.
func TestGDACorrupt(t *testing.T) {
	f := &Fields{
		Numeric:   []NumericField{{Name: "x", Center: 0, Scale: 1}, {Name: "y", Center: 0, Scale: 1}},
		Quadratic: &Quadratic{Mean: []float64{0, 0, 1, 0}, Cov: []float64{1, 1, 1, 1, 1, 0, 0, 1}},
	}
	if _, err := NewDiscriminant(QDA, []string{"a", "b"}, Params{}, []float64{1, 1}, f, nil); err == nil {
		t.Error("a singular class covariance was accepted")
	}
	m := gdaFixtures(t)["kde"]
	nf := m.Fields.Numeric[0]
	nf.Bandwidth = []float64{0, 0.5}
	if err := m.SetFields(&Fields{Numeric: []NumericField{nf}}); err == nil {
		t.Error("a kernel of bandwidth 0 was accepted")
	}
	var b bytes.Buffer
	if err := Encode(&b, gdaFixtures(t)["qda"]); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(b.Bytes(), []byte(`"cov":[1,0.5,0.5,1`), []byte(`"cov":[1,1.5,1.5,1`), 1)
	if bytes.Equal(bad, b.Bytes()) {
		t.Fatal("fixture bytes not found")
	}
	if _, err := Decode(bytes.NewReader(resum(bad)), "bad.nbm"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("indefinite covariance: %v, want ErrCorrupt", err)
	}
}

// BenchmarkRecordScores scores a record of d numeric fields with C classes
// under Gaussian NB, kernel NB (every one of the 1024 bins of every class
// non-empty, the grid spanning 200 bandwidths: kernelLog sums the tenth of
// them within 10h of the value) and QDA.
func BenchmarkRecordScores(b *testing.B) {
	const C, d = 3, 8
	classes := []string{"a", "b", "c"}
	gauss, kern := &Fields{}, &Fields{}
	q := &Quadratic{}
	var qf []NumericField
	for j := range d {
		nf := NumericField{Name: string(rune('p' + j)), N: []float64{10, 10, 10}, Mean: []float64{0, 1, 2}, Var: []float64{1, 1, 1}, Epsilon: 1e-9}
		gauss.Numeric = append(gauss.Numeric, nf)
		nf.Bandwidth, nf.GridMin, nf.GridStep = []float64{0.3, 0.3, 0.3}, -30, 60.0/(KernelGrid-1)
		nf.Bins = make([]float64, C*KernelGrid)
		for i := range nf.Bins {
			nf.Bins[i] = 10.0 / KernelGrid
		}
		kern.Numeric = append(kern.Numeric, nf)
		qf = append(qf, NumericField{Name: nf.Name, Center: 0, Scale: 1})
	}
	for c := range C {
		for j := range d {
			q.Mean = append(q.Mean, float64(c))
			for k := range d {
				v := 0.1
				if j == k {
					v = 1
				}
				q.Cov = append(q.Cov, v)
			}
		}
	}
	p := Params{Prior: "learned", VarSmoothing: 1e-9}
	mg, err := NewRecordModel(Gaussian, classes, p, []float64{10, 10, 10}, gauss)
	if err != nil {
		b.Fatal(err)
	}
	mk, err := NewRecordModel(Gaussian, classes, p, []float64{10, 10, 10}, kern)
	if err != nil {
		b.Fatal(err)
	}
	mq, err := NewDiscriminant(QDA, classes, Params{}, []float64{10, 10, 10}, &Fields{Numeric: qf, Quadratic: q}, nil)
	if err != nil {
		b.Fatal(err)
	}
	rec := Record{Num: []float64{0.5, -0.2, 1.1, 0, 2, -1, 0.3, 0.7}}
	for _, m := range []struct {
		name string
		m    *Model
	}{{"gaussian", mg}, {"kernel", mk}, {"qda", mq}} {
		b.Run(m.name, func(b *testing.B) {
			s := m.m.NewScorer()
			b.ReportAllocs()
			for range b.N {
				s.PredictRecord(nil, nil, rec)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// TestKernelWindow checks that summing the grid points within 10h of a
// value gives the full sum's log-density, inside the data and far out.
func TestKernelWindow(t *testing.T) {
	nf := NumericField{Name: "x", N: []float64{1000}, Mean: []float64{0}, Var: []float64{1}, Epsilon: 1e-9,
		Bandwidth: []float64{0.2}, GridMin: -30, GridStep: 60.0 / (KernelGrid - 1), Bins: make([]float64, KernelGrid)}
	for g := range nf.Bins {
		nf.Bins[g] = 1000 * math.Exp(-float64((g-512)*(g-512))/20000) / 250.66 // about N(0, 100 grid steps²)
	}
	nf.Bins[3] = 1e-9 // a nearly empty bin far out
	if err := nf.prepare(true, 1); err != nil {
		t.Fatal(err)
	}
	k := &nf.kern[0]
	for _, x := range []float64{0, 3.3, -12, -29.9, -31, 45, 1e6} {
		got, _ := nf.kernelLog(x, 0)
		want := k.logSum(x, 0, len(k.x)) + k.norm
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) || math.IsInf(got, 0) {
			t.Errorf("log f̂(%v) = %v, full sum %v", x, got, want)
		}
	}
}
