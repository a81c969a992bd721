package predict

import "fmt"

// Input framings of a stream.
const (
	InputLines = "lines" // one document per line
	InputDoc   = "doc"   // the whole stream is one document
	InputJSONL = "jsonl" // one JSON object per line: {"id": ..., "text": ...}
	InputNUL   = "nul"   // NUL-separated documents (find -print0)
)

// Output formats.
const (
	FormatText = "text"
	FormatTSV  = "tsv"
	FormatJSON = "json"
)

// DefaultMaxDocBytes is the largest document accepted by default: 256 MiB.
const DefaultMaxDocBytes = 256 << 20

// DefaultBytesInFlight returns the default Options.MaxBytesInFlight for
// documents of at most maxDoc bytes: max(64 MiB, 2·maxDoc).
func DefaultBytesInFlight(maxDoc int) int64 { return max(64<<20, 2*int64(maxDoc)) }

// Options control framing, decisions and output.
type Options struct {
	Input  string // InputLines (default), InputDoc, InputJSONL or InputNUL
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
	// Costs are the class loss weights λ_y of the decision
	// argmax_y λ_y P(y|x) (nil: MAP), as parsed by model.ParseCosts.
	Costs []float64
	// Workers is the number of scoring goroutines (0: GOMAXPROCS).
	Workers int
	// MaxDocBytes bounds one document (0: DefaultMaxDocBytes).
	MaxDocBytes int
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
	case InputLines, InputDoc, InputJSONL, InputNUL:
	default:
		return fmt.Errorf("--input must be lines, doc, jsonl or nul, got %q", o.Input)
	}
	switch o.Format {
	case "":
		o.Format = FormatText
	case FormatText, FormatTSV, FormatJSON:
	default:
		return fmt.Errorf("--format must be text, tsv or json, got %q", o.Format)
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
		o.MaxBytesInFlight = DefaultBytesInFlight(o.MaxDocBytes)
	}
	return nil
}
