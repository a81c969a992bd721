package train

import (
	"fmt"
	"math"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Calibration is the outcome of the temperature calibration of a Naive
// Bayes model (see CalibrateNB).
type Calibration struct {
	// Temperature is τ > 0: the calibrated model's probabilities are
	// softmax(τ·score). It is 1 when calibration was skipped.
	Temperature float64
	// Folds is k of the stratified split and FoldsUsed the number of
	// folds that were fitted and scored (the first ones, until
	// CalibrationDocs documents were held out); 0 when skipped before
	// splitting.
	Folds, FoldsUsed int
	// Docs is the number of held-out documents in the objective: those of
	// the folds used, less any whose own class scored -Inf in its fold (a
	// class absent from the fold's training part under the learned
	// prior), whose log-loss is infinite at every τ.
	Docs int
	// LogLoss1 and LogLoss are the mean held-out log-loss at τ = 1 and at
	// Temperature (NaN when calibration was skipped before scoring).
	LogLoss1, LogLoss float64
	// Skipped says why the model was left uncalibrated, or is "".
	Skipped string
}

// Knobs of the temperature search.
const (
	tempRange   = 1e6  // τ stays below τ0·tempRange, τ0 the Newton step from 0
	tempRelTol  = 1e-6 // stop when a step changes τ by less than this, relatively
	tempMaxIter = 100  // Newton or bisection steps at most
	tempNoInfo  = 1e-9 // L'(0) ≥ -tempNoInfo·sqrt(L″(0)): the scores carry no information
	tempChunk   = 256  // documents per scoring and objective task
	// tempCutoff is the τ·d below which exp(τ·d) is taken as 0: e^-40 is
	// lost to rounding in a sum that holds exp(0) = 1 (the maximum), and
	// so are its contributions to the moments.
	tempCutoff = -40
)

// CalibrateNB chooses the temperature τ of the Naive Bayes model of kind
// fitted with p on X and y (as FitNB fits it) by cross-fitting, and
// returns it with the held-out log-loss before and after. The training
// documents are split into k = DefaultFolds stratified folds
// (corpus.StratifiedKFold seeded with p.Seed); each of the first folds,
// until CalibrationDocs documents are held out, is scored by the model
// counted on the other folds, and τ minimizes the mean held-out log-loss
//
//	L(τ) = (1/n) Σ_i [ log Σ_c exp(τ·s_ic) − τ·s_iy_i ]
//
// of P(c|x) = softmax(τ·s), s_i being document i's held-out scores: the
// temperature scaling of Guo, Pleiss, Sun & Weinberger (2017), a
// one-parameter Platt (1999) scaling. L is convex in τ (L″ is the mean
// variance of s under the softmax), so a safeguarded Newton iteration
// finds its minimum. Held-out scores are used, not the training scores of
// the model, on which NB is overconfident.
//
// Multiplying W and B by τ > 0 multiplies every score by τ: the decisions
// stay (up to rounding of scores that tie to within a few ulps) and only
// the probabilities change. FitCalibrated applies τ; CalibrateNB only
// measures it. A fold's counts are the totals less the fold's own, so each
// fold used costs one model.NewNB and the scoring of its documents.
//
// Calibration is skipped (Temperature 1, Skipped saying why) when α = 0
// (the weights of the model or of its fold models are infinite wherever a
// count is 0), when a given prior is 0 (infinite biases), when there are
// fewer than two documents per fold, when the held-out scores carry no
// information (L'(0) ≥ 0: uniform probabilities are best) and when the
// held-out documents are separable (L decreases for ever). The result
// depends on the inputs and p.Seed, never on workers (0: GOMAXPROCS).
func CalibrateNB(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, workers int) (*Calibration, error) {
	p.Temperature = 0 // measure the scores as counted
	m, err := FitNB(kind, X, y, classes, vocab, p)
	if err != nil {
		return nil, err
	}
	return calibrate(m, X, y, workers)
}

// calibrate is CalibrateNB for m, the NB model counted on all of X and y
// with no temperature (its counts are the totals the folds are subtracted
// from).
func calibrate(m *model.Model, X *vectorize.Matrix, y []int, workers int) (*Calibration, error) {
	cal := newCalibration()
	// With α > 0 NewNB's weights are finite. With α = 0 they, or those of
	// the fold models, are infinite wherever a count is 0.
	switch {
	case !(m.Params.Alpha > 0):
		cal.Skipped = "alpha = 0: infinite weights"
		return cal, nil
	case !finite(m.B):
		cal.Skipped = "a class prior of 0: infinite biases"
		return cal, nil
	}
	folds, err := calibrationFolds(cal, y, uint64(m.Params.Seed))
	if err != nil {
		return nil, err
	}
	if cal.Skipped != "" {
		return cal, nil
	}
	scores, labels, err := heldOutScores(m, X, y, folds, workers)
	if err != nil {
		return nil, err
	}
	return fitTemperature(cal, scores, labels, m.NumClasses(), workers), nil
}

// applyTemperature gives m, an NB model built with no temperature, the
// temperature tau > 0: it records it in m.Params.Temperature and
// multiplies W and B by it in place, as model.NewNB does as its last step,
// so that m is NewNB's model with that temperature, bit for bit, and
// survives a save and load (TestCalibratedModelFile). τ = 1 leaves m as it
// is. Infinite weights and the scoring structure NewNB derived stay valid:
// a positive factor keeps every sign, zero and infinity. A τ that would
// overflow a finite weight is an error, and m is then unchanged.
func applyTemperature(m *model.Model, tau float64) error {
	if tau == 1 {
		return nil
	}
	if !(tau > 0) || math.IsInf(tau, 1) {
		return fmt.Errorf("temperature must be a finite number > 0, got %v", tau)
	}
	for _, xs := range [][]float64{m.W, m.B} {
		for _, x := range xs {
			if math.IsInf(x*tau, 0) && !math.IsInf(x, 0) {
				return fmt.Errorf("temperature %v overflows a weight of %v", tau, x)
			}
		}
	}
	for i := range m.W {
		m.W[i] *= tau
	}
	for c := range m.B {
		m.B[c] *= tau
	}
	m.Params.Temperature = tau
	return nil
}

// heldOutScores returns the scores, row-major with C per document, of the
// documents of folds (in fold order, each fold in its order) by the model
// of m's kind and parameters counted on the other documents, and the
// documents' labels. A fold's counts are m's totals less the fold's own
// (subtractCounts). Each document's scores are computed by one task, so
// the result does not depend on workers.
func heldOutScores(m *model.Model, X *vectorize.Matrix, y []int, folds [][]int, workers int) (scores []float64, labels []int, err error) {
	C := m.NumClasses()
	n := 0
	for _, held := range folds {
		n += len(held)
	}
	scores = make([]float64, 0, n*C)
	labels = make([]int, 0, n)
	var trDocs, trCounts []float64
	for f, held := range folds {
		trDocs = append(trDocs[:0], m.ClassDocs...)
		trCounts = append(trCounts[:0], m.Counts...) // no zeroing on the first fold
		subtractCounts(m.Kind, X, y, held, m.Params.ClassWeights, trDocs, trCounts, m.Counts)
		fp := m.Params
		fp.Temperature = 0
		fm, err := model.NewNB(m.Kind, m.Classes, m.Vocab, fp, trDocs, trCounts)
		if err != nil {
			return nil, nil, fmt.Errorf("calibration fold %d: %w", f+1, err)
		}
		scoreRows(fm.NewScorer, X, held, scores[len(scores):len(scores)+len(held)*C], C, workers)
		scores = scores[:len(scores)+len(held)*C]
		for _, i := range held {
			labels = append(labels, y[i])
		}
	}
	return scores, labels, nil
}

// newCalibration returns the Calibration of a model left uncalibrated
// (τ = 1, no log-loss measured), which calibration then completes.
func newCalibration() *Calibration {
	return &Calibration{Temperature: 1, LogLoss1: math.NaN(), LogLoss: math.NaN()}
}

// calibrationFolds splits the training documents, labelled y, into
// DefaultFolds stratified folds (corpus.StratifiedKFold seeded with seed)
// and returns the first ones, until CalibrationDocs documents are held
// out, recording k and their number in cal. With fewer than two documents
// per fold it sets cal.Skipped and returns no folds.
func calibrationFolds(cal *Calibration, y []int, seed uint64) ([][]int, error) {
	k := DefaultFolds
	if len(y) < 2*k {
		cal.Skipped = fmt.Sprintf("%d documents are too few for %d folds", len(y), k)
		return nil, nil
	}
	folds, err := corpus.StratifiedKFold(y, k, seed)
	if err != nil {
		return nil, err
	}
	cal.Folds = k
	for n := 0; cal.FoldsUsed < k && n < CalibrationDocs; cal.FoldsUsed++ {
		n += len(folds[cal.FoldsUsed])
	}
	return folds[:cal.FoldsUsed], nil
}

// scoreRows writes the scores of the rows of X listed in rows to out,
// row-major with C per row, by scorers newScorer makes, one task per
// tempChunk rows (so the result does not depend on workers).
func scoreRows(newScorer func() *model.Scorer, X *vectorize.Matrix, rows []int, out []float64, C, workers int) {
	parallel(workers, ceilDiv(len(rows), tempChunk), func(task int) {
		s := newScorer()
		for j := task * tempChunk; j < min(len(rows), (task+1)*tempChunk); j++ {
			copy(out[j*C:(j+1)*C], s.Scores(X.Row(rows[j])))
		}
	})
}

// subtractCounts removes the statistics of the rows of X listed in rows
// from classDocs and counts, which start as the totals (nbCounts of every
// row, so the values are known to be valid); tot holds the totals of
// counts. Summed tf-idf values do not cancel exactly in floating point: an
// entry that falls to 1e-12 of its total or below (a term only the removed
// rows hold, to rounding) is set to exactly 0, so that the fold's model
// sees the term as unseen, as counting the remaining rows would. Entries
// only decrease, so clamping as they go gives the same result as at the
// end.
func subtractCounts(kind model.Kind, X *vectorize.Matrix, y []int, rows []int, cw []float64, classDocs, counts, tot []float64) {
	const rel = 1e-12
	C := len(classDocs)
	presence := kind == model.Bernoulli
	for _, i := range rows {
		c := y[i]
		if cw != nil {
			// Weighted counts are not integers: clamp as for tf-idf.
			wc := cw[c]
			if classDocs[c] -= wc; classDocs[c] <= rel*wc {
				classDocs[c] = 0
			}
			ind, val := X.Row(i)
			for j, t := range ind {
				v := float64(val[j])
				if !(v > 0) {
					continue
				}
				if presence {
					v = 1
				}
				k := int(t)*C + c
				if counts[k] -= wc * v; counts[k] <= rel*tot[k] {
					counts[k] = 0
				}
			}
			continue
		}
		classDocs[c]-- // integers: exact
		ind, val := X.Row(i)
		for j, t := range ind {
			v := val[j]
			if !(v > 0) {
				continue
			}
			k := int(t)*C + c
			if presence {
				counts[k]-- // integers: exact
			} else if counts[k] -= float64(v); counts[k] <= rel*tot[k] {
				counts[k] = 0
			}
		}
	}
	if presence && cw != nil {
		// Rounding must not leave a term in more documents than its class.
		for k := range counts {
			counts[k] = min(counts[k], classDocs[k%C])
		}
	}
}

// tempObjective is the mean held-out log-loss L(τ) of softmax(τ·s) over
// the documents whose own class has a finite score; classes scoring -Inf
// take no part (their probability is 0 at every τ). It keeps, for each
// such document, its finite scores less their maximum, d_c = s_c − max s
// ≤ 0 (so that exp(τ·d_c) ≤ 1 never overflows), and d_y of its own class.
type tempObjective struct {
	d       []float64 // the documents' d_c, concatenated
	ptr     []int     // document k's d_c are d[ptr[k]:ptr[k+1]]
	dy      []float64 // d_y of document k
	workers int
	part    [][3]float64 // per task: Σ L_k, Σ L_k', Σ L_k″
}

// newTempObjective builds the objective of the scores s (row-major, C per
// document) of documents labelled y. A document with a +Inf or NaN score
// (complement NB with α = 0; calibrate skips those models) is left out.
func newTempObjective(s []float64, y []int, C, workers int) *tempObjective {
	o := &tempObjective{ptr: []int{0}, workers: workers}
	for i, t := range y {
		row := s[i*C : (i+1)*C]
		mx, ok := math.Inf(-1), row[t] > math.Inf(-1)
		for _, v := range row {
			ok = ok && !math.IsNaN(v) && !math.IsInf(v, 1)
			mx = max(mx, v)
		}
		if !ok {
			continue
		}
		for _, v := range row {
			if v > math.Inf(-1) {
				o.d = append(o.d, v-mx)
			}
		}
		o.ptr = append(o.ptr, len(o.d))
		o.dy = append(o.dy, row[t]-mx)
	}
	o.part = make([][3]float64, ceilDiv(len(o.dy), tempChunk))
	return o
}

// docs returns the number of documents in the objective.
func (o *tempObjective) docs() int { return len(o.dy) }

// eval returns L(τ), L'(τ) and L″(τ). Each document contributes
//
//	L_k = log Σ_c exp(τ·d_c) − τ·d_y,  L_k' = E[d] − d_y,  L_k″ = Var[d]
//
// (moments under softmax(τ·d), which is softmax(τ·s)). The sums run over
// fixed chunks of documents and then over the chunks in order, so that
// the result does not depend on the number of workers.
func (o *tempObjective) eval(tau float64) (L, g, h float64) {
	parallel(o.workers, len(o.part), func(task int) {
		var acc [3]float64
		for k := task * tempChunk; k < min(len(o.dy), (task+1)*tempChunk); k++ {
			z, m1, m2 := 0.0, 0.0, 0.0
			for _, d := range o.d[o.ptr[k]:o.ptr[k+1]] {
				if x := tau * d; x > tempCutoff {
					e := math.Exp(x)
					z += e
					m1 += e * d
					m2 += e * d * d
				}
			}
			m1 /= z
			acc[0] += math.Log(z) - tau*o.dy[k]
			acc[1] += m1 - o.dy[k]
			// E[d²] − E[d]² loses little: the maximum, d = 0, has the
			// largest weight, so E[d]² ≤ E[d²] is not close to it
			// unless both are 0.
			acc[2] += max(0, m2/z-m1*m1)
		}
		o.part[task] = acc
	})
	for _, p := range o.part {
		L += p[0]
		g += p[1]
		h += p[2]
	}
	n := float64(len(o.dy))
	return L / n, g / n, h / n
}

// minimize returns the τ > 0 minimizing L and L(τ). It starts from τ0 =
// −L'(0)/L″(0), the Newton step from τ = 0, and takes Newton steps in u =
// log τ, where the scale of the scores does not matter:
//
//	F(u) = L(e^u),  F' = τ·L',  F″ = τ·L' + τ²·L″,  u ← u − F'/F″
//
// limited to a factor of e² per step (a factor e downhill where F″ ≤ 0,
// since F, unlike L, need not be convex), and safeguarded by a bracket
// [lo, hi] of the root of L' (geometric bisection when a step leaves it).
// It returns a reason instead when L'(0) ≥ 0 (L increases from τ = 0: the
// scores carry no information) or when L keeps decreasing (the documents
// are separable: L' < 0 up to τ0·tempRange, or every softmax has become a
// point mass on the document's class).
func (o *tempObjective) minimize() (tau, L float64, why string) {
	_, g0, h0 := o.eval(0)
	if !(h0 > 0) || !(g0 < -tempNoInfo*math.Sqrt(h0)) {
		return 0, 0, "held-out scores carry no information about the class"
	}
	const separable = "held-out documents are separable: no finite temperature"
	tau0 := -g0 / h0
	lo, hi := 0.0, math.Inf(1)
	tau = tau0
	for range tempMaxIter {
		var g, h float64
		L, g, h = o.eval(tau)
		switch {
		case g == 0 && h == 0:
			return 0, 0, separable
		case g < 0:
			lo = tau
		case g > 0:
			hi = tau
		default:
			return tau, L, ""
		}
		du := -1.0 // F″ ≤ 0: a factor e downhill
		if g < 0 {
			du = 1
		}
		if f2 := tau*g + tau*tau*h; f2 > 0 {
			du = max(-2, min(2, -tau*g/f2))
		}
		next := tau * math.Exp(du)
		if !(next > lo && next < hi) {
			next = math.Sqrt(lo * hi) // lo > 0 here: from lo = 0 a step down stays above it
		}
		if next > tau0*tempRange {
			return 0, 0, separable
		}
		if math.Abs(next-tau) <= tempRelTol*tau {
			return tau, L, ""
		}
		tau = next
	}
	return tau, L, ""
}

// finite reports whether every x is finite.
func finite(xs []float64) bool {
	for _, x := range xs {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
	}
	return true
}
