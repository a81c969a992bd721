package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// testVocab returns a vocabulary of the given terms with made-up
// frequencies.
func testVocab(t testing.TB, terms ...string) *vectorize.Vocabulary {
	t.Helper()
	df := make([]int32, len(terms))
	cf := make([]int64, len(terms))
	for i := range terms {
		df[i] = int32(i + 1)
		cf[i] = int64(2*i + 3)
	}
	v, err := vectorize.NewVocabulary(legacySettings(), terms, df, cf, len(terms)+1)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// nTerms returns a vocabulary of V terms "w0", "w1", ...
func nTerms(t testing.TB, V int) *vectorize.Vocabulary {
	terms := make([]string, V)
	for i := range terms {
		terms[i] = fmt.Sprintf("w%d", i)
	}
	return testVocab(t, terms...)
}

func classNames(C int) []string {
	cs := make([]string, C)
	for i := range cs {
		cs[i] = fmt.Sprintf("class%d", i)
	}
	return cs
}

// doc is a sparse document: ascending distinct ids and their counts.
type doc struct {
	ind []int32
	val []float32
}

// dense returns d as a dense vector of length V.
func (d doc) dense(V int) []float64 {
	x := make([]float64, V)
	for i, t := range d.ind {
		x[t] = float64(d.val[i])
	}
	return x
}

// randDoc draws a document of about n distinct terms out of V with small
// integer counts.
func randDoc(rng *rand.Rand, V, n int) doc {
	present := make([]bool, V)
	for i := 0; i < n; i++ {
		present[rng.IntN(V)] = true
	}
	var d doc
	for t, p := range present {
		if p {
			d.ind = append(d.ind, int32(t))
			d.val = append(d.val, float32(1+rng.IntN(3)))
		}
	}
	return d
}

// countNB returns the NB statistics of labelled documents: N_c, and N_cd
// (binary) or the summed values.
func countNB(docs []doc, labels []int, V, C int, binary bool) (classDocs, counts []float64) {
	classDocs = make([]float64, C)
	counts = make([]float64, V*C)
	for i, d := range docs {
		c := labels[i]
		classDocs[c]++
		for j, t := range d.ind {
			if binary {
				counts[int(t)*C+c]++
			} else {
				counts[int(t)*C+c] += float64(d.val[j])
			}
		}
	}
	return classDocs, counts
}

// randCorpus draws N labelled documents.
func randCorpus(rng *rand.Rand, N, V, C, n int) ([]doc, []int) {
	docs := make([]doc, N)
	labels := make([]int, N)
	for i := range docs {
		labels[i] = rng.IntN(C)
		// Classes prefer different terms so that models differ.
		d := randDoc(rng, V, n)
		docs[i] = d
	}
	return docs, labels
}

func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func mustNB(t testing.TB, kind Kind, classes []string, vocab *vectorize.Vocabulary, p Params, classDocs, counts []float64) *Model {
	t.Helper()
	m, err := NewNB(kind, classes, vocab, p, classDocs, counts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func hasNaN(xs []float64) bool {
	for _, x := range xs {
		if x != x {
			return true
		}
	}
	return false
}

// legacySettings are DefaultSettings without the analysis settings, as
// the pinned fixture files (written before they existed) record them.
func legacySettings() vectorize.Settings {
	s := vectorize.DefaultSettings()
	s.Analysis = vectorize.Analysis{}
	return s
}
