package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// makeLongTail draws a seeded multi-label corpus of n short documents
// (5 to 14 tokens) over v terms and L labels with a long tail, like a
// tag corpus: labels are drawn with Zipf weights 1/(k+1)^1.3 (label k
// is also on document k, so that all L occur), a document has one label
// and one more with probability 0.55 each time (at most 5), and each
// token is one of its labels' 12 own terms with probability 0.4, else a
// Zipf(1.1) draw over all terms. With n = 5,000 and L = 1,000 (seed 1)
// documents have 2.0 labels on average, the first label is on 2,158
// documents, 750 labels are on 1 to 3 and 361 on one.
func makeLongTail(tb testing.TB, n, v, L int, seed uint64) (s *synthetic, Y [][]int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	cum := make([]float64, L)
	acc := 0.0
	for k := range cum {
		acc += 1 / math.Pow(float64(k+1), 1.3)
		cum[k] = acc
	}
	pick := func() int {
		k, _ := slices.BinarySearch(cum, rng.Float64()*acc)
		return min(k, L-1)
	}
	zipf := rand.NewZipf(rng, 1.1, 1, uint64(v-1))
	own := make([][]int32, L)
	for k := range own {
		for range 12 {
			own[k] = append(own[k], int32(rng.IntN(v)))
		}
	}
	s = &synthetic{X: &vectorize.Matrix{Indptr: []int{0}, Cols: v}}
	for k := range L {
		s.Classes = append(s.Classes, fmt.Sprintf("tag%04d", k))
	}
	terms := make([]string, v)
	for t := range terms {
		terms[t] = fmt.Sprintf("w%05d", t)
	}
	df := make([]int32, v)
	cf := make([]int64, v)
	counts := map[int32]float32{}
	Y = make([][]int, n)
	for i := range n {
		ls := []int{pick()}
		if i < L {
			ls[0] = i
		}
		for rng.Float64() < 0.55 && len(ls) < 5 {
			if k := pick(); !slices.Contains(ls, k) {
				ls = append(ls, k)
			}
		}
		Y[i] = ls
		clear(counts)
		for range 5 + rng.IntN(10) {
			if rng.Float64() < 0.4 {
				o := own[ls[rng.IntN(len(ls))]]
				counts[o[rng.IntN(len(o))]]++
			} else {
				counts[int32(zipf.Uint64())]++
			}
		}
		ids := make([]int32, 0, len(counts))
		for t := range counts {
			ids = append(ids, t)
		}
		slices.Sort(ids)
		for _, t := range ids {
			s.X.Indices = append(s.X.Indices, t)
			s.X.Values = append(s.X.Values, counts[t])
			df[t]++
			cf[t] += int64(counts[t])
		}
		s.X.Indptr = append(s.X.Indptr, len(s.X.Indices))
	}
	var err error
	s.Vocab, err = vectorize.NewVocabulary(vectorize.DefaultSettings(), terms, df, cf, n)
	if err != nil {
		tb.Fatal(err)
	}
	return s, Y
}

// BenchmarkOneVsRestLogReg1000 times FitMultiLabel's logistic regression
// (the defaults: SGD, C = 30, tf-idf rows) on 1,000 labels with a long
// tail (makeLongTail: 5,000 short documents over 20,000 terms, 750
// labels on 1 to 3 documents): "binary" is the solver
// FitMultiLabel uses (fitOVRSGD), "softmax" the two-class softmax of Fit
// it replaced, label by label. cpu-s/op is the CPU time of both cores.
func BenchmarkOneVsRestLogReg1000(b *testing.B) {
	syn, Y := makeLongTail(b, 5000, 20000, 1000, 1)
	s, p := Defaults(model.LogReg)
	X, vocab := syn.weighted(b, s.Weighting, s.Sublinear, s.Norm)
	for _, solver := range []string{"binary", "softmax"} {
		b.Run(solver, func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if _, err := FitMultiLabel(model.LogReg, X, Y, syn.Classes, vocab, p, Options{twoClassOVR: solver == "softmax"}); err != nil {
					b.Fatal(err)
				}
			}
			reportFit(b, X, cpu)
			b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "labels/s")
		})
	}
}
