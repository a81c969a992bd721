package model

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Kinds of Gaussian discriminant analysis over the numeric fields of a
// record (see NewDiscriminant). Their numbers are written into model
// files: never renumber them.
const (
	LDA Kind = 11 // linear discriminant analysis: one covariance shared by the classes
	QDA Kind = 12 // quadratic discriminant analysis: one covariance per class
)

// RecordOnly reports whether k reads the fields of a record and no text:
// categorical and Gaussian NB, LDA and QDA.
func (k Kind) RecordOnly() bool { return k == Categorical || k == Gaussian || k == LDA || k == QDA }

// Discriminant reports whether k is LDA or QDA.
func (k Kind) Discriminant() bool { return k == LDA || k == QDA }

// Quadratic holds QDA's class-conditional normal densities over the d
// numeric fields of a record (Fields.Numeric, in that order): for class c
// the mean μ_c = Mean[c*d : (c+1)*d] and the covariance Σ_c =
// Cov[c*d*d : (c+1)*d*d], row-major, symmetric positive definite. Class c
// scores
//
//	log π_c - ½ log|Σ_c| - (d/2) log 2π - ½ (x - μ_c)ᵀ Σ_c⁻¹ (x - μ_c)
//
// the log joint density; the constant terms are B[c] and field j adds
// -½ Δ_j (Σ_c⁻¹ Δ)_j with Δ = x - μ_c, so that the fields' contributions
// sum to the quadratic form exactly (the explanation of a QDA
// prediction). A missing value is the field's training mean
// (NumericField.Center), as for LDA.
type Quadratic struct {
	Mean []float64 `json:"mean"`
	Cov  []float64 `json:"cov"`

	prec   []float64 // C·d·d, Σ_c⁻¹
	logDet []float64 // log|Σ_c|
}

// prepare checks q's shapes for C classes and d fields and computes each
// class's precision matrix and log-determinant.
func (q *Quadratic) prepare(C, d int) error {
	if len(q.Mean) != C*d || len(q.Cov) != C*d*d {
		return fmt.Errorf("qda: %d means and %d covariances for %d classes × %d fields", len(q.Mean), len(q.Cov), C, d)
	}
	if !allFinite(q.Mean) || !allFinite(q.Cov) {
		return errors.New("qda: statistics not finite")
	}
	q.prec, q.logDet = make([]float64, C*d*d), make([]float64, C)
	for c := 0; c < C; c++ {
		p, ld, err := Precision(q.Cov[c*d*d:(c+1)*d*d], d)
		if err != nil {
			return fmt.Errorf("qda: class %d: %w", c, err)
		}
		copy(q.prec[c*d*d:], p)
		q.logDet[c] = ld
	}
	return nil
}

// Precision returns the inverse and the log-determinant of the symmetric
// positive definite d×d matrix cov (row-major), by the Cholesky
// factorisation of its correlation matrix R = D^{-1/2} Σ D^{-1/2}
// (D = diag Σ), so that fields on very different scales lose no
// precision: Σ⁻¹ = D^{-1/2} R⁻¹ D^{-1/2}, log|Σ| = log|R| + Σ_j log D_jj.
// It fails when a variance is not positive or R is not positive definite.
func Precision(cov []float64, d int) ([]float64, float64, error) {
	R, s, err := correlation(cov, d)
	if err != nil {
		return nil, 0, err
	}
	var ch mat.Cholesky
	if !ch.Factorize(R) {
		return nil, 0, errors.New("covariance is not positive definite (fields are collinear)")
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, 0, fmt.Errorf("covariance is singular: %w", err)
	}
	out := make([]float64, d*d)
	ld := ch.LogDet()
	for i := 0; i < d; i++ {
		ld += 2 * math.Log(s[i])
		for j := 0; j < d; j++ {
			out[i*d+j] = inv.At(i, j) / (s[i] * s[j])
		}
	}
	return out, ld, nil
}

// correlation returns the correlation matrix of the covariance cov and
// the standard deviations s it divides by.
func correlation(cov []float64, d int) (*mat.SymDense, []float64, error) {
	s := make([]float64, d)
	for i := 0; i < d; i++ {
		v := cov[i*d+i]
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, nil, fmt.Errorf("field %d has variance %v", i, v)
		}
		s[i] = math.Sqrt(v)
	}
	R := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if cov[i*d+j] != cov[j*d+i] {
				return nil, nil, fmt.Errorf("covariance is not symmetric at (%d, %d)", i, j)
			}
			R.SetSym(i, j, cov[i*d+j]/(s[i]*s[j]))
		}
	}
	return R, s, nil
}

// MinCorrelationEigen returns the smallest eigenvalue of the correlation
// matrix of cov (d×d, row-major) and the index of a field of variance 0
// (or -1): a scale-free measure of how close cov is to singular, which
// the fitters compare against a tolerance before inverting it.
func MinCorrelationEigen(cov []float64, d int) (float64, int) {
	for i := 0; i < d; i++ {
		if !(cov[i*d+i] > 0) {
			return 0, i
		}
	}
	R, _, err := correlation(cov, d)
	if err != nil {
		return 0, -1
	}
	var eig mat.EigenSym
	if !eig.Factorize(R, false) {
		return 0, -1
	}
	v := eig.Values(nil)
	lo := math.Inf(1)
	for _, x := range v {
		lo = math.Min(lo, x)
	}
	return lo, -1
}

// delta writes Δ = x̃ - μ_c into dst, with x̃ the record's values (a
// missing one replaced by the field's Center), and (Σ_c⁻¹ Δ) into pd.
func (q *Quadratic) delta(nf []NumericField, r Record, c int, dst, pd []float64) {
	d := len(nf)
	for j := range nf {
		x := nf[j].Center
		if j < len(r.Num) && r.Num[j] == r.Num[j] {
			x = r.Num[j]
		}
		dst[j] = x - q.Mean[c*d+j]
	}
	P := q.prec[c*d*d : (c+1)*d*d]
	for i := 0; i < d; i++ {
		s := 0.0
		row := P[i*d : (i+1)*d]
		for j, v := range row {
			s += v * dst[j]
		}
		pd[i] = s
	}
}

// scratch returns two slices of d floats, on buf when it is long enough.
func scratch(buf []float64, d int) ([]float64, []float64) {
	if len(buf) < 2*d {
		buf = make([]float64, 2*d)
	}
	return buf[:d], buf[d : 2*d]
}

// add adds each class's quadratic term to sc.
func (q *Quadratic) add(sc []float64, nf []NumericField, r Record) {
	var buf [256]float64 // no allocation up to 128 fields
	dv, pd := scratch(buf[:], len(nf))
	for c := range sc {
		q.delta(nf, r, c, dv, pd)
		s := 0.0
		for j, x := range dv {
			s += x * pd[j]
		}
		sc[c] -= 0.5 * s
	}
}

// explain returns each field's share -½ Δ_j (Σ⁻¹Δ)_j of the quadratic
// term of class minus that of against (against < 0: class alone).
func (q *Quadratic) explain(nf []NumericField, r Record, class, against int) []Contribution {
	d := len(nf)
	dv, pd := make([]float64, d), make([]float64, d)
	out := make([]Contribution, d)
	q.delta(nf, r, class, dv, pd)
	for j := range nf {
		term := nf[j].Name + "=(missing: mean)"
		if j < len(r.Num) && r.Num[j] == r.Num[j] {
			term = nf[j].Name + "=" + strconv.FormatFloat(r.Num[j], 'g', -1, 64)
		}
		out[j] = Contribution{Term: term, TermID: -1, Value: -0.5 * dv[j] * pd[j], Against: against}
	}
	if against >= 0 {
		q.delta(nf, r, against, dv, pd)
		for j := range nf {
			out[j].Value += 0.5 * dv[j] * pd[j]
		}
	}
	return out
}

// NewDiscriminant builds an LDA or QDA model over the numeric fields f:
// B[c] = log P(c) (p.Prior, from classDocs weighed by p.ClassWeights as
// NewRecordModel does) + bias[c], with an empty vocabulary.
//
// LDA (Fisher 1936; Hastie, Tibshirani & Friedman 2009, §4.3) is linear:
// with the shared covariance Σ, field j adds W_jc·(x_j - Center_j) with
// W_c = Σ⁻¹ μ_c (NumericField.Weights, Scale 1), and bias[c] =
// -½ μ_cᵀ Σ⁻¹ μ_c + Σ_j W_jc·Center_j, so that the score is
// log π_c + xᵀΣ⁻¹μ_c - ½ μ_cᵀΣ⁻¹μ_c and a missing value stands for the
// training mean. QDA keeps each class's covariance in f.Quadratic, and
// bias is ignored: B[c] = log P(c) - ½ log|Σ_c| - (d/2) log 2π.
func NewDiscriminant(kind Kind, classes []string, p Params, classDocs []float64, f *Fields, bias []float64) (*Model, error) {
	if !kind.Discriminant() {
		return nil, fmt.Errorf("NewDiscriminant: %s is not lda or qda", kind)
	}
	if err := validateClasses(classes); err != nil {
		return nil, err
	}
	C := len(classes)
	if len(classDocs) != C || (kind == LDA && len(bias) != C) {
		return nil, fmt.Errorf("NewDiscriminant: %d class counts and %d biases for %d classes", len(classDocs), len(bias), C)
	}
	vocab, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), []string{}, []int32{}, []int64{}, int(sum(classDocs)))
	if err != nil {
		return nil, err
	}
	prior := classDocs
	if len(p.ClassWeights) == C {
		prior = make([]float64, C)
		for c, n := range classDocs {
			prior[c] = n * p.ClassWeights[c]
		}
	}
	m := &Model{Kind: kind, Classes: classes, Vocab: vocab, Params: p, B: logPrior(p, prior, C), W: []float64{}}
	if err := m.SetFields(f); err != nil {
		return nil, err
	}
	if kind == QDA {
		d := float64(len(f.Numeric))
		for c := range m.B {
			m.B[c] += -0.5*f.Quadratic.logDet[c] - 0.5*d*math.Log(2*math.Pi)
		}
	} else {
		for c := range m.B {
			m.B[c] += bias[c]
		}
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}

// validateDensityParams checks the parameters of kernel densities, LDA
// and QDA (see Params).
func validateDensityParams(p Params) error {
	switch p.NumericDensity {
	case "", "gaussian", "kernel":
	default:
		return fmt.Errorf("--numeric-density must be gaussian or kernel, got %q", p.NumericDensity)
	}
	if _, err := ParseBandwidth(p.Bandwidth); err != nil {
		return err
	}
	if _, _, err := ParseShrinkage(p.Shrinkage); err != nil {
		return err
	}
	if !(p.RegParam >= 0 && p.RegParam <= 1) {
		return fmt.Errorf("--reg-param must be in [0, 1], got %v", p.RegParam)
	}
	return nil
}

// ParseBandwidth checks a --bandwidth value: "" (the default rule),
// "scott", "silverman", "cv", or a number > 0, which it returns (0 for a
// rule).
func ParseBandwidth(s string) (float64, error) {
	switch s {
	case "", "scott", "silverman", "cv":
		return 0, nil
	}
	h, err := strconv.ParseFloat(s, 64)
	if err != nil || !(h > 0) || math.IsInf(h, 1) {
		return 0, fmt.Errorf("--bandwidth must be scott, silverman, cv or a number > 0, got %q", s)
	}
	return h, nil
}

// ParseShrinkage checks a --shrinkage value: "" or "none" (no shrinkage),
// "auto" (Ledoit-Wolf: auto true) or a number in [0, 1].
func ParseShrinkage(s string) (v float64, auto bool, err error) {
	switch s {
	case "", "none":
		return 0, false, nil
	case "auto":
		return 0, true, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 1) {
		return 0, false, fmt.Errorf("--shrinkage must be auto, none or a number in [0, 1], got %q", s)
	}
	return v, false, nil
}
