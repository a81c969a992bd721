package pipeline

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// layout returns the fields of spec as a model.Fields layout (names only),
// which converts a document's raw fields (model.Fields.Record).
func layout(spec train.FieldSpec) *model.Fields {
	f := &model.Fields{}
	for _, n := range spec.Categorical {
		f.Categorical = append(f.Categorical, model.CategoricalField{Name: n})
	}
	for _, n := range spec.Numeric {
		f.Numeric = append(f.Numeric, model.NumericField{Name: n})
	}
	return f
}

// Records returns the record fields of the documents of c, for the fields
// of spec; a numeric value that does not parse is an error naming the
// document and the field.
func Records(c *corpus.Corpus, spec train.FieldSpec) (*train.Records, error) {
	return train.DocumentRecords(c, layout(spec), spec)
}

// ModelRecords returns the records of c's documents for the fields of m.
func ModelRecords(c *corpus.Corpus, m *model.Model) (*train.Records, error) {
	return train.DocumentRecords(c, m.Fields, FieldSpec(m.Fields))
}

// FieldSpec returns the names of f's fields as a train.FieldSpec.
func FieldSpec(f *model.Fields) train.FieldSpec { return train.FieldSpecOf(f) }

// spoolFields returns a train.FieldSpool for the record fields (nil
// without fields) and the function that passes each document's fields to
// it as the corpus streams (Source.Each's onDoc): a numeric value that
// does not parse is an error naming the document and the field, as the
// in-memory run says.
func (r *run) spoolFields() (*train.FieldSpool, func(corpus.Document) error, error) {
	if r.Fields.Empty() {
		return nil, nil, nil
	}
	lay := layout(r.Fields)
	spool, err := train.NewFieldSpool(r.Fields)
	if err != nil {
		return nil, nil, err
	}
	onDoc := func(d corpus.Document) error {
		rec, err := lay.Record(d.Fields)
		if err != nil {
			return fmt.Errorf("%s: %w", d.ID, err)
		}
		return spool.Add(d.Label, rec)
	}
	return spool, onDoc, nil
}

// streamRecords is the streamed run of a record model (categorical,
// gaussian): one pass spools the record fields to disk, and the model is
// fitted from the spool (train.FitRecordsStream), the model the in-memory
// run fits.
func (r *run) streamRecords() error {
	src := r.Source
	src.Options.DropTexts = true
	spool, onDoc, err := r.spoolFields()
	if err != nil {
		return err
	}
	defer spool.Close()
	if err := src.Each(onDoc, func(string, string) error { return nil }); err != nil {
		return err
	}
	labels := spool.Labels()
	p, _, err := r.params(labels, spool.ClassSizes(labels))
	if err != nil {
		return err
	}
	m, err := train.FitRecordsStream(r.Kind, spool, p)
	if err != nil {
		return err
	}
	r.rep.Model, r.rep.Documents, r.rep.Params = m, spool.Len(), p
	return r.save(m, true)
}
