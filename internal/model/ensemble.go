package model

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Ensemble is the kind of a weighted average of models (Caruana et al.
// 2004): P(c|x) = Σ_k Weights[k]·P_k(c|x), each member P_k scoring the
// text with its own vocabulary and settings. Its number is written into
// model files: never renumber it.
const Ensemble Kind = 10

// NewEnsemble returns the ensemble of members with weights (> 0, summing
// to 1 within 1e-9), recording meta. The members must share their classes
// (in the same order) and their Remove setting, and be text models of one
// label each: no ensemble, no multi-label model, no record fields.
func NewEnsemble(members []*Model, weights []float64, meta Meta) (*Model, error) {
	return newEnsemble(members, weights, meta, false)
}

// newEnsemble is NewEnsemble; validMembers says that each member was
// validated already (decodeBytes did), so that only what the ensemble adds
// is checked.
func newEnsemble(members []*Model, weights []float64, meta Meta, validMembers bool) (*Model, error) {
	if len(members) == 0 {
		return nil, errors.New("ensemble: no members")
	}
	m := &Model{Kind: Ensemble, Classes: slices.Clone(members[0].Classes), Meta: meta,
		Members: members, Weights: slices.Clone(weights)}
	if err := m.validateEnsemble(validMembers); err != nil {
		return nil, err
	}
	return m, nil
}

// validateEnsemble checks an ensemble: its members (each one's validate
// unless validMembers), their weights and that they agree.
func (m *Model) validateEnsemble(validMembers bool) error {
	if len(m.Members) == 0 {
		return errors.New("ensemble: no members")
	}
	if len(m.Weights) != len(m.Members) {
		return fmt.Errorf("ensemble: %d weights for %d members", len(m.Weights), len(m.Members))
	}
	if m.Vocab != nil || len(m.W) > 0 || len(m.B) > 0 || m.Fields != nil || m.MultiLabel || m.Counts != nil || m.ClassDocs != nil {
		return errors.New("ensemble: weights, vocabulary or fields of its own")
	}
	if err := validateClasses(m.Classes); err != nil {
		return err
	}
	total := 0.0
	for k, mem := range m.Members {
		w := m.Weights[k]
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("ensemble: member %d: weight %v, want a finite number > 0", k+1, w)
		}
		total += w
		if mem == nil || mem.Kind == Ensemble || mem.MultiLabel || mem.Fields != nil {
			return fmt.Errorf("ensemble: member %d: not a text model of one label per document", k+1)
		}
		if !validMembers {
			if err := mem.validate(); err != nil {
				return fmt.Errorf("ensemble: member %d: %w", k+1, err)
			}
		}
		if !slices.Equal(mem.Classes, m.Classes) {
			return fmt.Errorf("ensemble: member %d has other classes", k+1)
		}
		if mem.Vocab.Settings.Remove != m.Members[0].Vocab.Settings.Remove {
			return fmt.Errorf("ensemble: member %d strips other parts of the documents (--remove %q, not %q)", k+1,
				mem.Vocab.Settings.Remove, m.Members[0].Vocab.Settings.Remove)
		}
	}
	if math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("ensemble: weights sum to %v, want 1", total)
	}
	return nil
}

// Remove returns the --remove setting the model's documents are stripped
// with: its vocabulary's, or its members' for an ensemble.
func (m *Model) Remove() string {
	switch {
	case m.Kind == Ensemble && len(m.Members) > 0:
		return m.Members[0].Remove()
	case m.Vocab != nil:
		return m.Vocab.Settings.Remove
	}
	return ""
}

// EnsembleScorer scores texts with an ensemble: each member vectorizes and
// scores the text with its own vocabulary, and the class probabilities are
// the weighted average of the members'. Like a Scorer it reuses its
// buffers; use one per goroutine.
type EnsembleScorer struct {
	m     *Model
	parts []ensemblePart
	p, lp []float64
}

type ensemblePart struct {
	vz       *vectorize.Vectorizer
	sc       *Scorer
	ind      []int32 // the last text's row
	val      []float32
	fallback bool
}

// NewEnsembleScorer returns a scorer for the ensemble m.
func (m *Model) NewEnsembleScorer() *EnsembleScorer {
	e := &EnsembleScorer{m: m, p: make([]float64, len(m.Classes)), lp: make([]float64, len(m.Classes))}
	for _, mem := range m.Members {
		e.parts = append(e.parts, ensemblePart{vz: mem.Vocab.NewVectorizer(), sc: mem.NewScorer()})
	}
	return e
}

// Predict scores text (already stripped as Remove says): LogProbs are the
// logarithms of the averaged probabilities and Class their most probable
// class (ties: the lower id). Empty is set when the text has no term of
// any member's vocabulary, Fallback when every member fell back to its
// prior. The returned LogProbs is overwritten by the next call.
func (e *EnsembleScorer) Predict(text string) Prediction {
	clear(e.p)
	empty, fallback := true, true
	for k := range e.parts {
		pt := &e.parts[k]
		pt.ind, pt.val = pt.vz.Vectorize(text)
		e.m.Members[k].Vocab.WeightRow(pt.ind, pt.val)
		pr := pt.sc.Predict(pt.ind, pt.val)
		pt.fallback = pr.Fallback
		empty = empty && pr.Empty
		fallback = fallback && pr.Fallback
		w := e.m.Weights[k]
		for c, l := range pr.LogProbs {
			e.p[c] += w * math.Exp(l)
		}
	}
	for c, p := range e.p {
		e.lp[c] = math.Log(p)
	}
	return Prediction{LogProbs: e.lp, Class: Decide(e.lp, nil), Empty: empty, Fallback: fallback}
}

// Explain explains the decision for class of the text last given to
// Predict: the n terms whose weighted contributions, summed over the
// members, weigh most. A term's value is Σ_k Weights[k]·Value_k, Value_k
// being its contribution to member k's log-odds of class against the
// ensemble's rival, the most probable other class (Scorer.ExplainAgainst);
// a term several members know (by name) sums their shares. Ties in |Value|
// go to the lower term, in byte order; TermID is -1.
func (e *EnsembleScorer) Explain(class, n int) []Contribution {
	C := len(e.m.Classes)
	if class < 0 || class >= C || n <= 0 {
		return nil
	}
	o := -1
	for c, l := range e.lp {
		if c != class && (o < 0 || l > e.lp[o]) {
			o = c
		}
	}
	sum := map[string]float64{}
	for k := range e.parts {
		pt := &e.parts[k]
		w := e.m.Weights[k]
		for _, ct := range pt.sc.ExplainAgainst(pt.ind, pt.val, class, o, len(pt.ind)) {
			if v := w * ct.Value; !math.IsNaN(v) {
				sum[ct.Term] += v
			}
		}
	}
	out := make([]Contribution, 0, len(sum))
	for t, v := range sum {
		if v != 0 && !math.IsNaN(v) {
			out = append(out, Contribution{Term: t, TermID: -1, Value: v, Against: o})
		}
	}
	return strongest(out, n, func(a, b Contribution) bool { return a.Term < b.Term })
}
