package predict

import (
	"fmt"
	"strings"

	"github.com/nbtext/nbtext/internal/inflight"
)

// Input framings of a stream.
const (
	InputLines = "lines" // one document per line
	InputDoc   = "doc"   // the whole stream is one document
	InputJSONL = "jsonl" // one JSON object per line: {"id": ..., "text": ...}
	InputNUL   = "nul"   // NUL-separated documents (find -print0)
	// Record files, read as 'nbtext train' reads them (Options.Fields).
	InputCSV      = "csv"      // RFC 4180, a header row first
	InputTSV      = "tsv"      // a header row naming the text column, or label<TAB>text, or text lines
	InputFastText = "fasttext" // __label__X text: the labels are dropped
	// InputAuto frames a file by its name (csv, tsv, jsonl) or, for a
	// file whose first line starts with the label prefix, as fastText;
	// anything else, and stdin, as lines.
	InputAuto = "auto"
)

// Inputs lists the values of Options.Input.
var Inputs = []string{InputAuto, InputLines, InputDoc, InputJSONL, InputNUL, InputCSV, InputTSV, InputFastText}

// Output formats.
const (
	FormatText = "text"
	FormatTSV  = "tsv"
	FormatJSON = "json"
)

// DefaultMaxDocBytes is the largest document accepted by default: 256 MiB.
const DefaultMaxDocBytes = 256 << 20

// DefaultBytesInFlight is the default Options.MaxBytesInFlight, whatever
// --max-doc-bytes is (inflight.Default, the bound count shares). A
// document larger than it passes alone, and is read only once the
// documents before it are written, so N huge documents cost about one,
// not N; batches of ordinary documents (batchBytes each) still keep every
// worker busy.
const DefaultBytesInFlight = inflight.Default

// Options control framing, decisions and output.
type Options struct {
	Input string // one of Inputs; "" is InputLines
	// Fields name the columns or keys of csv, tsv and jsonl records.
	Fields Fields
	Format string // FormatText (default), FormatTSV or FormatJSON
	// TopK > 0 lists the K most probable labels with their probabilities.
	// In JSON, probs then holds those K classes instead of all of them.
	TopK int
	// Explain > 0 adds the N terms that weigh most in the decision, with
	// their exact contribution to its log-odds (model.Scorer.Explain).
	Explain int
	// Threshold > 0 replaces the label by "?" (JSON: "") when the chosen
	// class's probability is below it. With TopK, as in fastText, the
	// labels below it are dropped from the list ("?" when none is left).
	Threshold float64
	// LabelThresholds, for a multi-label model, are the threshold of each
	// label (model.Model.Thresholds), used instead of Threshold.
	LabelThresholds []float64
	// MinLabels, for a multi-label model, is the number of labels every
	// document gets at least (the most probable), whatever the
	// thresholds.
	MinLabels int
	// AllProbs, for a multi-label model with Format json, prints the
	// probability of every label instead of those of the kept labels.
	AllProbs bool
	// Costs are the class loss weights λ_y of the decision
	// argmax_y λ_y P(y|x) (nil: MAP), as parsed by model.ParseCosts.
	Costs []float64
	// Workers is the number of scoring goroutines (0: GOMAXPROCS).
	Workers int
	// MaxDocBytes bounds one document (0: DefaultMaxDocBytes).
	MaxDocBytes int
	// Digits is the number of decimals of probabilities, scores and
	// weights (0: 4 in text and TSV; in JSON, as many as a float64 needs
	// to be read back exactly).
	Digits int
	// Scores adds, in JSON, each class's decision value: the score the
	// model ranks the classes by before the softmax (NB: log P(c) + log
	// P(x|c); logistic regression: the logit; SVM: the margin).
	Scores bool
	// MaxBytesInFlight bounds the text of the batches queued, scored and
	// not yet written (0: DefaultBytesInFlight); a document larger than
	// the bound passes alone.
	MaxBytesInFlight int64
	// Header prints a header line first (TSV only).
	Header bool
	// Warn receives one message per document that could not be read (in
	// output order, from the goroutine that writes) and per file a folder
	// walk skips. Nil drops them; the answers still say "?".
	Warn func(msg string)
}

// Validate reports the first option out of range, naming its flag, as
// New does; commands call it before loading the model. It does not check
// Costs, whose length depends on the model.
func (o Options) Validate() error { return o.normalize() }

// normalize validates o and fills in the defaults.
func (o *Options) normalize() error {
	switch o.Input {
	case "":
		o.Input = InputLines
	case InputLines, InputDoc, InputJSONL, InputNUL, InputCSV, InputTSV, InputFastText, InputAuto:
	default:
		return fmt.Errorf("--input must be %s, got %q", strings.Join(Inputs, ", "), o.Input)
	}
	o.Fields.normalize()
	switch o.Format {
	case "":
		o.Format = FormatText
	case FormatText, FormatTSV, FormatJSON:
	default:
		return fmt.Errorf("--format must be text, tsv or json, got %q", o.Format)
	}
	if o.MinLabels < 0 {
		return fmt.Errorf("--min-labels must be ≥ 0, got %d", o.MinLabels)
	}
	if o.TopK < 0 {
		return fmt.Errorf("--top-k must be ≥ 0, got %d", o.TopK)
	}
	if o.Explain < 0 {
		return fmt.Errorf("--explain must be ≥ 0, got %d", o.Explain)
	}
	if o.Threshold < 0 || o.Threshold > 1 || o.Threshold != o.Threshold {
		return fmt.Errorf("--threshold must be between 0 and 1, got %g", o.Threshold)
	}
	if o.Digits < 0 || o.Digits > 17 {
		return fmt.Errorf("--digits must be between 1 and 17, got %d", o.Digits)
	}
	if o.MaxDocBytes < 0 {
		return fmt.Errorf("--max-doc-bytes must be ≥ 0, got %d", o.MaxDocBytes)
	}
	if o.MaxBytesInFlight < 0 {
		return fmt.Errorf("bytes in flight must be ≥ 0, got %d", o.MaxBytesInFlight)
	}
	if o.MaxDocBytes == 0 {
		o.MaxDocBytes = DefaultMaxDocBytes
	}
	if o.MaxBytesInFlight == 0 {
		o.MaxBytesInFlight = DefaultBytesInFlight
	}
	return nil
}
