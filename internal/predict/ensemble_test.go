package predict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// TestStreamEnsemble predicts with an ensemble of two models of different
// vocabularies: each line's answer is the one of model.EnsembleScorer,
// whatever the workers, and --explain gives the ensemble's terms.
func TestStreamEnsemble(t *testing.T) {
	s := newSynth(5, 2000)
	a := synthModel(t, s, model.Multinomial, 1500, 4)
	b := synthModel(t, s, model.Bernoulli, 1200, 4)
	m, err := model.NewEnsemble([]*model.Model{a, b}, []float64{0.25, 0.75}, model.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	input := randomInput(s, 500)
	out := mustStream(t, m, Options{Format: FormatTSV, Workers: 3}, input)
	if again := mustStream(t, m, Options{Format: FormatTSV, Workers: 1}, input); again != out {
		t.Fatal("the output depends on the workers")
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	lines := strings.Split(input, "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d results for %d lines", len(got), len(lines))
	}
	es := m.NewEnsembleScorer()
	differs := 0
	for i, line := range lines {
		line = corpus.Decode([]byte(strings.TrimSuffix(line, "\r")))
		p := es.Predict(line)
		want := fmt.Sprintf("%d\t%s\t%.4f", i+1, m.Classes[p.Class], p.Prob(p.Class))
		if !strings.HasPrefix(got[i], want) {
			t.Fatalf("line %d: got %q, want %q...", i+1, got[i], want)
		}
		ind, val := a.Vocab.NewVectorizer().Vectorize(line)
		a.Vocab.WeightRow(ind, val)
		if a.Predict(ind, val).Class != p.Class {
			differs++
		}
	}
	if differs == 0 {
		t.Error("the ensemble never differs from its first member: the test shows nothing")
	}
	expl := mustStream(t, m, Options{Format: FormatTSV, Explain: 3}, lines[0]+"\n")
	if f := strings.Split(strings.TrimSuffix(expl, "\n"), "\t"); len(f) != 4 || strings.Count(f[3], ":") != 3 {
		t.Errorf("--explain 3 on an ensemble: %q", expl)
	}
}
