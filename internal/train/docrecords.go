// The record fields of a corpus's documents, converted by a model's (or a
// field spec's) layout: what a fit with fields and an evaluation of a
// model with fields read.

package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// FieldSpecOf returns the names of f's fields as a FieldSpec.
func FieldSpecOf(f *model.Fields) FieldSpec {
	var spec FieldSpec
	for _, c := range f.Categorical {
		spec.Categorical = append(spec.Categorical, c.Name)
	}
	for _, n := range f.Numeric {
		spec.Numeric = append(spec.Numeric, n.Name)
	}
	return spec
}

// DocumentRecords converts the raw fields of c's documents by f's layout
// (model.Fields.Record) into Records of spec, the names of f's fields; a
// numeric value that does not parse is an error naming the document and
// the field.
func DocumentRecords(c *corpus.Corpus, f *model.Fields, spec FieldSpec) (*Records, error) {
	r := &Records{Spec: spec, Recs: make([]model.Record, len(c.Docs))}
	for i, d := range c.Docs {
		rec, err := f.Record(d.Fields)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.ID, err)
		}
		r.Recs[i] = rec
	}
	return r, nil
}
