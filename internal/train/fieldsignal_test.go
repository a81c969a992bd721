package train

import (
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/synth"
)

// fieldSignalCorpus is a synthetic corpus of the shape of the
// records-with-fields construction (docs/records.md, tools/fieldcorpus):
// two classes whose texts are informative but not enough (held-out
// accuracy near 0.9; a text model separates its training documents), and
// per document a categorical field "vendor" right for 85% of them, drawn
// independently of the text, and a pure-noise categorical field "noise"
// with four values whatever the class.
func fieldSignalCorpus(t *testing.T, n int, seed uint64) (texts []string, y []int, vendor, noise *Records) {
	t.Helper()
	g, err := synth.New(synth.Config{Seed: seed, Docs: n, Classes: 2, Vocab: 4000, WordsPerDoc: 60, ClassShare: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	f, err := synth.NewFields(synth.FieldConfig{Seed: seed, Values: []string{"ibm", "apple"}, Accuracy: 0.85})
	if err != nil {
		t.Fatal(err)
	}
	vendor = &Records{Spec: FieldSpec{Categorical: []string{"vendor"}}}
	noise = &Records{Spec: FieldSpec{Categorical: []string{"noise"}}}
	for {
		c, text, ok := g.Next()
		if !ok {
			break
		}
		v, z, _ := f.Next(c, string(text))
		texts = append(texts, string(text))
		y = append(y, c)
		vendor.Recs = append(vendor.Recs, model.Record{Cat: []string{v}})
		noise.Recs = append(noise.Recs, model.Record{Cat: []string{z}})
	}
	return texts, y, vendor, noise
}

// TestFieldSignal is the records-with-fields family: for every model kind
// that takes fields, with its default settings, a field right for 85% of
// the documents and independent of the text given the class must raise
// the held-out accuracy of a text model near 0.9 by 2 points or more (a
// product of likelihoods, or a linear model that weighs the field against
// the text's held-out evidence, does), and a pure-noise field may cost at
// most 0.5 point.
func TestFieldSignal(t *testing.T) {
	texts, y, vendor, noise := fieldSignalCorpus(t, 3000, 7)
	classes := []string{"class00", "class01"}
	tr, te := seq(1200), seq(3000)[1200:]
	ytr, yte := corpus.Pick(y, tr), corpus.Pick(y, te)
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.LogReg, model.SVM} {
		s, p := Defaults(kind)
		s.Fields = ""
		vocab, X, err := Prepare(corpus.Pick(texts, tr), ytr, 2, s, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		Xte := PrepareWith(vocab, corpus.Pick(texts, te), 1)
		acc := func(r *Records) float64 {
			p := p
			var rtr, rte *Records
			if r != nil {
				rtr, rte = r.Subset(tr), r.Subset(te)
				p.FieldAlpha, p.VarSmoothing = model.DefaultFieldAlpha, model.DefaultVarSmoothing
			}
			m, _, err := FitWithFields(kind, X, ytr, classes, vocab, p, Options{Workers: 1}, rtr)
			if err != nil {
				t.Fatal(err)
			}
			return AccuracyRecords(m, Xte, rte, yte, 1)
		}
		text, withVendor, withNoise := acc(nil), acc(vendor), acc(noise)
		t.Logf("%-11s held-out accuracy: text %.4f, + vendor %.4f, + noise %.4f", kind, text, withVendor, withNoise)
		if withVendor < text+0.02 {
			t.Errorf("%s: an 85%%-right independent field gives %.4f from %.4f: want a gain of 2 points or more", kind, withVendor, text)
		}
		if withNoise < text-0.005 {
			t.Errorf("%s: a pure-noise field gives %.4f from %.4f: want a loss of 0.5 point at most", kind, withNoise, text)
		}
	}
}

// TestFieldShrink checks the empirical-Bayes shrinkage of categorical
// fields: counts whose classes share one distribution get the largest
// strength (the class likelihoods become the pooled one, which adds
// nothing to a decision), counts that tell the classes apart a small one,
// and a single value or class none.
func TestFieldShrink(t *testing.T) {
	noise := []float64{290, 301, 305, 282, 296, 300, 277, 289} // 4 values × 2 classes, value-major
	if m := FieldShrink(noise, 2, 1); m < 1e8 {
		t.Errorf("noise counts: shrinkage %v, want the bound 1e9", m)
	}
	signal := []float64{85, 15, 15, 85} // 85% right
	if m := FieldShrink(signal, 2, 1); m > 10 {
		t.Errorf("informative counts: shrinkage %v, want ≤ 10", m)
	}
	if m := FieldShrink([]float64{3, 4}, 2, 1); m != 0 {
		t.Errorf("one value: shrinkage %v, want 0", m)
	}
}

// TestFieldSignalOnNews is TestFieldSignal on the construction of
// docs/records.md (tools/fieldcorpus with seed 1): the posts of
// comp.sys.ibm.pc.hardware and comp.sys.mac.hardware, train and test
// splits, with the vendor field right for 85% of them and the noise field.
// Every kind with its defaults must gain 2 points with the vendor field
// and lose at most 0.5 with the noise field on the test split.
func TestFieldSignalOnNews(t *testing.T) {
	tr, te := loadNews(t)
	groups := []string{"comp.sys.ibm.pc.hardware", "comp.sys.mac.hardware"}
	f, err := synth.NewFields(synth.FieldConfig{Seed: 1, Values: []string{"ibm", "apple"}, Accuracy: 0.85})
	if err != nil {
		t.Fatal(err)
	}
	type split struct {
		texts         []string
		y             []int
		vendor, noise *Records
	}
	pick := func(c *corpus.Corpus) split {
		s := split{vendor: &Records{Spec: FieldSpec{Categorical: []string{"vendor"}}}, noise: &Records{Spec: FieldSpec{Categorical: []string{"noise"}}}}
		for _, d := range c.Docs {
			k := slices.Index(groups, d.Label)
			if k < 0 {
				continue
			}
			v, z, _ := f.Next(k, d.Text)
			s.texts, s.y = append(s.texts, d.Text), append(s.y, k)
			s.vendor.Recs = append(s.vendor.Recs, model.Record{Cat: []string{v}})
			s.noise.Recs = append(s.noise.Recs, model.Record{Cat: []string{z}})
		}
		return s
	}
	a, b := pick(tr), pick(te) // train first: the order of tools/fieldcorpus's draws
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.LogReg, model.SVM} {
		s, p := Defaults(kind)
		vocab, X, err := Prepare(a.texts, a.y, 2, s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		Xte := PrepareWith(vocab, b.texts, 0)
		acc := func(rtr, rte *Records) float64 {
			p := p
			if rtr != nil {
				p.FieldAlpha, p.VarSmoothing = model.DefaultFieldAlpha, model.DefaultVarSmoothing
			}
			m, _, err := FitWithFields(kind, X, a.y, groups, vocab, p, Options{}, rtr)
			if err != nil {
				t.Fatal(err)
			}
			return AccuracyRecords(m, Xte, rte, b.y, 0)
		}
		text, withVendor, withNoise := acc(nil, nil), acc(a.vendor, b.vendor), acc(a.noise, b.noise)
		t.Logf("%-11s test accuracy: text %.4f, + vendor %.4f, + noise %.4f", kind, text, withVendor, withNoise)
		if withVendor < text+0.02 {
			t.Errorf("%s: the vendor field gives %.4f from %.4f: want a gain of 2 points or more", kind, withVendor, text)
		}
		if withNoise < text-0.005 {
			t.Errorf("%s: the noise field gives %.4f from %.4f: want a loss of 0.5 point at most", kind, withNoise, text)
		}
	}
}
