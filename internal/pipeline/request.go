// The checks of what a train or count command line asks for, before any
// file is opened: the combinations of options a run cannot carry out.

package pipeline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// TrainRequest is what 'nbtext train' is asked for, as its flags say it,
// before the plan of the run is built: Check refuses the combinations no
// strategy carries out.
type TrainRequest struct {
	// Output is the model file; Kind the model kind's name.
	Output, Kind string
	// Fields are the record fields, FieldParams their parameters.
	Fields      train.FieldSpec
	FieldParams train.FieldParams
	// MultiLabel, TuneThresholds and LabelSep: the multi-label options.
	MultiLabel, TuneThresholds bool
	LabelSep                   string
	// Stream and NoStream force a streamed or held run; Auto asks for a
	// search with the settings Search (checked by CheckFlags, which may
	// set its metric) and the leaderboard format Leaderboard.
	Stream, NoStream, Auto bool
	Search                 *SearchSettings
	Leaderboard            string
	// FromCounts, ExpectShards, VocabFile and Init name the files a run
	// starts from; KeepCounts asks for the counts beside the model.
	FromCounts      string
	ExpectShards    int
	VocabFile, Init string
	KeepCounts      bool
	Folds, Workers  int
	StreamBuffer    int
	// PerClass, Unlabeled (corpora), UnlabeledSplit and UnlabeledWeight,
	// and EM (whose Rest, MaxIter and Tol are set; Check sets its
	// weight): the labelled sample and semi-supervised EM.
	PerClass                        int
	Unlabeled                       []string
	UnlabeledSplit, UnlabeledWeight string
	EM                              *Unlabeled
	// Changed reports whether the user set a flag (command line,
	// environment or config file), Given whether the command line did.
	Changed, Given func(flag string) bool
	// VectorizerFlags are the flags whose settings a vocabulary file, a
	// counts file or an --init model fixes.
	VectorizerFlags []string
}

// Check returns a UsageError for the first option r's run cannot carry
// out, in the order train has always reported them.
func (r *TrainRequest) Check() error {
	if r.Output == "" {
		return usagef("-o MODEL is required")
	}
	if r.Output == "-" {
		return usagef("-o -: a model is written to a file (atomically, via a temporary file), not to stdout")
	}
	kind, err := model.ParseKind(r.Kind)
	if err != nil {
		return usagef("--model: %v", err)
	}
	if err := r.FieldParams.ValidateFields(r.Fields, kind, r.given); err != nil {
		return usage(err)
	}
	if err := (LabelFlags{MultiLabel: r.MultiLabel, Tune: r.TuneThresholds, Sep: r.LabelSep}).Check(); err != nil {
		return err
	}
	if err := r.checkModes(kind); err != nil {
		return err
	}
	if r.Folds < 2 {
		return usagef("--folds must be ≥ 2, got %d", r.Folds)
	}
	if err := r.checkUnlabeled(kind); err != nil {
		return err
	}
	if r.Workers < 0 {
		return usagef("--workers must be ≥ 0, got %d", r.Workers)
	}
	if r.KeepCounts {
		if err := CheckKeepCounts(kind, KeepCountsWith{FromCounts: r.FromCounts != "", Stream: r.Stream,
			Auto: r.Auto, Vocab: r.VocabFile != "", MultiLabel: r.MultiLabel, Fields: !r.Fields.Empty()}); err != nil {
			return err
		}
	}
	return r.checkStart()
}

// checkModes checks multi-label, streaming, search and counts against
// each other.
func (r *TrainRequest) checkModes(kind model.Kind) error {
	switch {
	case r.MultiLabel && (!r.Fields.Empty() || kind.RecordOnly()):
		return usagef("--multi-label takes text models without record fields")
	case r.Stream && r.NoStream:
		return usagef("--stream and --no-stream: give one")
	case r.Stream && r.Auto:
		return usagef("--auto cross-validates candidate models on documents held in memory: drop --stream")
	case r.Stream && r.MultiLabel:
		return usagef("--stream trains models of one label per document: drop --multi-label")
	case !r.Fields.Empty() && r.FromCounts != "":
		// Counts hold terms, not record fields: the fields would be
		// dropped without a word.
		return usagef("--from-counts fits text only: record fields (--categorical-field, --numeric-field) need train from the corpus, or with --stream")
	}
	return nil
}

// checkUnlabeled checks the labelled sample and the EM options
// (Unlabeled.CheckFlags).
func (r *TrainRequest) checkUnlabeled(kind model.Kind) error {
	em := r.EM
	if em == nil {
		em = &Unlabeled{}
	}
	return em.CheckFlags(UnlabeledFlags{PerClass: r.PerClass, Paths: r.Unlabeled, Split: r.UnlabeledSplit, Weight: r.UnlabeledWeight,
		Held: !r.Stream && r.FromCounts == "" && !r.Auto, MultiLabel: r.MultiLabel, Fields: !r.Fields.Empty(), Init: r.Init != "",
		Kind: kind, Changed: r.changed})
}

// checkStart checks the options of what the run starts from: a counts
// file, a search, a model (--init) or a vocabulary file.
func (r *TrainRequest) checkStart() error {
	if r.FromCounts != "" {
		if r.changed("expect-shards") && r.ExpectShards < 1 {
			return usagef("--expect-shards must be ≥ 1, got %d", r.ExpectShards)
		}
		names := append(slices.Clone(r.VectorizerFlags), "vocab", "split", "input-format", "classes", "folds")
		return CheckFixedFlags(r.given, names, "--from-counts", "the counts file fixes the documents and the vectorizer settings, so pass such flags to 'nbtext count'")
	}
	if r.changed("expect-shards") {
		return usagef("--expect-shards checks the counts of --from-counts: give --from-counts")
	}
	if r.Auto {
		search := r.Search
		if search == nil {
			search = &SearchSettings{}
		}
		return search.CheckFlags(SearchFlags{MultiLabel: r.MultiLabel, TuneThresholds: r.TuneThresholds, Leaderboard: r.Leaderboard,
			Changed: r.changed, Typed: r.given})
	}
	if r.StreamBuffer < 1 {
		return usagef("--stream-buffer must be ≥ 1, got %d", r.StreamBuffer)
	}
	if r.Init != "" {
		if r.MultiLabel {
			return usagef("--init starts one logistic regression model, not --multi-label ones")
		}
		if err := CheckFixedFlags(r.given, r.VectorizerFlags, "--init", "the model fixes the vocabulary and vectorizer settings"); err != nil {
			return err
		}
	}
	if r.VocabFile != "" {
		return CheckFixedFlags(r.given, r.VectorizerFlags, "--vocab", "the vocabulary file fixes the vectorizer settings, so pass such flags to 'nbtext vocab' when building it")
	}
	return nil
}

// Apply sets the options of p that r gives (the kind, the files the run
// starts from, its modes and their sizes) once Check passed, and refuses
// a run from counts given a corpus argument (args) or a kind that counts
// cannot fit.
func (r *TrainRequest) Apply(p *Plan, args []string) error {
	p.Kind, _ = model.ParseKind(r.Kind)
	p.VocabFile, p.Init, p.Folds, p.StreamBuffer = r.VocabFile, r.Init, r.Folds, r.StreamBuffer
	p.Fields, p.MultiLabel, p.TuneThresholds, p.PerClass = r.Fields, r.MultiLabel, r.TuneThresholds, r.PerClass
	switch {
	case r.Stream:
		p.Stream = StreamAlways
	case r.NoStream:
		p.Stream = StreamNever
	}
	if r.FromCounts == "" {
		return nil
	}
	if len(args) > 0 {
		return usagef("--from-counts fits from the counts file alone: drop the corpus argument %q", args[0])
	}
	if !FitsCounts(p.Kind) {
		return usagef("--from-counts fits naive bayes models (bernoulli, multinomial, complement) and centroid, not %s", p.Kind)
	}
	p.FromCounts, p.ExpectShards = r.FromCounts, r.ExpectShards
	return nil
}

func (r *TrainRequest) changed(flag string) bool { return r.Changed != nil && r.Changed(flag) }
func (r *TrainRequest) given(flag string) bool   { return r.Given != nil && r.Given(flag) }

// CheckFixedFlags returns a UsageError naming every flag of names that
// given reports (given on the command line) together with the option
// with, whose file fixes their settings: silently ignoring them would do
// something other than what was asked for. why says so and what to do
// instead. Values that the environment or a config file gave them are
// general defaults, not a request for this run, and are not given.
func CheckFixedFlags(given func(flag string) bool, names []string, with, why string) error {
	var set []string
	for _, name := range names {
		if given(name) {
			set = append(set, "--"+name)
		}
	}
	if len(set) == 0 {
		return nil
	}
	verb := "are"
	if len(set) == 1 {
		verb = "is"
	}
	return usagef("%s %s not allowed with %s: %s (NBTEXT_* and config-file values of them are ignored with %s)",
		strings.Join(set, ", "), verb, with, why, with)
}

// CountRequest is what 'nbtext count' is asked for, as its flags say it.
type CountRequest struct {
	// Output is the counts file; Kind the model kind whose vectorizer
	// defaults count uses; Shard is i/N (counts.ParseShard); Mem bounds
	// the count table (ParseSize); VocabFile is round one's counts.
	Output, Kind, Shard, Mem, VocabFile string
	// Given reports whether the command line gave a flag;
	// VectorizerFlags are the flags whose settings VocabFile fixes.
	Given           func(flag string) bool
	VectorizerFlags []string
}

// Check returns a UsageError for the first option of r count cannot
// carry out.
func (r *CountRequest) Check() error {
	if r.Output == "" {
		return usagef("-o PART.nbc is required")
	}
	if r.Output == "-" {
		return usagef("-o -: counts are written to a file (atomically, via a temporary file), not to stdout")
	}
	if k, err := model.ParseKind(r.Kind); err != nil || !FitsCounts(k) {
		return usagef("--model must be bernoulli, multinomial, complement or centroid, got %q", r.Kind)
	}
	if _, _, err := counts.ParseShard(r.Shard); err != nil {
		return usage(err)
	}
	if _, err := ParseSize("mem", r.Mem); err != nil {
		return err
	}
	if r.VocabFile != "" {
		given := func(flag string) bool { return r.Given != nil && r.Given(flag) }
		return CheckFixedFlags(given, append(slices.Clone(r.VectorizerFlags), "model"), "--vocab", "the round-one counts fix the vectorizer settings")
	}
	return nil
}

// ParseSize parses the size of the flag flag, such as 512MiB, 2G, 100k or
// 1048576 (k, M, G and T are powers of 1024, with or without "iB" or
// "B"); empty is 0. An error is a UsageError.
func ParseSize(flag, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(t[len(num):], "B"), "i"))
	shift := map[string]uint{"": 0, "k": 10, "m": 20, "g": 30, "t": 40}
	sh, ok := shift[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > 1<<(62-sh) {
		return 0, usagef("--%s must be a size such as 512MiB, 2G or 100000 bytes, got %q", flag, s)
	}
	return n << sh, nil
}
