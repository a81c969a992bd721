// The cross-setting checks of a run as the command line gives it: what
// a search (--auto), semi-supervised EM (--unlabeled), update and forget,
// merge and compare refuse before they start. Each returns a UsageError
// naming the first flag in the way, in the order the commands have
// always reported them; LabelFlags.Check checks the multi-label options.

package pipeline

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// SearchedFlags are the flags whose settings a search chooses, so that
// giving one with --auto is a usage error (--model is allowed: it narrows
// the search to that kind).
var SearchedFlags = []string{
	"lowercase", "stop-words", "ngram", "min-df", "max-df", "max-features", "select", "weighting",
	"sublinear-tf", "norm", "fields", "alpha", "beta", "C", "vocab",
	"hash-bits", // the search's candidates are unhashed
}

// SearchFlags is what the command line says beside a search's settings.
type SearchFlags struct {
	// MultiLabel is a search over one-vs-rest models (train --auto
	// --multi-label); TuneThresholds is --tune-thresholds with it.
	MultiLabel, TuneThresholds bool
	// Leaderboard is --leaderboard: table, json, or "" (eval --cv --auto).
	Leaderboard string
	// Changed reports a flag given at all (command line, environment or
	// config file); Typed one given on the command line.
	Changed, Typed func(flag string) bool
}

// CheckFlags is Check of the settings s with the rest of the command
// line f: no threshold tuning in a multi-label search, a known
// leaderboard format, and none of the SearchedFlags typed.
func (s *SearchSettings) CheckFlags(f SearchFlags) error {
	if f.MultiLabel && f.TuneThresholds {
		return usagef("--tune-thresholds with --auto --multi-label: the search scores candidates at the threshold it stores (%g); drop --tune-thresholds, or drop --auto and give --model", train.DefaultLabelThreshold)
	}
	if err := s.Check(f.MultiLabel, f.Changed("metric"), f.Changed("ensemble")); err != nil {
		return err
	}
	if f.Leaderboard != "" && f.Leaderboard != "table" && f.Leaderboard != "json" {
		return usagef("--leaderboard must be table or json, got %q", f.Leaderboard)
	}
	var set []string
	for _, name := range SearchedFlags {
		if f.Typed(name) {
			set = append(set, "--"+name)
		}
	}
	if len(set) > 0 {
		return usagef("%s: --auto chooses these settings itself; drop them or drop --auto", strings.Join(set, ", "))
	}
	return nil
}

// EMFlags are the flags that mean nothing without unlabelled documents.
var EMFlags = []string{"unlabeled-split", "unlabeled-classes", "unlabeled-weight", "em-iterations", "em-tol"}

// UnlabeledFlags are train's labelled sample (--per-class), the
// unlabelled corpora and what else the run asks for, which
// Unlabeled.CheckFlags checks together.
type UnlabeledFlags struct {
	PerClass int
	// Paths are the --unlabeled corpora; Split is --unlabeled-split;
	// Weight is --unlabeled-weight (a number or auto).
	Paths         []string
	Split, Weight string
	// Held is a corpus held in memory (no --stream, --from-counts or
	// --auto); MultiLabel, Fields and Init are --multi-label, record
	// fields and --init.
	Held, MultiLabel, Fields, Init bool
	Kind                           model.Kind
	// Changed reports a flag given (command line, environment or config).
	Changed func(flag string) bool
}

// CheckFlags checks the sample and the EM settings of u against the rest
// of the run f, then u itself (Check).
func (u *Unlabeled) CheckFlags(f UnlabeledFlags) error {
	bad := slices.IndexFunc(f.Paths, func(p string) bool { return p == "" || p == "-" })
	switch {
	case f.PerClass < 0:
		return usagef("--per-class must be ≥ 0, got %d", f.PerClass)
	case f.PerClass > 0 && !f.Held:
		return usagef("--per-class draws its sample from a corpus held in memory: drop --stream, --from-counts and --auto")
	case u.Rest && f.PerClass == 0:
		return usagef("--unlabeled-rest needs --per-class: the documents left out of the sample are the unlabelled ones")
	case len(f.Paths) == 0 && !u.Rest:
		for _, name := range EMFlags {
			if f.Changed(name) {
				return usagef("--%s needs unlabelled documents: give --unlabeled CORPUS or --unlabeled-rest", name)
			}
		}
		return nil
	case bad >= 0:
		return usagef("--unlabeled takes a file or folder, read once per pass, not %q", f.Paths[bad])
	case f.Split != "" && f.Split != "train" && f.Split != "test":
		return usagef("--unlabeled-split must be train or test, got %q", f.Split)
	case !f.Held:
		return usagef("--unlabeled fits naive bayes by EM from documents it vectorizes itself: drop --stream, --from-counts and --auto")
	case f.MultiLabel:
		return usagef("--unlabeled fits models of one label per document: drop --multi-label")
	case f.Fields:
		return usagef("--unlabeled fits text models: drop --categorical-field and --numeric-field")
	case f.Init:
		return usagef("--init starts logistic regression, which --unlabeled does not fit")
	}
	return u.Check(f.Kind, f.Weight)
}

// Check reports the first option of an update (forget) out of range:
// a file to write, fixed (the error of the flags the model fixes, nil
// when none was given), the epochs, and a replay corpus that is not the
// standard input CORPUS already is.
func (u *UpdateOptions) Check(corpus string, fixed error) error {
	switch {
	case u.Output == "" || u.Output == "-":
		return usagef("-o NEW is required (a file: it is written atomically)")
	case fixed != nil:
		return fixed
	case u.Epochs < 0:
		return usagef("--epochs must be ≥ 0, got %d", u.Epochs)
	case corpus == "-" && u.Replay == "-":
		return usagef("--replay -: stdin is CORPUS already")
	}
	return nil
}

// Check reports the first option of a merge out of range.
func (o *MergeOptions) Check() error {
	if o.Output == "" || o.Output == "-" {
		return usagef("-o ALL.nbc is required (a file: it is written atomically)")
	}
	if o.ExpectShards < 0 {
		return usagef("--expect-shards must be ≥ 0, got %d", o.ExpectShards)
	}
	return nil
}

// CheckFlags is Check with compare's arguments: args (the corpus, or the
// training corpus with test, --test) and plot, the --plot file.
func (cp *Compare) CheckFlags(args []string, test, plot string) error {
	switch {
	case test != "" && len(args) == 0:
		return usagef("--test needs the training corpus as argument: nbtext compare TRAIN --test TEST")
	case test != "" && args[0] == "-" && test == "-":
		return usagef("TRAIN and --test cannot both be standard input ('-')")
	}
	if err := cp.Check(); err != nil {
		return err
	}
	if ext := strings.ToLower(filepath.Ext(plot)); plot != "" && ext != ".png" && ext != ".svg" {
		return usagef("--plot must end in .png or .svg, got %q", plot)
	}
	return nil
}

// LabelFlags are the multi-label options of train and eval: --multi-label
// and --label-sep; --tune-thresholds (train); --min-labels and
// --threshold (eval).
type LabelFlags struct {
	MultiLabel, Tune bool
	Sep              string
	MinLabels        int
	Threshold        float64
}

// Check reports the first multi-label option given without --multi-label
// or out of range.
func (f LabelFlags) Check() error {
	switch {
	case f.Sep != "" && !f.MultiLabel:
		return usagef("--label-sep needs --multi-label")
	case f.Tune && !f.MultiLabel:
		return usagef("--tune-thresholds needs --multi-label")
	case f.MinLabels > 0 && !f.MultiLabel:
		return usagef("--min-labels needs --multi-label")
	case f.MinLabels < 0:
		return usagef("--min-labels must be ≥ 0, got %d", f.MinLabels)
	case f.Threshold < 0 || f.Threshold > 1 || f.Threshold != f.Threshold:
		return usagef("--threshold must be between 0 and 1, got %g", f.Threshold)
	}
	return nil
}
