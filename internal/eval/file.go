// The evaluation of a model file on a labelled corpus (nbtext eval -m):
// the mode the model asks for (one label, a label set, record fields),
// the corpus read as the model reads it, a baseline model scored on the
// same documents, the report in its format, and the gates.

package eval

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// Formats are the output formats of WriteReport and CVResult.Write.
var Formats = []string{"table", "tsv", "json"}

// UsageError is an error in what an evaluation asks (an option that does
// not apply to the model, a baseline of another mode), not in its data:
// the CLI exits with its usage code.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// ModelError is a model file that cannot be evaluated: model.Load's
// error, or the scorer's (see LoadStreamScorer).
type ModelError struct{ Err error }

func (e *ModelError) Error() string { return e.Err.Error() }
func (e *ModelError) Unwrap() error { return e.Err }

// scorerError gives an error of LoadingScorer.Wait its type: a
// UsageError for a Remove setting that does not parse (as --remove would
// not), a ModelError otherwise.
func scorerError(err error) error {
	var re *RemoveSettingError
	if errors.As(err, &re) {
		return usagef("--remove: %v", re.Err)
	}
	return &ModelError{err}
}

// FileOptions are the settings of EvaluateFile.
type FileOptions struct {
	// Model is the model file; Baseline, when set, an older one scored on
	// the same documents, whose scores the gates compare with.
	Model, Baseline string
	// MultiLabel asks for a multi-label model; Fields, when not empty,
	// names the record fields of a model with fields (they must be its
	// fields). Without either the model says how it is evaluated.
	MultiLabel bool
	Fields     train.FieldSpec
	// RemoveGiven says the loader reads with a --remove setting of the
	// user's; otherwise the texts are stripped as the model was trained.
	RemoveGiven bool
	// Threshold replaces each label's threshold of a multi-label model
	// when ThresholdGiven (else it applies to a file that stores none);
	// MinLabels is the fewest labels predicted per document.
	Threshold      float64
	ThresholdGiven bool
	MinLabels      int
	TopK, Workers  int
	// Format is one of Formats (a multi-label report has no tsv: a table);
	// Write says what the report shows.
	Format string
	Write  WriteOptions
	Gates  Gates
	// Corpus names the corpus in an error that no label of it is known.
	Corpus string
	// Warn, when not nil, gets the warning that labels of the corpus are
	// unknown to the model.
	Warn func(msg string)
}

// Reading tells EvaluateFile's Loader how to read the corpus.
type Reading struct {
	// Model is the model evaluated: its input names (Meta.Input) apply
	// where the user gave none.
	Model *model.Model
	// Remove is the --remove setting to read with unless the user gave
	// one ("" where the scorer strips the texts itself).
	Remove string
	// MultiLabel reads each document's label set; Fields are the record
	// fields to read, for a model of Kind (a model without text reads its
	// first field where the text would be, unless told otherwise).
	MultiLabel bool
	Fields     train.FieldSpec
	Kind       model.Kind
	// Hold says the documents are held for the evaluation: the loader
	// refuses a corpus over the memory budget.
	Hold bool
	// Emit, when not nil, gets every text as it is read.
	Emit func(text string)
}

// Loader reads the labelled corpus as rd says, returning it and, with
// rd.Emit, the map of its documents to the Emit calls (as
// corpus.ReadStream).
type Loader func(rd Reading) (c *corpus.Corpus, seq []int, err error)

// EvaluateFile evaluates the model file opt.Model on the corpus load
// reads, in the mode the model asks for: a model with one label per
// document is scored as the texts are read (StreamScorer), a multi-label
// model on label sets (EvaluateMultiLabelTexts), a model with record
// fields on its fields (EvaluateRecords). It writes the report to w in
// opt.Format, warns of labels the model does not know, and applies the
// gates to the scores (and a baseline's, scored on the same documents).
//
// It returns the gates' verdict ("" without gates). Errors: a
// *ModelError for a model file that cannot be evaluated, a *UsageError
// for options the model does not take (or a Remove setting of the model
// that does not parse), Gates.Check's for a gate (a *GateError inside one
// not met), or the loader's.
func EvaluateFile(opt FileOptions, load Loader, w io.Writer) (verdict string, err error) {
	m, err := model.Load(opt.Model)
	if err != nil {
		return "", &ModelError{err}
	}
	e := &fileEval{FileOptions: opt, load: load, m: m}
	var (
		r   *Report
		old *Scores
	)
	switch {
	case !opt.Fields.Empty():
		r, old, err = e.records()
	case opt.MultiLabel || m.MultiLabel:
		return e.multiLabel(w)
	case m.Fields != nil:
		r, old, err = e.records()
	default:
		r, old, err = e.single()
	}
	if err != nil {
		return "", err
	}
	if err := WriteReport(w, opt.Format, r, opt.Write); err != nil {
		return "", err
	}
	if len(r.Unknown) > 0 && opt.Warn != nil {
		opt.Warn(fmt.Sprintf("nbtext: warning: %d documents have labels the model does not know (counted as errors): %s", r.UnknownN(), CountList(r.Unknown)))
	}
	return opt.Gates.Check(r.Scores(), old, opt.Baseline)
}

// fileEval is an evaluation of the model file m.
type fileEval struct {
	FileOptions
	load Loader
	m    *model.Model
}

// single scores a model of one label per document while the corpus is
// read, without the texts being stripped before (the scorer strips them
// as the model says, unless the user gave --remove), and the baseline
// beside it; it returns the report and the baseline's scores (nil
// without one).
func (e *fileEval) single() (*Report, *Scores, error) {
	strip := !e.RemoveGiven
	ls := StartStreamScorer(e.m, e.Model, e.Workers, strip)
	defer ls.Close()
	emit := ls.Add
	var lb *LoadingScorer
	if e.Baseline != "" {
		lb = LoadStreamScorer(e.Baseline, e.Workers, strip)
		defer lb.Close()
		emit = func(text string) { ls.Add(text); lb.Add(text) }
	}
	if _, err := ls.Wait(); err != nil {
		return nil, nil, scorerError(err)
	}
	c, seq, err := e.load(Reading{Model: e.m, Hold: true, Emit: emit})
	if err != nil {
		return nil, nil, err
	}
	ss, _ := ls.Wait()
	labels := docLabels(c)
	r, err := ss.Finish(seq, labels, Options{TopK: e.TopK})
	if err != nil {
		return nil, nil, err
	}
	if err := checkSomeKnown(r, e.Corpus); err != nil {
		return nil, nil, err
	}
	if lb == nil {
		return r, nil, nil
	}
	bs, err := lb.Wait()
	if err != nil {
		return nil, nil, scorerError(err)
	}
	if bm := bs.Model(); bm.MultiLabel || bm.Fields != nil {
		return nil, nil, usagef("--baseline %s is a multi-label model or one with record fields; %s is neither", e.Baseline, e.Model)
	}
	br, err := bs.Finish(seq, labels, Options{})
	if err != nil {
		return nil, nil, err
	}
	sc := br.Scores()
	return r, &sc, nil
}

// records evaluates a model with record fields on the fields it was
// trained with (or those of FileOptions.Fields, which must be the same),
// read with the texts stripped as the model was trained unless the user
// gave --remove, and the baseline on the same documents.
func (e *fileEval) records() (*Report, *Scores, error) {
	m := e.m
	if m.Fields == nil {
		return nil, nil, usagef("%s has no record fields: leave out --categorical-field and --numeric-field", e.Model)
	}
	spec := e.Fields
	if spec.Empty() {
		spec = train.FieldSpecOf(m.Fields)
	}
	if names := append(slices.Clone(spec.Categorical), spec.Numeric...); !slices.Equal(sorted(names), sorted(m.Fields.Names())) {
		return nil, nil, usagef("%s has the fields %s, not %s", e.Model, strings.Join(m.Fields.Names(), ", "), strings.Join(names, ", "))
	}
	var old *model.Model
	if e.Baseline != "" {
		var err error
		if old, err = model.Load(e.Baseline); err != nil {
			return nil, nil, &ModelError{err}
		}
		if old.Fields == nil || old.MultiLabel {
			return nil, nil, usagef("--baseline %s has no record fields, as %s has", e.Baseline, e.Model)
		}
		// The baseline's fields are read too.
		for _, n := range old.Fields.Names() {
			if !slices.Contains(m.Fields.Names(), n) {
				spec.Categorical = append(slices.Clone(spec.Categorical), n)
			}
		}
	}
	c, _, err := e.load(Reading{Model: m, Remove: m.Vocab.Settings.Remove, Fields: spec, Kind: m.Kind})
	if err != nil {
		return nil, nil, err
	}
	labels, texts := docLabels(c), c.Texts()
	score := func(m *model.Model, opt Options) (*Report, error) {
		r, err := train.DocumentRecords(c, m.Fields, train.FieldSpecOf(m.Fields))
		if err != nil {
			return nil, err
		}
		return EvaluateRecords(m, texts, r.Recs, labels, opt, e.Workers)
	}
	r, err := score(m, Options{TopK: e.TopK})
	if err != nil || old == nil {
		return r, nil, err
	}
	br, err := score(old, Options{})
	if err != nil {
		return nil, nil, err
	}
	sc := br.Scores()
	return r, &sc, nil
}

// multiLabel evaluates a multi-label model on the label sets of the
// corpus, read with the texts stripped as the model was trained unless
// the user gave --remove, writes its report and applies the gates (with
// the baseline's scores on the same documents).
func (e *fileEval) multiLabel(w io.Writer) (string, error) {
	m := e.m
	if !m.MultiLabel {
		return "", usagef("%s is not a multi-label model: leave out --multi-label", e.Model)
	}
	if e.Gates.MaxLogLoss > 0 {
		return "", usagef("--max-log-loss: %s is a multi-label model, whose evaluation has no log-loss", e.Model)
	}
	var old *model.Model
	if e.Baseline != "" {
		var err error
		if old, err = model.Load(e.Baseline); err != nil {
			return "", &ModelError{err}
		}
		if !old.MultiLabel {
			return "", usagef("--baseline %s is not a multi-label model, as %s is", e.Baseline, e.Model)
		}
	}
	c, _, err := e.load(Reading{Model: m, Remove: m.Vocab.Settings.Remove, MultiLabel: true})
	if err != nil {
		return "", err
	}
	sets, _ := c.LabelSets()
	texts, k := c.Texts(), max(e.TopK, 1)
	score := func(m *model.Model) (*MultiLabelReport, error) {
		return EvaluateMultiLabelTexts(m, texts, sets, m.Thresholds(e.Threshold, e.ThresholdGiven), e.MinLabels, k, e.Workers)
	}
	r, err := score(m)
	if err != nil {
		return "", err
	}
	if e.Format == "json" {
		err = r.WriteJSON(w)
	} else {
		err = r.WriteTable(w)
	}
	if err != nil {
		return "", err
	}
	var oldScores *Scores
	if old != nil {
		br, err := score(old)
		if err != nil {
			return "", err
		}
		sc := br.Scores()
		oldScores = &sc
	}
	return e.Gates.Check(r.Scores(), oldScores, e.Baseline)
}

// docLabels returns the label of each document of c.
func docLabels(c *corpus.Corpus) []string {
	labels := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		labels[i] = d.Label
	}
	return labels
}

func sorted(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// checkSomeKnown fails when no document of the corpus has a label the
// model knows: such a report measures the wrong corpus (a pos/neg model
// on 20 Newsgroups, for want of a corpus argument), not the model. where
// names the corpus.
func checkSomeKnown(r *Report, where string) error {
	if r.N == 0 || r.UnknownN() < r.N {
		return nil
	}
	var known []string
	for _, m := range r.PerClass {
		if !m.Unknown {
			known = append(known, m.Label)
		}
	}
	unknown := slices.Sorted(maps.Keys(r.Unknown))
	return fmt.Errorf("none of the %d documents of %s has a label the model knows (labels %s; the model predicted %s): give the corpus the model was trained for", r.N, where, firstFew(unknown), firstFew(known))
}

// firstFew joins up to five names, and says how many more there are.
func firstFew(names []string) string {
	const few = 5
	if len(names) <= few {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:few], ", "), len(names)-few)
}

// CountList lists the labels of u in order, each with its count:
// "a (2), b (1)".
func CountList(u map[string]int) string {
	var b strings.Builder
	for _, l := range slices.Sorted(maps.Keys(u)) {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%d)", l, u[l])
	}
	return b.String()
}

// WriteReport writes r to w in format (one of Formats): WriteTable,
// WriteTSV or WriteJSON.
func WriteReport(w io.Writer, format string, r *Report, opt WriteOptions) error {
	switch format {
	case "json":
		return WriteJSON(w, r, opt)
	case "tsv":
		return WriteTSV(w, r, opt)
	}
	return WriteTable(w, r, opt)
}

// Write writes r to w in format (one of Formats): WriteTable, WriteTSV or
// WriteJSON.
func (r *CVResult) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return r.WriteJSON(w)
	case "tsv":
		return r.WriteTSV(w)
	}
	return r.WriteTable(w)
}
