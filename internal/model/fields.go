package model

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Kinds of record models: naive Bayes over the fields of a record alone,
// without its text (see Fields). Their numbers are written into model
// files: never renumber them.
const (
	Categorical Kind = 8 // categorical NB: one Dirichlet-smoothed categorical distribution per field
	Gaussian    Kind = 9 // Gaussian NB: one normal density per numeric field and class
)

// Generative reports whether k scores a class by a log joint probability,
// log P(c) + Σ log P(x_i|c): the NB kinds, text or record. Record fields
// then add log-likelihoods (Fields); for the other kinds they add linear
// terms.
func (k Kind) Generative() bool { return k.IsNB() || k == Categorical || k == Gaussian }

// Default smoothing of record fields (Params.FieldAlpha, Params.VarSmoothing).
const (
	// DefaultFieldAlpha is the Dirichlet α of categorical fields: add-one
	// (Laplace) smoothing.
	DefaultFieldAlpha = 1
	// DefaultVarSmoothing is the fraction of the largest field variance
	// added to every variance of a Gaussian field, scikit-learn's
	// GaussianNB(var_smoothing=1e-9).
	DefaultVarSmoothing = 1e-9
)

// Record holds the field values of one document in the order of a model's
// Fields: Cat[j] is the value of categorical field j ("" when missing) and
// Num[j] that of numeric field j (NaN when missing). Missing values are
// skipped, never guessed. A nil or short slice counts as missing values.
type Record struct {
	Cat []string
	Num []float64
}

// Fields are the record fields a model scores beside (or, for the kinds
// Categorical and Gaussian, instead of) the text. Each field adds to the
// score of class c:
//
// Generative models (naive Bayes, Kind.Generative), the course's mixed
// MAP rule argmax_c log P(c) + Σ_text + Σ_j log P(x_j|c) + Σ_k log f(x_k|c):
//
//	categorical: log P(v|c) = log (N_vc + α + m·P̂_v) / (N_c + α·K + m)
//	             (N_vc documents of c with value v, N_c = Σ_v N_vc, K the
//	             number of training values, α = Alpha > 0; a value unseen
//	             in training gets the smoothed share (α + m·P̂_u) / (N_c +
//	             α·K + m)), P̂_v = (N_v + α)/(N + α·K) the smoothed pooled
//	             distribution over all classes (P̂_u = α/(N + α·K)) and
//	             m = Shrink ≥ 0 the strength of the shrinkage of each
//	             class's distribution towards it, chosen by empirical
//	             Bayes (train.FieldShrink; 0 in older files: plain
//	             Dirichlet(α) smoothing)
//	numeric:     log f(x|c) = -½ log(2π σ²_c) - (x - μ_c)² / (2σ²_c),
//	             σ²_c = Var_c + Epsilon
//
// with μ_c and Var_c the maximum-likelihood mean and variance of the
// field's values in class c and Epsilon = var_smoothing times the largest
// variance of any numeric field over all its values (scikit-learn's
// GaussianNB). A class without any value of a numeric field uses the
// field's overall mean and variance.
//
// A mixed model (text and fields) scores with each part on its own scale:
//
//	score_c = τ·(log P(c) + Σ_t v_t log θ_tc) + Σ_j log P(x_j|c) + Σ_k log f(x_k|c)
//
// τ (Params.Temperature, 1 when unset) calibrates the text part, whose
// naive Bayes log-likelihood over-counts dependent words (counts) or is
// shrunk by the row norm (tf-idf, l2): τ·(log P(c) + text) is, up to a
// constant, the log of the text's held-out posterior P(c|text)
// (train.CalibrateNB). A field independent of the text given the class
// then multiplies that posterior by its own likelihood, P(c|text, x) ∝
// P(c|text)·P(x|c), so the fields' log-likelihoods are added as they are,
// not times τ. That is OwnScale, which every mixed model trained since
// model format 3 has; a file without it (older, or a categorical or
// Gaussian model) multiplies the fields' contributions by τ as well, as
// the text weights are.
//
// Linear models (logistic regression, the linear SVM): categorical fields
// are one-hot, adding Weights[v*C + c] for value v (nothing for an unseen
// value), and numeric fields are standardised on the training data,
// adding Weights[c]·(x - Center)/Scale. train.FitWithFields fits these
// weights on held-out text scores (stacking), with the text weights and
// biases scaled to match.
//
// With kernel densities (Params.NumericDensity "kernel") a numeric field
// adds log f̂_c(x) instead of the Gaussian's log-density, the Gaussian
// kernel density of its binned training values (see kernelLog and package
// train). LDA is a linear model over numeric fields (Scale 1); QDA scores
// its numeric fields together (Quadratic).
//
// Missing values add nothing (QDA: a missing value is the field's
// Center, its training mean). Field names are distinct.
type Fields struct {
	Categorical []CategoricalField `json:"categorical,omitempty"`
	Numeric     []NumericField     `json:"numeric,omitempty"`
	// OwnScale adds the contributions of the fields of a naive Bayes
	// model as they are, not times its temperature τ (see above). It
	// means nothing for a linear model, whose fields are never scaled.
	OwnScale bool `json:"own_scale,omitempty"`
	// Quadratic holds QDA's class means and covariances over the numeric
	// fields (kind QDA only; see Quadratic).
	Quadratic *Quadratic `json:"quadratic,omitempty"`
}

// CategoricalField is one categorical field; see Fields.
type CategoricalField struct {
	Name   string   `json:"name"`
	Values []string `json:"values"` // the distinct training values, sorted
	// Naive Bayes: Counts[v*C + c] = N_vc and the Dirichlet α.
	Counts []float64 `json:"counts,omitempty"`
	Alpha  float64   `json:"alpha,omitempty"`
	// Naive Bayes: the strength m ≥ 0 of the shrinkage of each class's
	// distribution towards the pooled one (see Fields); 0 in older files.
	Shrink float64 `json:"shrink,omitempty"`
	// Linear models: the one-hot weights, value-major.
	Weights []float64 `json:"weights,omitempty"`

	index map[string]int // value -> row
	table []float64      // (len(Values)+1)·C contributions; the last row is an unseen value
}

// NumericField is one numeric field; see Fields.
type NumericField struct {
	Name string `json:"name"`
	// Gaussian NB: per class, the number of values, their mean and
	// maximum-likelihood variance, and the smoothing ε.
	N       []float64 `json:"n,omitempty"`
	Mean    []float64 `json:"mean,omitempty"`
	Var     []float64 `json:"var,omitempty"`
	Epsilon float64   `json:"epsilon,omitempty"`
	// Kernel density (Params.NumericDensity "kernel"; see kernelLog):
	// per class the bandwidth h_c and the values binned linearly onto
	// the G grid points GridMin + g·GridStep, Bins[c*G + g].
	Bandwidth []float64 `json:"bandwidth,omitempty"`
	GridMin   float64   `json:"grid_min,omitempty"`
	GridStep  float64   `json:"grid_step,omitempty"`
	Bins      []float64 `json:"bins,omitempty"`
	// Linear models (and LDA, QDA): standardisation and per-class
	// weights. LDA and QDA have Scale 1 and Center the training mean,
	// which stands for a missing value; QDA has no weights.
	Center  float64   `json:"center,omitempty"`
	Scale   float64   `json:"scale,omitempty"`
	Weights []float64 `json:"weights,omitempty"`

	kern    []kernelClass
	logNorm []float64 // -½ log(2π σ²_c)
	inv2var []float64 // 1 / (2σ²_c)
	mu      []float64 // μ_c used (the overall mean for a class without values)
}

// Names returns the field names, categorical first.
func (f *Fields) Names() []string {
	var out []string
	for _, c := range f.Categorical {
		out = append(out, c.Name)
	}
	for _, n := range f.Numeric {
		out = append(out, n.Name)
	}
	return out
}

// Record converts raw field values (as corpus.Document.Fields holds them:
// name -> text, absent when missing) into a Record for f. A numeric value
// must parse as a finite number; "", "NA", "NaN" and "?" are missing.
// It names the field in its error.
func (f *Fields) Record(raw map[string]string) (Record, error) {
	r := Record{Cat: make([]string, len(f.Categorical)), Num: make([]float64, len(f.Numeric))}
	for j, c := range f.Categorical {
		r.Cat[j] = raw[c.Name]
	}
	for j, n := range f.Numeric {
		x, err := ParseNumeric(raw[n.Name])
		if err != nil {
			return Record{}, fmt.Errorf("field %s: %w", n.Name, err)
		}
		r.Num[j] = x
	}
	return r, nil
}

// MaxNumeric bounds the magnitude of a numeric field's values (1e150):
// a model sums their squares (variances, standardisation), and the sum
// of squares of values past about 1e154 is infinite. A value past it is
// refused where it is read, so that the error names its file and line,
// rather than found as "statistics not finite" once the sums are made.
const MaxNumeric = 1e150

// ParseNumeric parses the value of a numeric field: NaN (missing) for "",
// "NA", "NaN", "?" and "-", else a finite number of magnitude at most
// MaxNumeric.
func ParseNumeric(s string) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "na", "nan", "?", "-":
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.Abs(x) > MaxNumeric {
		return 0, fmt.Errorf("%q is too large: numeric fields hold values up to ±%g, as their squares are summed", s, MaxNumeric)
	}
	return x, nil
}

// prepare validates f for a model of kind with C classes and computes what
// scoring needs.
func (f *Fields) prepare(kind Kind, C int) error {
	seen := map[string]bool{}
	for _, name := range f.Names() {
		if name == "" {
			return errors.New("a field has no name")
		}
		if seen[name] {
			return fmt.Errorf("field %q appears twice", name)
		}
		seen[name] = true
	}
	gen := kind.Generative()
	if (kind == QDA) != (f.Quadratic != nil) {
		return errors.New("quadratic statistics belong to a qda model, which needs them")
	}
	if kind == QDA {
		for j := range f.Numeric {
			nf := &f.Numeric[j]
			if nf.Weights != nil || nf.N != nil || nf.Bins != nil || nf.Scale != 1 || !allFinite([]float64{nf.Center}) {
				return fmt.Errorf("field %s: a qda field has a finite center, scale 1 and no other statistics", nf.Name)
			}
		}
		return f.Quadratic.prepare(C, len(f.Numeric))
	}
	for j := range f.Categorical {
		if err := f.Categorical[j].prepare(gen, C); err != nil {
			return fmt.Errorf("field %s: %w", f.Categorical[j].Name, err)
		}
	}
	for j := range f.Numeric {
		if err := f.Numeric[j].prepare(gen, C); err != nil {
			return fmt.Errorf("field %s: %w", f.Numeric[j].Name, err)
		}
	}
	return nil
}

func allFinite(xs []float64) bool {
	for _, x := range xs {
		if x-x != 0 {
			return false
		}
	}
	return true
}

func (f *CategoricalField) prepare(gen bool, C int) error {
	K := len(f.Values)
	if !sort.StringsAreSorted(f.Values) {
		return errors.New("values not sorted")
	}
	f.index = make(map[string]int, K)
	for j, v := range f.Values {
		if v == "" || (j > 0 && f.Values[j-1] == v) {
			return fmt.Errorf("value %d is empty or repeated", j)
		}
		f.index[v] = j
	}
	f.table = make([]float64, (K+1)*C)
	if !gen {
		if len(f.Weights) != K*C || !allFinite(f.Weights) || f.Counts != nil {
			return fmt.Errorf("%d one-hot weights for %d values × %d classes", len(f.Weights), K, C)
		}
		copy(f.table, f.Weights)
		return nil
	}
	if len(f.Counts) != K*C || f.Weights != nil {
		return fmt.Errorf("%d counts for %d values × %d classes", len(f.Counts), K, C)
	}
	if !(f.Alpha > 0) || math.IsInf(f.Alpha, 1) {
		return fmt.Errorf("--field-alpha must be > 0, got %v", f.Alpha)
	}
	if !(f.Shrink >= 0) || math.IsInf(f.Shrink, 1) {
		return fmt.Errorf("shrinkage %v", f.Shrink)
	}
	n := make([]float64, C)
	nv := make([]float64, K+1) // N_v, and N_v + α for the smoothed pool
	N := 0.0
	for i, x := range f.Counts {
		if !(x >= 0) || math.IsInf(x, 1) {
			return fmt.Errorf("count %d is %v", i, x)
		}
		n[i%C] += x
		nv[i/C] += x
		N += x
	}
	pool := N + f.Alpha*float64(K)
	for j := 0; j < K; j++ {
		nv[j] = f.Shrink * (nv[j] + f.Alpha) / pool
	}
	nv[K] = f.Shrink * f.Alpha / pool
	for c := 0; c < C; c++ {
		den := math.Log(n[c] + f.Alpha*float64(K) + f.Shrink)
		for j := 0; j < K; j++ {
			f.table[j*C+c] = math.Log(f.Counts[j*C+c]+f.Alpha+nv[j]) - den
		}
		f.table[K*C+c] = math.Log(f.Alpha+nv[K]) - den
	}
	return nil
}

func (f *NumericField) prepare(gen bool, C int) error {
	if !gen {
		if len(f.Weights) != C || !allFinite(f.Weights) || !(f.Scale > 0) || !allFinite([]float64{f.Center, f.Scale}) || f.N != nil || f.Bins != nil || f.Bandwidth != nil {
			return fmt.Errorf("bad standardisation (%v, %v) or %d weights for %d classes", f.Center, f.Scale, len(f.Weights), C)
		}
		return nil
	}
	if len(f.N) != C || len(f.Mean) != C || len(f.Var) != C || f.Weights != nil {
		return fmt.Errorf("want %d classes of statistics, got %d, %d, %d", C, len(f.N), len(f.Mean), len(f.Var))
	}
	if !allFinite(f.Mean) || !allFinite(f.Var) || !allFinite(f.N) || !(f.Epsilon >= 0) || math.IsInf(f.Epsilon, 1) {
		return errors.New("statistics not finite")
	}
	// The overall mean and variance, for classes without values.
	var n, sum, ss float64
	for c := 0; c < C; c++ {
		if f.N[c] < 0 || f.Var[c] < 0 {
			return fmt.Errorf("class %d: %v values of variance %v", c, f.N[c], f.Var[c])
		}
		n += f.N[c]
		sum += f.N[c] * f.Mean[c]
	}
	all := 0.0
	if n > 0 {
		all = sum / n
		for c := 0; c < C; c++ {
			d := f.Mean[c] - all
			ss += f.N[c] * (f.Var[c] + d*d)
		}
	}
	f.logNorm, f.inv2var, f.mu = make([]float64, C), make([]float64, C), make([]float64, C)
	for c := 0; c < C; c++ {
		mu, v := f.Mean[c], f.Var[c]
		if f.N[c] == 0 {
			mu, v = all, 0
			if n > 0 {
				v = ss / n
			}
		}
		v += f.Epsilon
		if !(v > 0) {
			return fmt.Errorf("class %d: variance 0 (no values and no smoothing)", c)
		}
		f.mu[c] = mu
		f.logNorm[c] = -0.5 * math.Log(2*math.Pi*v)
		f.inv2var[c] = 0.5 / v
	}
	if f.Bins != nil || f.Bandwidth != nil {
		return f.prepareKernel(C)
	}
	return nil
}

// add adds the contributions of the fields of r, times tau, to sc (one
// score per class).
func (f *Fields) add(sc []float64, r Record, tau float64) {
	for j := range f.Categorical {
		if row := f.Categorical[j].row(r, j); row != nil {
			for c, x := range row {
				sc[c] += tau * x
			}
		}
	}
	if f.Quadratic != nil {
		f.Quadratic.add(sc, f.Numeric, r)
		return
	}
	for j := range f.Numeric {
		nf := &f.Numeric[j]
		if j >= len(r.Num) || r.Num[j] != r.Num[j] {
			continue
		}
		x := r.Num[j]
		for c := range sc {
			sc[c] += tau * nf.contribution(x, c)
		}
	}
}

// row returns the contributions of categorical field j's value in r, or
// nil when it is missing.
func (f *CategoricalField) row(r Record, j int) []float64 {
	if j >= len(r.Cat) || r.Cat[j] == "" {
		return nil
	}
	C := len(f.table) / (len(f.Values) + 1)
	k, ok := f.index[r.Cat[j]]
	if !ok {
		k = len(f.Values)
	}
	return f.table[k*C : (k+1)*C]
}

// contribution returns what value x of the field adds to class c.
func (f *NumericField) contribution(x float64, c int) float64 {
	if f.mu == nil { // linear
		return f.Weights[c] * (x - f.Center) / f.Scale
	}
	if f.kern != nil {
		if v, ok := f.kernelLog(x, c); ok {
			return v
		}
	}
	d := x - f.mu[c]
	return f.logNorm[c] - d*d*f.inv2var[c]
}

// SetFields attaches record fields to m (nil removes them), validating
// them against m's kind and classes. Categorical and Gaussian models need
// fields of their own kind only.
func (m *Model) SetFields(f *Fields) error {
	if f != nil {
		if err := checkFieldKinds(m.Kind, f); err != nil {
			return err
		}
		if err := f.prepare(m.Kind, len(m.Classes)); err != nil {
			return err
		}
	}
	m.Fields = f
	return nil
}

// checkFieldKinds checks that a record model has fields of its kind only,
// and that complement NB, whose scores are not log-likelihoods, has none.
func checkFieldKinds(k Kind, f *Fields) error {
	switch {
	case k == Categorical && (len(f.Numeric) > 0 || len(f.Categorical) == 0):
		return errors.New("a categorical model needs categorical fields only")
	case k == Gaussian && (len(f.Categorical) > 0 || len(f.Numeric) == 0):
		return errors.New("a gaussian model needs numeric fields only")
	case k.Discriminant() && (len(f.Categorical) > 0 || len(f.Numeric) == 0):
		return fmt.Errorf("a %s model needs numeric fields only", k)
	case k == Complement && (len(f.Categorical) > 0 || len(f.Numeric) > 0):
		return errors.New("complement NB scores are not log-likelihoods: record fields need bernoulli, multinomial or logreg")
	case k == Centroid && (len(f.Categorical) > 0 || len(f.Numeric) > 0):
		return errors.New("the centroid model takes no record fields: use bernoulli, multinomial or logreg")
	}
	return nil
}

// fieldTau returns the factor of field contributions: the temperature of
// a generative model whose fields are not on their own scale (1 when
// unset), 1 otherwise.
func (m *Model) fieldTau() float64 {
	if m.Kind.Generative() && !m.Fields.OwnScale && m.Params.Temperature > 0 {
		return m.Params.Temperature
	}
	return 1
}

// ScoresRecord is Scores for a document with record fields: the text
// scores plus each field's contribution (see Fields). Without fields it is
// Scores.
func (s *Scorer) ScoresRecord(ind []int32, val []float32, r Record) []float64 {
	sc := s.Scores(ind, val)
	if f := s.m.Fields; f != nil {
		f.add(sc, r, s.m.fieldTau())
		for c, x := range sc {
			if x != x {
				sc[c] = math.Inf(-1)
			}
		}
	}
	return sc
}

// PredictRecord is Predict for a document with record fields.
func (s *Scorer) PredictRecord(ind []int32, val []float32, r Record) Prediction {
	return s.predictScores(s.ScoresRecord(ind, val, r), len(ind) == 0 && !s.hasValue(r))
}

// hasValue reports whether r holds a value of one of the model's fields.
func (s *Scorer) hasValue(r Record) bool {
	f := s.m.Fields
	if f == nil {
		return false
	}
	for j := range f.Categorical {
		if j < len(r.Cat) && r.Cat[j] != "" {
			return true
		}
	}
	for j := range f.Numeric {
		if j < len(r.Num) && r.Num[j] == r.Num[j] {
			return true
		}
	}
	return false
}

// ExplainFields returns each present field's contribution to the log-odds
// of class against the class against (as Explain gives each term's), in
// field order, with Term "name=value" and TermID -1.
func (s *Scorer) ExplainFields(r Record, class, against int) []Contribution {
	f := s.m.Fields
	if f == nil {
		return nil
	}
	tau := s.m.fieldTau()
	var out []Contribution
	for j := range f.Categorical {
		row := f.Categorical[j].row(r, j)
		if row == nil {
			continue
		}
		v := row[class]
		if against >= 0 {
			v -= row[against]
		}
		out = append(out, Contribution{Term: f.Categorical[j].Name + "=" + r.Cat[j], TermID: -1, Value: tau * v, Against: against})
	}
	if f.Quadratic != nil {
		return append(out, f.Quadratic.explain(f.Numeric, r, class, against)...)
	}
	for j := range f.Numeric {
		if j >= len(r.Num) || r.Num[j] != r.Num[j] {
			continue
		}
		v := f.Numeric[j].contribution(r.Num[j], class)
		if against >= 0 {
			v -= f.Numeric[j].contribution(r.Num[j], against)
		}
		out = append(out, Contribution{Term: f.Numeric[j].Name + "=" + strconv.FormatFloat(r.Num[j], 'g', -1, 64), TermID: -1, Value: tau * v, Against: against})
	}
	return out
}

// NewRecordModel builds a categorical or Gaussian naive Bayes model (kind
// Categorical or Gaussian), which scores the fields of a record and no
// text: B[c] = log P(c) under p.Prior with classDocs[c] = N_c training
// records of class c, each weighing p.ClassWeights[c] when given, an empty
// vocabulary, and the fields' log-likelihoods (see Fields).
func NewRecordModel(kind Kind, classes []string, p Params, classDocs []float64, f *Fields) (*Model, error) {
	if kind != Categorical && kind != Gaussian {
		return nil, fmt.Errorf("NewRecordModel: %s is not a record model", kind)
	}
	if err := validateClasses(classes); err != nil {
		return nil, err
	}
	if len(classDocs) != len(classes) {
		return nil, fmt.Errorf("NewRecordModel: %d class counts for %d classes", len(classDocs), len(classes))
	}
	s := vectorize.DefaultSettings()
	s.Analysis = vectorize.Analysis{} // no text, no analyzer to record
	vocab, err := vectorize.NewVocabulary(s, []string{}, []int32{}, []int64{}, int(sum(classDocs)))
	if err != nil {
		return nil, err
	}
	prior := classDocs
	if len(p.ClassWeights) == len(classDocs) {
		// Class weights weigh the prior, as they weigh the class documents
		// of a text model.
		prior = make([]float64, len(classDocs))
		for c, d := range classDocs {
			prior[c] = d * p.ClassWeights[c]
		}
	}
	m := &Model{Kind: kind, Classes: classes, Vocab: vocab, Params: p, B: logPrior(p, prior, len(classes)), W: []float64{}}
	if err := m.SetFields(f); err != nil {
		return nil, err
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
