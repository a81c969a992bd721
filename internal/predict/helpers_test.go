package predict

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// toyDocs is the training corpus of the toy models: three classes, a few
// sentences each.
var toyDocs = []struct{ label, text string }{
	{"autos", "the engine of the car needs new oil"},
	{"autos", "my car has a fast engine and good brakes"},
	{"autos", "brakes and tires wear out on a fast car"},
	{"politics", "the senate votes on the tax bill"},
	{"politics", "congress and the senate debate the budget"},
	{"politics", "a new tax on oil passed the congress vote"},
	{"space", "the rocket launch put a satellite in orbit"},
	{"space", "nasa plans a new orbit for the space station"},
}

// toyClasses are the toy models' classes, in id order.
var toyClasses = []string{"autos", "politics", "space"}

// toyModel fits a model of kind on toyDocs without package train: the
// vocabulary comes from vectorize.Fit with the default settings (binary
// weighting for Bernoulli, counts otherwise) and the sufficient statistics
// are counted here, as model.NewNB documents them, with α = 1 (β = 1).
func toyModel(t testing.TB, kind model.Kind) *model.Model {
	t.Helper()
	texts := make([]string, len(toyDocs))
	y := make([]int, len(toyDocs))
	for i, d := range toyDocs {
		texts[i] = d.text
		y[i] = slices.Index(toyClasses, d.label)
	}
	s := vectorize.DefaultSettings()
	if kind == model.Bernoulli {
		s.Weighting = "binary"
	}
	vocab, X, err := vectorize.Fit(texts, y, len(toyClasses), s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	vocab.Weight(X)
	classDocs, counts := countNB(kind, X, y, len(toyClasses))
	p := model.Params{Alpha: 1, Prior: "learned"}
	if kind == model.Bernoulli {
		p.Beta = 1
	}
	m, err := model.NewNB(kind, toyClasses, vocab, p, classDocs, counts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// countNB returns N_c and the feature-major statistics N_cd of NewNB.
func countNB(kind model.Kind, X *vectorize.Matrix, y []int, C int) (classDocs, counts []float64) {
	classDocs = make([]float64, C)
	counts = make([]float64, X.Cols*C)
	for i, c := range y {
		classDocs[c]++
		ind, val := X.Row(i)
		for j, t := range ind {
			if kind == model.Bernoulli {
				counts[int(t)*C+c]++
			} else {
				counts[int(t)*C+c] += float64(val[j])
			}
		}
	}
	return classDocs, counts
}

// newPredictor returns a Predictor for m with opt, failing the test on a
// validation error.
func newPredictor(t testing.TB, m *model.Model, opt Options) *Predictor {
	t.Helper()
	p, err := New(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stream runs Stream on input and returns the output (header included)
// and the error.
func stream(t testing.TB, m *model.Model, opt Options, input string) (string, error) {
	t.Helper()
	p := newPredictor(t, m, opt)
	var out bytes.Buffer
	w := NewWriter(&out)
	if err := p.Header(w); err != nil {
		t.Fatal(err)
	}
	_, err := p.Stream(context.Background(), strings.NewReader(input), "stdin", w)
	w.Flush()
	return out.String(), err
}

// mustStream is stream for input that must not fail.
func mustStream(t testing.TB, m *model.Model, opt Options, input string) string {
	t.Helper()
	out, err := stream(t, m, opt, input)
	if err != nil {
		t.Fatalf("Stream: %v\noutput so far:\n%s", err, out)
	}
	return out
}

// synth is a seeded synthetic language: V distinct lower-case words of 3
// to 10 letters (so the default tokenizer keeps each one whole), drawn
// with a Zipf distribution as natural words are.
type synth struct {
	words []string
	rng   *rand.Rand
	zipf  *rand.Zipf
}

func newSynth(seed uint64, V int) *synth {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	seen := make(map[string]bool, V)
	words := make([]string, 0, V)
	b := make([]byte, 0, 10)
	for len(words) < V {
		b = b[:0]
		n := 3 + rng.IntN(8)
		for range n {
			b = append(b, byte('a'+rng.IntN(26)))
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return &synth{words: words, rng: rng, zipf: rand.NewZipf(rng, 1.1, 2, uint64(V-1))}
}

// word returns a random word, by Zipf rank.
func (s *synth) word() string { return s.words[s.zipf.Uint64()] }

// line appends a line of about n words to dst: mostly vocabulary words,
// some unknown ones, some capitals and punctuation.
func (s *synth) line(dst []byte, n int) []byte {
	n = n/2 + s.rng.IntN(n+1)
	for i := range n {
		if i > 0 {
			dst = append(dst, ' ')
		}
		switch r := s.rng.IntN(20); {
		case r == 0:
			dst = append(dst, "Unknownish"...)
		case r == 1:
			dst = append(dst, strings.ToUpper(s.word())...)
		case r == 2:
			dst = append(dst, s.word()...)
			dst = append(dst, ',')
		default:
			dst = append(dst, s.word()...)
		}
	}
	return append(dst, '\n')
}

// synthModel returns a model of kind over the first V words of s with C
// classes, from random sufficient statistics: what matters for speed is
// the shape (V×C weights, a vocabulary of V terms), not the values.
func synthModel(t testing.TB, s *synth, kind model.Kind, V, C int) *model.Model {
	t.Helper()
	terms := slices.Clone(s.words[:V])
	slices.Sort(terms)
	nDocs := 10 * C
	df := make([]int32, V)
	cf := make([]int64, V)
	for i := range df {
		df[i] = int32(1 + s.rng.IntN(nDocs))
		cf[i] = int64(df[i]) * 2
	}
	settings := vectorize.DefaultSettings()
	if kind == model.Bernoulli {
		settings.Weighting = "binary"
	}
	vocab, err := vectorize.NewVocabulary(settings, terms, df, cf, nDocs)
	if err != nil {
		t.Fatal(err)
	}
	classes := make([]string, C)
	classDocs := make([]float64, C)
	for c := range classes {
		classes[c] = fmt.Sprintf("class%02d", c)
		classDocs[c] = 10
	}
	counts := make([]float64, V*C)
	for i := range counts {
		counts[i] = math.Floor(s.rng.ExpFloat64() * 3)
		if kind == model.Bernoulli {
			counts[i] = min(counts[i], 10)
		}
	}
	p := model.Params{Alpha: 0.5, Beta: 0.5, Prior: "learned"}
	m, err := model.NewNB(kind, classes, vocab, p, classDocs, counts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
