package main

import (
	"fmt"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// spoolFields makes co's reader pass each document's record fields, of
// the fields of o's flags, to a new train.FieldSpool (nil when o names no
// field), for train --stream: a numeric value that does not parse is an
// error naming the document and the field, as in-memory train says.
func spoolFields(o *trainOptions, co *corpusOptions, kind model.Kind) (*train.FieldSpool, error) {
	spec := o.rec.spec()
	if spec.Empty() {
		return nil, nil
	}
	o.rec.apply(co, kind)
	layout := &model.Fields{}
	for _, n := range spec.Categorical {
		layout.Categorical = append(layout.Categorical, model.CategoricalField{Name: n})
	}
	for _, n := range spec.Numeric {
		layout.Numeric = append(layout.Numeric, model.NumericField{Name: n})
	}
	spool, err := train.NewFieldSpool(spec)
	if err != nil {
		return nil, err
	}
	co.onDoc = func(d corpus.Document) error {
		rec, err := layout.Record(d.Fields)
		if err != nil {
			return fmt.Errorf("%s: %w", d.ID, err)
		}
		return spool.Add(d.Label, rec)
	}
	return spool, nil
}

// runTrainStreamRecords is 'nbtext train --stream --model categorical|
// gaussian': one pass spools the record fields to disk, and the model is
// fitted from the spool (train.FitRecordsStream), the model in-memory
// train fits.
func runTrainStreamRecords(s streams, args []string, o *trainOptions, kind model.Kind, start time.Time) error {
	co := o.corpus
	co.dropTexts = true
	spool, err := spoolFields(o, &co, kind)
	if err != nil {
		return err
	}
	defer spool.Close()
	if err := requireCorpus(args); err != nil {
		return err
	}
	none := func(string, string) error { return nil }
	for _, src := range args {
		if err := countSource(s, src, &co, o.global.quiet, none); err != nil {
			return err
		}
	}
	labels := spool.Labels()
	p, _, err := o.fit.params(kind, labels, spool.ClassSizes(labels))
	if err != nil {
		return err
	}
	o.rec.params(&p, kind)
	m, err := train.FitRecordsStream(kind, spool, p)
	if err != nil {
		return err
	}
	if err := saveStreamed(s, m, o.output, spool.Len()); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "fields       %d categorical, %d numeric\n", len(m.Fields.Categorical), len(m.Fields.Numeric))
	fmt.Fprintf(s.Out, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}
