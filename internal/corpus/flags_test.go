package corpus

import (
	"slices"
	"strings"
	"testing"
)

// TestFlagsOptions checks that each reading flag out of range is refused
// with a message naming it, the first in order where several are, and
// that the named fields, and only they, reach Options.
func TestFlagsOptions(t *testing.T) {
	ok := Flags{Format: "auto", Framing: true, LabelPrefix: DefaultLabelPrefix, LabelField: "label",
		TextFields: []string{"text"}, MaxDocBytes: 10}
	cases := []struct {
		name string
		edit func(f *Flags)
		want string
	}{
		{"fine", func(f *Flags) {}, ""},
		{"remove", func(f *Flags) { f.Remove, f.Split = "nope", "dev" }, "--remove: "},
		{"split", func(f *Flags) { f.Split, f.Format = "dev", "xml" }, `--split must be train or test, got "dev"`},
		{"format", func(f *Flags) { f.Format, f.LabelPrefix = "xml", "" }, `--input-format must be one of auto, `},
		{"label prefix", func(f *Flags) { f.LabelPrefix, f.LabelField = " ", "" }, "--label-prefix must not be empty"},
		{"label field", func(f *Flags) { f.LabelField = "" }, "--label-field must not be empty"},
		{"max doc bytes", func(f *Flags) { f.MaxDocBytes = 0 }, "--max-doc-bytes must be ≥ 1, got 0"},
		{"empty text field named", func(f *Flags) { f.TextFields, f.TextNamed = []string{"a", " "}, true }, "--text-field must not name an empty field"},
		{"empty text field unnamed", func(f *Flags) { f.TextFields = []string{""} }, ""},
		{"no framing flags", func(f *Flags) { f.Framing, f.LabelPrefix, f.MaxDocBytes = false, "", 0 }, ""},
	}
	for _, c := range cases {
		f := ok
		c.edit(&f)
		_, err := f.Options()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: Options: %v, want %q", c.name, err, c.want)
		}
	}
	f := ok
	f.DefaultText, f.Remove = []string{"body"}, "headers,quotes"
	opts, err := f.Options()
	if err != nil || opts.LabelField != "" || !slices.Equal(opts.TextFields, []string{"body"}) || opts.Remove != RemoveHeaders|RemoveQuotes {
		t.Errorf("unnamed fields: %+v, %v; want no label field, the default text and headers,quotes removed", opts, err)
	}
	f.LabelNamed, f.TextNamed = true, true
	if opts, err = f.Options(); err != nil || opts.LabelField != "label" || !slices.Equal(opts.TextFields, []string{"text"}) {
		t.Errorf("named fields: %+v, %v; want label and text", opts, err)
	}
}
