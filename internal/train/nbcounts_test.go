package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestNBCountsEqualMergedCounts: the statistics FitNB sums over the rows
// of X are, bit for bit, those of counts of shards of the same rows
// merged, even for values whose float64 sums would depend on their order
// (a range of 1e-9 to 1e3).
func TestNBCountsEqualMergedCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, V, C = 400, 30, 3
	X := &vectorize.Matrix{Indptr: []int{0}, Cols: V}
	W := &vectorize.Matrix{Indptr: []int{0}, Cols: V}
	y := make([]int, n)
	for i := range n {
		y[i] = rng.IntN(C)
		for t := range V {
			if rng.IntN(3) == 0 {
				X.Indices = append(X.Indices, int32(t))
				X.Values = append(X.Values, float32(1+rng.IntN(3)))
				W.Indices = append(W.Indices, int32(t))
				W.Values = append(W.Values, float32(math.Pow(10, rng.Float64()*12-9)))
			}
		}
		X.Indptr = append(X.Indptr, len(X.Indices))
		W.Indptr = append(W.Indptr, len(W.Indices))
	}
	_, want, err := nbCounts(model.Multinomial, W, y, C, nil)
	if err != nil {
		t.Fatal(err)
	}
	terms := make([]string, V)
	for i := range terms {
		terms[i] = string(rune('a'+i/26)) + string(rune('a'+i%26))
	}
	classes := []string{"x", "y", "z"}
	// Shards: rows i ≡ k (mod 4), counted apart and merged.
	var parts []*counts.Counts
	for k := range 4 {
		var rows []int
		for i := k; i < n; i += 4 {
			rows = append(rows, i)
		}
		yy := make([]int32, len(rows))
		for j, i := range rows {
			yy[j] = int32(y[i])
		}
		h := counts.Header{Settings: vectorize.DefaultSettings(), Vocab: strings.Repeat("0", 64), Classes: classes, ClassDocs: make([]int64, C)}
		for _, c := range yy {
			h.ClassDocs[c]++
		}
		p, err := counts.FromMatrix(h, terms, X.Subset(rows), W.Subset(rows), yy)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	merged, err := counts.Merge([]*counts.Counts{parts[2], parts[0], parts[3], parts[1]}, []string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	keep := make([]int32, V)
	for i := range keep {
		keep[i] = int32(i)
	}
	_, got, err := merged.NB(false, keep)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("cell %d: merged counts %v, FitNB %v", i, got[i], want[i])
		}
	}
	// And float64 sums in row order would not do: the test can tell.
	float := make([]float64, V*C)
	for i := range n {
		ind, val := W.Row(i)
		for j, t := range ind {
			float[int(t)*C+y[i]] += float64(val[j])
		}
	}
	if slices.Equal(float, want) {
		t.Error("row-order float64 sums equal the fixed-point ones: the values do not test the fixed point")
	}
}

// TestExactCountsEqualFixedCounts: nbCounts sums tf-idf-like values in
// float64 when every addition is exact, and those sums are, bit for bit,
// the fixed-point ones (which counts from shards give); values whose
// float64 sums round (a range of 1e-9 to 1e3, or 2³⁰ and 2⁻³⁰) or that
// fixed point rounds (below 2⁻⁴¹) are summed in fixed point instead.
func TestExactCountsEqualFixedCounts(t *testing.T) {
	const n, V, C = 600, 40, 3
	cases := []struct {
		name  string
		value func(rng *rand.Rand) float32
		exact bool
	}{
		{"normalized tf-idf", func(rng *rand.Rand) float32 { return float32(0.01 + rng.Float64()) }, true},
		{"1e-9 to 1e3", func(rng *rand.Rand) float32 { return float32(math.Pow(10, rng.Float64()*12-9)) }, false},
		{"2^30 and 2^-30", func(rng *rand.Rand) float32 { return []float32{0x1p30, 0x1p-30}[rng.IntN(2)] }, false},
		{"below 2^-41", func(rng *rand.Rand) float32 { return []float32{0.5, 0x1p-45}[rng.IntN(2)] }, false},
	}
	for _, tc := range cases {
		rng := rand.New(rand.NewPCG(5, 6))
		X := &vectorize.Matrix{Indptr: []int{0}, Cols: V}
		y := make([]int, n)
		for i := range n {
			y[i] = rng.IntN(C)
			for tm := range V {
				if rng.IntN(3) == 0 {
					X.Indices = append(X.Indices, int32(tm))
					X.Values = append(X.Values, tc.value(rng))
				}
			}
			X.Indptr = append(X.Indptr, len(X.Indices))
		}
		docs, stats := make([]float64, C), make([]float64, V*C)
		if got := addExactCounts(X, y, docs, stats); got != tc.exact {
			t.Fatalf("%s: addExactCounts reports %v, want %v", tc.name, got, tc.exact)
		}
		wantDocs, want := make([]float64, C), make([]float64, V*C)
		if err := addFixedCounts(X, y, wantDocs, want); err != nil {
			t.Fatal(err)
		}
		gotDocs, got, err := nbCounts(model.Multinomial, X, y, C, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !sameFloatBits(gotDocs, wantDocs) || !sameFloatBits(got, want) {
			t.Errorf("%s: nbCounts differs from the fixed-point sums", tc.name)
		}
		if tc.exact && !sameFloatBits(stats, want) {
			t.Errorf("%s: addExactCounts reports exact sums that differ from the fixed-point ones", tc.name)
		}
		// Split between goroutines by term ranges (more of them than
		// terms, too), the sums and the report are the same.
		for _, workers := range []int{2, 3, 7, V + 5} {
			wdocs, wstats := make([]float64, C), make([]float64, V*C)
			if got := addExactCountsOn(X, y, wdocs, wstats, workers); got != tc.exact {
				t.Errorf("%s, %d workers: reports %v, want %v", tc.name, workers, got, tc.exact)
			}
			if tc.exact && (!sameFloatBits(wdocs, docs) || !sameFloatBits(wstats, stats)) {
				t.Errorf("%s, %d workers: sums differ from one worker's", tc.name, workers)
			}
		}
	}
}

// sameFloatBits reports whether a and b hold the same float64 bit patterns.
func sameFloatBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
