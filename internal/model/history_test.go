package model

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestHistoryRoundTrip: a model's history is saved and loaded as it was,
// a model without one is written as before (no "history" key), and a
// file whose history names an unknown operation is corrupt.
func TestHistoryRoundTrip(t *testing.T) {
	v := testVocab(t, "a", "b", "c")
	m := mustNB(t, Multinomial, []string{"x", "y"}, v, Params{Alpha: 1}, []float64{2, 3}, []float64{1, 2, 0, 1, 3, 0})
	var plain bytes.Buffer
	if err := Encode(&plain, m); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte(`"history"`)) {
		t.Error("a model without history writes a history key")
	}
	m.Meta.History = []Step{
		{Op: "train", Docs: 5, Total: 5},
		{Op: "update", Docs: 2, Total: 7, Date: "2026-01-02T03:04:05Z", Source: "new.tsv", Classes: []string{"z"}},
		{Op: "forget", Docs: 2, Total: 5, Date: "2026-01-03T03:04:05Z", Source: "new.tsv"},
	}
	var b bytes.Buffer
	if err := Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(b.Bytes()), "h.nbm")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Meta.History) != fmt.Sprint(m.Meta.History) {
		t.Errorf("history %+v, want %+v", got.Meta.History, m.Meta.History)
	}
	if s := got.Meta.History[1].String(); s != "update  +2 documents, 7 in all (2026-01-02T03:04:05Z) from new.tsv; new classes: z" {
		t.Errorf("step line %q", s)
	}
	m.Meta.History[1].Op = "merge"
	b.Reset()
	if err := Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(bytes.NewReader(b.Bytes()), "h.nbm"); err == nil || !strings.Contains(err.Error(), `unknown op "merge"`) {
		t.Errorf("unknown op: %v", err)
	}
}
