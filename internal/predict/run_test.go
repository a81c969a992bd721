package predict

import (
	"strings"
	"testing"
)

// TestRequestCheck checks that a request without a model file, or with an
// option out of range, is refused with the message that names it.
func TestRequestCheck(t *testing.T) {
	cases := []struct {
		path string
		opt  Options
		want string
	}{
		{"m.nbm", Options{}, ""},
		{"", Options{TopK: -1}, "-m MODEL is required"},
		{"m.nbm", Options{Input: "xml"}, `--input must be`},
		{"m.nbm", Options{Format: "yaml"}, `--format must be text, tsv or json, got "yaml"`},
		{"m.nbm", Options{TopK: -1}, "--top-k must be ≥ 0, got -1"},
		{"m.nbm", Options{Threshold: 2}, "--threshold must be between 0 and 1, got 2"},
	}
	for _, c := range cases {
		err := Request{Path: c.path}.Check(c.opt)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Request{%q}.Check(%+v) = %v, want %q", c.path, c.opt, err, c.want)
		}
	}
}

// TestStatsCheck checks what a run's Stats make predict report: an error
// for a run that answered less than asked, notes and warnings otherwise.
func TestStatsCheck(t *testing.T) {
	cases := []struct {
		name        string
		st          Stats
		args        []string
		err         string
		notes, warn []string
	}{
		{"all answered", Stats{Docs: 3}, []string{"a.txt"}, "", nil, nil},
		{"stdin empty", Stats{}, nil, "", nil, nil},
		{"nothing found", Stats{Labelled: []Labelled{{"a.tsv", "a label column"}}}, []string{"a.tsv", "dir"}, "no documents found in a.tsv dir", nil, nil},
		{"labels ignored", Stats{Docs: 2, Labelled: []Labelled{{"stdin", "fastText labels"}, {"b.tsv", "a label column"}}}, nil, "",
			[]string{"stdin holds labels (fastText labels): predict ignored them; 'nbtext eval -m m.nbm -' measures",
				"b.tsv holds labels (a label column): predict ignored them; 'nbtext eval -m m.nbm b.tsv' measures"}, nil},
		{"empty and fallback", Stats{Docs: 5, Empty: 2, Fallback: 1}, nil, "",
			[]string{"1 of 5 documents gave the model nothing to go on"}, []string{"2 of 5 documents hold no word the model knows"}},
		{"failed", Stats{Docs: 4, Failed: 1, NoDocs: []string{"e"}}, []string{"a", "e"}, "1 of 4 documents could not be read", nil, nil},
		{"some empty arguments", Stats{Docs: 4, NoDocs: []string{"e1", "e2"}}, []string{"a", "e1", "e2"}, "no documents found in e1 e2 (the other arguments were answered)", nil, nil},
	}
	for _, c := range cases {
		var notes, warns []string
		err := c.st.Check("m.nbm", c.args, func(m string) { notes = append(notes, m) }, func(m string) { warns = append(warns, m) })
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: Check = %v, want %q", c.name, err, c.err)
		}
		for _, x := range []struct{ got, want []string }{{notes, c.notes}, {warns, c.warn}} {
			if len(x.got) != len(x.want) {
				t.Errorf("%s: reported %q, want %q", c.name, x.got, x.want)
				continue
			}
			for i := range x.want {
				if !strings.HasPrefix(x.got[i], x.want[i]) {
					t.Errorf("%s: reported %q, want it to start with %q", c.name, x.got[i], x.want[i])
				}
			}
		}
	}
	if err := (Stats{Docs: 1, Empty: 1}).Check("m", nil, nil, nil); err != nil {
		t.Errorf("Check without note and warn: %v", err)
	}
}
