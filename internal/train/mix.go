package train

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// SameVocabulary returns nil when a and b have the same settings and the
// same terms in the same order, or an error naming the first difference
// (aName and bName say where each comes from).
func SameVocabulary(a, b *vectorize.Vocabulary, aName, bName string) error {
	if !reflect.DeepEqual(a.Settings, b.Settings) {
		return fmt.Errorf("%s and %s have different vectorizer settings (%+v and %+v)", aName, bName, a.Settings, b.Settings)
	}
	for i := range min(len(a.Terms), len(b.Terms)) {
		if a.Terms[i] != b.Terms[i] {
			return fmt.Errorf("%s and %s have different vocabularies: term %d is %q in one, %q in the other", aName, bName, i, a.Terms[i], b.Terms[i])
		}
	}
	if len(a.Terms) != len(b.Terms) {
		return fmt.Errorf("%s and %s have different vocabularies: %d and %d terms", aName, bName, len(a.Terms), len(b.Terms))
	}
	return nil
}

// SameClasses returns nil when a and b name the same classes in the same
// order, or an error naming the difference.
func SameClasses(a, b []string, aName, bName string) error {
	if slices.Equal(a, b) {
		return nil
	}
	for _, c := range a {
		if !slices.Contains(b, c) {
			return fmt.Errorf("%s has class %q, %s has not", aName, c, bName)
		}
	}
	for _, c := range b {
		if !slices.Contains(a, c) {
			return fmt.Errorf("%s has class %q, %s has not", bName, c, aName)
		}
	}
	return fmt.Errorf("%s and %s order their classes differently", aName, bName)
}

// MixLinear averages logistic regression models fitted on shards of a
// corpus over the same vocabulary and classes, each weighted by its number
// of training documents (Params.Docs): the mixing step of iterative
// parameter mixing (McDonald, Hall and Mann 2010), in which each shard runs
// an epoch of SGD from the mixed weights of the previous round. The result
// records the total number of documents and the first model's other
// parameters. names name the models in errors.
func MixLinear(ms []*model.Model, names []string) (*model.Model, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("no models to average")
	}
	first := ms[0]
	total := 0
	for i, m := range ms {
		if m.Kind != model.LogReg {
			return nil, fmt.Errorf("%s: a %s model: only logistic regression models are averaged", names[i], m.Kind)
		}
		if m.Params.Docs <= 0 {
			return nil, fmt.Errorf("%s: the model does not record how many documents it was fitted on (retrain it with this version)", names[i])
		}
		if m.Fields != nil {
			return nil, fmt.Errorf("%s: a model with record fields: only text models are averaged", names[i])
		}
		if i > 0 {
			if err := SameClasses(first.Classes, m.Classes, names[0], names[i]); err != nil {
				return nil, err
			}
			if err := SameVocabulary(first.Vocab, m.Vocab, names[0], names[i]); err != nil {
				return nil, err
			}
		}
		total += m.Params.Docs
	}
	W := make([]float64, len(first.W))
	B := make([]float64, len(first.B))
	for _, m := range ms {
		s := float64(m.Params.Docs) / float64(total)
		for j, v := range m.W {
			W[j] += s * v
		}
		for j, v := range m.B {
			B[j] += s * v
		}
	}
	p := first.Params
	p.Docs = total
	return model.NewLinear(model.LogReg, first.Classes, first.Vocab, p, W, B)
}
