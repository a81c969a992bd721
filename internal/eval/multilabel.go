package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// LabelScores are one label's counts and scores in a multi-label
// evaluation.
type LabelScores struct {
	Label     string  `json:"label"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"` // documents that carry the label
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
}

// MultiLabelReport is the evaluation of multi-label predictions. With
// TP, FP and FN summed over every (document, label) pair, n documents and
// L labels:
//
//	micro P = TP/(TP+FP),  micro R = TP/(TP+FN),  micro F1 = 2TP/(2TP+FP+FN)
//	macro F1 = mean over labels of 2TP_l/(2TP_l+FP_l+FN_l)
//	Hamming loss = (FP+FN)/(n·L)
//	subset accuracy = fraction of documents whose predicted set is exactly their set
//	weighted F1 = Σ_l support_l · F1_l / Σ_l support_l
//	samples F1 = mean_i 2|P_i ∩ Y_i| / (|P_i| + |Y_i|)
//	precision@k = Σ_i |top_k(i) ∩ Y_i| / (k·n)
//	recall@k = Σ_i |top_k(i) ∩ Y_i| / Σ_i |Y_i|
//	recall@k per document = mean over documents with a label of |top_k(i) ∩ Y_i| / |Y_i|
//
// where P_i and Y_i are document i's predicted and true labels and
// top_k(i) its k most probable labels whatever the threshold. Micro,
// macro, weighted and samples F1 are scikit-learn's f1_score averages of
// those names; precision@k and recall@k are fastText's `test` (hits over
// all predictions, hits over all gold labels, a true label the model does
// not know counting as missed). Until this report had recall_at_k_per_doc,
// recall_at_k was the per-document mean. A ratio whose denominator is 0 is
// 0 (scikit-learn's zero_division=0), including a document's samples F1
// when it has no true and no predicted label.
type MultiLabelReport struct {
	N              int     `json:"n"`
	K              int     `json:"k"`
	MicroPrecision float64 `json:"micro_precision"`
	MicroRecall    float64 `json:"micro_recall"`
	MicroF1        float64 `json:"micro_f1"`
	MacroF1        float64 `json:"macro_f1"`
	WeightedF1     float64 `json:"weighted_f1"`
	SamplesF1      float64 `json:"samples_f1"`
	HammingLoss    float64 `json:"hamming_loss"`
	SubsetAccuracy float64 `json:"subset_accuracy"`
	PrecisionAtK   float64 `json:"precision_at_k"`
	RecallAtK      float64 `json:"recall_at_k"`
	// RecallAtKPerDoc is the mean over documents of their recall@k.
	RecallAtKPerDoc float64       `json:"recall_at_k_per_doc"`
	Labels          []LabelScores `json:"labels"`
	// Unknown counts the true labels the model does not know, by name;
	// they count as missed (FN of no label of the model).
	Unknown map[string]int `json:"unknown,omitempty"`
}

// EvaluateMultiLabel scores multi-label predictions: truth[i] and pred[i]
// are the label ids (into labels) of document i, true and predicted;
// probs, row-major n×L, ranks the labels for precision@k and recall@k (k ≥
// 1). A true label id of -1 is a label the model does not know (see
// MapLabelSets): a false negative of no label, and its document is never
// an exact match; unknown, their count by name, goes into the report (it
// may be nil).
func EvaluateMultiLabel(labels []string, truth, pred [][]int, probs []float64, k int, unknown map[string]int) (*MultiLabelReport, error) {
	n, L := len(truth), len(labels)
	if len(pred) != n || len(probs) != n*L {
		return nil, fmt.Errorf("%d documents, %d predictions and %d probabilities for %d labels", n, len(pred), len(probs), L)
	}
	if n == 0 {
		return nil, fmt.Errorf("no documents to evaluate")
	}
	if k < 1 {
		return nil, fmt.Errorf("k must be ≥ 1, got %d", k)
	}
	r := &MultiLabelReport{N: n, K: k, Labels: make([]LabelScores, L), Unknown: unknown}
	for l := range r.Labels {
		r.Labels[l].Label = labels[l]
	}
	extraFN := 0
	inTruth := make([]bool, L)
	subset, recallDocs, hitsAll, goldAll := 0, 0, 0, 0
	var rAtK, samplesF1 float64
	for i := range truth {
		clear(inTruth)
		nTrue, same := 0, true
		for _, l := range truth[i] {
			switch {
			case l == -1:
				extraFN++
				nTrue++
				same = false
				continue
			case l < 0 || l >= L:
				return nil, fmt.Errorf("document %d: label id %d out of range", i, l)
			}
			inTruth[l] = true
		}
		for l, t := range inTruth {
			if t {
				nTrue++
				r.Labels[l].Support++
			}
		}
		inPred := make([]bool, L)
		nPred, nBoth := 0, 0
		for _, l := range pred[i] {
			if l < 0 || l >= L {
				return nil, fmt.Errorf("document %d: predicted label id %d out of range", i, l)
			}
			if !inPred[l] {
				inPred[l] = true
				nPred++
				if inTruth[l] {
					nBoth++
				}
			}
		}
		samplesF1 += ratio(2*nBoth, nPred+nTrue)
		for l := range inTruth {
			switch {
			case inTruth[l] && inPred[l]:
				r.Labels[l].TP++
			case inPred[l]:
				r.Labels[l].FP++
				same = false
			case inTruth[l]:
				r.Labels[l].FN++
				same = false
			}
		}
		if same {
			subset++
		}
		hits := 0
		for _, l := range model.TopK(probs[i*L:(i+1)*L], k) {
			if inTruth[l] {
				hits++
			}
		}
		hitsAll += hits
		goldAll += nTrue
		if nTrue > 0 {
			rAtK += float64(hits) / float64(nTrue)
			recallDocs++
		}
	}
	var tp, fp, fn, support int
	for l := range r.Labels {
		s := &r.Labels[l]
		s.Precision = ratio(s.TP, s.TP+s.FP)
		s.Recall = ratio(s.TP, s.TP+s.FN)
		s.F1 = ratio(2*s.TP, 2*s.TP+s.FP+s.FN)
		r.MacroF1 += s.F1 / float64(L)
		r.WeightedF1 += s.F1 * float64(s.Support)
		support += s.Support
		tp, fp, fn = tp+s.TP, fp+s.FP, fn+s.FN
	}
	if support > 0 {
		r.WeightedF1 /= float64(support)
	}
	r.SamplesF1 = samplesF1 / float64(n)
	fn += extraFN
	r.MicroPrecision = ratio(tp, tp+fp)
	r.MicroRecall = ratio(tp, tp+fn)
	r.MicroF1 = ratio(2*tp, 2*tp+fp+fn)
	r.HammingLoss = ratio(fp+fn, n*L)
	r.SubsetAccuracy = ratio(subset, n)
	r.PrecisionAtK = ratio(hitsAll, k*n)
	r.RecallAtK = ratio(hitsAll, goldAll)
	if recallDocs > 0 {
		r.RecallAtKPerDoc = rAtK / float64(recallDocs)
	}
	return r, nil
}

// MapLabelSets turns label names into ids of labels; a name not among
// labels becomes -1 (once per document) and is counted in the returned
// map (nil when none).
func MapLabelSets(labels []string, sets [][]string) ([][]int, map[string]int) {
	idx := make(map[string]int, len(labels))
	for l, s := range labels {
		idx[s] = l
	}
	var unknown map[string]int
	out := make([][]int, len(sets))
	for i, set := range sets {
		for _, s := range set {
			l, ok := idx[s]
			if !ok {
				if unknown == nil {
					unknown = map[string]int{}
				}
				unknown[s]++
				l = -1
			}
			if l == -1 || !slices.Contains(out[i], l) {
				out[i] = append(out[i], l)
			}
		}
	}
	return out, unknown
}

// WriteTable writes r for people: the per-label scores, then the summary.
func (r *MultiLabelReport) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	width := len("label")
	for _, s := range r.Labels {
		width = max(width, len(s.Label))
	}
	fmt.Fprintf(bw, "%*s  %9s %9s %9s %9s\n", width, "label", "precision", "recall", "f1-score", "support")
	for _, s := range r.Labels {
		fmt.Fprintf(bw, "%*s  %9.4f %9.4f %9.4f %9d\n", width, s.Label, s.Precision, s.Recall, s.F1, s.Support)
	}
	fmt.Fprintf(bw, "\ndocuments        %d\n", r.N)
	fmt.Fprintf(bw, "micro F1         %.4f (precision %.4f, recall %.4f)\n", r.MicroF1, r.MicroPrecision, r.MicroRecall)
	fmt.Fprintf(bw, "macro F1         %.4f\n", r.MacroF1)
	fmt.Fprintf(bw, "weighted F1      %.4f\n", r.WeightedF1)
	fmt.Fprintf(bw, "samples F1       %.4f\n", r.SamplesF1)
	fmt.Fprintf(bw, "hamming loss     %.4f\n", r.HammingLoss)
	fmt.Fprintf(bw, "subset accuracy  %.4f\n", r.SubsetAccuracy)
	fmt.Fprintf(bw, "precision@%d      %.4f (fastText: hits / (k·documents))\n", r.K, r.PrecisionAtK)
	fmt.Fprintf(bw, "recall@%d         %.4f (fastText: hits / true labels)\n", r.K, r.RecallAtK)
	fmt.Fprintf(bw, "recall@%d per doc %.4f (mean of each document's recall@%d)\n", r.K, r.RecallAtKPerDoc, r.K)
	return bw.Flush()
}

// WriteJSON writes r as one indented JSON object: n, k, micro_precision,
// micro_recall, micro_f1, macro_f1, weighted_f1, samples_f1, hamming_loss,
// subset_accuracy, precision_at_k, recall_at_k (fastText's, see
// MultiLabelReport), recall_at_k_per_doc, labels (per label: label, precision,
// recall, f1, support, tp, fp, fn) and, when any, unknown.
func (r *MultiLabelReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// PredictLabels scores the rows of X (weighted as m's vocabulary says)
// with the multi-label model m on workers goroutines: each document's
// label probabilities (row-major n×L) and the labels
// model.SelectLabelsTop keeps (probability ≥ thresholds[l] for label l,
// and at least the minLabels most probable).
func PredictLabels(m *model.Model, X *vectorize.Matrix, thresholds []float64, minLabels, workers int) ([][]int, []float64) {
	n, L := X.Rows(), m.NumClasses()
	pred := make([][]int, n)
	probs := make([]float64, n*L)
	parallelChunks(n, scoreChunk, workers, func() func(lo, hi int) {
		s := m.NewScorer()
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := s.LabelProbs(X.Row(i))
				copy(probs[i*L:(i+1)*L], p)
				pred[i] = model.SelectLabelsTop(p, thresholds, 0, minLabels)
			}
		}
	})
	return pred, probs
}

// EvaluateMultiLabelTexts evaluates the multi-label model m on texts with
// label sets sets: labels are predicted as PredictLabels does (thresholds,
// at least minLabels) and ranked for precision@atK and recall@atK.
func EvaluateMultiLabelTexts(m *model.Model, texts []string, sets [][]string, thresholds []float64, minLabels, atK, workers int) (*MultiLabelReport, error) {
	if !m.MultiLabel {
		return nil, fmt.Errorf("not a multi-label model (train it with --multi-label)")
	}
	if len(texts) != len(sets) {
		return nil, fmt.Errorf("%d texts for %d label sets", len(texts), len(sets))
	}
	X := train.PrepareWith(m.Vocab, texts, workers)
	pred, probs := PredictLabels(m, X, thresholds, minLabels, workers)
	truth, unknown := MapLabelSets(m.Classes, sets)
	return EvaluateMultiLabel(m.Classes, truth, pred, probs, atK, unknown)
}
