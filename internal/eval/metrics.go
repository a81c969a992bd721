package eval

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// LogLossEps is the probability clip used by log-loss: machine epsilon of
// float64, as scikit-learn's log_loss has used since version 1.5
// (np.finfo(y_pred.dtype).eps; before 1.2 it was a fixed 1e-15).
const LogLossEps = 2.220446049250313e-16

// Input is what Evaluate needs: the model's classes, the true and predicted
// class of every document and, optionally, each document's class
// log-probabilities.
type Input struct {
	// Classes are the model's classes. Pred values and LogProb columns
	// index them.
	Classes []string
	// Unknown are the labels found in the evaluated corpus that the model
	// does not know. A Truth value len(Classes)+j means Unknown[j].
	Unknown []string
	// Truth is the true label id of each document: an index into Classes,
	// or len(Classes)+j for Unknown[j]. MapLabels builds it from names.
	Truth []int
	// Pred is the predicted class of each document, an index into Classes.
	Pred []int
	// LogProb holds natural-log class probabilities, row-major n×C
	// (LogProb[i*C+c] = ln P(c | doc i)); nil when not available, in which
	// case log-loss and top-k accuracy are not computed.
	LogProb []float64
	// Fallback counts the predictions the model made from the prior
	// because it gave the document no posterior (model.Prediction.Fallback).
	Fallback int
	// Empty counts the documents with no term of the model's vocabulary
	// (model.Prediction.Empty): the model scored them from its biases
	// alone.
	Empty int
}

// Options choose the optional parts of a Report.
type Options struct {
	// TopK, when > 0 (and LogProb is given), adds top-K accuracy.
	TopK int
}

// ClassMetrics are one label's precision, recall, F1 and support.
type ClassMetrics struct {
	Label     string  `json:"label"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"`
	// Unknown is true for a label the model does not know (never
	// predicted, so precision, recall and F1 are 0).
	Unknown bool `json:"unknown,omitempty"`
}

// Average is a precision/recall/F1 triple averaged over the labels.
type Average struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// Report is the evaluation of one set of predictions.
//
// Labels are those of scikit-learn's classification_report with labels=None:
// the union of true and predicted labels. They are listed in the model's
// class order, followed by the unknown labels sorted by name; a model class
// that is neither in the corpus nor ever predicted is left out. Averages run
// over exactly these labels, so an unknown label (recall 0, F1 0) lowers the
// macro average as it would in scikit-learn.
type Report struct {
	// Labels are the reported labels; PerClass and Confusion follow their
	// order.
	Labels   []string
	PerClass []ClassMetrics
	// N is the number of documents, unknown labels included.
	N int
	// Correct counts documents whose predicted class is their label.
	Correct int
	// Accuracy is Correct / N.
	Accuracy float64
	// Macro is the unweighted mean over Labels, Weighted the mean weighted
	// by support, Micro the ratio of summed counts (for single-label
	// classification all three of its values equal Accuracy).
	Macro, Micro, Weighted Average
	// LogLoss is the mean of -ln P(true class), probabilities clipped to
	// [LogLossEps, 1-LogLossEps]; a document with an unknown label counts
	// as probability 0, i.e. -ln(LogLossEps) ≈ 36.04. NaN without LogProb.
	LogLoss float64
	// TopK and TopKAccuracy: the fraction of documents whose label is among
	// the TopK most probable classes (ties broken by lower class id). TopK
	// is 0 when not computed.
	TopK         int
	TopKAccuracy float64
	// Unknown counts documents per label that the model does not know.
	// They are errors: they count in N and in every denominator.
	Unknown map[string]int
	// Confusion[i][j] counts documents of true label Labels[i] predicted as
	// Labels[j].
	Confusion [][]int
	// Fallback counts the documents predicted from the prior, the model
	// giving them no posterior (with α = 0, a document no class can
	// produce; see model.Prediction.Fallback).
	Fallback int
	// Empty counts the documents with no term of the model's vocabulary
	// (model.Prediction.Empty), answered from its biases (for NB, the
	// prior) alone.
	Empty int
	// Brier is the Brier score of the probabilities (see brier: the
	// binary form for two classes, Brier's sum over the classes for more);
	// NaN without probabilities.
	Brier float64
	// Positive, ROCAUC and PRAUC, for a two-class model with
	// probabilities: the positive class (the second), the area under the
	// ROC curve and the average precision of P(Positive), over the
	// documents whose label the model knows (NaN when there is not both a
	// positive and a negative; "" and 0 for more classes).
	Positive      string
	ROCAUC, PRAUC float64
}

// HasBinary reports whether r carries ROC-AUC and PR-AUC.
func (r *Report) HasBinary() bool { return r.Positive != "" }

// HasLogLoss reports whether r carries a log-loss.
func (r *Report) HasLogLoss() bool { return !math.IsNaN(r.LogLoss) }

// UnknownN returns the number of documents whose label the model does not
// know.
func (r *Report) UnknownN() int {
	n := 0
	for _, c := range r.Unknown {
		n += c
	}
	return n
}

// NormalizedConfusion returns the confusion matrix with each row divided by
// its sum (the rate at which documents of each true label receive each
// prediction); a row with no documents stays zero, as in scikit-learn's
// confusion_matrix(normalize="true").
func (r *Report) NormalizedConfusion() [][]float64 {
	out := make([][]float64, len(r.Confusion))
	for i, row := range r.Confusion {
		out[i] = make([]float64, len(row))
		s := 0
		for _, v := range row {
			s += v
		}
		if s == 0 {
			continue
		}
		for j, v := range row {
			out[i][j] = float64(v) / float64(s)
		}
	}
	return out
}

// MapLabels maps the labels of a corpus to the label ids Evaluate takes:
// the index of the label in classes, or len(classes)+j for the j-th label
// (in sorted order) that classes does not contain, which is unknown[j].
func MapLabels(classes []string, labels []string) (truth []int, unknown []string) {
	idx := make(map[string]int, len(classes))
	for i, c := range classes {
		idx[c] = i
	}
	seen := map[string]bool{}
	for _, l := range labels {
		if _, ok := idx[l]; !ok && !seen[l] {
			seen[l] = true
			unknown = append(unknown, l)
		}
	}
	sort.Strings(unknown)
	for j, u := range unknown {
		idx[u] = len(classes) + j
	}
	truth = make([]int, len(labels))
	for i, l := range labels {
		truth[i] = idx[l]
	}
	return truth, unknown
}

// Evaluate computes a Report from in. It fails when there are no
// documents, when the lengths of Truth, Pred and LogProb disagree, or when
// an id is out of range.
func Evaluate(in Input, opt Options) (*Report, error) {
	n, C, U := len(in.Truth), len(in.Classes), len(in.Unknown)
	if n == 0 {
		return nil, errors.New("no documents to evaluate")
	}
	if C == 0 {
		return nil, errors.New("no classes to evaluate against")
	}
	if len(in.Pred) != n {
		return nil, fmt.Errorf("%d true labels but %d predictions", n, len(in.Pred))
	}
	if in.LogProb != nil && len(in.LogProb) != n*C {
		return nil, fmt.Errorf("log-probabilities hold %d values, want %d documents × %d classes", len(in.LogProb), n, C)
	}
	if opt.TopK < 0 {
		return nil, fmt.Errorf("top-k must be >= 0, got %d", opt.TopK)
	}
	L := C + U
	conf := make([]int, L*L) // full confusion over every known and unknown label
	for i := range n {
		t, p := in.Truth[i], in.Pred[i]
		if t < 0 || t >= L {
			return nil, fmt.Errorf("document %d: true label id %d out of range [0, %d)", i, t, L)
		}
		if p < 0 || p >= C {
			return nil, fmt.Errorf("document %d: predicted class id %d out of range [0, %d)", i, p, C)
		}
		conf[t*L+p]++
	}
	support := make([]int, L)
	predicted := make([]int, L)
	for t := range L {
		for p := range L {
			support[t] += conf[t*L+p]
			predicted[p] += conf[t*L+p]
		}
	}

	r := &Report{N: n, Unknown: map[string]int{}, LogLoss: math.NaN(), Fallback: in.Fallback, Empty: in.Empty,
		Brier: math.NaN()}
	var keep []int // label ids reported
	for l := range L {
		if support[l] > 0 || predicted[l] > 0 {
			keep = append(keep, l)
		}
	}
	name := func(l int) string {
		if l < C {
			return in.Classes[l]
		}
		return in.Unknown[l-C]
	}
	var tpSum, fpSum, fnSum int
	for _, l := range keep {
		tp := conf[l*L+l]
		fp := predicted[l] - tp
		fn := support[l] - tp
		tpSum, fpSum, fnSum = tpSum+tp, fpSum+fp, fnSum+fn
		m := ClassMetrics{
			Label:     name(l),
			Precision: ratio(tp, tp+fp),
			Recall:    ratio(tp, tp+fn),
			F1:        ratio(2*tp, 2*tp+fp+fn),
			Support:   support[l],
			Unknown:   l >= C,
		}
		if l >= C {
			r.Unknown[m.Label] = support[l]
		}
		r.Correct += tp
		r.Labels = append(r.Labels, m.Label)
		r.PerClass = append(r.PerClass, m)
		r.Macro.Precision += m.Precision / float64(len(keep))
		r.Macro.Recall += m.Recall / float64(len(keep))
		r.Macro.F1 += m.F1 / float64(len(keep))
		w := float64(m.Support) / float64(n)
		r.Weighted.Precision += w * m.Precision
		r.Weighted.Recall += w * m.Recall
		r.Weighted.F1 += w * m.F1
	}
	r.Accuracy = float64(r.Correct) / float64(n)
	r.Micro = Average{
		Precision: ratio(tpSum, tpSum+fpSum),
		Recall:    ratio(tpSum, tpSum+fnSum),
		F1:        ratio(2*tpSum, 2*tpSum+fpSum+fnSum),
	}
	r.Confusion = make([][]int, len(keep))
	for i, t := range keep {
		r.Confusion[i] = make([]int, len(keep))
		for j, p := range keep {
			r.Confusion[i][j] = conf[t*L+p]
		}
	}

	if in.LogProb != nil {
		r.LogLoss = logLoss(in.Truth, in.LogProb, C)
		r.Brier = brier(in.Truth, in.LogProb, C)
		if C == 2 {
			p, pos := binaryScores(in.Truth, in.LogProb)
			r.Positive = in.Classes[1]
			r.ROCAUC, r.PRAUC = rocAUC(p, pos), averagePrecision(p, pos)
		}
		if opt.TopK > 0 {
			r.TopK = opt.TopK
			r.TopKAccuracy = topKAccuracy(in.Truth, in.LogProb, C, opt.TopK)
		}
	}
	return r, nil
}

// ratio returns a/b, or 0 when b is 0 (scikit-learn's zero_division=0).
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// logLoss is the mean of -ln clip(P(true), eps, 1-eps); an unknown label
// has probability 0.
func logLoss(truth []int, logProb []float64, C int) float64 {
	lo, hi := math.Log(LogLossEps), math.Log1p(-LogLossEps)
	s := 0.0
	for i, t := range truth {
		lp := math.Inf(-1)
		if t < C {
			lp = logProb[i*C+t]
		}
		lp = max(lo, min(hi, lp)) // a NaN stays NaN: the builtin min and max propagate it
		s -= lp
	}
	return s / float64(len(truth))
}

// topKAccuracy counts documents whose true class ranks among the k highest
// log-probabilities; a class outranks the true one when its score is
// higher, or equal with a lower id.
func topKAccuracy(truth []int, logProb []float64, C, k int) float64 {
	hits := 0
	for i, t := range truth {
		if t >= C {
			continue
		}
		row := logProb[i*C : (i+1)*C]
		st := row[t]
		rank := 0
		for c, v := range row {
			if v > st || (v == st && c < t) {
				rank++
			}
		}
		if rank < k {
			hits++
		}
	}
	return float64(hits) / float64(len(truth))
}

// argmax returns the index of the largest value, the lowest index on ties.
func argmax(scores []float64) int {
	best := 0
	for c := 1; c < len(scores); c++ {
		if scores[c] > scores[best] {
			best = c
		}
	}
	return best
}

// logSoftmax replaces scores in place by their log-softmax,
// scores[c] - log Σ exp(scores), subtracting the maximum first so that no
// exponent overflows.
func logSoftmax(scores []float64) {
	m := math.Inf(-1)
	for _, v := range scores {
		m = max(m, v)
	}
	if math.IsInf(m, 0) {
		return // all -Inf (or +Inf): nothing meaningful to normalise
	}
	s := 0.0
	for _, v := range scores {
		s += math.Exp(v - m)
	}
	lse := m + math.Log(s)
	for c := range scores {
		scores[c] -= lse
	}
}
