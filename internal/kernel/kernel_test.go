package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockedLoopsMatchPlainLoops checks that AddScores and SubScaled,
// which run over a document's terms once per block of four classes, give
// the same bits as the plain loops over the terms and then the classes,
// for class counts with and without a remainder block.
func TestBlockedLoopsMatchPlainLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nf = 50
	ind := []int32{0, 3, 7, 8, 20, 31, 49}
	val := make([]float32, len(ind))
	for j := range val {
		val[j] = rng.Float32()*3 - 1
	}
	for nc := 1; nc <= 21; nc++ {
		W := make([]float64, nf*nc)
		for i := range W {
			W[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-6))
		}
		z, want := make([]float64, nc), make([]float64, nc)
		for c := range z {
			z[c] = rng.NormFloat64()
		}
		copy(want, z)
		for j, tm := range ind {
			for c := range want {
				want[c] += float64(val[j]) * W[int(tm)*nc+c]
			}
		}
		AddScores(z, W, ind, val)
		for c := range z {
			if math.Float64bits(z[c]) != math.Float64bits(want[c]) {
				t.Fatalf("C = %d: addScores class %d = %v, the plain loop %v", nc, c, z[c], want[c])
			}
		}
		a := 0.37
		got, wantW := slices.Clone(W), slices.Clone(W)
		for j, tm := range ind {
			av := a * float64(val[j])
			for c := range z {
				wantW[int(tm)*nc+c] -= av * z[c]
			}
		}
		SubScaled(got, z, a, ind, val)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(wantW[i]) {
				t.Fatalf("C = %d: subScaled weight %d = %v, the plain loop %v", nc, i, got[i], wantW[i])
			}
		}
	}
}

// TestBlockedLoopsCheckTermIDs: a term id outside the weights panics, as
// an index out of range does, instead of reading or writing past them.
func TestBlockedLoopsCheckTermIDs(t *testing.T) {
	const nf = 10
	for _, nc := range []int{2, 4, 8, 12, 20} {
		for _, bad := range []int32{nf, -1, 1 << 30} {
			W, z := make([]float64, nf*nc), make([]float64, nc)
			ind, val := []int32{1, 2, bad}, []float32{1, 1, 1}
			for name, f := range map[string]func(){
				"AddScores": func() { AddScores(z, W, ind, val) },
				"SubScaled": func() { SubScaled(W, z, 1, ind, val) },
			} {
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("C = %d: %s with term id %d did not panic", nc, name, bad)
						}
					}()
					f()
				}()
			}
		}
	}
}

// TestInRange: InRange accepts ids in [0, nf) only.
func TestInRange(t *testing.T) {
	for _, tc := range []struct {
		ind  []int32
		want bool
	}{{nil, true}, {[]int32{0, 9}, true}, {[]int32{0, 10}, false}, {[]int32{-1, 3}, false}} {
		if got := InRange(tc.ind, 10); got != tc.want {
			t.Errorf("InRange(%v, 10) = %v, want %v", tc.ind, got, tc.want)
		}
	}
}
