package eval

import (
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestScoreEnsemble checks that ScoreEnsemble gives, for every text and
// whatever the workers, the ensemble scorer's own prediction.
func TestScoreEnsemble(t *testing.T) {
	a, texts, _ := fitSynth(t, model.Multinomial)
	b, _, _ := fitSynth(t, model.Bernoulli)
	m, err := model.NewEnsemble([]*model.Model{a, b}, []float64{0.4, 0.6}, model.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	// More than a chunk of texts, so that several goroutines take part,
	// and one with no known term.
	for len(texts) < 3*scoreChunk {
		texts = append(texts, texts...)
	}
	texts = append(texts, "zzzqqq")
	C := m.NumClasses()
	es := m.NewEnsembleScorer()
	for _, workers := range []int{1, 2, 5} {
		pred, lp, fallback := ScoreEnsemble(m, texts, workers)
		if len(pred) != len(texts) || len(lp) != len(texts)*C {
			t.Fatalf("workers %d: %d predictions and %d log-probabilities for %d texts", workers, len(pred), len(lp), len(texts))
		}
		n := 0
		for i, text := range texts {
			p := es.Predict(text)
			if pred[i] != p.Class || !slices.Equal(lp[i*C:(i+1)*C], p.LogProbs) {
				t.Fatalf("workers %d, text %d: class %d %v, want %d %v", workers, i, pred[i], lp[i*C:(i+1)*C], p.Class, p.LogProbs)
			}
			if p.Fallback {
				n++
			}
		}
		if fallback != n {
			t.Fatalf("workers %d: %d fallbacks, want %d", workers, fallback, n)
		}
	}
}
