package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLoops32MatchPlainLoops checks that Sums32, AddSteps32,
// AddScaledSteps32 and AddSquares32, which run over a document's terms once per block of
// problems, give the same bits as the plain loops over the terms and then
// the problems (each product rounded before it is added), for every group
// size up to 21 (blocks of 8, 4, 2, 1 and their mixes), packed (stride G)
// and with a wider stride, with values and with presences.
func TestLoops32MatchPlainLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nf = 50
	for G := 1; G <= 21; G++ {
		for _, S := range []int{G, G + 3} {
			testLoops32(t, rng, nf, G, S)
		}
	}
}

func testLoops32(t *testing.T, rng *rand.Rand, nf, G, S int) {
	t.Helper()
	rnd := func() float32 { return float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))) }
	W, Sc := make([]float32, nf*S), make([]float32, nf*S)
	for i := range W {
		W[i], Sc[i] = rnd(), rnd()
	}
	ind := make([]int32, 40)
	val := make([]float32, len(ind))
	for j := range ind {
		ind[j] = int32(rng.IntN(nf)) // repeats too: a step adds twice
		val[j] = float32(rng.Float64())
	}
	same := func(what string, got, want []float32) {
		t.Helper()
		for k := range want {
			if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
				t.Fatalf("G = %d, stride %d, %s: [%d] = %v, want %v", G, S, what, k, got[k], want[k])
			}
		}
	}
	for _, v := range [][]float32{nil, val} {
		want := make([]float32, G)
		for j, t := range ind {
			for k := range want {
				x := W[int(t)*S+k]
				if v != nil {
					x *= v[j]
				}
				want[k] += x
			}
		}
		got := make([]float32, G)
		for k := range got {
			got[k] = float32(k + 1) // overwritten, not added to
		}
		Sums32(got, W, S, ind, v)
		same("Sums32", got, want)
	}
	d := make([]float32, G)
	for k := range d {
		d[k] = rnd()
	}
	want, got := append([]float32(nil), W...), append([]float32(nil), W...)
	for j, t := range ind {
		for k, dk := range d {
			want[int(t)*S+k] += dk * val[j]
		}
	}
	AddSteps32(got, S, d, ind, val)
	same("AddSteps32", got, want)
	want, got = append([]float32(nil), W...), append([]float32(nil), W...)
	for _, t := range ind {
		for k, dk := range d {
			o := int(t)*S + k
			want[o] += dk * Sc[o] * Sc[o]
		}
	}
	AddScaledSteps32(got, Sc, S, d, ind)
	same("AddScaledSteps32", got, want)
	q, wantQ := make([]float64, G), make([]float64, G)
	for k := range q {
		q[k] = rng.Float64() + 0.5
		wantQ[k] = q[k]
	}
	for _, t := range ind {
		for k := range wantQ {
			v := float64(Sc[int(t)*S+k])
			wantQ[k] += v * v
		}
	}
	AddSquares32(q, Sc, S, ind)
	for k := range wantQ {
		if math.Float64bits(q[k]) != math.Float64bits(wantQ[k]) {
			t.Fatalf("G = %d, stride %d, AddSquares32: [%d] = %v, want %v", G, S, k, q[k], wantQ[k])
		}
	}
}

// TestLoops32CheckTermIDs: a term id outside the weights, or a stride
// narrower than the group, panics instead of reading or writing past the
// weights.
func TestLoops32CheckTermIDs(t *testing.T) {
	const nf = 10
	for _, G := range []int{1, 2, 8, 10, 16, 20} {
		for _, bad := range []int32{nf, -1, 1 << 30} {
			W, z := make([]float32, nf*G), make([]float32, G)
			ind, val := []int32{1, 2, bad}, []float32{1, 1, 1}
			for name, f := range map[string]func(){
				"Sums32":           func() { Sums32(z, W, G, ind, val) },
				"Sums32 presences": func() { Sums32(z, W, G, ind, nil) },
				"AddSteps32":       func() { AddSteps32(W, G, z, ind, val) },
				"AddScaledSteps32": func() { AddScaledSteps32(W, W, G, z, ind) },
				"narrow stride":    func() { Sums32(z, W, G-1, ind[:2], val) },
				"AddSquares32":     func() { AddSquares32(make([]float64, G), W, G, ind) },
			} {
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("G = %d: %s with term id %d did not panic", G, name, bad)
						}
					}()
					f()
				}()
			}
		}
	}
}
