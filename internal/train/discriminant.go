package train

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/nbtext/nbtext/internal/model"
)

// singularTol is the smallest eigenvalue of a covariance's correlation
// matrix below which LDA and QDA call it singular: scale-free, so fields
// in very different units (breast-cancer's areas of 10³ and fractal
// dimensions of 10⁻³) are not mistaken for collinear ones.
const singularTol = 1e-10

// FitDiscriminant fits linear or quadratic discriminant analysis (kind
// model.LDA or model.QDA; model.NewDiscriminant states the models) on the
// numeric fields of r, for documents with label ids y among classes:
//
//   - the class means μ_c and maximum-likelihood covariances
//     S_c = 1/n_c Σ_{i∈c} (x_i - μ_c)(x_i - μ_c)ᵀ;
//   - LDA: the shared Σ = Σ_c (n_c/n)·S_c'; with p.Shrinkage "auto" each
//     S_c' is the Ledoit-Wolf estimate of the class's standardised values
//     scaled back (LedoitWolf; scikit-learn's
//     LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")), with
//     a number s it is (1-s)·S_c + s·(tr S_c/d)·I, and without shrinkage
//     S_c;
//   - QDA: Σ_c = (1-r)·S_c + r·I with r = p.RegParam (scikit-learn's
//     QuadraticDiscriminantAnalysis(reg_param=r), whose S_c divides by
//     n_c - 1 where this is the maximum-likelihood one).
//
// A missing value is the field's training mean, in fitting and scoring. A
// singular covariance (a field constant within the classes, or collinear
// fields) is an error that names the remedy: --shrinkage for LDA,
// --reg-param for QDA. Categorical fields are refused: a one-hot value is
// not Gaussian, and its within-class variance is 0 wherever a class has
// one value only.
func FitDiscriminant(kind model.Kind, r *Records, y []int, classes []string, p model.Params) (*model.Model, error) {
	if !kind.Discriminant() {
		return nil, fmt.Errorf("FitDiscriminant needs lda or qda, got %s", kind)
	}
	if r == nil || len(r.Spec.Numeric) == 0 || len(r.Spec.Categorical) > 0 {
		return nil, fmt.Errorf("%s needs numeric fields only (a one-hot categorical field is not Gaussian: use --model gaussian, categorical or logreg for those)", kind)
	}
	if len(y) == 0 {
		return nil, errors.New("no training records")
	}
	C := len(classes)
	if C < 2 {
		return nil, fmt.Errorf("need at least two classes to train, got %d", C)
	}
	// The smoothing of NB fields and the calibration temperature do not
	// apply: leave them out of the model.
	p.FieldAlpha, p.VarSmoothing, p.Temperature = 0, 0, 0
	if err := ValidateParams(kind, p, C); err != nil {
		return nil, err
	}
	if err := r.check(len(y)); err != nil {
		return nil, err
	}
	X, center, err := recordMatrix(r)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	rows := make([][]int, C)
	for i, c := range y {
		if c < 0 || c >= C {
			return nil, fmt.Errorf("record %d: label id %d out of range [0, %d)", i, c, C)
		}
		rows[c] = append(rows[c], i)
	}
	need := 1
	if kind == model.QDA {
		need = 2
	}
	means := mat.NewDense(C, d, nil)
	classDocs := make([]float64, C)
	covs := make([]*mat.SymDense, C)
	shrink, auto, _ := model.ParseShrinkage(p.Shrinkage)
	if kind == model.QDA {
		shrink, auto = 0, false
	}
	for c, idx := range rows {
		if len(idx) < need {
			return nil, fmt.Errorf("class %s has %d training records: %s needs at least %d", classes[c], len(idx), kind, need)
		}
		classDocs[c] = float64(len(idx))
		Xc := mat.NewDense(len(idx), d, nil)
		for k, i := range idx {
			Xc.SetRow(k, X.RawRowView(i))
		}
		mu, cov := classCov(Xc, shrink, auto)
		means.SetRow(c, mu)
		covs[c] = cov
	}
	f := &model.Fields{}
	for j, name := range r.Spec.Numeric {
		f.Numeric = append(f.Numeric, model.NumericField{Name: name, Center: center[j], Scale: 1})
	}
	if kind == model.QDA {
		q := &model.Quadratic{Mean: make([]float64, 0, C*d), Cov: make([]float64, 0, C*d*d)}
		for c, cov := range covs {
			reg := p.RegParam
			S := make([]float64, d*d)
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					S[i*d+j] = (1 - reg) * cov.At(i, j)
				}
				S[i*d+i] += reg
			}
			if err := checkSingular(S, d, r.Spec.Numeric, "the covariance of class "+classes[c], "--reg-param (e.g. 0.01)"); err != nil {
				return nil, err
			}
			q.Mean = append(q.Mean, means.RawRowView(c)...)
			q.Cov = append(q.Cov, S...)
		}
		f.Quadratic = q
		return model.NewDiscriminant(kind, classes, p, classDocs, f, nil)
	}
	pooled := mat.NewSymDense(d, nil)
	for c, cov := range covs {
		pooled.AddSym(pooled, scaledSym(cov, classDocs[c]/float64(n)))
	}
	S := symRaw(pooled)
	if err := checkSingular(S, d, r.Spec.Numeric, "the pooled covariance", "--shrinkage auto (or a number in (0, 1])"); err != nil {
		return nil, err
	}
	prec, _, err := model.Precision(S, d)
	if err != nil {
		return nil, err
	}
	// W = M Σ⁻¹ (C×d): row c is (Σ⁻¹ μ_c)ᵀ.
	var W mat.Dense
	W.Mul(means, mat.NewDense(d, d, prec))
	bias := make([]float64, C)
	for c := 0; c < C; c++ {
		w := W.RawRowView(c)
		bias[c] = -0.5*mat.Dot(mat.NewVecDense(d, w), mat.NewVecDense(d, means.RawRowView(c))) + mat.Dot(mat.NewVecDense(d, w), mat.NewVecDense(d, center))
	}
	for j := range f.Numeric {
		f.Numeric[j].Weights = mat.Col(nil, j, &W)
	}
	return model.NewDiscriminant(kind, classes, p, classDocs, f, bias)
}

// recordMatrix returns the numeric fields of r as an n×d matrix, a
// missing value replaced by its field's mean, and those means. A field
// without any value is an error.
func recordMatrix(r *Records) (*mat.Dense, []float64, error) {
	n, d := len(r.Recs), len(r.Spec.Numeric)
	center, cnt := make([]float64, d), make([]float64, d)
	val := func(i, j int) float64 {
		if rec := r.Recs[i]; j < len(rec.Num) {
			return rec.Num[j]
		}
		return math.NaN()
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if x := val(i, j); x == x {
				center[j] += x
				cnt[j]++
			}
		}
	}
	for j := range center {
		if cnt[j] == 0 {
			return nil, nil, fmt.Errorf("field %s has no value in the training records", r.Spec.Numeric[j])
		}
		center[j] /= cnt[j]
	}
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x := val(i, j)
			if x != x {
				x = center[j]
			}
			X.Set(i, j, x)
		}
	}
	return X, center, nil
}

// classCov returns the mean of the rows of Xc and their covariance:
// the maximum-likelihood one, shrunk by the Ledoit-Wolf shrinkage of the
// standardised rows (auto) or by shrink ∈ [0, 1] towards (tr S/d)·I.
func classCov(Xc *mat.Dense, shrink float64, auto bool) ([]float64, *mat.SymDense) {
	n, d := Xc.Dims()
	mu := make([]float64, d)
	for j := 0; j < d; j++ {
		mu[j] = mat.Sum(Xc.ColView(j)) / float64(n)
	}
	Z := mat.DenseCopyOf(Xc)
	for i := 0; i < n; i++ {
		row := Z.RawRowView(i)
		for j := range row {
			row[j] -= mu[j]
		}
	}
	S := empiricalCov(Z)
	if auto {
		// Standardise (a constant field keeps scale 1), shrink, scale back.
		s := make([]float64, d)
		for j := range s {
			s[j] = math.Sqrt(S.At(j, j))
			if !(s[j] > 0) {
				s[j] = 1
			}
		}
		for i := 0; i < n; i++ {
			row := Z.RawRowView(i)
			for j := range row {
				row[j] /= s[j]
			}
		}
		Sz := shrunk(empiricalCov(Z), LedoitWolf(Z))
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				S.SetSym(i, j, s[i]*Sz.At(i, j)*s[j])
			}
		}
		return mu, S
	}
	if shrink > 0 {
		S = shrunk(S, shrink)
	}
	return mu, S
}

// empiricalCov returns ZᵀZ/n for centred rows Z.
func empiricalCov(Z *mat.Dense) *mat.SymDense {
	n, d := Z.Dims()
	S := mat.NewSymDense(d, nil)
	S.SymOuterK(1/float64(n), Z.T())
	return S
}

// shrunk returns (1-δ)·S + δ·(tr S/d)·I.
func shrunk(S *mat.SymDense, delta float64) *mat.SymDense {
	d := S.SymmetricDim()
	mu := mat.Trace(S) / float64(d)
	out := mat.NewSymDense(d, nil)
	out.ScaleSym(1-delta, S)
	for i := 0; i < d; i++ {
		out.SetSym(i, i, out.At(i, i)+delta*mu)
	}
	return out
}

// LedoitWolf returns the Ledoit-Wolf shrinkage δ ∈ [0, 1] of the
// covariance of the centred rows Z (n×d): the δ that minimises the
// expected squared Frobenius distance between the true covariance and
// (1-δ)·S + δ·μ·I, S = ZᵀZ/n, μ = tr S/d (Ledoit & Wolf 2004, "A
// well-conditioned estimator for large-dimensional covariance
// matrices"), computed as scikit-learn's ledoit_wolf_shrinkage:
//
//	β = (Σ (Z∘Z)ᵀ(Z∘Z) / n - Σ (ZᵀZ)²/n²) / (d·n)
//	δ' = (Σ (ZᵀZ)²/n² - 2μ·tr S + d·μ²) / d
//	δ = min(β, δ') / δ'   (0 when β is 0; 0 for d = 1)
//
// with Σ the sum of a matrix's entries.
func LedoitWolf(Z *mat.Dense) float64 {
	n, d := Z.Dims()
	if d == 1 || n == 0 {
		return 0
	}
	Z2 := mat.NewDense(n, d, nil)
	Z2.MulElem(Z, Z)
	var A, B mat.Dense
	A.Mul(Z2.T(), Z2)
	B.Mul(Z.T(), Z)
	nn := float64(n)
	trace := mat.Sum(Z2) / nn
	mu := trace / float64(d)
	betaS := mat.Sum(&A)
	B.MulElem(&B, &B)
	deltaS := mat.Sum(&B) / (nn * nn)
	beta := (betaS/nn - deltaS) / (float64(d) * nn)
	delta := (deltaS - 2*mu*trace + float64(d)*mu*mu) / float64(d)
	beta = math.Min(beta, delta)
	if beta == 0 {
		return 0
	}
	return beta / delta
}

// checkSingular fails when the covariance S (d×d, row-major) of the named
// fields is singular, naming a constant field or the collinearity and
// the flag that regularises it.
func checkSingular(S []float64, d int, names []string, what, remedy string) error {
	lam, zero := model.MinCorrelationEigen(S, d)
	if zero >= 0 {
		return fmt.Errorf("%s is singular: field %s has variance 0; use %s", what, names[zero], remedy)
	}
	if !(lam > singularTol) {
		return fmt.Errorf("%s is singular (smallest eigenvalue of its correlation matrix %.3g ≤ %g: the fields are collinear); use %s", what, lam, singularTol, remedy)
	}
	return nil
}

func scaledSym(S *mat.SymDense, a float64) *mat.SymDense {
	out := mat.NewSymDense(S.SymmetricDim(), nil)
	out.ScaleSym(a, S)
	return out
}

// symRaw returns S as a row-major d×d slice.
func symRaw(S *mat.SymDense) []float64 {
	d := S.SymmetricDim()
	out := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			out[i*d+j] = S.At(i, j)
		}
	}
	return out
}
