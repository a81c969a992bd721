package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestFallbackShare is issue 12 item 14: an α = 0 Bernoulli model
// predicts from the prior every document that holds terms of two classes
// that never met, and the report says how many, as a count and a share.
func TestFallbackShare(t *testing.T) {
	terms := []string{"a", "b", "c"}
	vocab, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), terms, []int32{2, 2, 2}, []int64{2, 2, 2}, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Class x: documents {a, c}, {a}; class y: {b, c}, {b}.
	classDocs := []float64{2, 2}
	counts := []float64{2, 0, 0, 2, 1, 1} // feature-major: a, b, c
	m, err := model.NewNB(model.Bernoulli, []string{"x", "y"}, vocab, model.Params{Prior: "learned"}, classDocs, counts)
	if err != nil {
		t.Fatal(err)
	}
	// Rows: {a} → x, {b} → y, {a, b} and {a, b, c} → no class: fallback.
	X := &vectorize.Matrix{
		Indptr:  []int{0, 1, 2, 4, 7},
		Indices: []int32{0, 1, 0, 1, 0, 1, 2},
		Values:  []float32{1, 1, 1, 1, 1, 1, 1},
		Cols:    3,
	}
	r, err := EvaluateModel(m, X, []string{"x", "y", "x", "y"}, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fallback != 2 {
		t.Fatalf("fallback %d, want 2", r.Fallback)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, r, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "fallback  2 of 4 documents (50.00%) predicted from the prior") {
		t.Errorf("table lacks the fallback share:\n%s", table.String())
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Fallback      int     `json:"fallback"`
		FallbackShare float64 `json:"fallback_share"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.Fallback != 2 || got.FallbackShare != 0.5 {
		t.Errorf("json fallback %+v (%v), want 2 and 0.5", got, err)
	}
}

// TestCVFallbackShare: eval --cv reports the documents predicted from the
// prior too (issue 12, item 14), per fold and in all, in the table and in
// JSON; a smoothed model has none and the table says nothing of them.
func TestCVFallbackShare(t *testing.T) {
	texts, y, classes := synthCorpus(3, 30, 9)
	spec := DefaultModelSpec(model.Bernoulli)
	p := spec.Params
	p.Alpha = 0
	res, err := CrossValidate(texts, y, classes, spec.Settings, spec.Kind, p, 3, 7, CVOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, f := range res.Folds {
		if f.Fallback != f.Report.Fallback {
			t.Errorf("fold %d: fallback %d, its report %d", f.Fold, f.Fallback, f.Report.Fallback)
		}
		sum += f.Fallback
	}
	if res.Fallback == 0 || res.Fallback != sum {
		t.Fatalf("fallback %d, folds sum to %d: want the same, > 0 for α = 0 Bernoulli", res.Fallback, sum)
	}
	var table, js bytes.Buffer
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("fallback  %d of %d held-out documents", res.Fallback, res.N)
	if !strings.Contains(table.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, table.String())
	}
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Fallback int `json:"fallback"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.Fallback != res.Fallback {
		t.Errorf("json fallback %d (%v), want %d", got.Fallback, err, res.Fallback)
	}

	p.Alpha = 1
	res, err = CrossValidate(texts, y, classes, spec.Settings, spec.Kind, p, 3, 7, CVOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	table.Reset()
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if res.Fallback != 0 || strings.Contains(table.String(), "fallback") {
		t.Errorf("α = 1: fallback %d; table:\n%s", res.Fallback, table.String())
	}
}
