package train

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FieldPriorSD is σ of the normal prior N(0, σ²) each field's weights
// start from in a linear model with record fields (see fitLinearFields),
// before the evidence chooses each field's own σ: a value of a
// categorical field, or one standard deviation of a numeric field, moves
// a class's score by about σ.
const FieldPriorSD = 1

// Knobs of the evidence iteration of the field priors (stack.fit).
const (
	ardIter    = 30   // re-estimations of the prior precisions at most
	ardRelTol  = 1e-3 // stop when no precision changes by more than this, relatively
	ardMaxPrec = 1e8  // a precision this large has pruned its field
	ardMinPrec = 1e-6 // nor does one fall below this (σ = 1000)
)

// fitLinearFields fits logistic regression or the linear SVM (kind) on the
// terms X and the fields of r by stacking (Wolpert 1992), so that each
// field is weighed against the text's held-out evidence, not against the
// evidence of a text model on the documents it was fitted on, which it
// separates (with the default C the training documents of two groups of 20
// Newsgroups all are): fitted jointly, the fields' weights took what the
// text left over on the training documents, and the fields, stronger than
// the held-out text, then overruled it.
//
//  1. The text model is fitted on every document, as FitCalibrated fits it
//     without fields (the SVM without its calibration): scores t_c(x).
//
//  2. Cross-fitting, as the calibration does it (calibrationFolds): each
//     held-out document i gets the scores s_ic of the text model fitted on
//     the other folds.
//
//  3. On the held-out documents, a multinomial logistic regression over
//     the text scores and the field features z (categorical one-hot,
//     numeric standardised on all the training documents, missing 0)
//
//     score_c = τ·s_c + b_c + Σ_f z_f·w_fc
//
//     is fitted by maximum a posteriori: the mean log-loss (each
//     document weighing its class's weight, p.ClassWeights) plus
//     Σ_g λ_g ‖w_g‖² / (2n), a normal prior N(0, 1/λ_g) on the weights w_g
//     of each field g, none on τ > 0 and the offsets b_c. A given
//     p.Temperature fixes τ. Each field's precision λ_g, from 1/σ² with
//     σ = FieldPriorSD, is chosen by the evidence (MacKay 1992, "Bayesian
//     interpolation"; automatic relevance determination): λ_g = γ_g /
//     ‖w_g‖², γ_g = Σ_{j∈g} H_j / (H_j + λ_g) the number of weights the
//     data determine, with H_j the diagonal of the Hessian of the
//     log-loss, refitted until the precisions settle. A field that does
//     not help the held-out fit (pure noise) gets λ_g → ∞ and drops out;
//     one that does keeps a precision its weights outweigh.
//
//  4. The model scores τ·t_c(x) + b_c + Σ_f z_f·w_fc: the text model's
//     weights and biases times τ (recorded as the SVM's temperature), the
//     offsets added to the biases, the field weights as model.Fields holds
//     them.
//
// With too few documents for the folds (fewer than 2·DefaultFolds), the
// terms and fields are fitted jointly instead (fitLinearJoint).
func fitLinearFields(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, r *Records) (*model.Model, *Calibration, error) {
	C := len(classes)
	f := linearFields(r, C)
	cal := newCalibration()
	folds, err := calibrationFolds(cal, y, uint64(p.Seed))
	if err != nil {
		return nil, nil, err
	}
	if cal.Skipped != "" {
		return fitLinearJoint(kind, X, y, classes, vocab, p, opt, r, f)
	}
	fixed := p.Temperature
	p.Temperature = 0
	var (
		fold  fitFunc
		final func(tau float64) (*model.Model, error)
	)
	fopt := opt
	fopt.Progress, fopt.Init = nil, nil
	switch kind {
	case model.SVM:
		df, err := newDualFit(kind, X, y, classes, vocab, p)
		if err != nil {
			return nil, nil, err
		}
		// The folds are solved to the final fit's tolerance, not the
		// calibration's looser one: the stacked fit learns how far the
		// final model's scores can be trusted on documents it has not seen.
		fold = func(rows, y []int) (func() *model.Scorer, error) { return df.fitScorer(rows, y, fopt), nil }
		final = func(tau float64) (*model.Model, error) { return df.fit(nil, y, opt, tau) }
	case model.LogReg:
		fold = func(rows, yr []int) (func() *model.Scorer, error) {
			m, err := FitLogReg(X.Subset(rows), yr, classes, vocab, p, fopt)
			if err != nil {
				return nil, err
			}
			return m.NewScorer, nil
		}
		final = func(tau float64) (*model.Model, error) {
			m, err := FitLogReg(X, y, classes, vocab, p, opt)
			if err != nil {
				return nil, err
			}
			for i := range m.W {
				m.W[i] *= tau
			}
			for c := range m.B {
				m.B[c] *= tau
			}
			return model.NewLinear(m.Kind, m.Classes, m.Vocab, m.Params, m.W, m.B)
		}
	default:
		return nil, nil, fmt.Errorf("record fields need bernoulli, multinomial, logreg, svm, categorical or gaussian, not %s", kind)
	}
	// The held-out text scores, fold by fold.
	var scores []float64
	var held []int
	for k, rows := range folds {
		rest := corpus.Complement(len(y), rows)
		newScorer, err := fold(rest, corpus.Pick(y, rest))
		if err != nil {
			return nil, nil, fmt.Errorf("stacking fold %d: %w", k+1, err)
		}
		out := make([]float64, len(rows)*C)
		scoreRows(newScorer, X, rows, out, C, opt.workers())
		scores = append(scores, out...)
		held = append(held, rows...)
	}
	st := newStack(f, scores, corpus.Pick(y, held), corpus.Pick(r.Recs, held), C)
	st.cw = p.ClassWeights
	tau, b, w, l1, l := st.fit(fixed)
	cal.Temperature, cal.Docs, cal.LogLoss1, cal.LogLoss = tau, len(held), l1, l
	m, err := final(tau)
	if err != nil {
		return nil, nil, err
	}
	B := append([]float64(nil), m.B...)
	for c := range B {
		B[c] += b[c]
	}
	if m, err = model.NewLinear(m.Kind, m.Classes, m.Vocab, m.Params, m.W, B); err != nil {
		return nil, nil, err
	}
	o := 0
	for j := range f.Categorical {
		o += copy(f.Categorical[j].Weights, w[o:])
	}
	for j := range f.Numeric {
		o += copy(f.Numeric[j].Weights, w[o:])
	}
	if err := m.SetFields(f); err != nil {
		return nil, nil, err
	}
	return m, cal, nil
}

// stack is the held-out data of the stacked fit of fitLinearFields: the
// text scores of n documents (row-major, C each), their labels, the field
// features of each (columns 0..F-1, as FieldColumns lays them out from
// column 0), the field of each column and the prior precision of each
// field.
type stack struct {
	C, F   int
	scores []float64
	y      []int
	ptr    []int
	ind    []int32
	val    []float32
	group  []int     // column -> field
	prec   []float64 // field -> λ
	fixed  float64   // τ when given, else 0
	cw     []float64 // the weight of each class's documents (nil: 1)
}

// weight returns the weight of held-out document i in the log-loss: its
// class's weight (p.ClassWeights, as the text model's fit weighs it).
func (s *stack) weight(i int) float64 {
	if s.cw == nil {
		return 1
	}
	return s.cw[s.y[i]]
}

func newStack(f *model.Fields, scores []float64, y []int, recs []model.Record, C int) *stack {
	s := &stack{C: C, scores: scores, y: y, ptr: make([]int, 1, len(y)+1)}
	for g, cf := range f.Categorical {
		for range cf.Values {
			s.group = append(s.group, g)
		}
	}
	for g := range f.Numeric {
		s.group = append(s.group, len(f.Categorical)+g)
	}
	s.F = len(s.group)
	s.prec = make([]float64, len(f.Categorical)+len(f.Numeric))
	for g := range s.prec {
		s.prec[g] = 1 / (FieldPriorSD * FieldPriorSD)
	}
	for _, rec := range recs {
		s.ind, s.val = FieldColumns(f, rec, 0, s.ind, s.val)
		s.ptr = append(s.ptr, len(s.ind))
	}
	return s
}

// fit returns τ, the offsets b (C) and the field weights w (F·C,
// feature-major) that minimise the objective of fitLinearFields, the
// fields' precisions chosen by the evidence, and the mean held-out
// log-loss of the text scores alone (τ = 1) and of the stacked scores. τ
// is fixed when fixed > 0.
func (s *stack) fit(fixed float64) (tau float64, b, w []float64, loss1, loss float64) {
	s.fixed = fixed
	C, F := s.C, s.F
	// θ = (log τ, b, w).
	x := make([]float64, 1+C+F*C)
	if fixed > 0 {
		x[0] = math.Log(fixed)
	}
	loss1 = s.value(make([]float64, len(x)), false)
	prob := optimize.Problem{
		Func: func(x []float64) float64 { return s.value(x, true) },
		Grad: func(g, x []float64) { s.grad(x, g) },
	}
	settings := &optimize.Settings{Converger: &optimize.FunctionConverge{Relative: 1e-10, Iterations: 20}, MajorIterations: 1000}
	for it := 0; ; it++ {
		// A failure to converge further still leaves the best point found.
		if res, _ := optimize.Minimize(prob, x, settings, &optimize.LBFGS{}); res != nil && res.F <= prob.Func(x) {
			copy(x, res.X)
		}
		if it == ardIter || !s.reestimate(x) {
			break
		}
	}
	tau = math.Exp(x[0])
	if fixed > 0 {
		tau = fixed
	}
	return tau, x[1 : 1+C], x[1+C:], loss1, s.value(x, false)
}

// reestimate sets each field's precision to MacKay's fixed point γ_g /
// ‖w_g‖² at θ = x (see fitLinearFields) and reports whether one changed
// by more than ardRelTol.
func (s *stack) reestimate(x []float64) bool {
	C := s.C
	w := x[1+C:]
	// H_j = Σ_i z_if² p_ic (1 − p_ic), the diagonal of the Hessian of the
	// summed log-loss in w_fc.
	H := make([]float64, len(w))
	z := make([]float64, C)
	for i := range s.y {
		s.logits(x, i, z)
		softmax(z)
		for k := s.ptr[i]; k < s.ptr[i+1]; k++ {
			col, v := int(s.ind[k]), float64(s.val[k])
			for c, p := range z {
				H[col*C+c] += s.weight(i) * v * v * p * (1 - p)
			}
		}
	}
	gamma := make([]float64, len(s.prec))
	norm := make([]float64, len(s.prec))
	for j, wj := range w {
		g := s.group[j/C]
		gamma[g] += H[j] / (H[j] + s.prec[g])
		norm[g] += wj * wj
	}
	changed := false
	for g, old := range s.prec {
		lam := ardMaxPrec
		if norm[g] > 0 {
			lam = min(ardMaxPrec, max(ardMinPrec, gamma[g]/norm[g]))
		}
		if math.Abs(lam-old) > ardRelTol*old {
			changed = true
		}
		s.prec[g] = lam
	}
	return changed
}

// logits writes the stacked scores of document i under θ = x into z.
func (s *stack) logits(x []float64, i int, z []float64) {
	C := s.C
	tau := math.Exp(x[0])
	if s.fixed > 0 {
		tau = s.fixed
	}
	b, w := x[1:1+C], x[1+C:]
	for c := range z {
		z[c] = tau*s.scores[i*C+c] + b[c]
	}
	for k := s.ptr[i]; k < s.ptr[i+1]; k++ {
		col, v := int(s.ind[k]), float64(s.val[k])
		for c := range z {
			z[c] += v * w[col*C+c]
		}
	}
}

// softmax turns z into probabilities in place and returns log Σ exp z.
func softmax(z []float64) float64 {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	sum := 0.0
	for c, v := range z {
		z[c] = math.Exp(v - mx)
		sum += z[c]
	}
	for c := range z {
		z[c] /= sum
	}
	return mx + math.Log(sum)
}

// value is the objective at θ = x: the mean log-loss, plus the prior's
// penalty when penalised.
func (s *stack) value(x []float64, penalised bool) float64 {
	n := len(s.y)
	z := make([]float64, s.C)
	L := 0.0
	for i := 0; i < n; i++ {
		s.logits(x, i, z)
		yv := z[s.y[i]]
		L += s.weight(i) * (softmax(z) - yv)
	}
	L /= float64(n)
	if penalised {
		L += s.penalty(x[1+s.C:], nil)
	}
	return L
}

// penalty returns Σ_j λ_g(j) w_j² / (2n) and adds its gradient to g (when
// not nil).
func (s *stack) penalty(w, g []float64) float64 {
	inv := 1 / float64(len(s.y))
	P := 0.0
	for j, v := range w {
		k := s.prec[s.group[j/s.C]] * inv
		P += 0.5 * k * v * v
		if g != nil {
			g[j] += k * v
		}
	}
	return P
}

// grad writes the gradient of the penalised objective at x into g.
func (s *stack) grad(x, g []float64) {
	C := s.C
	clear(g)
	n := len(s.y)
	tau := math.Exp(x[0])
	z := make([]float64, C)
	gb, gw := g[1:1+C], g[1+C:]
	for i := 0; i < n; i++ {
		s.logits(x, i, z)
		softmax(z)
		z[s.y[i]]--
		if wi := s.weight(i); wi != 1 {
			for c := range z {
				z[c] *= wi
			}
		}
		for c, r := range z {
			g[0] += r * s.scores[i*C+c]
			gb[c] += r
		}
		for k := s.ptr[i]; k < s.ptr[i+1]; k++ {
			col, v := int(s.ind[k]), float64(s.val[k])
			for c, r := range z {
				gw[col*C+c] += v * r
			}
		}
	}
	inv := 1 / float64(n)
	for j := range g {
		g[j] *= inv
	}
	if s.fixed > 0 {
		g[0] = 0
	} else {
		g[0] *= tau // d/d log τ
	}
	s.penalty(x[1+C:], gw)
}
