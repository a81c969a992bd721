package semisup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// benchRows writes n synthetic documents of about 130 distinct terms
// (IMDB reviews' mean after stop words) drawn by a Zipf law over V terms
// to a row cache on disk.
func benchRows(b *testing.B, n, V int) *train.RowCache {
	b.Helper()
	rc, err := train.NewRowCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(rand.New(rand.NewPCG(3, 4)), 1.1, 1, uint64(V-1))
	counts := map[int32]float32{}
	var ind []int32
	var val []float32
	for range n {
		clear(counts)
		for range 100 + rng.IntN(150) {
			counts[int32(z.Uint64())]++
		}
		ind = ind[:0]
		for t := range counts {
			ind = append(ind, t)
		}
		slices.Sort(ind)
		val = val[:0]
		for _, t := range ind {
			val = append(val, counts[t])
		}
		if err := rc.Add(0, ind, val); err != nil {
			b.Fatal(err)
		}
	}
	return rc
}

// BenchmarkEMIteration is one EM iteration (an E-step reading every
// unlabelled row from the row cache on disk, and the M-step's model) of a
// two-class multinomial model over 60,000 terms, as on IMDB.
func BenchmarkEMIteration(b *testing.B) {
	const V, C = 60000, 2
	for _, n := range []int{10000, 50000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			rc := benchRows(b, n, V)
			defer rc.Close()
			X := &vectorize.Matrix{Indptr: []int{0, 1, 2}, Indices: []int32{0, 1}, Values: []float32{1, 1}, Cols: V}
			vocab := vocabOf(b, V)
			classes := []string{"neg", "pos"}
			p := model.Params{Alpha: 0.1, Prior: "learned"}
			m, err := train.FitNB(model.Multinomial, X, []int{0, 1}, classes, vocab, p)
			if err != nil {
				b.Fatal(err)
			}
			e := &estep{kind: model.Multinomial, C: C, V: V, accDocs: make([]float64, C), acc: make([]float64, V*C), post: make([]float64, C)}
			counts := make([]float64, V*C)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := e.run(m, rc, nil); err != nil {
					b.Fatal(err)
				}
				copy(counts, e.acc)
				if _, err := model.NewNB(model.Multinomial, classes, vocab, p, slices.Clone(e.accDocs), counts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}
