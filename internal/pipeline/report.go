package pipeline

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/semisup"
	"github.com/nbtext/nbtext/internal/train"
)

// Strategy is how a run read its corpus and fitted its model.
type Strategy int

const (
	// InMemory held the corpus (or its rows) in memory.
	InMemory Strategy = iota
	// Streamed read the corpus a document at a time: counts for the NB
	// models and centroid, a row cache on disk for the linear models, a
	// spool of record fields.
	Streamed
	// FromCounts fitted from a counts file.
	FromCounts
)

func (s Strategy) String() string {
	switch s {
	case Streamed:
		return "streamed"
	case FromCounts:
		return "from counts"
	case Searched:
		return "searched"
	}
	return "in memory"
}

// Report is what a run did: its strategy and why, and the figures of its
// summary (Write).
type Report struct {
	Strategy Strategy
	// Why says why the run chose Strategy (empty when the plan forced
	// it).
	Why    string
	Output string
	Model  *model.Model
	// Documents are the training documents; Counted the terms counted
	// before pruning (fitted from counts).
	Documents int
	Counted   int
	Params    model.Params
	// Calibration is the fitted temperature (nil where none was fitted).
	Calibration *train.Calibration
	// Accuracy is the accuracy on the training documents, when
	// HasAccuracy (Plan.Summary, in memory).
	Accuracy    float64
	HasAccuracy bool
	// Tuning and WeightChoice are the cross-validations of α or C and of
	// EM's λ, when they ran.
	Tuning       *train.Tuning
	WeightChoice *semisup.Choice
	// Blocks are the rows of a block of a streamed dual solver (svm,
	// nblr); Runs the sorted runs the count tables spilled under
	// RunsBound bytes.
	Blocks    int
	Runs      int
	RunsBound int64
	// KeptCounts is the counts file written beside the model, with
	// KeptDocuments documents.
	KeptCounts    string
	KeptDocuments int64
	// MultiLabel is the summary of a multi-label model.
	MultiLabel *MultiLabelReport
	// Search is what a searched run chose.
	Search   *SearchReport
	Duration time.Duration
}

// MultiLabelReport sums up a multi-label model.
type MultiLabelReport struct {
	Labels     int
	Tuned      bool
	RareLabels int
	MicroF1    float64
}

// Write prints the report as train's summary: the cross-validations
// first, then one line per figure.
func (r *Report) Write(w io.Writer) {
	if r.Search != nil && r.writeSearch(w) {
		return
	}
	if t := r.Tuning; t != nil {
		writeTuning(w, t)
	}
	if ch := r.WeightChoice; ch != nil {
		writeWeightChoice(w, ch)
	}
	m, p := r.Model, r.Params
	out := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	switch {
	case r.MultiLabel != nil:
		ml := r.MultiLabel
		out("model        %s, multi-label (one-vs-rest) -> %s", m.Kind, r.Output)
		out("documents    %d", r.Documents)
		out("labels       %d", ml.Labels)
		out("vocabulary   %d terms", m.Vocab.Len())
		if t := m.Params.LabelThresholds; ml.Tuned {
			out("thresholds   tuned per label, %.2f to %.2f", slices.Min(t), slices.Max(t))
			if ml.RareLabels > 0 {
				out("             %d labels on fewer than %d documents share the threshold tuned on all labels", ml.RareLabels, train.MinTunePositives)
			}
		} else {
			out("thresholds   %.2f for every label (the default; --tune-thresholds tunes one per label)", train.DefaultLabelThreshold)
		}
		out("train micro F1 %.4f", ml.MicroF1)
	case r.Strategy == FromCounts || (r.Strategy == Streamed && FitsCounts(m.Kind)):
		how := "from counts"
		if r.Strategy == Streamed {
			how = "streamed, from counts"
		}
		out("model        %s -> %s (%s)", m.Kind, r.Output, how)
		out("documents    %d", r.Documents)
		out("classes      %d", len(m.Classes))
		out("vocabulary   %d terms (of %d counted)", m.Vocab.Len(), r.Counted)
		if m.Kind.IsNB() {
			out("alpha        %g", p.Alpha)
		}
		r.writeGivenTemperature(out)
	case r.Strategy == Streamed:
		out("model        %s -> %s (streamed)", m.Kind, r.Output)
		out("documents    %d", r.Documents)
		out("classes      %d", len(m.Classes))
		if !m.Kind.RecordOnly() {
			out("vocabulary   %d terms", m.NumTerms())
		}
		if m.Fields != nil {
			out("fields       %d categorical, %d numeric", len(m.Fields.Categorical), len(m.Fields.Numeric))
		}
		switch m.Kind {
		case model.LogReg:
			out("C            %g (%s, %s)", p.C, p.Penalty, p.Solver)
		case model.SVM, model.NBLR:
			out("C            %g", p.C)
			out("blocks       of %d rows", r.Blocks)
			r.writeGivenTemperature(out)
		}
	default:
		out("model        %s -> %s", m.Kind, r.Output)
		out("documents    %d", r.Documents)
		out("classes      %d", len(m.Classes))
		out("vocabulary   %d terms", m.NumTerms())
		if m.Fields != nil {
			out("fields       %d categorical, %d numeric", len(m.Fields.Categorical), len(m.Fields.Numeric))
		}
		switch kind := m.Kind; {
		case kind == model.LogReg:
			out("C            %g (%s, %s)", p.C, p.Penalty, p.Solver)
		case kind == model.SVM || kind == model.NBLR:
			out("C            %g", p.C)
		case kind.IsNB():
			out("alpha        %g", p.Alpha)
		}
		switch cal := r.Calibration; {
		case cal != nil && cal.Skipped != "":
			out("temperature  1 (calibration skipped: %s)", cal.Skipped)
		case cal != nil:
			out("temperature  %.4g (held-out log-loss %.3f -> %.3f)", cal.Temperature, cal.LogLoss1, cal.LogLoss)
		case p.Temperature > 0 && m.Kind != model.LogReg:
			out("temperature  %.4g (given)", p.Temperature)
		}
		if p.Profile != "" {
			out("defaults     %s", p.Profile)
		}
		if r.HasAccuracy {
			out("train acc    %.4f", r.Accuracy)
		}
	}
	if (r.Strategy == FromCounts || r.Strategy == Streamed) && r.MultiLabel == nil && p.Profile != "" {
		out("defaults     %s", p.Profile) // as the in-memory summary says it
	}
	if r.Why != "" {
		out("training     %s: %s", r.Strategy, r.Why)
	}
	out("seconds      %.2f", r.Duration.Seconds())
	if r.Runs > 0 {
		out("runs         %d spilled by the count tables (bound %d MiB)", r.Runs, r.RunsBound>>20)
	}
	if r.KeptCounts != "" {
		out("counts       %d documents -> %s", r.KeptDocuments, r.KeptCounts)
	}
	if m.Params.EM != nil {
		out("em           %s", m.Params.EM.Summary())
	}
}

// writeGivenTemperature prints the temperature of a model fitted without
// its documents at hand, which calibration needs.
func (r *Report) writeGivenTemperature(out func(string, ...any)) {
	switch t := r.Params.Temperature; {
	case t > 0:
		out("temperature  %.4g (given)", t)
	case calibrated(r.Model.Kind):
		out("temperature  1 (calibration needs the documents: give --temperature)")
	}
}

// writeTuning prints the cross-validated score of every candidate.
func writeTuning(w io.Writer, t *train.Tuning) {
	fmt.Fprintf(w, "%d-fold cross-validation on the training data:\n", t.Folds)
	fmt.Fprintf(w, "  %-8s  %-8s  %s\n", t.Param, "accuracy", "std")
	for i, c := range t.Candidates {
		mark := ""
		if i == t.Best {
			mark = "  <- chosen"
		}
		fmt.Fprintf(w, "  %-8g  %.4f    %.4f%s\n", c.Value, c.Mean, c.Std, mark)
	}
}

// writeWeightChoice prints the cross-validated accuracy of every λ.
func writeWeightChoice(w io.Writer, ch *semisup.Choice) {
	fmt.Fprintf(w, "%d-fold cross-validation of λ on the labelled documents:\n", ch.Folds)
	fmt.Fprintf(w, "  %-8s  %-8s  %s\n", "λ", "accuracy", "std")
	for i, sc := range ch.Scores {
		mark := ""
		if i == ch.Best {
			mark = "  <- chosen"
		}
		fmt.Fprintf(w, "  %-8g  %.4f    %.4f%s\n", sc.Weight, sc.Mean, sc.Std, mark)
	}
}

// calibrated reports whether a model of kind held in memory fits a
// temperature by cross-validation (multinomial NB and logistic regression
// fit none).
func calibrated(kind model.Kind) bool {
	return train.DefaultCalibrate(kind) || kind == model.Centroid || kind == model.SVM || kind == model.NBLR
}
