package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// multiLabelNews builds multi-label documents from the posts of c (four
// groups): the posts in a seeded order, each either a document of its own
// (one label) or, half the time, joined with the next post of another
// group (two labels). Every post is used once.
func multiLabelNews(c *corpus.Corpus, seed uint64) (texts []string, sets [][]string) {
	rng := rand.New(rand.NewPCG(seed, 3))
	order := rng.Perm(len(c.Docs))
	used := make([]bool, len(c.Docs))
	for k, i := range order {
		if used[i] {
			continue
		}
		used[i] = true
		d := c.Docs[i]
		text, set := d.Text, []string{d.Label}
		if rng.IntN(2) == 0 {
			for _, j := range order[k+1:] {
				if !used[j] && c.Docs[j].Label != d.Label {
					used[j] = true
					text += "\n\n" + c.Docs[j].Text
					set = append(set, c.Docs[j].Label)
					break
				}
			}
		}
		texts = append(texts, text)
		sets = append(sets, set)
	}
	return texts, sets
}

// TestMultiLabelNews trains one-vs-rest logistic regression (the defaults)
// on documents carrying one or two of four groups' labels, built from the
// 20 Newsgroups train split, and evaluates it on documents built from the
// test split: micro F1 ≥ 0.85 (the target).
func TestMultiLabelNews(t *testing.T) {
	groups := []string{"comp.graphics", "rec.autos", "sci.space", "talk.politics.mideast"}
	tr, te := newsCorpora(t, groups)
	texts, sets := multiLabelNews(tr, 1)
	teTexts, teSets := multiLabelNews(te, 2)
	for _, kind := range []model.Kind{model.LogReg, model.Multinomial} {
		s, p := train.Defaults(kind)
		first := make([]int, len(sets))
		Y, _ := MapLabelSets(groups, sets)
		vocab, X, err := train.Prepare(texts, first, 1, s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := train.FitMultiLabel(kind, X, Y, groups, vocab, p, train.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := EvaluateMultiLabelTexts(m, teTexts, teSets, m.Thresholds(0.5, true), 0, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-11s %d train, %d test documents: micro F1 %.4f, macro F1 %.4f, Hamming loss %.4f, subset accuracy %.4f, P@2 %.4f, R@2 %.4f",
			kind, len(texts), len(teTexts), r.MicroF1, r.MacroF1, r.HammingLoss, r.SubsetAccuracy, r.PrecisionAtK, r.RecallAtK)
		if kind == model.LogReg && r.MicroF1 < 0.85 {
			t.Errorf("multi-label logreg: micro F1 %.4f, want ≥ 0.85", r.MicroF1)
		}
	}
}
