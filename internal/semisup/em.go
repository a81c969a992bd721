package semisup

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Rows are the unlabelled documents as weighted rows over the model's
// vocabulary, read once per EM iteration. *train.RowCache (on disk) and
// MatrixRows (in memory) are Rows; the label ids they carry are ignored.
type Rows interface {
	// Rows returns the number of rows.
	Rows() int
	// Each calls fn with every row, in a fixed order; the slices are
	// valid until fn returns.
	Each(fn func(y int, ind []int32, val []float32) error) error
}

// MatrixRows are the rows of an in-memory matrix as Rows.
type MatrixRows struct{ X *vectorize.Matrix }

// Rows returns the number of rows of the matrix.
func (m MatrixRows) Rows() int { return m.X.Rows() }

// Each calls fn with every row of the matrix, in order, with label id 0.
func (m MatrixRows) Each(fn func(y int, ind []int32, val []float32) error) error {
	for i := 0; i < m.X.Rows(); i++ {
		ind, val := m.X.Row(i)
		if err := fn(0, ind, val); err != nil {
			return err
		}
	}
	return nil
}

// Defaults of Options.
const (
	// DefaultMaxIter is the default most EM iterations. On IMDB and 20
	// Newsgroups the log-likelihood changes by less than DefaultTol
	// within it (docs/semi-supervised.md).
	DefaultMaxIter = 10
	// DefaultTol is the default relative change of the log-likelihood
	// below which EM stops.
	DefaultTol = 1e-4
)

// Options tune FitEM.
type Options struct {
	// Weight is λ ≥ 0, the weight of an unlabelled document relative to a
	// labelled one (Nigam et al.'s EM-λ). 0 fits the labelled documents
	// alone.
	Weight float64
	// MaxIter ≥ 0 bounds the iterations (0: the labelled model).
	MaxIter int
	// Tol ≥ 0 is the relative change of the log-likelihood below which EM
	// stops (0: run MaxIter iterations).
	Tol float64
	// Progress, when set, is called as the unlabelled rows are read:
	// done and total count rows over MaxIter passes; the last call has
	// done == total.
	Progress func(done, total int)
	// Iteration, when set, is called after each E-step with the
	// log-likelihood of the model that entered it.
	Iteration func(Iteration)
}

// Iteration is what one EM iteration reports.
type Iteration struct {
	// N is the iteration, from 1.
	N int
	// LogLik is ℓ (see the package documentation) of the model entering
	// the iteration: iteration 1 reports the labelled model's.
	LogLik float64
	// Change is (ℓ_N - ℓ_{N-1}) / |ℓ_{N-1}|, NaN for the first iteration.
	Change float64
}

// Result is what FitEM returns.
type Result struct {
	Model *model.Model
	// LogLik[k] is ℓ of the model entering iteration k+1.
	LogLik     []float64
	Iterations int
	Converged  bool
}

// validate checks the parameters of an EM fit of kind with p and opt.
func validate(kind model.Kind, p model.Params, opt Options) error {
	switch kind {
	case model.Multinomial, model.Bernoulli:
	case model.Complement:
		return errors.New("--unlabeled: complement naive bayes is not a generative model (its scores are no likelihood for EM to climb): use --model multinomial or bernoulli")
	default:
		return fmt.Errorf("--unlabeled fits naive bayes by EM: --model multinomial or bernoulli, not %s", kind)
	}
	if !(p.Alpha > 0) || (kind == model.Bernoulli && !(p.Beta > 0)) {
		// θ = 0 would make unlabelled documents impossible in a class,
		// and the log-likelihood -Inf.
		return fmt.Errorf("--unlabeled needs smoothing: --alpha (and --beta for bernoulli) must be > 0, got α=%g β=%g", p.Alpha, p.Beta)
	}
	if !(opt.Weight >= 0) || math.IsInf(opt.Weight, 1) {
		return fmt.Errorf("--unlabeled-weight must be a finite number ≥ 0, got %v", opt.Weight)
	}
	if opt.MaxIter < 0 {
		return fmt.Errorf("--em-iterations must be ≥ 0, got %d", opt.MaxIter)
	}
	if !(opt.Tol >= 0) || math.IsInf(opt.Tol, 1) {
		return fmt.Errorf("--em-tol must be a finite number ≥ 0, got %v", opt.Tol)
	}
	return nil
}

// FitEM fits a naive Bayes model of kind (model.Multinomial or
// model.Bernoulli) on the labelled rows X with label ids y and the
// unlabelled rows U by EM (see the package documentation): the model of
// the labelled rows first, then up to opt.MaxIter E- and M-steps, each
// reading U once. X and U carry the weighting of vocab (train.Prepare,
// Vocabulary.WeightRow); their values must be finite and non-negative. The
// model's Params.EM records the weight, the iterations and the
// log-likelihoods. With opt.Weight 0 or opt.MaxIter 0, U is not read and
// the model is the labelled one (with a record of no iterations).
func FitEM(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, U Rows, opt Options) (*Result, error) {
	if err := validate(kind, p, opt); err != nil {
		return nil, err
	}
	if U == nil {
		return nil, errors.New("FitEM: no unlabelled rows")
	}
	p0 := p
	p0.Temperature = 0 // scores are log joint probabilities during EM
	p0.EM = nil
	m, err := train.FitNB(kind, X, y, classes, vocab, p0)
	if err != nil {
		return nil, err
	}
	C, V := len(classes), vocab.Len()
	labDocs, labCounts := slices.Clone(m.ClassDocs), slices.Clone(m.Counts)
	res := &Result{}
	e := &estep{kind: kind, C: C, V: V, accDocs: make([]float64, C), acc: make([]float64, V*C), post: make([]float64, C)}
	// Two buffers for the statistics: the model of the last M-step holds
	// one while the next is computed into the other.
	bufDocs := [2][]float64{make([]float64, C), make([]float64, C)}
	bufCounts := [2][]float64{nil, nil}
	total := U.Rows() * opt.MaxIter
	if opt.Weight == 0 {
		total = 0
	}
	for it := 1; opt.Weight > 0 && it <= opt.MaxIter; it++ {
		base := (it - 1) * U.Rows()
		var prog func(done int)
		if opt.Progress != nil {
			prog = func(done int) { opt.Progress(base+done, total) }
		}
		llU, err := e.run(m, U, prog)
		if err != nil {
			return nil, err
		}
		ll := labelledLogLik(m, X, y, p.ClassWeights) + opt.Weight*llU + logPriorTheta(kind, m, p0)
		change := math.NaN()
		if n := len(res.LogLik); n > 0 {
			prev := res.LogLik[n-1]
			change = (ll - prev) / math.Abs(prev)
		}
		res.LogLik = append(res.LogLik, ll)
		if opt.Iteration != nil {
			opt.Iteration(Iteration{N: it, LogLik: ll, Change: change})
		}
		// M-step.
		k := it % 2
		if bufCounts[k] == nil {
			bufCounts[k] = make([]float64, V*C)
		}
		docs, cnt := bufDocs[k], bufCounts[k]
		for c := range docs {
			docs[c] = labDocs[c] + opt.Weight*e.accDocs[c]
		}
		for i := range cnt {
			cnt[i] = labCounts[i] + opt.Weight*e.acc[i]
		}
		if m, err = model.NewNB(kind, classes, vocab, p0, docs, cnt); err != nil {
			return nil, err
		}
		res.Iterations = it
		if !math.IsNaN(change) && math.Abs(change) < opt.Tol {
			res.Converged = true
			break
		}
	}
	if opt.Progress != nil && total > 0 {
		opt.Progress(total, total)
	}
	// The final model owns its statistics, with the caller's parameters
	// (the temperature) and the record of the fit.
	p.EM = &model.EM{
		Unlabeled: U.Rows(), Weight: opt.Weight, MaxIterations: opt.MaxIter, Tol: opt.Tol,
		Iterations: res.Iterations, Converged: res.Converged, LogLikelihood: slices.Clone(res.LogLik),
	}
	if p.EM.LogLikelihood == nil {
		p.EM.LogLikelihood = []float64{}
	}
	if res.Model, err = model.NewNB(kind, classes, vocab, p, slices.Clone(m.ClassDocs), slices.Clone(m.Counts)); err != nil {
		return nil, err
	}
	return res, nil
}

// estep holds the accumulators of an E-step.
type estep struct {
	kind    model.Kind
	C, V    int
	accDocs []float64 // Σ_u P(c|x_u)
	acc     []float64 // Σ_u P(c|x_u)·x_ud, feature-major
	post    []float64
}

// progressEvery is the number of rows between two progress calls.
const progressEvery = 4096

// run reads every row of U once, scoring it with m: it sets accDocs and
// acc to the posterior-weighted statistics of the rows and returns
// Σ_u log P(x_u) = Σ_u log Σ_c exp(score_c(x_u)).
func (e *estep) run(m *model.Model, U Rows, prog func(done int)) (float64, error) {
	clear(e.accDocs)
	clear(e.acc)
	sc := m.NewScorer()
	C, V := e.C, e.V
	presence := e.kind == model.Bernoulli
	ll := 0.0
	row := 0
	post := e.post[:C]
	err := U.Each(func(_ int, ind []int32, val []float32) error {
		val = val[:len(ind)]
		for j, t := range ind {
			v := val[j]
			if t < 0 || int(t) >= V {
				return fmt.Errorf("unlabelled document %d: term id %d out of range [0, %d)", row, t, V)
			}
			if !(v >= 0) || math.IsInf(float64(v), 1) {
				return fmt.Errorf("unlabelled document %d, term %d: feature value %g is not a finite non-negative number", row, t, v)
			}
		}
		s := sc.Scores(ind, val)
		lse := model.LogSumExp(s)
		if math.IsInf(lse, 0) || math.IsNaN(lse) {
			return fmt.Errorf("unlabelled document %d: log-likelihood %v under every class", row, lse)
		}
		ll += lse
		for c, x := range s {
			q := math.Exp(x - lse)
			post[c] = q
			e.accDocs[c] += q
		}
		for j, t := range ind {
			x := float64(val[j])
			if presence {
				if x == 0 {
					continue
				}
				x = 1
			}
			o := int(t) * C
			a := e.acc[o : o+C : o+C]
			for c, q := range post {
				a[c] += q * x
			}
		}
		row++
		if prog != nil && row%progressEvery == 0 {
			prog(row)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if row != U.Rows() {
		return 0, fmt.Errorf("unlabelled rows: read %d of %d", row, U.Rows())
	}
	if prog != nil {
		prog(row)
	}
	return ll, nil
}

// labelledLogLik returns Σ_l w_{y_l} · score_{y_l}(x_l) over the labelled
// rows of X: their log joint probability under m, each weighted by its
// class weight (cw nil: 1).
func labelledLogLik(m *model.Model, X *vectorize.Matrix, y []int, cw []float64) float64 {
	sc := m.NewScorer()
	ll := 0.0
	for i, c := range y {
		s := sc.Scores(X.Row(i))
		w := 1.0
		if cw != nil {
			w = cw[c]
		}
		ll += w * s[c]
	}
	return ll
}

// logPriorTheta returns log P(θ) of m's term probabilities, up to a
// constant: α Σ log θ_cd for the multinomial model (Dirichlet), α Σ log
// θ_cd + β Σ log(1-θ_cd) for the Bernoulli model (Beta), with θ as
// model.NewNB computes it from m's statistics.
func logPriorTheta(kind model.Kind, m *model.Model, p model.Params) float64 {
	s := 0.0
	C := len(m.Classes)
	switch kind {
	case model.Multinomial:
		for _, w := range m.W { // W = log θ at temperature 1
			s += w
		}
		return p.Alpha * s
	case model.Bernoulli:
		for i, n := range m.Counts {
			nc := m.ClassDocs[i%C]
			den := nc + p.Alpha + p.Beta
			s += p.Alpha*math.Log((n+p.Alpha)/den) + p.Beta*math.Log((nc-n+p.Beta)/den)
		}
	}
	return s
}
