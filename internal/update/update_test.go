package update

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// corpusOf returns n seeded documents of the classes.
func corpusOf(seed uint64, n int, classes []string) (texts, labels []string) {
	r := rand.New(rand.NewPCG(seed, 1))
	for range n {
		c := classes[r.IntN(len(classes))]
		var b strings.Builder
		for range 4 + r.IntN(20) {
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s%d ", c, r.IntN(25))
			} else {
				fmt.Fprintf(&b, "w%d ", r.IntN(80+r.IntN(300)))
			}
		}
		texts, labels = append(texts, b.String()), append(labels, c)
	}
	return texts, labels
}

func countOf(t *testing.T, s vectorize.Settings, texts, labels []string) *counts.Counts {
	t.Helper()
	c, err := counts.NewCounter(s, nil, counts.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range texts {
		if err := c.Add(texts[i], labels[i]); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := c.Counts()
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// fitMemory fits kind in memory on texts, as 'nbtext train' does.
func fitMemory(t *testing.T, kind model.Kind, s vectorize.Settings, p model.Params, texts, labels []string) *model.Model {
	t.Helper()
	classes := slices.Clone(labels)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	y := make([]int, len(labels))
	for i, l := range labels {
		y[i] = slices.Index(classes, l)
	}
	v, X, err := vectorize.Fit(texts, y, len(classes), s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	v.Weight(X)
	m, err := train.FitNB(kind, X, y, classes, v, p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func encoded(t *testing.T, m *model.Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := model.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestAddRemoveExact: Add of new documents' counts gives the bytes of
// the model fitted in memory on the union, with min_df pruning and a new
// class; Remove gives back the model of the old documents; the history
// records both.
func TestAddRemoveExact(t *testing.T) {
	s, p := train.Defaults(model.Multinomial)
	s.Weighting, s.Norm, s.MinDF = "count", "none", 2
	ta, la := corpusOf(1, 200, []string{"x", "y"})
	tb, lb := corpusOf(2, 150, []string{"x", "y", "z"})
	ma := fitMemory(t, model.Multinomial, s, p, ta, la)
	mab := fitMemory(t, model.Multinomial, s, p, append(slices.Clone(ta), tb...), append(slices.Clone(la), lb...))
	ca, cb := countOf(t, s, ta, la), countOf(t, s, tb, lb)
	if err := CheckCounts(ma, ca, "a.nbm", "a.nbc"); err != nil {
		t.Fatal(err)
	}
	if err := CheckCounts(ma, cb, "a.nbm", "b.nbc"); err == nil {
		t.Error("the counts of other documents pass as the model's")
	}
	opt := Options{Date: "2026-01-02T03:04:05Z", Source: "b.tsv"}
	mu, cu, err := Add(ma, ca, cb, "a.nbc", "b.tsv", Options{NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, mu), encoded(t, mab)) {
		t.Error("Add differs from the model fitted on the union")
	}
	mh, _, err := Add(ma, ca, cb, "a.nbc", "b.tsv", opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Step{{Op: "train", Docs: 200, Total: 200}, {Op: "update", Docs: 150, Total: 350, Date: opt.Date, Source: "b.tsv", Classes: []string{"z"}}}
	if fmt.Sprint(mh.Meta.History) != fmt.Sprint(want) {
		t.Errorf("history %+v, want %+v", mh.Meta.History, want)
	}
	mr, cr, err := Remove(mh, cu, cb, "u.nbc", "b.tsv", opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(mr.Meta.History) != 3 || mr.Meta.History[2].Op != "forget" || mr.Meta.History[2].Total != 200 || fmt.Sprint(mr.Meta.History[2].Classes) != "[z]" {
		t.Errorf("history after Remove: %+v", mr.Meta.History)
	}
	mr.Meta.History = nil
	if !bytes.Equal(encoded(t, mr), encoded(t, ma)) {
		t.Error("Remove of the added documents differs from the old model")
	}
	if cr.Documents() != 200 || len(cr.Classes) != 2 {
		t.Errorf("counts after Remove: %d documents, classes %v", cr.Documents(), cr.Classes)
	}
}

// TestExactRefuses: the models without an exact update say why.
func TestExactRefuses(t *testing.T) {
	s, p := train.Defaults(model.Multinomial)
	ta, la := corpusOf(1, 100, []string{"x", "y"})
	tfidf := fitMemory(t, model.Multinomial, s, p, ta, la)
	if err := Exact(tfidf); err == nil || !strings.Contains(err.Error(), "approximate") {
		t.Errorf("tf-idf multinomial: %v", err)
	}
	if err := Approximate(tfidf); err != nil {
		t.Errorf("tf-idf multinomial cannot be approximated: %v", err)
	}
	sb, pb := train.Defaults(model.Bernoulli)
	sb.Weighting, sb.Norm = "tfidf", "l2"
	pb.Temperature = 1
	if err := Exact(fitMemory(t, model.Bernoulli, sb, pb, ta, la)); err != nil {
		t.Errorf("Bernoulli NB with tf-idf settings: %v", err)
	}
	lr := &model.Model{Kind: model.LogReg, Vocab: tfidf.Vocab}
	if err := Exact(lr); err == nil || !strings.Contains(err.Error(), "keeps no counts") {
		t.Errorf("logreg: %v", err)
	}
}
