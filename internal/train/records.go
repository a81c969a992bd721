package train

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FieldSpec names the record fields a model uses beside (or instead of)
// the text: categorical fields first, then numeric ones, in this order in
// every model.Record.
type FieldSpec struct {
	Categorical []string
	Numeric     []string
}

// Empty reports whether s names no field.
func (s FieldSpec) Empty() bool { return len(s.Categorical) == 0 && len(s.Numeric) == 0 }

// Records pairs a FieldSpec with the fields of each document of a training
// set, in document order (len(Recs) = number of documents).
type Records struct {
	Spec FieldSpec
	Recs []model.Record
}

// check verifies that r has one record per document and no more values
// than fields.
func (r *Records) check(n int) error {
	if len(r.Recs) != n {
		return fmt.Errorf("%d records for %d documents", len(r.Recs), n)
	}
	for i, rec := range r.Recs {
		if len(rec.Cat) > len(r.Spec.Categorical) || len(rec.Num) > len(r.Spec.Numeric) {
			return fmt.Errorf("record %d has %d categorical and %d numeric values, want at most %d and %d", i, len(rec.Cat), len(rec.Num), len(r.Spec.Categorical), len(r.Spec.Numeric))
		}
	}
	return nil
}

// Subset returns the records of the documents rows, in that order.
func (r *Records) Subset(rows []int) *Records {
	out := &Records{Spec: r.Spec, Recs: make([]model.Record, len(rows))}
	for k, i := range rows {
		out.Recs[k] = r.Recs[i]
	}
	return out
}

// FitFieldsNB estimates the naive Bayes parameters of the fields of r
// from documents with label ids y among C classes (model.Fields states the
// model): for each categorical field the counts N_vc of each training
// value v, with the Dirichlet α = p.FieldAlpha; for each numeric field the
// per-class count, maximum-likelihood mean and variance of its values, and
// ε = p.VarSmoothing times the largest variance of any numeric field over
// all its values (scikit-learn's var_smoothing). Missing values are
// skipped. Sums run in document order, so the result is deterministic,
// and the same bits as FitFieldsStream's over the same documents.
func FitFieldsNB(r *Records, y []int, C int, p model.Params) (*model.Fields, error) {
	if err := r.check(len(y)); err != nil {
		return nil, err
	}
	each := func(fn func(c int, rec model.Record)) error {
		for i, c := range y {
			fn(c, r.Recs[i])
		}
		return nil
	}
	return fitFields(r.Spec, C, p, each)
}

// fitFields is FitFieldsNB over the documents that each gives, with their
// label ids, in document order, each time it is called: twice, once for
// the values and sums, once for the counts and squared deviations (the
// two-pass variance, in the order of a one-pass walk of every field). A
// record may hold fewer values than spec names: the others are missing.
func fitFields(spec FieldSpec, C int, p model.Params, each func(fn func(c int, rec model.Record)) error) (*model.Fields, error) {
	nc, nn := len(spec.Categorical), len(spec.Numeric)
	cat := func(rec model.Record, j int) string {
		if j < len(rec.Cat) {
			return rec.Cat[j]
		}
		return ""
	}
	num := func(rec model.Record, j int) float64 {
		if j < len(rec.Num) {
			return rec.Num[j]
		}
		return math.NaN()
	}
	// The first pass: the categorical values, and the numeric fields'
	// counts and sums, by class and over all values.
	seen := make([]map[string]bool, nc)
	for j := range seen {
		seen[j] = map[string]bool{}
	}
	f := &model.Fields{}
	for _, name := range spec.Numeric {
		f.Numeric = append(f.Numeric, model.NumericField{Name: name, N: make([]float64, C), Mean: make([]float64, C), Var: make([]float64, C)})
	}
	allN, allMean, allVar := make([]float64, nn), make([]float64, nn), make([]float64, nn)
	kern := p.NumericDensity == "kernel"
	lo, hi := make([]float64, nn), make([]float64, nn)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	err := each(func(c int, rec model.Record) {
		for j := range nc {
			if v := cat(rec, j); v != "" && !seen[j][v] {
				seen[j][strings.Clone(v)] = true
			}
		}
		for j := range nn {
			if x := num(rec, j); x == x {
				nf := &f.Numeric[j]
				nf.N[c]++
				nf.Mean[c] += x
				allN[j]++
				allMean[j] += x
				lo[j], hi[j] = min(lo[j], x), max(hi[j], x)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for j := range f.Numeric {
		nf := &f.Numeric[j]
		for c := range nf.Mean {
			if nf.N[c] > 0 {
				nf.Mean[c] /= nf.N[c]
			}
		}
		if allN[j] > 0 {
			allMean[j] /= allN[j]
		}
		if kern {
			kernelGrid(nf, C, lo[j], hi[j])
		}
	}
	idx := make([]map[string]int, nc)
	for j, name := range spec.Categorical {
		values := slices.Sorted(maps.Keys(seen[j]))
		idx[j] = make(map[string]int, len(values))
		for k, v := range values {
			idx[j][v] = k
		}
		f.Categorical = append(f.Categorical, model.CategoricalField{Name: name, Values: values, Counts: make([]float64, len(values)*C), Alpha: p.FieldAlpha})
	}
	// The second pass: the categorical counts and the squared deviations.
	err = each(func(c int, rec model.Record) {
		for j := range nc {
			if v := cat(rec, j); v != "" {
				f.Categorical[j].Counts[idx[j][v]*C+c]++
			}
		}
		for j := range nn {
			if x := num(rec, j); x == x {
				nf := &f.Numeric[j]
				d := x - nf.Mean[c]
				nf.Var[c] += d * d
				allVar[j] += (x - allMean[j]) * (x - allMean[j])
				if kern {
					binValue(nf, C, c, x)
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	// Class weights weigh the categorical counts as they weigh text counts
	// (weighClasses). A numeric field's mean and variance do not change:
	// every document of a class weighs the same.
	for j := range f.Categorical {
		weighClasses(nil, f.Categorical[j].Counts, p.ClassWeights)
		f.Categorical[j].Shrink = FieldShrink(f.Categorical[j].Counts, C, p.FieldAlpha)
	}
	maxVar := 0.0
	for j := range f.Numeric {
		nf := &f.Numeric[j]
		for c := range nf.Var {
			if nf.N[c] > 0 {
				nf.Var[c] /= nf.N[c]
			}
		}
		if allN[j] > 0 {
			maxVar = max(maxVar, allVar[j]/allN[j])
		}
	}
	eps := p.VarSmoothing * maxVar
	if eps == 0 {
		// Every field is constant: smooth on the unit scale, so that a
		// variance is never 0.
		eps = max(p.VarSmoothing, math.SmallestNonzeroFloat64)
	}
	for j := range f.Numeric {
		f.Numeric[j].Epsilon = eps
		if kern {
			if err := kernelBandwidths(&f.Numeric[j], C, p.Bandwidth); err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}

// FitRecords fits categorical or Gaussian naive Bayes (kind
// model.Categorical or model.Gaussian), which read only the fields of a
// record: P(c) from the class frequencies (or p.Prior) and each field's
// likelihood as FitFieldsNB estimates it; model.NewRecordModel states the
// model. The fields must all be of kind's sort.
func FitRecords(kind model.Kind, r *Records, y []int, classes []string, p model.Params) (*model.Model, error) {
	if kind != model.Categorical && kind != model.Gaussian {
		return nil, fmt.Errorf("FitRecords needs a categorical or gaussian model, got %s", kind)
	}
	if len(y) == 0 {
		return nil, errors.New("no training records")
	}
	if len(classes) < 2 {
		return nil, fmt.Errorf("need at least two classes to train, got %d", len(classes))
	}
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	classDocs := make([]float64, len(classes))
	for i, c := range y {
		if c < 0 || c >= len(classes) {
			return nil, fmt.Errorf("record %d: label id %d out of range [0, %d)", i, c, len(classes))
		}
		classDocs[c]++
	}
	f, err := FitFieldsNB(r, y, len(classes), p)
	if err != nil {
		return nil, err
	}
	return model.NewRecordModel(kind, classes, p, classDocs, f)
}

// FitWithFields fits a model of kind on the text rows X and the record
// fields r of the same documents:
//
//   - model.Categorical, model.Gaussian: FitRecords (X is ignored and may
//     be nil);
//   - model.LDA, model.QDA: FitDiscriminant (X is ignored and may be
//     nil);
//   - Bernoulli or multinomial NB: the text model as FitNB fits it,
//     calibrated by CalibrateNB whatever DefaultCalibrate says (unless
//     p.Temperature > 0 gives τ), and the fields' likelihoods
//     (FitFieldsNB): the mixed naive Bayes of model.Fields, each part on
//     its own scale, score_c = τ·(log P(c) + text) + Σ_j log P(x_j|c);
//   - logistic regression and the linear SVM: the text model as
//     FitCalibrated fits it without fields, and the fields, categorical
//     ones one-hot and numeric ones standardised with the mean and
//     standard deviation of their training values (missing values are 0,
//     the mean), stacked on its held-out scores (fitLinearFields): score_c
//     = τ·text_c + b_c + Σ_f z_f·w_fc, τ, b and w fitted on documents the
//     text model has not seen.
//
// NB-LR takes no fields: it scales each feature by the log-count ratio of
// its presence counts, which a one-hot or standardised field does not
// have.
//
// Without fields (r nil or naming none) it is FitCalibrated. A
// p.FieldAlpha of 0 means model.DefaultFieldAlpha.
func FitWithFields(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, r *Records) (*model.Model, *Calibration, error) {
	if kind.Discriminant() {
		m, err := FitDiscriminant(kind, r, y, classes, p)
		return m, nil, err
	}
	if r != nil && !r.Spec.Empty() && p.FieldAlpha == 0 {
		p.FieldAlpha = model.DefaultFieldAlpha
	}
	if kind == model.Categorical || kind == model.Gaussian {
		if r == nil {
			return nil, nil, fmt.Errorf("a %s model needs record fields", kind)
		}
		m, err := FitRecords(kind, r, y, classes, p)
		return m, nil, err
	}
	if r == nil || r.Spec.Empty() {
		return FitCalibrated(kind, X, y, classes, vocab, p, opt)
	}
	if err := r.check(len(y)); err != nil {
		return nil, nil, err
	}
	switch {
	case kind == model.Bernoulli || kind == model.Multinomial:
		m, cal, err := fitMixedText(kind, X, y, classes, vocab, p, opt)
		if err != nil {
			return nil, nil, err
		}
		f, err := FitFieldsNB(r, y, len(classes), m.Params)
		if err != nil {
			return nil, nil, err
		}
		if err := SetMixedFields(m, f); err != nil {
			return nil, nil, err
		}
		return m, cal, nil
	case kind == model.LogReg || kind == model.SVM:
		return fitLinearFields(kind, X, y, classes, vocab, p, opt, r)
	}
	return nil, nil, fmt.Errorf("record fields need bernoulli, multinomial, logreg, svm, categorical or gaussian, not %s", kind)
}

// fitMixedText fits the text part of a mixed naive Bayes model: FitNB's
// model, calibrated by CalibrateNB whatever DefaultCalibrate says, unless
// p.Temperature > 0 gives τ or opt.NoCalibrate leaves it at 1. The
// temperature puts the text's log-likelihood on the scale of a held-out
// log-posterior, to which the fields' log-likelihoods are added as they
// are (model.Fields): uncalibrated, the text's evidence is over-counted
// (counts, where τ < 1) or shrunk by the row norm (tf-idf and l2, where
// τ > 1), and weighed wrongly against the fields'.
func fitMixedText(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, *Calibration, error) {
	m, err := FitNB(kind, X, y, classes, vocab, p)
	if err != nil || opt.NoCalibrate || p.Temperature > 0 {
		return m, nil, err
	}
	cal, err := calibrate(m, X, y, opt.workers())
	if err != nil {
		return nil, nil, err
	}
	if err := applyTemperature(m, cal.Temperature); err != nil {
		return nil, nil, err
	}
	return m, cal, nil
}

// SetMixedFields attaches the naive Bayes fields f to m, a Bernoulli or
// multinomial text model, as the fields of a mixed model: on their own
// scale (model.Fields.OwnScale), added as they are to m's calibrated
// text scores.
func SetMixedFields(m *model.Model, f *model.Fields) error {
	f.OwnScale = true
	return m.SetFields(f)
}

// linearFields returns the one-hot values and standardisation of the
// fields of r on the training documents (the weights still zero).
func linearFields(r *Records, C int) *model.Fields {
	f, _ := linearFieldsOf(r.Spec, C, func(fn func(c int, rec model.Record)) error {
		for _, rec := range r.Recs {
			fn(0, rec)
		}
		return nil
	})
	return f
}

// linearFieldsOf is linearFields over the records that each gives, twice,
// in document order (see fitFields): the distinct values of each
// categorical field, and the mean and standard deviation (1 when 0) of
// each numeric field's values, in the order of the two-pass meanVar.
func linearFieldsOf(spec FieldSpec, C int, each func(fn func(c int, rec model.Record)) error) (*model.Fields, error) {
	nc, nn := len(spec.Categorical), len(spec.Numeric)
	seen := make([]map[string]bool, nc)
	for j := range seen {
		seen[j] = map[string]bool{}
	}
	n, mean, v := make([]float64, nn), make([]float64, nn), make([]float64, nn)
	err := each(func(_ int, rec model.Record) {
		for j := range nc {
			if j < len(rec.Cat) && rec.Cat[j] != "" && !seen[j][rec.Cat[j]] {
				seen[j][strings.Clone(rec.Cat[j])] = true
			}
		}
		for j := range nn {
			if j < len(rec.Num) && rec.Num[j] == rec.Num[j] {
				n[j]++
				mean[j] += rec.Num[j]
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for j := range nn {
		if n[j] > 0 {
			mean[j] /= n[j]
		}
	}
	if nn > 0 {
		err = each(func(_ int, rec model.Record) {
			for j := range nn {
				if j < len(rec.Num) && rec.Num[j] == rec.Num[j] {
					v[j] += (rec.Num[j] - mean[j]) * (rec.Num[j] - mean[j])
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	f := &model.Fields{}
	for j, name := range spec.Categorical {
		values := slices.Sorted(maps.Keys(seen[j]))
		f.Categorical = append(f.Categorical, model.CategoricalField{Name: name, Values: values, Weights: make([]float64, len(values)*C)})
	}
	for j, name := range spec.Numeric {
		if n[j] > 0 {
			v[j] /= n[j]
		} else {
			mean[j] = 0
		}
		scale := math.Sqrt(v[j])
		if !(scale > 0) {
			scale = 1
		}
		f.Numeric = append(f.Numeric, model.NumericField{Name: name, Center: mean[j], Scale: scale, Weights: make([]float64, C)})
	}
	return f, nil
}

// LinearFieldsStream is the one-hot values and standardisation of the
// fields of the records of s (see FitWithFields), read from the spool.
func LinearFieldsStream(s *FieldSpool, C int) (*model.Fields, error) {
	classes := s.Labels()
	return linearFieldsOf(s.spec, C, func(fn func(c int, rec model.Record)) error { return s.each(classes, fn) })
}

// FieldVocabulary returns vocab extended by one pseudo-term per feature of
// the fields f (never seen by the tokenizer: they hold a NUL byte), the
// vocabulary of the rows that FieldColumns extends.
func FieldVocabulary(vocab *vectorize.Vocabulary, f *model.Fields) (*vectorize.Vocabulary, error) {
	terms := slices.Clone(vocab.Terms)
	for _, cf := range f.Categorical {
		for _, v := range cf.Values {
			terms = append(terms, "\x00"+cf.Name+"="+v)
		}
	}
	for _, nf := range f.Numeric {
		terms = append(terms, "\x00"+nf.Name)
	}
	df := make([]int32, len(terms))
	cf := make([]int64, len(terms))
	copy(df, vocab.DF)
	copy(cf, vocab.CF)
	return vectorize.NewVocabulary(vocab.Settings, terms, df, cf, vocab.NDocs)
}

// SplitFieldWeights returns the linear model of kind over vocab whose
// weights are those of lm over FieldVocabulary(vocab, f), the fields' in
// f.
func SplitFieldWeights(kind model.Kind, lm *model.Model, vocab *vectorize.Vocabulary, f *model.Fields) (*model.Model, error) {
	V, C := vocab.Len(), len(lm.Classes)
	o := V * C
	for j := range f.Categorical {
		k := len(f.Categorical[j].Values) * C
		copy(f.Categorical[j].Weights, lm.W[o:o+k])
		o += k
	}
	for j := range f.Numeric {
		copy(f.Numeric[j].Weights, lm.W[o:o+C])
		o += C
	}
	m, err := model.NewLinear(kind, lm.Classes, vocab, lm.Params, lm.W[:V*C:V*C], lm.B)
	if err != nil {
		return nil, err
	}
	if err := m.SetFields(f); err != nil {
		return nil, err
	}
	return m, nil
}

// FieldColumns appends the field features of rec (one-hot, then
// standardised numeric) to a row of V terms, as ids from V on: see
// FitWithFields.
func FieldColumns(f *model.Fields, rec model.Record, V int, ind []int32, val []float32) ([]int32, []float32) {
	col := V
	for j := range f.Categorical {
		cf := &f.Categorical[j]
		if j < len(rec.Cat) && rec.Cat[j] != "" {
			if k, ok := slices.BinarySearch(cf.Values, rec.Cat[j]); ok {
				ind = append(ind, int32(col+k))
				val = append(val, 1)
			}
		}
		col += len(cf.Values)
	}
	for j := range f.Numeric {
		nf := &f.Numeric[j]
		if j < len(rec.Num) && rec.Num[j] == rec.Num[j] {
			if z := (rec.Num[j] - nf.Center) / nf.Scale; z != 0 {
				ind = append(ind, int32(col))
				val = append(val, float32(z))
			}
		}
		col++
	}
	return ind, val
}

// fitLinearJoint fits logistic regression or the SVM (kind) on the terms
// and the fields f (one-hot values and standardisation, weights zero) of
// the records r together, as one linear model over the terms and the
// fields' pseudo-terms (FieldVocabulary, FieldColumns), calibrated as
// FitCalibrated does it. fitLinearFields falls back on it when there are
// too few documents to stack.
func fitLinearJoint(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, r *Records, f *model.Fields) (*model.Model, *Calibration, error) {
	V := vocab.Len()
	xv, err := FieldVocabulary(vocab, f)
	if err != nil {
		return nil, nil, err
	}
	xX := &vectorize.Matrix{Indptr: make([]int, 1, X.Rows()+1), Cols: xv.Len()}
	for i := 0; i < X.Rows(); i++ {
		ind, val := X.Row(i)
		xX.Indices = append(xX.Indices, ind...)
		xX.Values = append(xX.Values, val...)
		xX.Indices, xX.Values = FieldColumns(f, r.Recs[i], V, xX.Indices, xX.Values)
		xX.Indptr = append(xX.Indptr, len(xX.Indices))
	}
	lm, cal, err := FitCalibrated(kind, xX, y, classes, xv, p, opt)
	if err != nil {
		return nil, nil, err
	}
	m, err := SplitFieldWeights(kind, lm, vocab, f)
	if err != nil {
		return nil, nil, err
	}
	return m, cal, nil
}

// AccuracyRecords is Accuracy for a model with record fields: the fraction
// of the documents (text rows X, nil for a record model, and records r)
// that m predicts as y. Without fields (r nil) it is Accuracy.
func AccuracyRecords(m *model.Model, X *vectorize.Matrix, r *Records, y []int, workers int) float64 {
	if r == nil {
		return Accuracy(m, X, y, workers)
	}
	return accuracyOf(m, len(y), workers, func(s *model.Scorer, i int) bool {
		var ind []int32
		var val []float32
		if X != nil && m.NumTerms() > 0 {
			ind, val = X.Row(i)
		}
		return s.PredictRecord(ind, val, r.Recs[i]).Class == y[i]
	})
}
