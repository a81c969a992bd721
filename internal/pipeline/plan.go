package pipeline

import (
	"errors"
	"fmt"
	"time"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// StreamMode says whether a run may hold its corpus in memory.
type StreamMode int

const (
	// StreamAuto streams where streaming gives the model holding the
	// corpus gives, or where the corpus would not fit the memory budget
	// (Plan.Budget); it holds the corpus otherwise.
	StreamAuto StreamMode = iota
	// StreamAlways streams (train --stream).
	StreamAlways
	// StreamNever holds the corpus in memory (train --no-stream).
	StreamNever
)

// Plan is one training run: where the documents come from, the vectorizer
// settings, the model kind and its parameters, and the options that
// choose among the strategies (Run).
type Plan struct {
	// Source is the labelled corpus; empty with FromCounts.
	Source Source
	Kind   model.Kind
	// Vectorizer applies the user's vectorizer settings over the kind's
	// defaults (nil: the defaults); VocabFile, when set, is a vocabulary
	// file ('nbtext vocab') whose settings replace them, and whose
	// --remove setting the corpus is read with.
	Vectorizer func(*vectorize.Settings) error
	VocabFile  string
	// SoftMinDF makes the default min_df one a corpus too small for it
	// may lower to 1, with a note.
	SoftMinDF bool
	// Params resolves the estimator's parameters once the classes (and
	// the documents of each, nil when unknown) are known; auto reports a
	// parameter to choose by cross-validation (--alpha auto, --C auto),
	// which Tune says before the classes are known.
	Params func(classes []string, sizes []int) (p model.Params, auto bool, err error)
	Tune   bool
	Folds  int
	// Fields are the record fields of each document to fit besides, or
	// instead of, the text.
	Fields train.FieldSpec
	// MultiLabel fits one binary model per label (one-vs-rest);
	// TuneThresholds tunes each label's threshold.
	MultiLabel, TuneThresholds bool
	// Init is a logistic regression model file to start from (--init).
	Init string
	// FromCounts is a counts file to fit from instead of Source.
	FromCounts string
	// ExpectShards, when > 0, makes a run from counts check that they
	// hold every document of their inputs once, as the merge of all N
	// shards does (counts.Header.CheckShards).
	ExpectShards int
	// FollowProfile lets the defaults of single-label models follow the
	// corpus profile (profile.go: train.ProfileChoice; the analyzer from
	// the length and script of the first documents, Bernoulli's α from
	// the length, multinomial's weighting from the class balance), in
	// memory, streamed and from counts alike; a multi-label run follows
	// it only when the flag follow-profile was given (Changed). Changed
	// says whether the user set a flag, which the profile then leaves
	// alone.
	FollowProfile bool
	Changed       func(name string) bool
	// KeepCounts, when set, is where the counts of the training documents
	// are written beside the model (train --keep-counts).
	KeepCounts string
	// PerClass keeps that many documents of each class, drawn with Seed;
	// Unlabeled, when not nil, adds unlabelled documents by EM.
	PerClass  int
	Seed      int64
	Unlabeled *Unlabeled
	// Search, when not nil, chooses the model by a search (search.go).
	Search *Search
	// Stream chooses between holding the corpus and streaming it;
	// StreamBuffer is the rows a streamed linear fit reads per block.
	Stream       StreamMode
	StreamBuffer int
	// Budget is the memory the run may use (StreamAuto compares the
	// corpus with it).
	Budget  membudget.Budget
	Workers int
	// Output is the model file to write; Meta is recorded in it.
	Output string
	Meta   model.Meta
	// Summary asks for the figures only a summary needs (the accuracy
	// on the training rows).
	Summary bool
	// Progress returns the progress callback of a phase (nil: none);
	// Note reports what a user may want to know (--quiet drops it);
	// Warn what they must (never dropped). Either may be nil.
	Progress   func(phase string) func(done, total int)
	Note, Warn func(msg string)
}

// UsageError is an error in what a plan asks (a combination of options,
// a parameter out of range) rather than in its data: the CLI exits with
// its usage code.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

func usage(err error) error {
	if err == nil {
		return nil
	}
	var u *UsageError
	if errors.As(err, &u) {
		return err
	}
	return &UsageError{err}
}

// run is a plan being carried out.
type run struct {
	*Plan
	start time.Time
	rep   *Report
	// keep: the model is returned to the caller (FitCounts), not saved.
	keep bool
	// labels is the number of labels of a multi-label corpus, read
	// before the profile chooses its analyzer (multiLabelWords).
	labels int
}

func (r *run) progress(phase string) func(done, total int) {
	if r.Progress == nil {
		return nil
	}
	return r.Progress(phase)
}

func (r *run) note(format string, a ...any) {
	if r.Note != nil {
		r.Note(fmt.Sprintf(format, a...))
	}
}

func (r *run) warn(format string, a ...any) {
	if r.Warn != nil {
		r.Warn(fmt.Sprintf(format, a...))
	}
}

// params resolves the parameters for classes (Plan.Params), with the
// record fields' parameters.
func (r *run) params(classes []string, sizes []int) (model.Params, bool, error) {
	if r.Plan.Params == nil {
		_, p := train.Defaults(r.Kind)
		return p, false, nil
	}
	return r.Plan.Params(classes, sizes)
}

// settings returns the vectorizer settings of defs with Plan.Vectorizer
// applied, and the source's --remove setting in them.
func (r *run) settings(defs vectorize.Settings) (vectorize.Settings, error) {
	s := defs
	if r.Vectorizer != nil {
		if err := r.Vectorizer(&s); err != nil {
			return s, err
		}
	}
	s.Remove = r.Source.Options.Remove.String()
	return s, nil
}

// fixedSettings returns the settings of a vocabulary file or a model
// (fixed), and the source reading with what they stripped.
func (r *run) fixedSettings(fixed vectorize.Settings) (vectorize.Settings, Source, error) {
	src, err := r.Source.withRemove(fixed.Remove)
	return fixed, src, err
}

// save records the plan's Meta in m, with the input names when
// withInput, and writes it to Output.
func (r *run) save(m *model.Model, withInput bool) error {
	m.Meta.Version, m.Meta.CreatedBy = r.Meta.Version, r.Meta.CreatedBy
	if r.rep != nil && r.rep.Strategy == Streamed && streamChanged(m) {
		m.Meta.Trained = "streamed: " + streamDifference(r.Kind)
	}
	if withInput {
		m.Meta.Input = r.Meta.Input
	}
	if r.keep {
		return nil
	}
	return model.Save(r.Output, m)
}

// changed says whether the user set the flag name (Plan.Changed; false
// without it).
func (r *run) changed(name string) bool { return r.Changed != nil && r.Changed(name) }

// streamChanged reports whether streaming fitted m otherwise than holding
// its corpus would have: no temperature was fitted for a kind that
// calibrates in memory (none was given). Multinomial NB, logistic
// regression (SGD either way) and the record models are the same.
func streamChanged(m *model.Model) bool {
	switch m.Kind {
	case model.Multinomial, model.Categorical, model.Gaussian, model.LogReg:
		return false
	}
	return m.Params.Temperature == 0
}
