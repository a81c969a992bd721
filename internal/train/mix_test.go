package train

import (
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestIterativeParameterMixing: two shards, each running one SGD epoch
// from the mixed weights of the round before, mixed by document count,
// reach in a few rounds an accuracy near the single-machine model's.
func TestIterativeParameterMixing(t *testing.T) {
	s := makeSkewed(t, 4000, 60, 4, 2, 0.1, 11)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	te := makeSkewed(t, 4000, 60, 4, 2, 0.1, 12)
	Xte, _ := te.weighted(t, "tfidf", true, "l2")
	p := lrParams("sgd", "l2", 10, DefaultEpochs("sgd"))
	single, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Unequal shards, so that the weighting by documents matters.
	cut := 2500
	var shards [2][]int
	for i := range s.Y {
		shards[min(1, i/cut)] = append(shards[min(1, i/cut)], i)
	}
	p1 := p
	p1.Epochs = 1
	var mixed *model.Model
	accFirst, llFirst := 0.0, 0.0
	for round := 0; round < 5; round++ {
		var ms []*model.Model
		for k, rows := range shards {
			ys := make([]int, len(rows))
			for i, j := range rows {
				ys[i] = s.Y[j]
			}
			p1.Seed = int64(round*2 + k)
			m, err := FitLogReg(X.Subset(rows), ys, s.Classes, vocab, p1, Options{Init: mixed})
			if err != nil {
				t.Fatal(err)
			}
			if m.Params.Docs != len(rows) {
				t.Fatalf("shard model records %d documents, want %d", m.Params.Docs, len(rows))
			}
			ms = append(ms, m)
		}
		if mixed, err = MixLinear(ms, []string{"a", "b"}); err != nil {
			t.Fatal(err)
		}
		if mixed.Params.Docs != len(s.Y) {
			t.Fatalf("mixed model records %d documents, want %d", mixed.Params.Docs, len(s.Y))
		}
		acc := Accuracy(mixed, Xte, te.Y, 1)
		ll, _ := meanLogLoss(mixed, X, s.Y)
		if round == 0 {
			accFirst, llFirst = acc, ll
		}
		t.Logf("round %d: held-out accuracy %.4f, training log-loss %.4f", round+1, acc, ll)
	}
	as, am := Accuracy(single, Xte, te.Y, 1), Accuracy(mixed, Xte, te.Y, 1)
	t.Logf("single machine %.4f, mixed after 5 rounds %.4f (round 1 %.4f)", as, am, accFirst)
	if am < as-0.01 {
		t.Errorf("mixed accuracy %.4f is not within 1 point of the single machine's %.4f", am, as)
	}
	// The rounds build on each other (--init): the training log-loss falls
	// towards the single machine's.
	ls, _ := meanLogLoss(single, X, s.Y)
	lm, _ := meanLogLoss(mixed, X, s.Y)
	t.Logf("training log-loss: single machine %.4f, mixed round 1 %.4f, round 5 %.4f", ls, llFirst, lm)
	if lm >= llFirst || lm > ls*1.02 {
		t.Errorf("mixed log-loss %.4f after 5 rounds: want below round 1's %.4f and within 2%% of the single machine's %.4f", lm, llFirst, ls)
	}
}

// TestMixLinearWeights: the mix is the document-weighted average, and
// refuses models that cannot be averaged, naming why.
func TestMixLinearWeights(t *testing.T) {
	s := makeSkewed(t, 300, 20, 3, 1, 0.2, 1)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	p := lrParams("sgd", "l2", 1, 2)
	a, err := FitLogReg(X.Subset(seq(100)), s.Y[:100], s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := MixLinear([]*model.Model{a, b}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for j := range m.W {
		want := (100*a.W[j] + 300*b.W[j]) / 400
		if d := m.W[j] - want; d > 1e-12 || d < -1e-12 {
			t.Fatalf("W[%d] = %g, want %g", j, m.W[j], want)
		}
	}
	other := *b
	other.Classes = append([]string{"zzz"}, b.Classes[1:]...)
	if _, err := MixLinear([]*model.Model{a, &other}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), `has class "`) {
		t.Errorf("mixing different classes: %v", err)
	}
	nb, err := FitNB(model.Multinomial, X, s.Y, s.Classes, vocab, model.Params{Alpha: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MixLinear([]*model.Model{a, nb}, []string{"a", "nb"}); err == nil || !strings.Contains(err.Error(), "nb: a multinomial") {
		t.Errorf("mixing an NB model: %v", err)
	}
	old := *a
	old.Params.Docs = 0
	if _, err := MixLinear([]*model.Model{&old, b}, []string{"old", "b"}); err == nil || !strings.Contains(err.Error(), "old:") {
		t.Errorf("mixing a model without a document count: %v", err)
	}
}
