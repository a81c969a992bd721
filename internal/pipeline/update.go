package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/update"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// UpdateOptions are what 'nbtext update' and 'nbtext forget' ask of
// UpdateModel.
type UpdateOptions struct {
	// ModelPath is the model file; Corpus the corpus argument of the
	// documents to add (to remove, with Forget), as the user named it,
	// and Split the split read of it, both recorded in the history step.
	ModelPath, Corpus, Split string
	// Counts is the model's counts file ("": CountsPath(ModelPath));
	// Replay, for a linear model, a corpus of old training documents
	// trained on with the new ones ("": none).
	Counts, Replay string
	// Output is the model file to write; the counts of an NB or centroid
	// model are written beside it (CountsPath(Output)).
	Output            string
	Forget, NoHistory bool
	// Epochs are the warm start's epochs (0: the model's); Workers the
	// tokenizer goroutines (0: one per core).
	Epochs, Workers int
	// SourceDateEpoch, when not empty, is the date of the history step in
	// seconds since 1970 (HistoryDate); Version is the nbtext version the
	// new model records.
	SourceDateEpoch, Version string
	// Source opens a corpus argument (Corpus, Replay), read with the
	// model's remove setting; it is called once the files are checked.
	Source func(arg, remove string) (Source, error)
	// CheckFiles, when not nil, refuses an output that is not a regular
	// file or is one of the inputs: the corpus arguments, the other input
	// files (the model, its counts, the replay corpus). It is called
	// before anything is read but the model.
	CheckFiles func(corpus, inputs []string, outputs ...string) error
	// Note, when not nil, gets what a user may want to know (that an
	// update is approximate).
	Note func(msg string)
}

// UpdateReport is what UpdateModel did, for its summary (Write).
type UpdateReport struct {
	Model             *model.Model
	Output, CountsOut string
	Forget            bool
	// Linear says the model was warm-started (logreg, svm, nblr) on New
	// documents and Replayed ones; otherwise Old documents were counted,
	// Delta added (removed, with Forget) and Counts hold the result.
	Linear        bool
	New, Replayed int
	Old, Delta    int64
	Counts        *counts.Counts
	Duration      time.Duration
}

// Write prints the summary of an update or forget.
func (r *UpdateReport) Write(w io.Writer) {
	m := r.Model
	if r.Linear {
		fmt.Fprintf(w, "model        %s, warm start -> %s (not exact: see docs/updating.md)\n", m.Kind, r.Output)
		fmt.Fprintf(w, "documents    %d new, %d replayed\n", r.New, r.Replayed)
		fmt.Fprintf(w, "classes      %d\n", len(m.Classes))
	} else {
		verb, sign := "updated", "+"
		if r.Forget {
			verb, sign = "forgotten", "-"
		}
		fmt.Fprintf(w, "model        %s, %s -> %s (counts %s)\n", m.Kind, verb, r.Output, r.CountsOut)
		fmt.Fprintf(w, "documents    %d %s%d = %d\n", r.Old, sign, r.Delta, r.Counts.Documents())
		fmt.Fprintf(w, "classes      %d\n", len(m.Classes))
		fmt.Fprintf(w, "vocabulary   %d terms (of %d counted)\n", m.Vocab.Len(), r.Counts.Len())
	}
	fmt.Fprintf(w, "seconds      %.2f\n", r.Duration.Seconds())
}

// CountsPath returns the counts file beside the model file path: its
// name with .nbm replaced by (or, without it, followed by) .nbc.
func CountsPath(path string) string { return strings.TrimSuffix(path, ".nbm") + ".nbc" }

// HistoryDate returns the date a history step records: sourceDateEpoch
// (seconds since 1970, as reproducible builds set SOURCE_DATE_EPOCH) when
// not empty, else now, in RFC 3339, UTC. A value that is not a number is
// a UsageError.
func HistoryDate(sourceDateEpoch string) (string, error) {
	t := time.Now()
	if s := sourceDateEpoch; s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", usagef("SOURCE_DATE_EPOCH=%q: not a number of seconds", s)
		}
		t = time.Unix(sec, 0)
	}
	return t.UTC().Format(time.RFC3339), nil
}

// UpdateModel loads the model o.ModelPath and adds to it the documents of
// o.Corpus, or with o.Forget removes them, and writes the result to
// o.Output: for naive Bayes and centroid models from the model's counts,
// exactly or, for tf-idf and the l2 norm, approximately (updateCounts), the new
// counts beside the output; for linear models (logreg, svm, nblr) by a
// warm start on the corpus and o.Replay (updateLinear). A model that does
// not load is an error matching model.ErrModelFile; what the options ask
// of a model that cannot give it is a UsageError; missing counts are
// update.ErrNoCounts, with the commands that make them.
func UpdateModel(o UpdateOptions) (*UpdateReport, error) {
	start := time.Now()
	m, err := model.Load(o.ModelPath)
	if err != nil {
		return nil, err
	}
	date, err := HistoryDate(o.SourceDateEpoch)
	if err != nil {
		return nil, err
	}
	source := o.Corpus
	if o.Split != "" {
		source += " (split " + o.Split + ")"
	}
	opt := update.Options{Date: date, Source: source, NoHistory: o.NoHistory}
	check := o.CheckFiles
	if check == nil {
		check = func([]string, []string, ...string) error { return nil }
	}
	remove := m.Vocab.Settings.Remove
	r := &UpdateReport{Output: o.Output, Forget: o.Forget}
	if !o.Forget && (m.Kind == model.LogReg || m.Kind == model.SVM || m.Kind == model.NBLR) {
		if o.Counts != "" {
			return nil, usagef("--counts: %s models keep no counts", m.Kind)
		}
		if err := check([]string{o.Corpus}, []string{o.ModelPath, o.Replay}, o.Output); err != nil {
			return nil, err
		}
		src, err := o.Source(o.Corpus, remove)
		if err != nil {
			return nil, err
		}
		var replay *Source
		if o.Replay != "" {
			rs, err := o.Source(o.Replay, remove)
			if err != nil {
				return nil, err
			}
			replay = &rs
			opt.Source += " + replay " + o.Replay
		}
		r.Linear = true
		if r.Model, r.New, r.Replayed, err = updateLinear(m, src, replay, o.Epochs, o.Workers, o.Corpus, opt); err != nil {
			return nil, err
		}
		r.Model.Meta.Version = o.Version
		if err := model.Save(o.Output, r.Model); err != nil {
			return nil, err
		}
		r.Duration = time.Since(start)
		return r, nil
	}
	// tf-idf and the l2 norm: an approximate update (update.AddApprox),
	// whose round two replays the rows of round one.
	approx := update.Exact(m) != nil && update.Approximate(m) == nil
	if err := update.Exact(m); err != nil && !approx {
		return nil, usage(fmt.Errorf("%s: %w", o.ModelPath, err))
	}
	countsIn := o.Counts
	if countsIn == "" {
		countsIn = CountsPath(o.ModelPath)
	}
	r.CountsOut = CountsPath(o.Output)
	if err := check([]string{o.Corpus}, []string{o.ModelPath, countsIn, o.Replay}, o.Output, r.CountsOut); err != nil {
		return nil, err
	}
	old, err := counts.ReadFile(countsIn)
	if errors.Is(err, fs.ErrNotExist) {
		verb := "update"
		if o.Forget {
			verb = "forget"
		}
		return nil, fmt.Errorf("%s: %w: the model's counts are needed to %s it; train it again with --keep-counts, or count its training documents with 'nbtext count --model %s' and the model's settings ('nbtext info %s') and pass the file with --counts", countsIn, update.ErrNoCounts, verb, m.Kind, o.ModelPath)
	}
	if err != nil {
		return nil, err
	}
	if err := update.CheckCounts(m, old, o.ModelPath, countsIn); err != nil {
		return nil, err
	}
	src, err := o.Source(o.Corpus, remove)
	if err != nil {
		return nil, err
	}
	up, err := updateCounts(m, old, src, o.Forget, countsIn, o.Corpus, opt, o.Workers)
	if err != nil {
		return nil, err
	}
	r.Model, r.Counts, r.Old, r.Delta = up.Model, up.Counts, up.Old, up.Delta
	r.Model.Meta.Version = o.Version
	if err := model.Save(o.Output, r.Model); err != nil {
		return nil, err
	}
	if err := counts.WriteFile(r.CountsOut, r.Counts); err != nil {
		return nil, err
	}
	if approx && o.Note != nil {
		norm := m.Vocab.Settings.Norm
		if norm == "" {
			norm = "none"
		}
		o.Note(fmt.Sprintf("nbtext: note: weighting %s (norm %s): the vocabulary and the new documents' weights are exact, the old documents' weights are rescaled, not recomputed (docs/updating.md)", m.Vocab.Settings.Weighting, norm))
	}
	r.Duration = time.Since(start)
	return r, nil
}

// updated is the result of an update of counts (updateCounts).
type updated struct {
	Model *model.Model
	// Counts are the new model's counts: the old plus (or minus) the
	// documents'.
	Counts *counts.Counts
	// Old and Delta are the documents of the old counts and of the
	// corpus.
	Old, Delta int64
	// Approx says the update was approximate (tf-idf, the l2 norm).
	Approx bool
}

// updateCounts adds the documents of src to the model m, whose counts are old
// (read from countsName), or with forget removes them (update.Add,
// update.Remove; update.AddApprox and update.RemoveApprox for the
// weightings that make it approximate). src is read with m's --remove
// setting; srcName names it in errors.
func updateCounts(m *model.Model, old *counts.Counts, src Source, forget bool, countsName, srcName string, opt update.Options, workers int) (*updated, error) {
	approx := update.Exact(m) != nil && update.Approximate(m) == nil
	src, err := src.withRemove(m.Vocab.Settings.Remove)
	if err != nil {
		return nil, err
	}
	ctr, err := CountRound(&src, m.Vocab.Settings, nil, counts.Options{Workers: workers, Replay: approx})
	if err != nil {
		return nil, err
	}
	defer ctr.Close()
	delta, err := ctr.Counts()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", srcName, err)
	}
	if len(delta.Classes) == 0 {
		return nil, fmt.Errorf("%s: no documents", srcName)
	}
	roundTwo := func(v *vectorize.Vocabulary) (*counts.Counts, error) {
		c2, err := ctr.RoundTwo(v)
		if err != nil {
			return nil, err
		}
		defer c2.Close()
		return c2.Counts()
	}
	var (
		nm     *model.Model
		merged *counts.Counts
	)
	switch {
	case approx && forget:
		nm, merged, err = update.RemoveApprox(m, old, delta, roundTwo, countsName, srcName, opt)
	case approx:
		nm, merged, err = update.AddApprox(m, old, delta, roundTwo, countsName, srcName, opt)
	case forget:
		nm, merged, err = update.Remove(m, old, delta, countsName, srcName, opt)
	default:
		nm, merged, err = update.Add(m, old, delta, countsName, srcName, opt)
	}
	if err != nil {
		return nil, err
	}
	return &updated{Model: nm, Counts: merged, Old: old.Documents(), Delta: delta.Documents(), Approx: approx}, nil
}

// updateLinear is the update of a linear model m (logreg, svm, nblr): a
// warm start on the documents of src and, when not nil, of replay, a
// sample of old documents (update.Linear), read with m's --remove
// setting. It returns the model and the documents of src and of replay.
func updateLinear(m *model.Model, src Source, replay *Source, epochs, workers int, srcName string, opt update.Options) (nm *model.Model, n, replayed int, err error) {
	var texts, labels []string
	read := func(s Source) error {
		s, err := s.withRemove(m.Vocab.Settings.Remove)
		if err != nil {
			return err
		}
		c, err := s.Load()
		if err != nil {
			return err
		}
		for _, d := range c.Docs {
			texts, labels = append(texts, d.Text), append(labels, d.Label)
		}
		return nil
	}
	if err := read(src); err != nil {
		return nil, 0, 0, err
	}
	n = len(texts)
	if replay != nil {
		if err := read(*replay); err != nil {
			return nil, 0, 0, err
		}
	}
	nm, err = update.Linear(m, texts, labels, n, epochs, workers, srcName, opt)
	return nm, n, len(texts) - n, err
}

// KeepCountsWith is what else a training run asks, for CheckKeepCounts:
// a counts file to fit from (--from-counts), streaming, the --auto
// search, a vocabulary file, several labels per document, record fields.
type KeepCountsWith struct {
	FromCounts, Stream, Auto, Vocab, MultiLabel, Fields bool
}

// CheckKeepCounts refuses, as a UsageError naming the flags, to keep the
// counts an update refits a model of kind from (train --keep-counts)
// where the run cannot: they are the counts of an NB or centroid model
// whose vocabulary is pruned from its own corpus, held in memory.
func CheckKeepCounts(kind model.Kind, w KeepCountsWith) error {
	switch {
	case !FitsCounts(kind):
		return usagef("--keep-counts keeps the counts of naive bayes and centroid models, not %s (its update is a warm start: see 'nbtext update --help')", kind)
	case w.FromCounts:
		return usagef("--keep-counts: with --from-counts the counts are kept already: give that file to 'nbtext update --counts'")
	case w.Stream:
		return usagef("--keep-counts counts the corpus held in memory: drop --stream, or keep the file of 'nbtext count' with the same settings")
	case w.Auto:
		return usagef("--keep-counts: --auto chooses the settings; train the chosen model again with --keep-counts")
	case w.Vocab:
		return usagef("--keep-counts: a --vocab file fixes the vocabulary, which an update prunes again from the counts: drop --vocab")
	case w.MultiLabel:
		return usagef("--keep-counts: a --multi-label model keeps no counts")
	case w.Fields:
		return usagef("--keep-counts keeps the counts of text: record fields cannot be updated")
	}
	return nil
}
