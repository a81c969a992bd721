package semisup

import (
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Labelled are the labelled documents as texts, with the settings of
// their vectorizer, for the model of λ = 0: naive Bayes on the labelled
// documents alone, over a vocabulary of their own (what train fits
// without unlabelled documents). Over the vocabulary of all the documents
// that model is not the same: a term no labelled document holds has no
// count in any class, but the smoothed θ = α / (Σ_d N_cd + α|V|) of such
// terms differs between classes with their totals, so a document with many
// of them leans to the class of fewest labelled words (on IMDB, 100
// labelled reviews per class, the accuracy fell by a point).
type Labelled struct {
	Texts    []string
	Settings vectorize.Settings
	Workers  int
}

// Fit returns the naive Bayes model of kind with p on the documents rows
// of l (nil: all) with label ids y (one per row), over their own
// vocabulary, at temperature p.Temperature and with a record of no EM.
func (l *Labelled) Fit(kind model.Kind, rows []int, y []int, classes []string, p model.Params) (*model.Model, *vectorize.Matrix, error) {
	texts := l.Texts
	if rows != nil {
		texts = make([]string, len(rows))
		for i, r := range rows {
			texts[i] = l.Texts[r]
		}
	}
	vocab, X, err := train.Prepare(texts, y, len(classes), l.Settings, l.Workers, nil)
	if err != nil {
		return nil, nil, err
	}
	p.EM = nil
	m, err := train.FitNB(kind, X, y, classes, vocab, p)
	return m, X, err
}

// accuracy fits the model of the rows tr of l and returns its accuracy on
// the rows te, with label ids y of all the rows.
func (l *Labelled) accuracy(kind model.Kind, tr, te []int, y []int, classes []string, p model.Params) (float64, error) {
	m, _, err := l.Fit(kind, tr, pickInts(y, tr), classes, p)
	if err != nil {
		return 0, err
	}
	texts := make([]string, len(te))
	for i, r := range te {
		texts[i] = l.Texts[r]
	}
	X := train.PrepareWith(m.Vocab, texts, l.Workers)
	return train.Accuracy(m, X, pickInts(y, te), l.Workers), nil
}

func pickInts(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}
