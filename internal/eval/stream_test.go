package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// fitSynth fits a model of kind (default settings and parameters) on the
// even documents of a synthetic corpus and returns it with the odd ones as
// held-out texts and label names.
func fitSynth(t *testing.T, kind model.Kind) (*model.Model, []string, []string) {
	t.Helper()
	texts, y, classes := synthCorpus(4, 70, 11)
	var trT, hoT, hoL []string
	var trY []int
	for i := range texts {
		if i%2 == 0 {
			trT, trY = append(trT, texts[i]), append(trY, y[i])
		} else {
			hoT, hoL = append(hoT, texts[i]), append(hoL, classes[y[i]])
		}
	}
	spec := DefaultModelSpec(kind)
	spec.Settings.MinDF = 1
	v, X, err := train.Prepare(trT, trY, len(classes), spec.Settings, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.Fit(spec.Kind, X, trY, classes, v, spec.Params, train.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m, hoT, hoL
}

// sameReport fails unless got equals want field by field, floats to the
// bit.
func sameReport(t *testing.T, what string, got, want *Report) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: report differs from EvaluateTexts:\n got %+v\nwant %+v", what, got, want)
		return
	}
	if math.Float64bits(got.LogLoss) != math.Float64bits(want.LogLoss) {
		t.Errorf("%s: log-loss %v, want %v to the bit", what, got.LogLoss, want.LogLoss)
	}
}

// TestStreamScorerMatchesEvaluateTexts feeds the held-out documents to a
// StreamScorer shuffled and mixed with decoys that are not in the corpus,
// as corpus.ReadStream may emit them, and checks that Finish gives exactly
// EvaluateTexts' report whatever the number of workers.
func TestStreamScorerMatchesEvaluateTexts(t *testing.T) {
	for _, kind := range []model.Kind{model.Bernoulli, model.Multinomial, model.Complement, model.LogReg} {
		m, texts, labels := fitSynth(t, kind)
		labels[3], labels[40] = "mystery", "mystery" // unknown to the model
		labels[77] = "another"
		opt := Options{TopK: 2}
		want, err := EvaluateTexts(m, texts, labels, opt, 1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, uint64(kind)))
		for _, workers := range []int{1, 2, 3, 0} {
			s, err := NewStreamScorer(m, workers, 0)
			if err != nil {
				t.Fatal(err)
			}
			seq := make([]int, len(texts))
			for _, i := range rng.Perm(len(texts)) {
				if rng.IntN(4) == 0 {
					s.Add("decoy " + texts[rng.IntN(len(texts))])
				}
				seq[i] = s.Len()
				s.Add(texts[i])
			}
			if s.Len()%streamBatch == 0 {
				t.Fatalf("%d documents: want a partial last batch", s.Len())
			}
			got, err := s.Finish(seq, labels, opt)
			if err != nil {
				t.Fatal(err)
			}
			sameReport(t, fmt.Sprintf("%v with %d workers", kind, workers), got, want)
			s.Close() // after Finish: nothing to do
		}

		// seq nil: every document, in the order added.
		s, err := NewStreamScorer(m, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			s.Add(text)
		}
		got, err := s.Finish(nil, labels, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameReport(t, fmt.Sprintf("%v in order", kind), got, want)
	}
}

// TestStreamScorerStrips checks that a StreamScorer told to strip gives
// the report of EvaluateTexts on the stripped texts.
func TestStreamScorerStrips(t *testing.T) {
	m, texts, labels := fitSynth(t, model.Multinomial)
	raw := make([]string, len(texts))
	stripped := make([]string, len(texts))
	rm := corpus.RemoveHeaders | corpus.RemoveQuotes
	for i, text := range texts {
		// A header that names another class, and a quoted line.
		raw[i] = fmt.Sprintf("From: c%dw1 c%dw2\nSubject: c%dw3\n\n%s\n> c%dw4 c%dw5\n", i%3, i%3, i%3, text, i%4, i%4)
		stripped[i] = corpus.Strip(raw[i], rm)
	}
	want, err := EvaluateTexts(m, stripped, labels, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	unstripped, err := EvaluateTexts(m, raw, labels, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(want, unstripped) {
		t.Fatal("stripping makes no difference: the test shows nothing")
	}
	s, err := NewStreamScorer(m, 2, rm)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range raw {
		s.Add(text)
	}
	got, err := s.Finish(nil, labels, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameReport(t, "stripping", got, want)
}

func TestStreamScorerErrors(t *testing.T) {
	m, texts, labels := fitSynth(t, model.Multinomial)
	start := func() *StreamScorer {
		s, err := NewStreamScorer(m, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts[:100] {
			s.Add(text)
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		seq    []int
		labels []string
		want   string
	}{
		{"fewer labels", []int{0, 1, 2}, labels[:2], "3 documents but 2 labels"},
		{"all, fewer labels", nil, labels[:99], "100 documents but 99 labels"},
		{"empty label", []int{0, 1, 2}, []string{labels[0], "", labels[2]}, "document 2 has no label"},
		{"out of range", []int{0, 100}, labels[:2], "document 2: number 100 out of range [0, 100)"},
		{"negative", []int{-1}, labels[:1], "document 1: number -1 out of range"},
		{"no documents", []int{}, []string{}, "no documents to evaluate"},
	} {
		s := start()
		_, err := s.Finish(tc.seq, tc.labels, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if _, err := s.Finish(nil, labels[:100], Options{}); err == nil || !strings.Contains(err.Error(), "finished or closed") {
			t.Errorf("%s: second Finish: error %v", tc.name, err)
		}
	}

	// Close stops the workers; Add and Finish after it do nothing and fail.
	s := start()
	s.Close()
	s.Close()
	s.Add("after close")
	if s.Len() != 100 {
		t.Errorf("Len after Close and Add = %d, want 100", s.Len())
	}
	if _, err := s.Finish(nil, labels[:100], Options{}); err == nil || !strings.Contains(err.Error(), "finished or closed") {
		t.Errorf("Finish after Close: error %v", err)
	}

	// A scorer closed before any document, as after a reader that failed
	// at once.
	s, err := NewStreamScorer(m, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	if _, err := NewStreamScorer(&model.Model{Classes: []string{"a", "b"}}, 1, 0); err == nil {
		t.Error("a model without vocabulary: no error")
	}
}

// TestIntegrationStreamScorer scores the real test split while reading it
// from the archive (the way nbtext eval does) and checks the report
// against EvaluateTexts on the same split read whole: the same accuracy,
// per-class figures and log-loss, to the bit. Once as is, once with
// headers, footers and quotes stripped by the reader, and once with them
// stripped by the scorer instead (as nbtext eval does when the model's
// setting applies).
func TestIntegrationStreamScorer(t *testing.T) {
	p := newsTarball(t)
	tr, err := corpus.Read(p, corpus.Options{Split: "train"})
	if err != nil {
		t.Fatal(err)
	}
	spec := DefaultModelSpec(model.Multinomial)
	v, X, err := train.Prepare(tr.Texts(), tr.LabelIDs(), len(tr.Labels), spec.Settings, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.Fit(spec.Kind, X, tr.LabelIDs(), tr.Labels, v, spec.Params, train.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := corpus.RemoveHeaders | corpus.RemoveFooters | corpus.RemoveQuotes
	for _, tc := range []struct{ read, score corpus.Remove }{{0, 0}, {all, 0}, {0, all}} {
		remove := tc.read | tc.score
		opts := corpus.Options{Split: "test", Remove: remove}
		te, err := corpus.Read(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		labels := make([]string, len(te.Docs))
		for i, d := range te.Docs {
			labels[i] = d.Label
		}
		want, err := EvaluateTexts(m, te.Texts(), labels, Options{TopK: 3}, 0)
		if err != nil {
			t.Fatal(err)
		}

		start := time.Now()
		s, err := NewStreamScorer(m, 0, tc.score)
		if err != nil {
			t.Fatal(err)
		}
		opts.Remove = tc.read
		c, seq, err := corpus.ReadStream(p, opts, s.Add)
		if err != nil {
			s.Close()
			t.Fatal(err)
		}
		streamLabels := make([]string, len(c.Docs))
		for i, d := range c.Docs {
			streamLabels[i] = d.Label
		}
		got, err := s.Finish(seq, streamLabels, Options{TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("remove %q (reader), %q (scorer): read and scored %d documents in %v: accuracy %.4f, log-loss %.6f", tc.read, tc.score, got.N, time.Since(start), got.Accuracy, got.LogLoss)
		if got.N != 7532 {
			t.Errorf("%d test documents, want 7532", got.N)
		}
		sameReport(t, fmt.Sprintf("remove %q by the reader, %q by the scorer", tc.read, tc.score), got, want)
	}
}
