package predict

// Options completed by the model they score with: the names it was
// trained with, its record fields, its label thresholds and its classes'
// costs.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// Request is what a command asks beside Options that only the model can
// settle: which flags the user gave, the record fields named, the class
// costs, and the arguments to read.
type Request struct {
	// Path is the model's file, named in errors.
	Path string
	// Args are the files to read (none: stdin; Stdin among them).
	Args []string
	// Given reports whether the user set a flag (label-field,
	// text-field, label-prefix, threshold).
	Given func(flag string) bool
	// Categorical and Numeric are the record fields named, which must be
	// the model's (empty: not checked).
	Categorical, Numeric []string
	// Costs are the class loss weights, label=λ,... (model.ParseCosts).
	Costs string
	// LabelThreshold is the probability a label of a multi-label model
	// needs, unless the model stores tuned thresholds or the user gave
	// one.
	LabelThreshold float64
}

// ForModel returns o completed for m: the label and text names m was
// trained with (model.Meta.Input) where the flags do not name others, a
// record model's first field standing in for the text column of a
// header, the label thresholds of a multi-label model and the class
// costs. An error is a request m cannot answer (a usage error): options
// of multi-label models for a model of one label, record fields that are
// not m's, standard input framed as lines for a model with record
// fields.
func (o Options) ForModel(m *model.Model, r Request) (Options, error) {
	given := r.Given
	if !m.MultiLabel && (o.MinLabels > 0 || o.AllProbs) {
		return o, fmt.Errorf("--min-labels and --all-probs apply to multi-label models; %s has one label per document", r.Path)
	}
	if in := m.Meta.Input; in != nil {
		if in.LabelField != "" && !given("label-field") {
			o.Fields.Label = in.LabelField
		}
		if len(in.TextFields) > 0 && !given("text-field") {
			o.Fields.Text = in.TextFields
		}
		if in.LabelPrefix != "" && !given("label-prefix") {
			o.Fields.LabelPrefix = in.LabelPrefix
		}
	}
	if m.Kind.RecordOnly() && m.Fields != nil && len(m.Fields.Names()) > 0 && !given("text-field") &&
		(m.Meta.Input == nil || len(m.Meta.Input.TextFields) == 0) && headerInput(o.Input, r.Args) {
		// A record model reads no text: its first field stands in for
		// the text column of a CSV or TSV header, as in train.
		o.Fields.Text = m.Fields.Names()[:1]
	}
	if m.Fields != nil && o.Input == InputAuto && (len(r.Args) == 0 || slices.Contains(r.Args, Stdin)) {
		// Standard input is read as lines unless --input says otherwise.
		return o, fmt.Errorf("%s has record fields: give --input csv, tsv or jsonl for standard input, records with the text and the fields", r.Path)
	}
	if names := append(slices.Clone(r.Categorical), r.Numeric...); len(names) > 0 {
		if m.Fields == nil {
			return o, fmt.Errorf("%s has no record fields: leave out --categorical-field and --numeric-field", r.Path)
		}
		if !slices.Equal(sorted(names), sorted(m.Fields.Names())) {
			return o, fmt.Errorf("%s has the fields %s, not %s", r.Path, strings.Join(m.Fields.Names(), ", "), strings.Join(names, ", "))
		}
	}
	if m.MultiLabel {
		if !given("threshold") {
			o.Threshold = r.LabelThreshold
		}
		o.LabelThresholds = m.Thresholds(o.Threshold, given("threshold"))
		if o.TopK > 0 && !given("threshold") {
			o.LabelThresholds = m.Thresholds(0, true) // the top K, as fastText's -k without -threshold
		}
	}
	var err error
	o.Costs, err = model.ParseCosts(r.Costs, m.Classes)
	return o, err
}

// sorted returns a sorted copy of xs.
func sorted(xs []string) []string {
	ys := slices.Clone(xs)
	slices.Sort(ys)
	return ys
}

// headerInput reports whether predict reads records with a header row:
// --input csv or tsv, or files named so (auto: corpus.FormatByName, as
// predict frames them).
func headerInput(input string, args []string) bool {
	switch input {
	case InputCSV, InputTSV:
		return true
	case InputAuto:
		for _, a := range args {
			if f := corpus.FormatByName(a); f != corpus.FormatCSV && f != corpus.FormatTSV {
				return false
			}
		}
		return len(args) > 0
	}
	return false
}
