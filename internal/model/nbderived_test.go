package model

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// refitMatches is what Save checked before derivedNB: a whole refit,
// compared bit for bit.
func refitMatches(m *Model) bool {
	W, B := fitNB(m.Kind, m.Params, m.ClassDocs, m.Counts, len(m.Classes))
	return sameBits(W, m.W) && sameBits(B, m.B)
}

// TestDerivedNBIsTheRefit: the term-at-a-time check that lets a file leave
// the NB weights out accepts exactly the models a whole refit accepts:
// every model NewNB builds (any kind, smoothing, prior, normalisation,
// temperature, empty class, enough terms for the parallel path), and no
// model whose weights or biases changed afterwards, by one ulp anywhere.
func TestDerivedNBIsTheRefit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const V, C = 9000, 4
	vocab := nTerms(t, V)
	docs, labels := randCorpus(rng, 300, V, C, 40)
	for i := range labels {
		if labels[i] == C-1 {
			labels[i] = 0 // class C-1 has no documents
		}
	}
	params := []Params{
		{Alpha: 0.3},
		{Alpha: 0.1, Beta: 2, Prior: "uniform"},
		{}, // maximum likelihood: infinite weights
		{Alpha: 1, Prior: "given", Priors: []float64{.1, .2, .3, .4}, Temperature: 0.37},
		{Alpha: 0.5, NoWeightNorm: true, Temperature: 3},
	}
	defer func(b int) { complementRefitBytes = b }(complementRefitBytes)
	for _, refit := range []int{0, complementRefitBytes} { // complement term by term, then whole
		complementRefitBytes = refit
		derivedKinds(t, vocab, docs, labels, params)
	}
}

// derivedKinds is TestDerivedNBIsTheRefit for each kind and params, on 4
// classes.
func derivedKinds(t *testing.T, vocab *vectorize.Vocabulary, docs []doc, labels []int, params []Params) {
	V, C := vocab.Len(), 4
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		for _, p := range params {
			cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
			m := mustNB(t, kind, classNames(C), vocab, p, cd, cn)
			if !derivedNB(m) || !refitMatches(m) {
				t.Fatalf("%s %+v: derived %v, refit %v, want both true", kind, p, derivedNB(m), refitMatches(m))
			}
			for _, i := range []int{0, V*C/2 + 1, V*C - 1} {
				w := m.W[i]
				m.W[i] = math.Nextafter(w, math.Inf(1))
				if math.IsInf(w, 0) {
					m.W[i] = 0
				}
				if derivedNB(m) || refitMatches(m) {
					t.Errorf("%s %+v: weight %d changed by one ulp: derived %v, refit %v, want both false", kind, p, i, derivedNB(m), refitMatches(m))
				}
				m.W[i] = w
			}
			b := m.B[C-1]
			m.B[C-1] = math.Nextafter(b, math.Inf(-1))
			if math.IsInf(b, 0) || b == math.Nextafter(b, math.Inf(-1)) {
				m.B[C-1] = 1
			}
			if derivedNB(m) {
				t.Errorf("%s %+v: bias changed: derived", kind, p)
			}
			m.B[C-1] = b
			// Weights scaled after the fit, as calibration does, are kept
			// unless the temperature records the factor.
			for i := range m.W {
				m.W[i] *= 2
			}
			for c := range m.B {
				m.B[c] *= 2
			}
			if derivedNB(m) != refitMatches(m) {
				t.Errorf("%s %+v: scaled weights: derived %v, refit %v", kind, p, derivedNB(m), refitMatches(m))
			}
		}
	}
}

// TestSaveKeepsChangedWeights: a file of an NB model whose weights no
// longer follow from its counts stores them, and loads back the same
// model; one whose weights follow leaves them out.
func TestSaveKeepsChangedWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const V, C = 5000, 3
	docs, labels := randCorpus(rng, 100, V, C, 30)
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
		m := mustNB(t, kind, classNames(C), nTerms(t, V), Params{Alpha: 0.5, Beta: 0.5}, cd, cn)
		plain := len(encode(t, m))
		m.W[V*C-2] = math.Nextafter(m.W[V*C-2], 0)
		b := encode(t, m)
		if len(b) != plain+8*(V*C+C) {
			t.Errorf("%s with one weight changed: %d bytes, want %d + the weights", kind, len(b), plain)
		}
		got, err := Decode(bytes.NewReader(b), "m.nbm")
		if err != nil {
			t.Fatal(err)
		}
		if !sameBits(got.W, m.W) || !sameBits(got.B, m.B) {
			t.Errorf("%s: the changed weight did not survive a round trip", kind)
		}
	}
}
