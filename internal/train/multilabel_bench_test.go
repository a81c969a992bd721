package train

import (
	"fmt"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// BenchmarkFitMultiLabel times one-vs-rest fits over a size ladder of
// labels (100 and 1,000) on a seeded synthetic corpus of 5,000 documents
// over 20,000 terms: document i carries its class's label and, one time
// in three, the next one's, so labels have a few to a hundred documents.
// Labels are fitted on one goroutine each (Options.Workers: GOMAXPROCS).
func BenchmarkFitMultiLabel(b *testing.B) {
	for _, kind := range []model.Kind{model.Multinomial, model.LogReg, model.SVM} {
		for _, L := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/labels=%d", kind, L), func(b *testing.B) {
				syn := makeSynthetic(b, 5000, 20000, L, 0.5, 1)
				s, p := Defaults(kind)
				X, vocab := syn.weighted(b, s.Weighting, s.Sublinear, s.Norm)
				Y := make([][]int, len(syn.Y))
				for i, c := range syn.Y {
					Y[i] = []int{c}
					if i%3 == 0 {
						Y[i] = append(Y[i], (c+1)%L)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu := processCPU()
				for b.Loop() {
					if _, err := FitMultiLabel(kind, X, Y, syn.Classes, vocab, p, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				reportFit(b, X, cpu)
				b.ReportMetric(float64(L*b.N)/b.Elapsed().Seconds(), "labels/s")
			})
		}
	}
}
