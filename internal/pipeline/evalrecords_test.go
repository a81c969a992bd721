package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

const recordsJSONL = `{"label": "warm", "text": "x", "color": "red", "size": "big"}
{"label": "warm", "text": "x", "color": "red", "size": "small"}
{"label": "warm", "text": "x", "color": "orange", "size": "big"}
{"label": "cold", "text": "x", "color": "blue", "size": "small"}
{"label": "cold", "text": "x", "color": "blue", "size": "big"}
{"label": "cold", "text": "x", "color": "green", "size": "small"}
`

// trainRecords trains a categorical model on the fields of the JSONL
// corpus src to out.
func trainRecords(t *testing.T, src, out string, fields ...string) {
	t.Helper()
	spec := train.FieldSpec{Categorical: fields}
	p := &Plan{Source: Source{Paths: []string{src}, Options: corpus.Options{ExtraFields: fields}}, Kind: model.Categorical,
		Fields: spec, Stream: StreamNever, Output: out, Budget: membudget.Budget{Bytes: 1 << 40},
		Params: func([]string, []int) (model.Params, bool, error) {
			_, p := train.Defaults(model.Categorical)
			train.FieldParams{FieldAlpha: 1, Density: "gaussian", Shrinkage: "none"}.Apply(&p, model.Categorical)
			return p, false, nil
		},
	}
	if _, err := Run(p); err != nil {
		t.Fatal(err)
	}
}

// TestEvalRecords evaluates a model with record fields and a baseline
// with other fields on one corpus, read once with the fields of both;
// and refuses, as usage errors, fields that are not the model's and a
// baseline without fields.
func TestEvalRecords(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(src, []byte(recordsJSONL), 0o644); err != nil {
		t.Fatal(err)
	}
	color, size, text := filepath.Join(dir, "color.nbm"), filepath.Join(dir, "size.nbm"), filepath.Join(dir, "text.nbm")
	trainRecords(t, src, color, "color")
	trainRecords(t, src, size, "size")
	trainFile(t, model.Multinomial, writeTSV(t, dir, "t.tsv", oldDocs), text, "")
	var loaded [][]string
	load := func(m *model.Model, fields train.FieldSpec) (*corpus.Corpus, error) {
		names := append(slices.Clone(fields.Categorical), fields.Numeric...)
		loaded = append(loaded, names)
		return (&Source{Paths: []string{src}, Options: corpus.Options{ExtraFields: names}}).Load()
	}
	rep, base, err := EvalRecords(EvalRecordsOptions{ModelPath: color, Baseline: size, Load: load})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accuracy != 1 || base == nil || base.Accuracy >= 1 {
		t.Errorf("accuracy %v, baseline %+v", rep.Accuracy, base)
	}
	if len(loaded) != 1 || !slices.Equal(loaded[0], []string{"color", "size"}) {
		t.Errorf("corpus read with the fields %q, want [[color size]]", loaded)
	}

	var u *UsageError
	for _, tt := range []struct {
		o    EvalRecordsOptions
		want string
	}{
		{EvalRecordsOptions{ModelPath: color, Spec: train.FieldSpec{Categorical: []string{"size"}}}, "has the fields color, not size"},
		{EvalRecordsOptions{ModelPath: color, Baseline: text}, "--baseline " + text + " has no record fields"},
		{EvalRecordsOptions{ModelPath: text}, "has no record fields: leave out"},
	} {
		tt.o.Load = load
		if _, _, err := EvalRecords(tt.o); !errors.As(err, &u) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want a UsageError saying %q", tt.o, err, tt.want)
		}
	}
	if _, _, err := EvalRecords(EvalRecordsOptions{ModelPath: filepath.Join(dir, "none.nbm"), Load: load}); !errors.Is(err, model.ErrModelFile) {
		t.Errorf("a missing model: %v", err)
	}
}
