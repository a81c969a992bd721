package train

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRowScores32MatchesPlainLoop checks that the blocked sums give the
// same bits as the plain loop over the terms and then the problems, for
// every group size up to 21 (blocks of 8, 4, 2, 1 and their mixes), with
// values and with presences.
func TestRowScores32MatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const nf = 50
	for G := 1; G <= 21; G++ {
		w := make([]float32, nf*G)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3)))
		}
		ind := make([]int32, 40)
		val := make([]float32, len(ind))
		for j := range ind {
			ind[j] = int32(rng.IntN(nf))
			val[j] = float32(rng.Float64())
		}
		for _, v := range [][]float32{nil, val} {
			want := make([]float32, G)
			for j, t := range ind {
				for k := range want {
					x := w[int(t)*G+k]
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
			rowScores32(got, w, ind, v)
			for k := range want {
				if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
					t.Fatalf("G = %d, values %v: z[%d] = %v, want %v", G, v != nil, k, got[k], want[k])
				}
			}
		}
	}
}
