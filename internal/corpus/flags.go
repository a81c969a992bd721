// The reading options as a command's flags give them, checked and turned
// into Options.

package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// Flags are the reading options as a command's flags give them: values
// as typed (an empty string is a value given, not a default), Remove
// unparsed. Options checks them and returns the Options they ask for.
type Flags struct {
	Split, Format, Remove string
	Classes               []string
	// Framing says the command has the framing flags (--label-prefix,
	// --label-field, --text-field, --max-doc-bytes): only then are
	// LabelPrefix, LabelField, TextFields and MaxDocBytes checked, and
	// the names used when LabelNamed, TextNamed (the user or a model
	// named them, so that a header row must hold them).
	Framing               bool
	LabelPrefix           string
	LabelField            string
	TextFields            []string
	LabelNamed, TextNamed bool
	Header                bool
	MaxDocBytes           int
	// ExtraFields, MultiLabel and LabelSep pass on to Options as they
	// are; DefaultText are the text fields read when none is named.
	ExtraFields []string
	MultiLabel  bool
	LabelSep    string
	DefaultText []string
}

// Options returns the Options f asks for, or an error naming the first
// flag out of range.
func (f Flags) Options() (Options, error) {
	rm, err := ParseRemove(f.Remove)
	if err != nil {
		return Options{}, fmt.Errorf("--remove: %v", err)
	}
	switch f.Split {
	case "", "train", "test":
	default:
		return Options{}, fmt.Errorf("--split must be train or test, got %q", f.Split)
	}
	if !slices.Contains(Formats, f.Format) {
		return Options{}, fmt.Errorf("--input-format must be one of %s, got %q", strings.Join(Formats, ", "), f.Format)
	}
	opts := Options{Split: f.Split, Format: f.Format, Remove: rm, Classes: f.Classes,
		LabelPrefix: f.LabelPrefix, Header: f.Header, MaxDocBytes: f.MaxDocBytes,
		ExtraFields: f.ExtraFields, MultiLabel: f.MultiLabel, LabelSep: f.LabelSep, TextFields: f.DefaultText}
	if !f.Framing {
		return opts, nil
	}
	switch {
	case strings.TrimSpace(f.LabelPrefix) == "":
		return Options{}, fmt.Errorf("--label-prefix must not be empty")
	case strings.TrimSpace(f.LabelField) == "":
		return Options{}, fmt.Errorf("--label-field must not be empty")
	case f.MaxDocBytes < 1:
		return Options{}, fmt.Errorf("--max-doc-bytes must be ≥ 1, got %d", f.MaxDocBytes)
	}
	// Only names the user chose make a header row required.
	if f.LabelNamed {
		opts.LabelField = f.LabelField
	}
	if f.TextNamed {
		for _, t := range f.TextFields {
			if strings.TrimSpace(t) == "" {
				return Options{}, fmt.Errorf("--text-field must not name an empty field")
			}
		}
		opts.TextFields = f.TextFields
	}
	return opts, nil
}
