package pipeline

import (
	"fmt"
	"math/rand/v2"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// ReadVocabFile reads a vocabulary file written by 'nbtext vocab'; its
// settings record what was stripped from the documents (--remove), which
// must parse.
func ReadVocabFile(path string) (*vectorize.Vocabulary, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	vocab, err := vectorize.ReadTSV(f, path)
	f.Close()
	if err != nil {
		return nil, err
	}
	if _, err := corpus.ParseRemove(vocab.Settings.Remove); err != nil {
		return nil, fmt.Errorf("%s: remove setting: %w", path, err)
	}
	return vocab, nil
}

// sample keeps PerClass documents of each class of c, drawn with Seed,
// and returns the documents left out (nil without PerClass).
func (r *run) sample(c *corpus.Corpus) (rest []corpus.Document) {
	if r.PerClass <= 0 {
		return nil
	}
	keep, out := corpus.PerClass(c.LabelIDs(), r.PerClass, rand.New(rand.NewPCG(uint64(r.Seed), 0x6e62746578740002)))
	rest = corpus.Pick(c.Docs, out)
	c.Docs = corpus.Pick(c.Docs, keep)
	return rest
}

// inMemory is the run that holds the corpus: read and vectorized at once
// (or over a --vocab file, a --init model's vocabulary, or after the
// --per-class sample), parameters tuned by cross-validation where asked,
// then fitted (train.FitWithFields) or fitted per label (multi-label).
func (r *run) inMemory() error {
	kind := r.Kind
	settings, _ := train.Defaults(kind)
	var vocab *vectorize.Vocabulary
	src := r.Source
	if r.VocabFile != "" {
		var err error
		if vocab, err = ReadVocabFile(r.VocabFile); err != nil {
			return err
		}
		if settings, src, err = r.fixedSettings(vocab.Settings); err != nil {
			return err
		}
	} else {
		var err error
		if settings, err = r.settings(settings); err != nil {
			return err
		}
	}
	init, err := LoadInit(r.Init, kind, vocab, r.VocabFile)
	if err != nil {
		return err
	}
	if init != nil {
		vocab = init.Vocab
		if settings, src, err = r.fixedSettings(init.Vocab.Settings); err != nil {
			return err
		}
	}
	settings.Remove = src.Options.Remove.String()
	var (
		c  *corpus.Corpus
		y  []int
		X  *vectorize.Matrix
		pc *train.ProfileChoice // the corpus profile the defaults follow (nil: none)
	)
	switch {
	case vocab != nil:
		vocab.Settings.Remove = settings.Remove
		if c, err = src.Load(); err != nil {
			return err
		}
		r.sample(c)
		y = c.LabelIDs()
		X = train.PrepareWith(vocab, c.Texts(), r.Workers)
	case kind.RecordOnly(): // no text
		if c, err = src.Load(); err != nil {
			return err
		}
		r.sample(c)
		y = c.LabelIDs()
	case r.PerClass > 0:
		// The sample is drawn from the whole corpus, then vectorized.
		if c, err = src.Load(); err != nil {
			return err
		}
		r.sample(c)
		y = c.LabelIDs()
		if vocab, X, err = train.Prepare(c.Texts(), y, len(c.Labels), settings, r.Workers, nil); err != nil {
			return err
		}
	default:
		// The texts are tokenized as they are read; only a supervised
		// selection tuned inside each fold (below) reads them again.
		src.Options.DropTexts = (settings.Select == "" || !r.Tune) && r.KeepCounts == ""
		var held *corpus.Corpus
		if r.labelsChooseAnalyzer() {
			// The number of labels says whether the profile chooses the
			// analyzer (multiLabelWords): the corpus is read whole before
			// it is tokenized, as a file of lines is read anyway.
			if held, err = src.Load(); err != nil {
				return err
			}
			_, labels := held.LabelSets()
			r.labels = len(labels)
		}
		pc = r.profileChoice(settings)
		if c, y, vocab, X, err = r.fitCorpus(&src, held, settings, pc, true); err != nil {
			return err
		}
		pc.Weighting(vocab, train.ClassSizes(y, len(c.Labels)), r.changed)
		vocab.Weight(X)
	}
	p, auto, err := r.params(c.Labels, train.ClassSizes(y, len(c.Labels)))
	if err != nil {
		return err
	}
	pc.Params(&p, r.changed)
	p.Profile = pc.Note()
	if init != nil {
		if err := train.SameClasses(init.Classes, c.Labels, r.Init, "the corpus"); err != nil {
			return err
		}
	}
	if r.MultiLabel {
		if auto {
			return usagef("--alpha auto and --C auto do not apply to --multi-label")
		}
		return r.multiLabel(c, X, vocab, p)
	}
	var recs *train.Records
	if !r.Fields.Empty() {
		if recs, err = Records(c, r.Fields); err != nil {
			return err
		}
	}
	if w := train.DegenerateWarning(kind, p); w != "" {
		r.warn("nbtext: warning: %s", w)
	}
	if auto {
		topt := train.TuneOptions{
			Folds: r.Folds, Seed: uint64(p.Seed), Fit: train.Options{Workers: r.Workers},
			Progress: r.progress("cross-validating"),
		}
		var t *train.Tuning
		if settings.Select != "" && r.VocabFile == "" {
			// Supervised selection must be redone inside each fold.
			t, err = train.Tune(kind, c.Texts(), y, c.Labels, settings, p, topt)
		} else {
			t, err = train.TuneMatrix(kind, X, y, c.Labels, vocab, p, topt)
		}
		if err != nil {
			return err
		}
		r.rep.Tuning = t
		p = t.Apply(p)
	}
	if X != nil {
		// Vectorized and tuned on, the texts are dropped before a large
		// model's arrays are allocated: only the labels are read below.
		train.ReleaseBeforeFit(kind, X.Cols, len(c.Labels), c.DropTexts)
	}
	m, cal, err := r.fit(X, y, c.Labels, vocab, p, recs, init, r.progress("fitting"))
	if err != nil {
		return err
	}
	if err := r.saveFitted(m, X, recs, y, len(c.Docs), p, cal); err != nil {
		return err
	}
	if r.KeepCounts != "" {
		return r.keepCounts(c, m)
	}
	return nil
}

// fit fits the plan's kind on the rows X (labels y, ids into classes) and
// the record fields recs (nil without fields), from the model init (nil:
// none): the fit of an in-memory run, which each fold of CrossValidate
// makes too.
func (r *run) fit(X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, recs *train.Records, init *model.Model, progress func(done, total int)) (*model.Model, *train.Calibration, error) {
	return train.FitWithFields(r.Kind, X, y, classes, vocab, p, train.Options{Workers: r.Workers, Progress: progress, Init: init}, recs)
}

// saveFitted writes m and fills the report: with Summary, the accuracy
// on its training rows X and record fields recs (nil without fields;
// labels y), computed while the file is written.
func (r *run) saveFitted(m *model.Model, X *vectorize.Matrix, recs *train.Records, y []int, docs int, p model.Params, cal *train.Calibration) error {
	rep := r.rep
	rep.Model, rep.Documents, rep.Params, rep.Calibration = m, docs, p, cal
	if !r.Summary {
		// No summary, so the training rows need not be scored.
		return r.save(m, true)
	}
	accc := make(chan float64, 1)
	go func() { accc <- train.AccuracyRecords(m, X, recs, y, r.Workers) }()
	if err := r.save(m, true); err != nil {
		return err
	}
	rep.Accuracy, rep.HasAccuracy = <-accc, true
	return nil
}

// keepCounts counts the documents of c with the settings of m, the model
// fitted on them, and writes the counts to KeepCounts (train
// --keep-counts).
func (r *run) keepCounts(c *corpus.Corpus, m *model.Model) error {
	ctr, err := counts.NewCounter(m.Vocab.Settings, nil, counts.Options{Workers: r.Workers})
	if err != nil {
		return err
	}
	defer ctr.Close()
	for _, d := range c.Docs {
		if err := ctr.Add(d.Text, d.Label); err != nil {
			return err
		}
	}
	h, err := ctr.WriteFile(r.KeepCounts)
	if err != nil {
		return err
	}
	r.rep.KeptCounts, r.rep.KeptDocuments = r.KeepCounts, h.Documents()
	return nil
}

// smallCorpusLimit is the number of documents below which a corpus is
// small enough for a default min_df to leave most of its words out.
const smallCorpusLimit = 1000

// smallCorpusPruned reports whether the default minimum document
// frequency minDF kept fewer than a quarter of the unpruned terms of a
// corpus of fewer than smallCorpusLimit docs: on toy data, most words of
// a new document are then unknown to the model.
func smallCorpusPruned(docs, kept, unpruned, minDF int) bool {
	return minDF > 1 && docs < smallCorpusLimit && unpruned > 0 && 4*kept < unpruned
}

// fitCorpus reads the corpus while fitting a vocabulary with settings on
// it: vectorize.FitStream tokenizes the texts as corpus.ReadStream decodes
// them, so gunzip runs on one core and the tokenizer on the others; held,
// when not nil, is the corpus already read, whose texts it tokenizes. It
// returns the corpus, its label ids, the vocabulary and, with wantMatrix,
// the count matrix of the corpus (nil otherwise). SoftMinDF makes
// settings.MinDF a default the corpus may be too small for
// (vectorize.FitStream.RelaxMinDF), with a notice when it is.
func (r *run) fitCorpus(src *Source, held *corpus.Corpus, settings vectorize.Settings, pc *train.ProfileChoice, wantMatrix bool) (c *corpus.Corpus, y []int, v *vectorize.Vocabulary, X *vectorize.Matrix, err error) {
	fst, err := train.NewProfiledFitStream(settings, r.Workers, pc)
	if err != nil {
		return nil, nil, nil, nil, usage(err)
	}
	defer fst.Close()
	if r.SoftMinDF {
		fst.RelaxMinDF()
		defer func() {
			if v != nil && v.Settings.MinDF < settings.MinDF {
				r.warn("nbtext: the default --min-df %d would keep no term of these %d documents: using --min-df 1", settings.MinDF, len(c.Docs))
			} else if v != nil && smallCorpusPruned(len(c.Docs), v.Len(), fst.Unpruned(), settings.MinDF) {
				r.warn("nbtext: warning: the default --min-df %d kept %d of %d terms of these %d documents: a document of the other words is empty to the model; --min-df 1 keeps them all", settings.MinDF, v.Len(), fst.Unpruned(), len(c.Docs))
			}
		}()
	}
	restore := func() {}
	if src.Options.DropTexts {
		restore = membudget.RelaxGC()
	}
	var seq []int
	if held != nil {
		c, seq = held, corpus.EmitAll(held, fst.Add, src.Options.DropTexts)
	} else {
		c, seq, err = src.LoadStream(fst.Add)
	}
	restore()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	y = c.LabelIDs()
	if !wantMatrix {
		v, err = fst.FinishVocabulary(seq, y, len(c.Labels))
		return c, y, v, nil, err
	}
	v, X, err = fst.Finish(seq, y, len(c.Labels))
	return c, y, v, X, err
}
