package pipeline

import (
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// streamLinear is the streamed run of logreg, svm and nblr: the passes of
// linearRows write the weighted rows to a temporary row cache; SGD reads
// the cache once per epoch, shuffling within a bounded buffer
// (train.FitLogRegStream); the dual solvers of svm and nblr read it in
// blocks of StreamBuffer rows, their dual variables in a scratch file
// beside it (train.FitSVMStream, train.FitNBLRStream: dual block
// minimization). Memory holds the weights, one block of rows and their
// dual variables. No temperature is fitted for svm and nblr: calibration
// holds out documents, so the model scores at the given temperature, or 1.
func (r *run) streamLinear() error {
	rows, err := r.linearRows()
	if err != nil {
		return err
	}
	defer rows.rc.Close()
	opt := train.Options{Workers: r.Workers, Progress: r.progress("fitting")}
	var m *model.Model
	switch r.Kind {
	case model.LogReg:
		opt.Init = rows.init
		m, err = train.FitLogRegStream(rows.rc, rows.classes, rows.rowVocab, rows.p, opt, r.StreamBuffer)
	case model.SVM:
		m, err = train.FitSVMStream(rows.rc, rows.classes, rows.rowVocab, rows.p, opt, r.StreamBuffer)
	default:
		m, err = train.FitNBLRStream(rows.rc, rows.classes, rows.rowVocab, rows.p, opt, r.StreamBuffer)
	}
	if err != nil {
		return err
	}
	if rows.f != nil {
		if m, err = train.SplitFieldWeights(r.Kind, m, rows.vocab, rows.f); err != nil {
			return err
		}
	}
	m.Meta = model.Meta{}
	if err := r.save(m, true); err != nil {
		return err
	}
	r.rep.Model, r.rep.Documents, r.rep.Params = m, rows.rc.Rows(), rows.p
	if r.Kind != model.LogReg {
		r.rep.Blocks = min(train.StreamBlockRows(rows.rc, r.StreamBuffer, len(rows.classes)), rows.rc.Rows())
	}
	return nil
}

// rows is what the streamed linear fits (logreg, svm, nblr) read: the
// corpus's vocabulary and classes, the fit's parameters, the features of
// record fields, the warm start (Init) and the row cache.
type rows struct {
	vocab    *vectorize.Vocabulary // the terms
	rowVocab *vectorize.Vocabulary // the terms, then the fields' pseudo-terms
	classes  []string
	p        model.Params
	f        *model.Fields // nil: no record fields
	init     *model.Model  // logreg Init, or nil
	rc       *train.RowCache
}

// linearRows runs the passes the streamed linear fits share: a first
// pass counts the corpus (as a streamed naive Bayes run does) for the
// vocabulary and document frequencies, or with a vocabulary file reads the
// labels only, and spools record fields to disk; a second writes the
// weighted rows, extended by the fields' features, to a temporary row
// cache, which the caller closes. Stdin is spooled to a temporary file for
// the second pass; it and the fields' spool are gone on return. Class
// weights are those of the documents cached.
func (r *run) linearRows() (*rows, error) {
	kind := r.Kind
	src := r.Source
	out := &rows{}
	var (
		fixed *vectorize.Settings
		vocab *vectorize.Vocabulary
		err   error
	)
	if r.VocabFile != "" {
		if vocab, err = ReadVocabFile(r.VocabFile); err != nil {
			return nil, err
		}
		fixed = &vocab.Settings
	}
	if out.init, err = LoadInit(r.Init, kind, vocab, r.VocabFile); err != nil {
		return nil, err
	}
	if out.init != nil {
		fixed = &out.init.Vocab.Settings
	}
	var settings vectorize.Settings
	if fixed != nil {
		if settings, src, err = r.fixedSettings(*fixed); err != nil {
			return nil, err
		}
		settings.Remove = src.Options.Remove.String()
	} else {
		defs, _ := train.StreamDefaults(kind)
		if settings, err = r.settings(defs); err != nil {
			return nil, err
		}
	}
	rewind, done, err := src.rereadable()
	if err != nil {
		return nil, err
	}
	defer done()
	// Record fields go to a spool on disk in the first pass, for their
	// one-hot values and standardisation.
	fields, onDoc, err := r.spoolFields()
	if err != nil {
		return nil, err
	}
	if fields != nil {
		defer fields.Close()
		if out.init != nil {
			return nil, usagef("--init with record fields: train without --stream")
		}
	}
	rewind()
	var pc *train.ProfileChoice
	if fixed == nil {
		pc = r.profileChoice(settings)
	}
	if out.vocab, out.classes, err = r.streamVocabulary(&src, onDoc, settings, pc, out.init, vocab); err != nil {
		return nil, err
	}
	if fixed == nil {
		if msg := train.StreamCap(kind, out.vocab); msg != "" {
			r.note("%s", msg)
		}
	}
	p, auto, err := r.params(out.classes, nil)
	if err != nil {
		return nil, err
	}
	if auto {
		return nil, usagef("--C auto cross-validates on documents held in memory: give --C with --stream")
	}
	if pc != nil {
		pc.Params(&p, r.changed)
		p.Profile = pc.Note()
	}
	if kind == model.LogReg && p.Solver != "sgd" {
		return nil, usagef("--stream fits logistic regression with --solver sgd, not %s", p.Solver)
	}
	// With fields, the rows are extended by their features, over a
	// vocabulary extended by as many pseudo-terms (train.FitWithFields).
	out.rowVocab = out.vocab
	if fields != nil {
		if out.f, err = train.LinearFieldsStream(fields, len(out.classes)); err != nil {
			return nil, err
		}
		if out.rowVocab, err = train.FieldVocabulary(out.vocab, out.f); err != nil {
			return nil, err
		}
	}
	out.p = p
	// Each pass leaves garbage the next does not need: the first pass's
	// count tables, the second's vectorized rows. Returned to the system,
	// the peak is the largest pass's, not their sum (the runtime would
	// otherwise keep up to twice the live heap mapped).
	debug.FreeOSMemory()
	rewind()
	if out.rc, err = rowCache(&src, out.vocab, out.classes, out.f); err != nil {
		return nil, err
	}
	debug.FreeOSMemory()
	// Class weights "balanced" need the class sizes, which the cache has
	// counted (the spec itself was checked with the parameters).
	if out.p.ClassWeights, err = train.ClassWeights(p.ClassWeight, out.classes, out.rc.ClassSizes(len(out.classes))); err != nil {
		out.rc.Close()
		return nil, usage(err)
	}
	return out, nil
}

// streamVocabulary returns the vocabulary and classes of a streamed fit:
// those of the warm start init; or the vocabulary of a file and the
// classes of a first pass that reads the labels only; or those counted in
// a first pass over the corpus, with the settings pc chooses when it is
// not nil (profiledRound), which then records the class balance.
func (r *run) streamVocabulary(src *Source, onDoc docFunc, settings vectorize.Settings, pc *train.ProfileChoice, init *model.Model, vocab *vectorize.Vocabulary) (*vectorize.Vocabulary, []string, error) {
	if init != nil {
		init.Vocab.Settings.Remove = settings.Remove
		return init.Vocab, init.Classes, nil
	}
	if vocab != nil {
		classes, err := streamLabels(src, onDoc)
		return vocab, classes, err
	}
	ctr, _, err := profiledRound(src, onDoc, settings, pc, counts.Options{Workers: r.Workers, VocabOnly: true, Mem: membudget.CountTables()})
	if err != nil {
		return nil, nil, err
	}
	defer ctr.Close()
	vocab, h, err := ctr.Vocabulary()
	if err != nil {
		return nil, nil, err
	}
	pc.Classes(classSizes(h.ClassDocs))
	return vocab, h.Classes, nil
}

// streamLabels returns the labels of the documents of src, ascending (the
// classes of a count, counts.Header).
func streamLabels(src *Source, onDoc docFunc) ([]string, error) {
	seen := map[string]bool{}
	err := src.Each(onDoc, func(_, label string) error {
		if !seen[label] {
			seen[strings.Clone(label)] = true // label is reused after the call
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(seen) == 0 {
		return nil, errors.New("no training documents")
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// rowCache reads the corpus again and writes its rows, weighted over
// vocab, to a new row cache; with record fields f, each row is extended
// by its fields' features (train.FieldColumns).
func rowCache(src *Source, vocab *vectorize.Vocabulary, classes []string, f *model.Fields) (*train.RowCache, error) {
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
	var onDoc docFunc
	if f != nil {
		onDoc = func(d corpus.Document) error {
			r, err := f.Record(d.Fields)
			if err != nil {
				return fmt.Errorf("%s: %w", d.ID, err)
			}
			rec = r
			return nil
		}
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
	if err := src.Each(onDoc, add); err != nil {
		rc.Close()
		return nil, err
	}
	return rc, nil
}

// LoadInit loads the warm start model of --init (nil when path is ""): a
// logistic regression model, for a logreg fit, over vocab when it is given
// (a vocabulary file, vocabName).
func LoadInit(path string, kind model.Kind, vocab *vectorize.Vocabulary, vocabName string) (*model.Model, error) {
	if path == "" {
		return nil, nil
	}
	if kind != model.LogReg {
		return nil, usagef("--init starts logistic regression (--model logreg), not %s", kind)
	}
	m, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	if m.Kind != model.LogReg {
		return nil, usage(fmt.Errorf("%s: --init takes a logreg model, this is %s", path, m.Kind))
	}
	if vocab != nil {
		if err := train.SameVocabulary(m.Vocab, vocab, path, vocabName); err != nil {
			return nil, usage(err)
		}
	}
	return m, nil
}
