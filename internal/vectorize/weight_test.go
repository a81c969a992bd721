package vectorize

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The expected rows are scikit-learn 1.2's TfidfVectorizer output on the
// same four documents (smooth_idf, sublinear_tf and norm as named).
func TestWeightTfidfMatchesScikitLearn(t *testing.T) {
	docs := []string{"the cat sat", "the cat cat ran", "a dog ran", "dog dog dog"}
	// vocabulary: cat dog ran sat the
	type entry struct {
		id int32
		w  float64
	}
	tests := []struct {
		sublinear bool
		norm      string
		want      [][]entry
	}{
		{false, "l2", [][]entry{
			{{0, 0.5264054}, {3, 0.6676785}, {4, 0.5264054}},
			{{0, 0.8164966}, {2, 0.4082483}, {4, 0.4082483}},
			{{1, 0.7071068}, {2, 0.7071068}},
			{{1, 1.0}},
		}},
		{false, "none", [][]entry{
			{{0, 1.5108256}, {3, 1.9162907}, {4, 1.5108256}},
			{{0, 3.0216512}, {2, 1.5108256}, {4, 1.5108256}},
			{{1, 1.5108256}, {2, 1.5108256}},
			{{1, 4.5324769}},
		}},
		{true, "l2", [][]entry{
			{{0, 0.5264054}, {3, 0.6676785}, {4, 0.5264054}},
			{{0, 0.7674946}, {2, 0.4532947}, {4, 0.4532947}},
			{{1, 0.7071068}, {2, 0.7071068}},
			{{1, 1.0}},
		}},
		{true, "", [][]entry{
			{{0, 1.5108256}, {3, 1.9162907}, {4, 1.5108256}},
			{{0, 2.5580501}, {2, 1.5108256}, {4, 1.5108256}},
			{{1, 1.5108256}, {2, 1.5108256}},
			{{1, 3.1706372}},
		}},
	}
	for _, tt := range tests {
		s := DefaultSettings()
		s.Weighting, s.Sublinear, s.Norm = "tfidf", tt.sublinear, tt.norm
		v, m, err := Fit(docs, nil, 0, s, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		v.Weight(m)
		for i, want := range tt.want {
			ind, val := m.Row(i)
			if len(ind) != len(want) {
				t.Fatalf("sublinear %v norm %q row %d: %v %v, want %v", tt.sublinear, tt.norm, i, ind, val, want)
			}
			for j, e := range want {
				if ind[j] != e.id || math.Abs(float64(val[j])-e.w) > 1e-6 {
					t.Errorf("sublinear %v norm %q row %d: (%d, %.7f), want (%d, %.7f)", tt.sublinear, tt.norm, i, ind[j], val[j], e.id, e.w)
				}
			}
		}
	}
}

func TestIDF(t *testing.T) {
	// idf = ln((1+n)/(1+df)) + 1 with n = 4.
	v, err := NewVocabulary(DefaultSettings(), []string{"a", "b", "c"}, []int32{1, 2, 4}, []int64{1, 2, 4}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{math.Log(5.0/2) + 1, math.Log(5.0/3) + 1, 1} {
		if got := float64(v.IDF()[i]); math.Abs(got-want) > 1e-6 {
			t.Errorf("idf[%d] = %v, want %v", i, got, want)
		}
	}
}

func TestWeightRowBinaryCountNorm(t *testing.T) {
	s := DefaultSettings()
	v, err := NewVocabulary(s, []string{"a", "b", "c"}, []int32{1, 1, 1}, []int64{1, 1, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		weighting, norm string
		want            []float32
	}{
		{"count", "none", []float32{3, 4}},
		{"count", "l2", []float32{0.6, 0.8}},
		{"binary", "none", []float32{1, 1}},
		{"binary", "l2", []float32{float32(1 / math.Sqrt2), float32(1 / math.Sqrt2)}},
	}
	for _, tt := range tests {
		v.Settings.Weighting, v.Settings.Norm = tt.weighting, tt.norm
		val := []float32{3, 4}
		v.WeightRow([]int32{0, 2}, val)
		for j := range val {
			if math.Abs(float64(val[j]-tt.want[j])) > 1e-7 {
				t.Errorf("%s/%s: %v, want %v", tt.weighting, tt.norm, val, tt.want)
				break
			}
		}
	}
	v.Settings.Norm = "l2"
	v.WeightRow(nil, nil) // an empty row stays empty, no NaN, no panic
}

// TestSublinearTable: the table of 1 + ln k gives the bits of the formula,
// for counts inside and outside it and for fractional values.
func TestSublinearTable(t *testing.T) {
	v, err := NewVocabulary(Settings{Weighting: "tfidf", Sublinear: true, Norm: "none"}, []string{"a"}, []int32{0}, []int64{0}, 0)
	if err != nil {
		t.Fatal(err)
	}
	idf := v.IDF()[0]
	for _, tf := range []float32{1, 2, 3, 7, 100, 255, 256, 257, 1000, 0.5, 2.5, 1e6} {
		val := []float32{tf}
		v.WeightRow([]int32{0}, val)
		if want := float32(1+math.Log(float64(tf))) * idf; math.Float32bits(val[0]) != math.Float32bits(want) {
			t.Errorf("tf %g: %g, want %g", tf, val[0], want)
		}
	}
}

// TestSumSquaresOrderFree checks that the l2 norm's sum of squares is the
// same, to the bit, in every order of a row's values, and close to the
// exact sum, on rows whose float64 sum in order rounds differently in
// different orders (values over many binades, subnormals included).
func TestSumSquaresOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	orderDependent := 0
	for trial := range 2000 {
		n := 1 + rng.IntN(300)
		val := make([]float32, n)
		for j := range val {
			switch rng.IntN(10) {
			case 0:
				val[j] = math.Float32frombits(rng.Uint32() & 0x007fffff) // subnormal
			case 1:
				val[j] = 0
			default:
				val[j] = float32(math.Ldexp(1+rng.Float64(), rng.IntN(60)-30))
			}
		}
		want := sumSquares(val)
		exact := new(big.Float).SetPrec(2000)
		seq := 0.0
		for _, x := range val {
			sq := new(big.Float).SetPrec(2000).SetFloat64(float64(x))
			exact.Add(exact, sq.Mul(sq, sq))
			seq += float64(x) * float64(x)
		}
		for range 5 {
			rng.Shuffle(n, func(a, b int) { val[a], val[b] = val[b], val[a] })
			if got := sumSquares(val); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("trial %d: %v in one order, %v in another", trial, want, got)
			}
			seq2 := 0.0
			for _, x := range val {
				seq2 += float64(x) * float64(x)
			}
			if seq2 != seq {
				orderDependent++
			}
		}
		ex, _ := exact.Float64()
		if math.Abs(want-ex) > 4e-16*ex {
			t.Fatalf("trial %d: sum of squares %v, exact %v", trial, want, ex)
		}
	}
	if orderDependent == 0 {
		t.Fatal("no row's float64 sum depended on the order: the test proves nothing")
	}
	if got := sumSquares([]float32{float32(math.Inf(1)), 1}); !math.IsInf(got, 1) {
		t.Errorf("sumSquares(+Inf, 1) = %v, want +Inf", got)
	}
	if got := sumSquares([]float32{float32(math.NaN()), 1}); !math.IsNaN(got) {
		t.Errorf("sumSquares(NaN, 1) = %v, want NaN", got)
	}
	if got := sumSquares([]float32{0, 0}); got != 0 {
		t.Errorf("sumSquares(0, 0) = %v, want 0", got)
	}
}
