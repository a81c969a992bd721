package main

import (
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// runTrainStreamLogReg is 'nbtext train --stream --model logreg': the
// passes of streamLinearRows write the weighted rows to a temporary row
// cache, and SGD reads the cache once per epoch, shuffling within a
// bounded buffer (train.FitLogRegStream).
func runTrainStreamLogReg(s streams, args []string, o *trainOptions) error {
	start := time.Now()
	kind := model.LogReg
	r, err := streamLinearRows(s, args, o, kind)
	if err != nil {
		return err
	}
	defer r.rc.Close()
	m, err := train.FitLogRegStream(r.rc, r.classes, r.rowVocab, r.p, train.Options{
		Workers: o.workers, Progress: progress(s.Err, o.global.quiet, "fitting"), Init: r.init,
	}, o.buffer)
	if err != nil {
		return err
	}
	if err := r.save(s, kind, m, o.output); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "C            %g (%s, %s)\n", r.p.C, r.p.Penalty, r.p.Solver)
	fmt.Fprintf(s.Out, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}

// linearRows is what the streamed linear fits (logreg, svm, nblr) read:
// the corpus's vocabulary and classes, the fit's parameters, the features
// of record fields, the warm start (--init) and the row cache.
type linearRows struct {
	vocab    *vectorize.Vocabulary // the terms
	rowVocab *vectorize.Vocabulary // the terms, then the fields' pseudo-terms
	classes  []string
	p        model.Params
	f        *model.Fields // nil: no record fields
	init     *model.Model  // logreg --init, or nil
	rc       *train.RowCache
}

// save writes m, fitted over r.rowVocab, to output, the weights of the
// fields' pseudo-terms moved to its fields (train.SplitFieldWeights), and
// prints the head of its summary.
func (r *linearRows) save(s streams, kind model.Kind, m *model.Model, output string) error {
	if r.f != nil {
		var err error
		if m, err = train.SplitFieldWeights(kind, m, r.vocab, r.f); err != nil {
			return err
		}
	}
	if err := saveStreamed(s, m, output, r.rc.Rows()); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "vocabulary   %d terms\n", m.NumTerms())
	if r.f != nil {
		fmt.Fprintf(s.Out, "fields       %d categorical, %d numeric\n", len(r.f.Categorical), len(r.f.Numeric))
	}
	return nil
}

// streamLinearRows runs the passes the streamed linear fits of kind share:
// a first pass counts the corpora args (as --stream does for naive bayes)
// for the vocabulary and document frequencies, or with --vocab reads the
// labels only, and spools record fields to disk; a second writes the
// weighted rows, extended by the fields' features, to a temporary row
// cache, which the caller closes. Stdin is spooled to a temporary file for
// the second pass; it and the fields' spool are gone on return. Class
// weights (--class-weight) are those of the documents cached.
func streamLinearRows(s streams, args []string, o *trainOptions, kind model.Kind) (*linearRows, error) {
	co := o.corpus // (--multi-label and --auto: refused by validate)
	r := &linearRows{}
	var (
		fixed *vectorize.Settings
		vocab *vectorize.Vocabulary
		err   error
	)
	if o.vocab != "" {
		if vocab, err = readVocabFile(o.vocab, &co); err != nil {
			return nil, err
		}
		fixed = &vocab.Settings
	}
	if r.init, err = loadInit(o.init, kind, vocab, o.vocab); err != nil {
		return nil, err
	}
	settings, _ := train.Defaults(kind)
	if r.init != nil {
		fixed = &r.init.Vocab.Settings
	}
	if settings, err = resolveSettings(settings, fixed, &o.vec, &co); err != nil {
		return nil, err
	}
	rewind := func() {}
	if len(args) == 1 && args[0] == "-" { // read twice: spool it
		spool, r, err := spoolStdin(&s)
		if err != nil {
			return nil, err
		}
		defer spool.Close()
		rewind = r
	}
	// Record fields go to a spool on disk in the first pass, for their
	// one-hot values and standardisation.
	fields, err := spoolFields(o, &co, kind)
	if err != nil {
		return nil, err
	}
	if fields != nil {
		defer fields.Close()
		if r.init != nil {
			return nil, usageErrorf("--init with record fields: train without --stream")
		}
	}
	rewind()
	if r.vocab, r.classes, err = streamVocabulary(s, args, &co, o, settings, r.init, vocab); err != nil {
		return nil, err
	}
	co.onDoc = nil
	p, auto, err := o.fit.params(kind, r.classes, nil)
	if err != nil {
		return nil, err
	}
	if auto {
		return nil, usageErrorf("--C auto cross-validates on documents held in memory: give --C with --stream")
	}
	if kind == model.LogReg && p.Solver != "sgd" {
		return nil, usageErrorf("--stream fits logistic regression with --solver sgd, not %s", p.Solver)
	}
	// With fields, the rows are extended by their features, over a
	// vocabulary extended by as many pseudo-terms (train.FitWithFields).
	r.rowVocab = r.vocab
	if fields != nil {
		if r.f, err = train.LinearFieldsStream(fields, len(r.classes)); err != nil {
			return nil, err
		}
		if r.rowVocab, err = train.FieldVocabulary(r.vocab, r.f); err != nil {
			return nil, err
		}
		o.rec.params(&p, kind)
	}
	r.p = p
	// Each pass leaves garbage the next does not need: the first pass's
	// count tables, the second's vectorized rows. Returned to the system,
	// the peak is the largest pass's, not their sum (the runtime would
	// otherwise keep up to twice the live heap mapped).
	debug.FreeOSMemory()
	rewind()
	if r.rc, err = rowCache(s, args, &co, o.global.quiet, r.vocab, r.classes, r.f); err != nil {
		return nil, err
	}
	debug.FreeOSMemory()
	// --class-weight balanced needs the class sizes, which the cache has
	// counted (the spec itself was checked with the parameters).
	if r.p.ClassWeights, err = train.ClassWeights(o.fit.classWeight, r.classes, r.rc.ClassSizes(len(r.classes))); err != nil {
		r.rc.Close()
		return nil, withCode(exitUsage, err)
	}
	return r, nil
}

// saveStreamed saves the streamed model m, fitted on docs documents, to
// output, and prints the head of its summary.
func saveStreamed(s streams, m *model.Model, output string, docs int) error {
	m.Meta = model.Meta{Version: buildVersion(), CreatedBy: "nbtext train"}
	if err := model.Save(output, m); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "model        %s -> %s (streamed)\n", m.Kind, output)
	fmt.Fprintf(s.Out, "documents    %d\n", docs)
	fmt.Fprintf(s.Out, "classes      %d\n", len(m.Classes))
	return nil
}

// streamVocabulary returns the vocabulary and classes of a streamed fit:
// those of the warm start init; or the vocabulary of a file (--vocab) and
// the classes of a first pass that reads the labels only; or those counted
// in a first pass over the corpora args.
func streamVocabulary(s streams, args []string, co *corpusOptions, o *trainOptions, settings vectorize.Settings, init *model.Model, vocab *vectorize.Vocabulary) (*vectorize.Vocabulary, []string, error) {
	if init != nil {
		init.Vocab.Settings.Remove = settings.Remove
		return init.Vocab, init.Classes, nil
	}
	if vocab != nil {
		classes, err := streamLabels(s, args, co, o.global.quiet)
		return vocab, classes, err
	}
	ctr, err := countRound(s, args, co, o.global.quiet, settings, nil, counts.Options{Workers: o.workers, VocabOnly: true, Mem: membudget.CountTables()})
	if err != nil {
		return nil, nil, err
	}
	defer ctr.Close()
	vocab, h, err := ctr.Vocabulary()
	if err != nil {
		return nil, nil, err
	}
	return vocab, h.Classes, nil
}

// streamLabels returns the labels of the documents of the corpora args,
// ascending (the classes of a count, counts.Header).
func streamLabels(s streams, args []string, co *corpusOptions, quiet bool) ([]string, error) {
	seen := map[string]bool{}
	if err := requireCorpus(args); err != nil {
		return nil, err
	}
	for _, src := range args {
		err := countSource(s, src, co, quiet, func(_, label string) error {
			if !seen[label] {
				seen[strings.Clone(label)] = true // label is reused after the call
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(seen) == 0 {
		return nil, errors.New("no training documents")
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// rowCache reads the corpora args again and writes their rows, weighted
// over vocab, to a new row cache; with record fields f, each row is
// extended by its fields' features (train.FieldColumns).
func rowCache(s streams, args []string, co *corpusOptions, quiet bool, vocab *vectorize.Vocabulary, classes []string, f *model.Fields) (*train.RowCache, error) {
	ids := make(map[string]int, len(classes))
	for i, c := range classes {
		ids[c] = i
	}
	rc, err := train.NewRowCache("")
	if err != nil {
		return nil, err
	}
	z := vocab.NewVectorizer()
	var rec model.Record // the fields of the document being added
	if f != nil {
		fco := *co
		fco.onDoc = func(d corpus.Document) error {
			r, err := f.Record(d.Fields)
			if err != nil {
				return fmt.Errorf("%s: %w", d.ID, err)
			}
			rec = r
			return nil
		}
		co = &fco
	}
	add := func(text, label string) error {
		y, ok := ids[label]
		if !ok {
			return fmt.Errorf("label %q is not one of the %d classes %s", label, len(classes), strings.Join(classes, ", "))
		}
		ind, val := z.Vectorize(text)
		vocab.WeightRow(ind, val)
		if f != nil {
			ind, val = train.FieldColumns(f, rec, vocab.Len(), ind, val)
		}
		return rc.Add(y, ind, val)
	}
	if err := requireCorpus(args); err != nil {
		return nil, err
	}
	for _, src := range args {
		if err := countSource(s, src, co, quiet, add); err != nil {
			rc.Close()
			return nil, err
		}
	}
	return rc, nil
}

// loadInit loads the warm start model of --init (nil when path is ""): a
// logistic regression model, for a logreg fit, over vocab when it is given
// (--vocab, from vocabName).
func loadInit(path string, kind model.Kind, vocab *vectorize.Vocabulary, vocabName string) (*model.Model, error) {
	if path == "" {
		return nil, nil
	}
	if kind != model.LogReg {
		return nil, usageErrorf("--init starts logistic regression (--model logreg), not %s", kind)
	}
	m, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	if m.Kind != model.LogReg {
		return nil, withCode(exitUsage, fmt.Errorf("%s: --init takes a logreg model, this is %s", path, m.Kind))
	}
	if vocab != nil {
		if err := train.SameVocabulary(m.Vocab, vocab, path, vocabName); err != nil {
			return nil, withCode(exitUsage, err)
		}
	}
	return m, nil
}

// resolveSettings returns the vectorizer settings of a command: those of
// a file (fixed, with what --remove stripped then), or defs with the
// vectorizer flags vec applied; and co's --remove setting in them.
func resolveSettings(defs vectorize.Settings, fixed *vectorize.Settings, vec *vectorizeOptions, co *corpusOptions) (vectorize.Settings, error) {
	s := defs
	if fixed != nil {
		s = *fixed
		co.remove = s.Remove
	} else if err := vec.apply(&s); err != nil {
		return s, err
	}
	remove, err := co.removeSetting()
	if err != nil {
		return s, err
	}
	s.Remove = remove
	return s, nil
}
