package train

import (
	"math"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// ovrLabels returns label sets over the classes of s with a long tail:
// document i has its class, one time in three the next class too, and
// the labels "rare1" (on document 0 only) and "rare2" (on documents 1
// and 2) on top, so that two of the len(s.Classes)+2 labels have one and
// two documents.
func ovrLabels(s *synthetic) (Y [][]int, labels []string) {
	c := len(s.Classes)
	labels = append(append([]string{}, s.Classes...), "rare1", "rare2")
	Y = make([][]int, len(s.Y))
	for i, y := range s.Y {
		Y[i] = []int{y}
		if i%3 == 0 {
			Y[i] = append(Y[i], (y+1)%c)
		}
	}
	Y[0] = append(Y[0], c)
	Y[1] = append(Y[1], c+1)
	Y[2] = append(Y[2], c+1)
	return Y, labels
}

// fitOne fits the label present on its own with o and returns its
// weights and bias.
func fitOne(t *testing.T, o *ovrSGD, present []bool) ([]float64, float64) {
	t.Helper()
	w := o.work()
	b, err := o.fitBlock([][]bool{present}, w)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, o.nf)
	for j := range v {
		v[j] = w.v[j*ovrBlock]
	}
	return v, b[0]
}

// TestOVRSGDIsTwoClassSGD checks that the binary SGD of the one-vs-rest
// logistic regression takes FitLogReg's steps on the two classes absent
// and present: for every label, including the ones on one and two
// documents, and for each penalty and with class weights, its weights
// are the difference of FitLogReg's two classes' weights and its bias
// their biases' difference (up to the precision of FitLogReg's bias
// refit, which stops at a relative decrease of 1e-8).
func TestOVRSGDIsTwoClassSGD(t *testing.T) {
	s := makeSynthetic(t, 240, 120, 6, 0.6, 5)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	Y, labels := ovrLabels(s)
	n := len(Y)
	cases := []struct {
		penalty string
		cw      []float64
	}{{"l2", nil}, {"l1", nil}, {"elasticnet", nil}, {"l2", []float64{0.6, 3}}}
	for _, tc := range cases {
		p := lrParams("sgd", tc.penalty, 30, 12)
		p.BatchSize, p.ClassWeights = 1, tc.cw
		if tc.penalty == "elasticnet" {
			p.L1Ratio = 0.5
		}
		if !useOVRSGD(model.LogReg, p) {
			t.Fatalf("%s: useOVRSGD is false", tc.penalty)
		}
		o := newOVRSGD(X, p, Options{})
		for l := range labels {
			y, present := make([]int, n), make([]bool, n)
			for i, ls := range Y {
				for _, k := range ls {
					if k == l {
						y[i], present[i] = 1, true
					}
				}
			}
			m, err := FitLogReg(X, y, binaryClasses, vocab, p, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			v, b := fitOne(t, o, present)
			worst, norm := 0.0, 0.0
			for j := range v {
				worst = max(worst, math.Abs(v[j]-(m.W[2*j+1]-m.W[2*j])))
				norm = max(norm, math.Abs(v[j]))
			}
			if norm == 0 || worst > 1e-9*norm {
				t.Errorf("%s cw %v label %s: weights differ by %.3g (largest %.3g)", tc.penalty, tc.cw, labels[l], worst, norm)
			}
			if d := math.Abs(b - (m.B[1] - m.B[0])); d > 1e-3*(1+math.Abs(b)) {
				t.Errorf("%s cw %v label %s: bias %.6f, FitLogReg's %.6f", tc.penalty, tc.cw, labels[l], b, m.B[1]-m.B[0])
			}
		}
	}
}

// TestOVRSGDOptimum checks the binary solver's fit against the
// optimality conditions of scikit-learn's binomial problem
// C·Σ ℓ(z_i) + ½‖v‖² (as TestLogRegBinaryCIsScikitLearns does for
// L-BFGS on two classes): the refitted bias makes Σ (y_i − σ(z_i)) zero
// to rounding, and with enough epochs the weights satisfy
// v = C·Σ (y_i − σ(z_i)) x_i to 1% of the largest weight (SGD with
// annealing after 2,000 epochs), for a frequent label
// and for one on a single document.
func TestOVRSGDOptimum(t *testing.T) {
	s := makeSynthetic(t, 200, 40, 2, 0.5, 11)
	X, _ := s.weighted(t, "tfidf", true, "l2")
	Y, labels := ovrLabels(s)
	const C = 5
	p := lrParams("sgd", "l2", C, 2000)
	p.BatchSize = 1
	o := newOVRSGD(X, p, Options{Tol: -1})
	for _, l := range []int{0, len(labels) - 2} {
		present := make([]bool, len(Y))
		for i, ls := range Y {
			for _, k := range ls {
				present[i] = present[i] || k == l
			}
		}
		v, b := fitOne(t, o, present)
		grad := make([]float64, X.Cols) // C·Σ (y_i - σ(z_i)) x_i
		gb, pos := 0.0, 0.0
		for i := range X.Rows() {
			ind, val := X.Row(i)
			z := b
			for k, j := range ind {
				z += float64(val[k]) * v[j]
			}
			r := -1 / (1 + math.Exp(-z))
			if present[i] {
				r++
				pos++
			}
			gb += r
			for k, j := range ind {
				grad[j] += C * r * float64(val[k])
			}
		}
		if math.Abs(gb) > 1e-9*float64(X.Rows()) {
			t.Errorf("label %s: Σ(y-σ) = %.3g at the refitted bias", labels[l], gb)
		}
		worst, norm := 0.0, 0.0
		for j := range v {
			worst = max(worst, math.Abs(v[j]-grad[j]))
			norm = max(norm, math.Abs(v[j]))
		}
		if norm == 0 || worst > 0.01*norm {
			t.Errorf("label %s (%g documents): |v - C·Σ(y-σ)x| = %.3g with |v| = %.3g: not the binomial optimum", labels[l], pos, worst, norm)
		}
	}
}

// TestFitMultiLabelLogRegRareLabels checks FitMultiLabel's logistic
// regression on labels with one and two documents and on a label with
// none: each rare label's probability is highest on its own documents
// and below one half on the others, and the label without documents
// gets the prior of its smoothed rate 1/(n+2) on every document; the
// model does not depend on the number of workers, and a label fitted in
// a block of ovrBlock labels has the weights it has fitted alone.
func TestFitMultiLabelLogRegRareLabels(t *testing.T) {
	s := makeSynthetic(t, 240, 120, 6, 0.6, 5)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	Y, labels := ovrLabels(s)
	labels = append(labels, "none")
	_, p := Defaults(model.LogReg)
	m, err := FitMultiLabel(model.LogReg, X, Y, labels, vocab, p, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := FitMultiLabel(model.LogReg, X, Y, labels, vocab, p, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.W {
		if m.W[i] != m2.W[i] {
			t.Fatalf("weight %d: %g with one worker, %g with three", i, m.W[i], m2.W[i])
		}
	}
	// Blocks of labels fit each label as it is fitted alone.
	o := newOVRSGD(X, p, Options{})
	L := len(labels)
	for l := range L - 1 {
		present := make([]bool, len(Y))
		for i, ls := range Y {
			for _, k := range ls {
				present[i] = present[i] || k == l
			}
		}
		v, b := fitOne(t, o, present)
		for j := range v {
			if m.W[j*L+l] != v[j] {
				t.Fatalf("label %s: weight %d is %g in the model, %g fitted alone", labels[l], j, m.W[j*L+l], v[j])
			}
		}
		if m.B[l] != b {
			t.Fatalf("label %s: bias %g in the model, %g fitted alone", labels[l], m.B[l], b)
		}
	}
	c, n := len(s.Classes), len(Y)
	sc := m.NewScorer()
	probs := make([][]float64, n)
	for i := range probs {
		probs[i] = append([]float64{}, sc.LabelProbs(X.Row(i))...)
	}
	for _, rare := range []struct {
		l    int
		docs []int
	}{{c, []int{0}}, {c + 1, []int{1, 2}}} {
		lowest := 1.0
		for _, i := range rare.docs {
			lowest = min(lowest, probs[i][rare.l])
		}
		for i := range n {
			if i == rare.docs[0] || (len(rare.docs) > 1 && i == rare.docs[1]) {
				continue
			}
			if pr := probs[i][rare.l]; pr >= lowest || pr >= 0.5 {
				t.Fatalf("label %s: probability %.4f on document %d, %.4f at least on its own", labels[rare.l], pr, i, lowest)
			}
		}
	}
	want := 1 / (float64(n) + 2)
	for i := range n {
		if pr := probs[i][c+2]; math.Abs(pr-want) > 1e-12 {
			t.Fatalf("label none: probability %g on document %d, want the prior %g", pr, i, want)
		}
	}
}
