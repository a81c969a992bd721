package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteOptions choose what the report writers include.
type WriteOptions struct {
	// Confusion adds the confusion matrix.
	Confusion bool
	// Normalize writes the confusion matrix as rates per true label
	// (rows summing to 1) instead of counts.
	Normalize bool
}

// reportDigits is the number of decimals in the table.
const reportDigits = 4

// WriteTable writes r for people: a classification report laid out like
// scikit-learn's classification_report (per-label precision, recall, F1 and
// support; accuracy with the number of documents; macro and weighted
// averages), then log-loss, top-k accuracy and unknown labels when present,
// then, with opt.Confusion, the confusion matrix. The matrix numbers its
// labels so that 20 classes fit a terminal: each row ends with its label's
// name, columns carry the same numbers, and a zero prints as ".".
func WriteTable(w io.Writer, r *Report, opt WriteOptions) error {
	bw := bufio.NewWriter(w)
	width := len("weighted avg")
	for _, l := range r.Labels {
		width = max(width, len(l))
	}
	fmt.Fprintf(bw, "%*s  %9s %9s %9s %9s\n\n", width, "", "precision", "recall", "f1-score", "support")
	for _, m := range r.PerClass {
		fmt.Fprintf(bw, "%*s  %9.*f %9.*f %9.*f %9d", width, m.Label,
			reportDigits, m.Precision, reportDigits, m.Recall, reportDigits, m.F1, m.Support)
		if m.Unknown {
			bw.WriteString("  (unknown to the model)")
		}
		bw.WriteByte('\n')
	}
	bw.WriteByte('\n')
	fmt.Fprintf(bw, "%*s  %9s %9s %9.*f %9d\n", width, "accuracy", "", "", reportDigits, r.Accuracy, r.N)
	avg := func(name string, a Average) {
		fmt.Fprintf(bw, "%*s  %9.*f %9.*f %9.*f %9d\n", width, name,
			reportDigits, a.Precision, reportDigits, a.Recall, reportDigits, a.F1, r.N)
	}
	avg("macro avg", r.Macro)
	avg("weighted avg", r.Weighted)

	var extra [][2]string
	if r.HasLogLoss() {
		extra = append(extra, [2]string{"log-loss", strconv.FormatFloat(r.LogLoss, 'f', reportDigits, 64)})
	}
	if !math.IsNaN(r.Brier) {
		extra = append(extra, [2]string{"brier", strconv.FormatFloat(r.Brier, 'f', reportDigits, 64)})
	}
	if r.HasBinary() {
		extra = append(extra, [2]string{"roc-auc", strconv.FormatFloat(r.ROCAUC, 'f', reportDigits, 64) + " (positive class " + r.Positive + ")"})
		extra = append(extra, [2]string{"pr-auc", strconv.FormatFloat(r.PRAUC, 'f', reportDigits, 64) + " (average precision of " + r.Positive + ")"})
	}
	if r.TopK > 0 {
		extra = append(extra, [2]string{fmt.Sprintf("top-%d accuracy", r.TopK), strconv.FormatFloat(r.TopKAccuracy, 'f', reportDigits, 64)})
	}
	if u := r.UnknownN(); u > 0 {
		var parts []string
		for _, m := range r.PerClass {
			if m.Unknown {
				parts = append(parts, fmt.Sprintf("%s (%d)", m.Label, m.Support))
			}
		}
		extra = append(extra, [2]string{"unknown labels", fmt.Sprintf("%d documents, counted as errors: %s", u, strings.Join(parts, ", "))})
	}
	if r.Empty > 0 {
		extra = append(extra, [2]string{"no known word", fmt.Sprintf("%d of %d documents (%.2f%%) hold no term of the model's vocabulary: scored from its biases (the prior) alone", r.Empty, r.N, 100*float64(r.Empty)/float64(r.N))})
	}
	if r.Fallback > 0 {
		extra = append(extra, [2]string{"fallback", fmt.Sprintf("%d of %d documents (%.2f%%) predicted from the prior: the model gave them nothing to go on", r.Fallback, r.N, 100*float64(r.Fallback)/float64(r.N))})
	}
	if len(extra) > 0 {
		bw.WriteByte('\n')
		kw := 0
		for _, e := range extra {
			kw = max(kw, len(e[0]))
		}
		for _, e := range extra {
			fmt.Fprintf(bw, "%-*s  %s\n", kw, e[0], e[1])
		}
	}
	if opt.Confusion {
		bw.WriteByte('\n')
		writeConfusionTable(bw, r, opt.Normalize)
	}
	return bw.Flush()
}

// writeConfusionTable writes the numbered confusion matrix.
func writeConfusionTable(w *bufio.Writer, r *Report, normalize bool) {
	what := "counts"
	if normalize {
		what = "rates per true label"
	}
	fmt.Fprintf(w, "confusion matrix (%s; rows: true label, columns: predicted label; . = 0)\n", what)
	cells := make([][]string, len(r.Confusion))
	cw := len(strconv.Itoa(len(r.Labels) - 1))
	rates := r.NormalizedConfusion()
	for i, row := range r.Confusion {
		cells[i] = make([]string, len(row))
		for j, v := range row {
			switch {
			case v == 0:
				cells[i][j] = "."
			case normalize:
				cells[i][j] = strconv.FormatFloat(rates[i][j], 'f', 2, 64)
			default:
				cells[i][j] = strconv.Itoa(v)
			}
			cw = max(cw, len(cells[i][j]))
		}
	}
	iw := len(strconv.Itoa(len(r.Labels) - 1))
	fmt.Fprintf(w, "%*s ", iw, "")
	for j := range r.Labels {
		fmt.Fprintf(w, " %*d", cw, j)
	}
	w.WriteByte('\n')
	for i, row := range cells {
		fmt.Fprintf(w, "%*d ", iw, i)
		for _, c := range row {
			fmt.Fprintf(w, " %*s", cw, c)
		}
		fmt.Fprintf(w, "   %s", r.Labels[i])
		if r.PerClass[i].Unknown {
			w.WriteString(" (unknown to the model)")
		}
		w.WriteByte('\n')
	}
}

// WriteTSV writes r as tab-separated values in long form, one value per
// line, for scripts (awk -F'\t' '$1=="accuracy" {print $4}'). The header is
//
//	metric	label	predicted	value
//
// followed by, in this order: n, correct, accuracy, macro_precision,
// macro_recall, macro_f1, micro_precision, micro_recall, micro_f1,
// weighted_precision, weighted_recall, weighted_f1 (label and predicted
// empty); log_loss when probabilities were given; top_k and top_k_accuracy
// when computed; one unknown row per unknown label (label set, value = its
// documents); for each label in report order its precision, recall, f1 and
// support; and with opt.Confusion one row per cell, metric "confusion"
// (counts) or "confusion_rate" (opt.Normalize), label the true label and
// predicted the predicted one. Rates have six decimals, counts none.
func WriteTSV(w io.Writer, r *Report, opt WriteOptions) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("metric\tlabel\tpredicted\tvalue\n")
	row := func(metric, label, pred, value string) {
		bw.WriteString(metric + "\t" + label + "\t" + pred + "\t" + value + "\n")
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	row("n", "", "", strconv.Itoa(r.N))
	row("correct", "", "", strconv.Itoa(r.Correct))
	row("accuracy", "", "", f(r.Accuracy))
	for _, a := range []struct {
		name string
		avg  Average
	}{{"macro", r.Macro}, {"micro", r.Micro}, {"weighted", r.Weighted}} {
		row(a.name+"_precision", "", "", f(a.avg.Precision))
		row(a.name+"_recall", "", "", f(a.avg.Recall))
		row(a.name+"_f1", "", "", f(a.avg.F1))
	}
	if r.HasLogLoss() {
		row("log_loss", "", "", f(r.LogLoss))
	}
	if !math.IsNaN(r.Brier) {
		row("brier", "", "", f(r.Brier))
	}
	if r.HasBinary() {
		row("roc_auc", r.Positive, "", f(r.ROCAUC))
		row("pr_auc", r.Positive, "", f(r.PRAUC))
	}
	row("empty", "", "", strconv.Itoa(r.Empty))
	if r.TopK > 0 {
		row("top_k", "", "", strconv.Itoa(r.TopK))
		row("top_k_accuracy", "", "", f(r.TopKAccuracy))
	}
	for _, m := range r.PerClass {
		if m.Unknown {
			row("unknown", m.Label, "", strconv.Itoa(m.Support))
		}
	}
	for _, m := range r.PerClass {
		row("precision", m.Label, "", f(m.Precision))
		row("recall", m.Label, "", f(m.Recall))
		row("f1", m.Label, "", f(m.F1))
		row("support", m.Label, "", strconv.Itoa(m.Support))
	}
	if opt.Confusion {
		rates := r.NormalizedConfusion()
		for i, t := range r.Labels {
			for j, p := range r.Labels {
				if opt.Normalize {
					row("confusion_rate", t, p, f(rates[i][j]))
				} else {
					row("confusion", t, p, strconv.Itoa(r.Confusion[i][j]))
				}
			}
		}
	}
	return bw.Flush()
}

// jsonReport is the JSON layout of a Report; see WriteJSON.
type jsonReport struct {
	N              int            `json:"n"`
	Correct        int            `json:"correct"`
	Accuracy       float64        `json:"accuracy"`
	MacroF1        float64        `json:"macro_f1"`
	MicroF1        float64        `json:"micro_f1"`
	WeightedF1     float64        `json:"weighted_f1"`
	LogLoss        *float64       `json:"log_loss"`
	Brier          *float64       `json:"brier"`
	Positive       *string        `json:"positive"`
	ROCAUC         *float64       `json:"roc_auc"`
	PRAUC          *float64       `json:"pr_auc"`
	TopK           int            `json:"top_k"`
	TopKAccuracy   *float64       `json:"top_k_accuracy"`
	MacroAvg       Average        `json:"macro_avg"`
	MicroAvg       Average        `json:"micro_avg"`
	WeightedAvg    Average        `json:"weighted_avg"`
	PerClass       []ClassMetrics `json:"per_class"`
	UnknownLabels  map[string]int `json:"unknown_labels"`
	Fallback       int            `json:"fallback"`
	FallbackShare  float64        `json:"fallback_share"`
	Empty          int            `json:"empty"`
	Labels         []string       `json:"labels,omitempty"`
	Confusion      any            `json:"confusion,omitempty"`
	ConfusionRates bool           `json:"confusion_normalized,omitempty"`
}

// WriteJSON writes r as one indented JSON object with the keys, in order:
// n, correct, accuracy, macro_f1, micro_f1, weighted_f1, log_loss (null
// without probabilities), brier (null without probabilities), positive,
// roc_auc and pr_auc (two classes with probabilities: the positive class,
// the area under its ROC curve, its average precision; null otherwise or
// when one side is missing), top_k (0 when not computed), top_k_accuracy (null
// when not computed), macro_avg, micro_avg and weighted_avg (each
// {precision, recall, f1}), per_class (a list of {label, precision, recall,
// f1, support}, plus "unknown": true for a label the model does not know),
// unknown_labels (an object mapping each unknown label to its number of
// documents, {} when none), fallback and fallback_share (the number and
// share of documents predicted from the prior), empty (documents with no
// term of the model's vocabulary) and, with opt.Confusion, labels (the order of the
// matrix), confusion (rows: true label, columns: predicted label; counts,
// or with opt.Normalize rates and "confusion_normalized": true).
func WriteJSON(w io.Writer, r *Report, opt WriteOptions) error {
	j := jsonReport{
		N: r.N, Correct: r.Correct, Accuracy: r.Accuracy,
		MacroF1: r.Macro.F1, MicroF1: r.Micro.F1, WeightedF1: r.Weighted.F1,
		TopK:     r.TopK,
		MacroAvg: r.Macro, MicroAvg: r.Micro, WeightedAvg: r.Weighted,
		PerClass:      r.PerClass,
		UnknownLabels: r.Unknown,
		Fallback:      r.Fallback,
		FallbackShare: float64(r.Fallback) / float64(max(r.N, 1)),
		Empty:         r.Empty,
	}
	num := func(x float64) *float64 {
		if math.IsNaN(x) {
			return nil
		}
		return &x
	}
	j.Brier = num(r.Brier)
	if r.HasBinary() {
		j.Positive, j.ROCAUC, j.PRAUC = &r.Positive, num(r.ROCAUC), num(r.PRAUC)
	}
	if j.UnknownLabels == nil {
		j.UnknownLabels = map[string]int{}
	}
	if r.HasLogLoss() {
		v := r.LogLoss
		j.LogLoss = &v
	}
	if r.TopK > 0 {
		v := r.TopKAccuracy
		j.TopKAccuracy = &v
	}
	if opt.Confusion {
		j.Labels = r.Labels
		if opt.Normalize {
			j.Confusion = r.NormalizedConfusion()
			j.ConfusionRates = true
		} else {
			j.Confusion = r.Confusion
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
