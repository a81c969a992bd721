package train

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// rareLabelCorpus builds documents of a long tail: "main" on 120 of 200
// documents (words main1..main4 among common filler), and 40 labels
// "rareNN" on one document each, written with words of their own. Test
// documents carry main's words among the same filler.
func rareLabelCorpus(seed uint64) (texts []string, Y [][]int, labels []string, test []string) {
	rng := rand.New(rand.NewPCG(seed, 7))
	labels = []string{"main"}
	for r := 0; r < 40; r++ {
		labels = append(labels, fmt.Sprintf("rare%02d", r))
	}
	filler := func(b *strings.Builder, n int) {
		for range n {
			fmt.Fprintf(b, "fill%d ", rng.IntN(60))
		}
	}
	for i := 0; i < 200; i++ {
		var b strings.Builder
		var set []int
		filler(&b, 8)
		if i < 120 {
			set = append(set, 0)
			for range 3 {
				fmt.Fprintf(&b, "main%d ", 1+rng.IntN(4))
			}
		}
		if r := i - 120; r >= 0 && r < 40 {
			set = append(set, 1+r)
			fmt.Fprintf(&b, "only%d only%db ", r, r)
		}
		texts, Y = append(texts, b.String()), append(Y, set)
	}
	for range 30 {
		var b strings.Builder
		filler(&b, 8)
		fmt.Fprintf(&b, "main%d main%d", 1+rng.IntN(4), 1+rng.IntN(4))
		test = append(test, b.String())
	}
	return texts, Y, labels, test
}

// TestMultiLabelRareLabelsRank checks, for every kind that trains
// multi-label, that labels seen on one document each do not outrank a
// frequent label that the document's words support: "main" ranks first
// on every test document, and no one-document label gets a probability
// above 0.1 there (its base rate is 1/200).
func TestMultiLabelRareLabelsRank(t *testing.T) {
	texts, Y, labels, test := rareLabelCorpus(1)
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.Complement, model.LogReg, model.SVM, model.NBLR, model.Centroid} {
		s, p := Defaults(kind)
		vocab, X, err := Prepare(texts, make([]int, len(texts)), 1, s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := FitMultiLabel(kind, X, Y, labels, vocab, p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		sc := m.NewScorer()
		Xt := PrepareWith(vocab, test, 0)
		bad := 0
		for i := range test {
			probs := sc.LabelProbs(Xt.Row(i))
			top := model.TopK(probs, 2)
			if top[0] != 0 || probs[top[1]] > 0.1 {
				if bad == 0 {
					t.Errorf("%s: document %d: first %s %.4f, then %s %.4f; want main first and no rare label above 0.1",
						kind, i, labels[top[0]], probs[top[0]], labels[top[1]], probs[top[1]])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d documents rank a rare label wrongly", kind, bad, len(test))
		}
	}
}

// TestPlattScale checks the prior-aware targets: on separable scores the
// fit is finite, and with constant scores the probability is the
// smoothed base rate.
func TestPlattScale(t *testing.T) {
	s := []float64{2, 1, -1, -1, -2, -1}
	pos := []bool{true, true, false, false, false, false}
	a, b := PlattScale(s, pos)
	if !(a > 0) || a > 100 {
		t.Errorf("separable scores: a = %g, want finite > 0", a)
	}
	if p := model.Sigmoid(a*2 + b); p < 0.6 || p > 0.99 {
		t.Errorf("P(positive) = %.4f, want between the targets' range", p)
	}
	c := []float64{0, 0, 0, 0, 0, 0, 0, 0}
	one := []bool{true, false, false, false, false, false, false, false}
	a, b = PlattScale(c, one)
	// mean target (2/3 + 7·1/9)/8 = 13/72
	if want := 13.0 / 72; a != 0 || abs(model.Sigmoid(b)-want) > 1e-6 {
		t.Errorf("constant scores: a = %g, σ(b) = %.6f, want 0 and %.6f", a, model.Sigmoid(b), want)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestTuneThresholdsRareLabels tunes thresholds on a corpus whose labels
// are mostly on one document: it does not fail, and every such label
// gets the shared threshold.
func TestTuneThresholdsRareLabels(t *testing.T) {
	texts, Y, labels, _ := rareLabelCorpus(2)
	s, p := Defaults(model.Multinomial)
	vocab, X, err := Prepare(texts, make([]int, len(texts)), 1, s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	th, err := TuneThresholds(model.Multinomial, X, Y, labels, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for l := 2; l < len(th); l++ {
		if th[l] != th[1] {
			t.Errorf("threshold of %s %.2f, of %s %.2f: want the shared one for both", labels[l], th[l], labels[1], th[1])
		}
	}
	if th[1] <= 0 || th[1] >= 1 {
		t.Errorf("shared threshold %g", th[1])
	}
}

// TestMultiLabelSkipsTemperature checks that the SVM's and NB-LR's
// labels, fitted without the temperature fold, score as the calibrated
// binary fit would once Platt-scaled: the temperature only scales the
// score that PlattScale rescales.
func TestMultiLabelSkipsTemperature(t *testing.T) {
	texts, Y, labels, test := rareLabelCorpus(3)
	for i := 0; i < 120; i += 5 { // main's words on documents without it: not separable
		Y[i] = nil
	}
	for _, kind := range []model.Kind{model.SVM, model.NBLR} {
		s, p := Defaults(kind)
		p.C, _ = MultiLabelC(kind)
		vocab, X, err := Prepare(texts, make([]int, len(texts)), 1, s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := FitMultiLabel(kind, X, Y, labels, vocab, p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		y := make([]int, len(Y))
		pos := make([]bool, len(Y))
		for i, ls := range Y {
			if len(ls) > 0 && ls[0] == 0 {
				y[i], pos[i] = 1, true
			}
		}
		bm, cal, err := FitCalibrated(kind, X, y, binaryClasses, vocab, p, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if cal == nil || cal.Skipped != "" || cal.Temperature == 1 {
			t.Fatalf("%s: the binary fit was not calibrated (%+v)", kind, cal)
		}
		score := func(x []float64) float64 { return x[1] - x[0] }
		bs := bm.NewScorer()
		tr := make([]float64, len(Y))
		for i := range tr {
			tr[i] = score(bs.Scores(X.Row(i)))
		}
		a, b := PlattScale(tr, pos)
		Xt := PrepareWith(vocab, test, 0)
		sc := m.NewScorer()
		for i := range test {
			want := model.Sigmoid(a*score(bs.Scores(Xt.Row(i))) + b)
			if got := sc.LabelProbs(Xt.Row(i))[0]; abs(got-want) > 1e-4 {
				t.Errorf("%s: document %d: P(main) %.6f, the calibrated fit Platt-scaled %.6f", kind, i, got, want)
			}
		}
	}
}
