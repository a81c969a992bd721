package train

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

func TestDocumentRecords(t *testing.T) {
	f := &model.Fields{
		Categorical: []model.CategoricalField{{Name: "colour"}},
		Numeric:     []model.NumericField{{Name: "size"}, {Name: "weight"}},
	}
	spec := FieldSpecOf(f)
	if want := (FieldSpec{Categorical: []string{"colour"}, Numeric: []string{"size", "weight"}}); !reflect.DeepEqual(spec, want) {
		t.Fatalf("FieldSpecOf = %+v, want %+v", spec, want)
	}
	c := &corpus.Corpus{Docs: []corpus.Document{
		{ID: "a:1", Fields: map[string]string{"colour": "red", "size": "2.5", "weight": "1"}},
		{ID: "a:2", Fields: map[string]string{"colour": "blue", "size": "-1", "weight": "0"}},
	}}
	r, err := DocumentRecords(c, f, spec)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Record{{Cat: []string{"red"}, Num: []float64{2.5, 1}}, {Cat: []string{"blue"}, Num: []float64{-1, 0}}}
	if !reflect.DeepEqual(r.Recs, want) || !reflect.DeepEqual(r.Spec, spec) {
		t.Errorf("records %+v (spec %+v), want %+v", r.Recs, r.Spec, want)
	}
	c.Docs[1].Fields["size"] = "big"
	if _, err := DocumentRecords(c, f, spec); err == nil || !strings.Contains(err.Error(), "a:2") || !strings.Contains(err.Error(), "size") {
		t.Errorf("a numeric field that does not parse: error %v, want one naming a:2 and size", err)
	}
}
