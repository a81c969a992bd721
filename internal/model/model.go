package model

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Kind names an estimator.
type Kind uint8

// The estimators. The numeric values are written into model files: never
// renumber them.
const (
	Bernoulli   Kind = 1 // multi-variate Bernoulli NB (McCallum & Nigam 1998)
	Multinomial Kind = 2 // multinomial NB (McCallum & Nigam 1998)
	Complement  Kind = 3 // complement NB (Rennie et al. 2003)
	LogReg      Kind = 4 // multinomial logistic regression
	SVM         Kind = 5 // linear SVM, L2-regularised squared hinge, one-vs-rest (Hsieh et al. 2008)
	NBLR        Kind = 6 // NB-weighted linear model, NBSVM (Wang & Manning 2012)
)

var kindNames = map[Kind]string{
	Bernoulli: "bernoulli", Multinomial: "multinomial", Complement: "complement", LogReg: "logreg",
	SVM: "svm", NBLR: "nblr", Centroid: "centroid", Categorical: "categorical", Gaussian: "gaussian",
	LDA: "lda", QDA: "qda",
}

// String returns the name used on the command line.
func (k Kind) String() string {
	if k == Ensemble {
		return "ensemble"
	}
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ParseKind parses a model name as given to --model.
func ParseKind(s string) (Kind, error) {
	for k, name := range kindNames {
		if name == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown model %q (want %s)", s, strings.Join(KindNames(), ", "))
}

// KindNames returns the names of the estimators this build knows, in the
// order of their kind numbers.
func KindNames() []string {
	var names []string
	for k := Kind(1); k != 0; k++ {
		if s, ok := kindNames[k]; ok {
			names = append(names, s)
		}
	}
	return names
}

// IsNB reports whether k is a Naive Bayes estimator (fitted by counting).
func (k Kind) IsNB() bool { return k == Bernoulli || k == Multinomial || k == Complement }

// IsLinear reports whether k is fitted by an optimiser over the rows
// (logistic regression, SVM, NB-LR) rather than by counting: its file
// holds W and B, and its parameters include C.
func (k Kind) IsLinear() bool { return k == LogReg || k == SVM || k == NBLR }

// BinaryFeatures reports whether k scores presence only (Model.Binary):
// Bernoulli NB and NB-LR, whose features are binarised.
func (k Kind) BinaryFeatures() bool { return k == Bernoulli || k == NBLR }

// Valid reports whether k is one of the estimators this build knows.
func (k Kind) Valid() bool { _, ok := kindNames[k]; return ok }

// Params are the training parameters, saved inside the model file.
type Params struct {
	Alpha float64 `json:"alpha"` // NB smoothing (Beta(α, β) prior for Bernoulli, Dirichlet α otherwise)
	Beta  float64 `json:"beta"`  // Bernoulli only: the second Beta prior parameter
	// Prior is "learned" (class frequencies N_c/N; "" means the same),
	// "uniform" or "given" (Priors holds one probability per class,
	// summing to 1). Complement NB ignores it when scoring, as Rennie et
	// al. 2003 and scikit-learn's ComplementNB do; every kind uses it for
	// the fallback decision (see Prediction).
	Prior  string    `json:"prior"`
	Priors []float64 `json:"priors,omitempty"`
	// NoWeightNorm turns off the second normalisation of complement NB
	// weights (w_cd / Σ_d |w_cd|, Rennie et al. 2003, Table 9 step 7), as
	// scikit-learn's ComplementNB(norm=False) does. The default (false)
	// normalises.
	NoWeightNorm bool `json:"no_weight_norm,omitempty"`
	// CentroidOffset is how the nearest centroid's per-class offsets B
	// were chosen: "" or "none" (B = 0, as in files written before it
	// existed), "prior" (B[c] = log of class c's share of the training
	// documents) or "fitted" (B and τ minimise the held-out log-loss of
	// the leave-one-out scores, train.FitCentroid). CentroidBias holds B
	// (nil: all 0), which NewCentroid adds as given.
	CentroidOffset string    `json:"centroid_offset,omitempty"`
	CentroidBias   []float64 `json:"centroid_bias,omitempty"`
	// Profile, when the defaults followed the training corpus's profile
	// (train.ProfileChoice), says what it was and what it chose; it has
	// no effect on scoring. "" in files written without one.
	Profile string `json:"profile,omitempty"`
	// Temperature τ > 0 scales the scores of a Naive Bayes model: NewNB
	// multiplies W and B by it as its last step, so that P(c|x) =
	// softmax(τ·score) while the decisions stay those of τ = 1. train.Fit
	// chooses it on held-out folds (train.CalibrateNB). 0, in files
	// written before it existed, means 1.
	Temperature float64 `json:"temperature,omitempty"`
	// Logistic regression.
	C         float64 `json:"c"`       // inverse regularisation strength
	Penalty   string  `json:"penalty"` // "l2" or "l1"
	Solver    string  `json:"solver"`  // "lbfgs" or "sgd"
	Epochs    int     `json:"epochs"`  // sgd epochs / lbfgs max iterations
	BatchSize int     `json:"batch_size"`
	Seed      int64   `json:"seed"`
	// Record fields (see Fields): the Dirichlet α of categorical fields
	// and the variance smoothing of numeric ones (a fraction of the
	// largest variance); 0 in files without fields.
	FieldAlpha   float64 `json:"field_alpha,omitempty"`
	VarSmoothing float64 `json:"var_smoothing,omitempty"`
	// L1Ratio ρ ∈ [0, 1] mixes the penalties of Penalty "elasticnet":
	// ρ·‖W‖₁ + (1-ρ)·‖W‖²/2 (Zou & Hastie 2005).
	L1Ratio float64 `json:"l1_ratio,omitempty"`
	// Interpolation is NB-LR's β ∈ [0, 1] (Wang & Manning 2012): the
	// fitted weights w become (1-β)·mean|w| + β·w.
	Interpolation float64 `json:"interpolation,omitempty"`
	// ClassWeight is how the class weights were given: "" (none),
	// "balanced" (n / (C·n_c)) or "label=w,...". ClassWeights holds the
	// resulting weight of each class (nil: all 1). NB weights each
	// document's counts by its class's weight, the linear models its loss.
	ClassWeight  string    `json:"class_weight,omitempty"`
	ClassWeights []float64 `json:"class_weights,omitempty"`
	// LabelThresholds are a multi-label model's per-label probability
	// thresholds, tuned on held-out folds of its training data (train
	// --tune-thresholds); nil: the one default threshold for every label.
	LabelThresholds []float64 `json:"label_thresholds,omitempty"`
	// NumericDensity is how naive Bayes models a numeric field's
	// class-conditional density: "" or "gaussian" (a normal density) or
	// "kernel" (a binned Gaussian kernel density, NumericField), whose
	// bandwidths Bandwidth chose: "scott", "silverman", "cv" or a number.
	NumericDensity string `json:"numeric_density,omitempty"`
	Bandwidth      string `json:"bandwidth,omitempty"`
	// Shrinkage is LDA's covariance shrinkage: "" (none), "auto"
	// (Ledoit-Wolf) or a number in [0, 1]; RegParam is QDA's
	// regularisation r ∈ [0, 1]: Σ_c becomes (1-r)·Σ_c + r·I.
	Shrinkage string  `json:"shrinkage,omitempty"`
	RegParam  float64 `json:"reg_param,omitempty"`
	// Docs is the number of documents logistic regression was fitted on
	// (0 in files written before it was recorded): the weight of the model
	// when 'nbtext merge' averages models (iterative parameter mixing).
	Docs int `json:"docs,omitempty"`
	// EM records how a naive Bayes model also learned from unlabelled
	// documents by expectation-maximization (train --unlabeled, package
	// semisup); nil for every other model.
	EM *EM `json:"em,omitempty"`
}

// Meta records who wrote a model. It is saved in the model file and has no
// effect on scoring.
type Meta struct {
	Version   string `json:"nbtext_version"` // nbtext version string of the writer
	CreatedBy string `json:"created_by"`     // the command that wrote it, e.g. "nbtext train" (never its command line: see doc.go)
	// Auto, for a model chosen by 'train --auto', is the search's summary
	// (a JSON object written by internal/search: metric, splits, the
	// chosen candidate and the top of the leaderboard); nil otherwise.
	Auto json.RawMessage `json:"auto,omitempty"`
	// History lists the steps that changed the model's documents since it
	// was trained ('nbtext update', 'nbtext forget'; see Step); nil for a
	// model as train wrote it.
	History []Step `json:"history,omitempty"`
	// Input, when not nil, is how the training corpus named its label and
	// text (train's --label-field, --text-field, --label-prefix, where
	// not the defaults): eval and predict read the same names unless told
	// otherwise. Files without it load as before.
	Input *InputNames `json:"input,omitempty"`
	// Trained, when not empty, says that train streamed the corpus and how
	// that changed the fit (e.g. "streamed: no temperature is fitted");
	// empty for a model fitted in memory, or streamed where streaming
	// gives the same model byte for byte. Files without it load as before.
	Trained string `json:"trained,omitempty"`
}

// InputNames are the names a record corpus gave its label and text.
// Empty means the default ("label", "text", "__label__").
type InputNames struct {
	LabelField  string   `json:"label_field,omitempty"`
	TextFields  []string `json:"text_fields,omitempty"`
	LabelPrefix string   `json:"label_prefix,omitempty"`
}

// Model is a fitted linear text classifier. Every estimator scores class c
// of a document with term ids t and values v as
//
//	score[c] = B[c] + Σ_t v_t · W[t*C + c]
//
// where C = len(Classes). The weight matrix is feature-major, so one term
// reads all its class weights from contiguous memory. For Bernoulli NB the
// features are presence only (Binary is true and v_t is taken as 1), and
// B[c] = log P(c) + Σ_d log(1-θ_cd). Scores are log joint probabilities for
// NB and logits for LR; either way softmax(score) is P(c|x).
//
// Build models with NewNB or NewLinear (or Decode/Load), which validate
// them and precompute what exact scoring needs when α = 0. A Model is not
// modified by scoring and may be shared by many Scorers on many goroutines.
type Model struct {
	Kind    Kind
	Classes []string
	Vocab   *vectorize.Vocabulary
	Params  Params
	Meta    Meta

	W      []float64 // len(Vocab terms) * len(Classes), feature-major
	B      []float64 // len(Classes)
	Binary bool      // presence-only features (Bernoulli)

	// MultiLabel marks a one-vs-rest multi-label model: Classes are the
	// labels, and score[l] is the log-odds of label l being present, so
	// P(l|x) = σ(score[l]) independently per label (see NewMultiLabel).
	MultiLabel bool

	// Fields are the record fields scored beside the text (nil: none; see
	// Fields and SetFields).
	Fields *Fields

	// NB sufficient statistics (nil for logistic regression), kept so that
	// models trained on shards can be merged and updated.
	ClassDocs []float64 // N_c: training documents per class
	Counts    []float64 // feature-major V*C: N_cd (Bernoulli: docs of c containing d) or the summed feature values (multinomial, complement)

	// Members and Weights are an ensemble's models and their weights
	// (Kind Ensemble; see NewEnsemble), nil for any other kind.
	Members []*Model
	Weights []float64

	// d is derived from the fields above by NewNB, NewLinear, Merge and
	// Decode; NewScorer derives it itself for a model built as a literal.
	d *derived
}

// NumClasses returns C.
func (m *Model) NumClasses() int { return len(m.Classes) }

// NumTerms returns V, the number of vocabulary terms (rows of W).
func (m *Model) NumTerms() int {
	if m.Vocab == nil {
		if len(m.Classes) == 0 {
			return 0
		}
		return len(m.W) / len(m.Classes)
	}
	return m.Vocab.Len()
}

// ClassID returns the id of the class named name, or -1.
func (m *Model) ClassID(name string) int {
	for i, c := range m.Classes {
		if c == name {
			return i
		}
	}
	return -1
}

// LogPrior returns log P(c) for every class under m.Params.Prior: the
// class frequencies N_c/N ("learned"; uniform when no class has a
// document), 1/C ("uniform") or the given probabilities. It is what a
// prediction falls back to when no class can produce a document. The slice
// is shared: do not modify it.
func (m *Model) LogPrior() []float64 {
	if m.d != nil {
		return m.d.logPrior
	}
	return logPrior(m.Params, m.ClassDocs, len(m.Classes))
}

// derived holds what scoring needs beyond W and B, computed once per model.
type derived struct {
	logPrior []float64
	// exact is set when W holds infinite weights or some class has
	// required terms: the scorer then takes its exact path.
	exact bool
	// Required terms (Bernoulli with θ_cd = 1): the classes requiring term
	// t are reqCls[reqPtr[t]:reqPtr[t+1]]; nReq[c] counts the terms class c
	// requires. reqPtr is nil when no class requires any term.
	reqPtr []int32
	reqCls []int32
	nReq   []int32
}

// derive computes the scoring structure of m. It assumes m is valid.
func derive(m *Model) *derived {
	C := len(m.Classes)
	d := &derived{logPrior: logPrior(m.Params, m.ClassDocs, C)}
	for _, w := range m.W {
		if math.IsInf(w, 0) {
			d.exact = true
			break
		}
	}
	if m.Kind == Bernoulli && len(m.Counts) == len(m.W) && len(m.ClassDocs) == C {
		V := len(m.W) / max(C, 1)
		n := 0
		for t := 0; t < V; t++ {
			for c := 0; c < C; c++ {
				if bernoulliRequired(m.Counts[t*C+c], m.ClassDocs[c], m.Params.Alpha, m.Params.Beta) {
					n++
				}
			}
		}
		if n > 0 {
			d.exact = true
			d.reqPtr = make([]int32, V+1)
			d.reqCls = make([]int32, 0, n)
			d.nReq = make([]int32, C)
			for t := 0; t < V; t++ {
				for c := 0; c < C; c++ {
					if bernoulliRequired(m.Counts[t*C+c], m.ClassDocs[c], m.Params.Alpha, m.Params.Beta) {
						d.reqCls = append(d.reqCls, int32(c))
						d.nReq[c]++
					}
				}
				d.reqPtr[t+1] = int32(len(d.reqCls))
			}
		}
	}
	return d
}

// logPrior computes log P(c) for C classes; see Model.LogPrior.
func logPrior(p Params, classDocs []float64, C int) []float64 {
	lp := make([]float64, C)
	uniform := func() {
		for c := range lp {
			lp[c] = -math.Log(float64(C))
		}
	}
	switch p.Prior {
	case "given":
		if len(p.Priors) != C {
			uniform()
			break
		}
		sum := 0.0
		for _, q := range p.Priors {
			sum += q
		}
		for c, q := range p.Priors {
			lp[c] = math.Log(q) - math.Log(sum)
		}
	case "uniform":
		uniform()
	default: // "learned" or ""
		n := 0.0
		for _, x := range classDocs {
			n += x
		}
		if len(classDocs) != C || !(n > 0) {
			uniform()
			break
		}
		for c, x := range classDocs {
			lp[c] = math.Log(x) - math.Log(n)
		}
	}
	return lp
}
