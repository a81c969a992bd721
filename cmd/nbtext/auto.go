package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/search"
	"github.com/nbtext/nbtext/internal/train"
)

// autoOptions are the flags of the model search: train --auto and eval
// --cv K --auto.
type autoOptions struct {
	fs     *pflag.FlagSet
	on     bool
	budget string
	metric string
	valid  string // train only
	board  string // train only: table or json
	// ensemble is the rounds of the ensemble selection (0: none).
	ensemble int
}

func (o *autoOptions) AddFlags(fs *pflag.FlagSet, train bool) {
	o.fs = fs
	fs.BoolVar(&o.on, "auto", false, "search model kind × preprocessing × α/C by cross-validation on the training data, the kinds' defaults first (see docs/auto.md)")
	fs.StringVar(&o.budget, "budget", "60s", "--auto: budget of the whole run: wall time (60s), process CPU time (cpu:60s) or candidate evaluations (evals:40, the same model on any machine)")
	fs.StringVar(&o.metric, "metric", search.Accuracy, "--auto: what the search optimises: accuracy, macro_f1 or log_loss")
	fs.IntVar(&o.ensemble, "ensemble", search.DefaultEnsembleRounds, "--auto: rounds of the ensemble selection over the best candidates (0: the best single one)")
	if train {
		fs.StringVar(&o.valid, "valid", "", "--auto: score candidates on this labelled corpus instead of by cross-validation")
		fs.StringVar(&o.board, "leaderboard", "table", "--auto: the search's leaderboard on stdout as a table, or json (the summary then goes to stderr)")
	}
}

// searchedFlags are the flags whose settings --auto chooses, so that giving
// one with it is a usage error (--model is allowed: it narrows the search
// to that kind).
var searchedFlags = []string{
	"lowercase", "stop-words", "ngram", "min-df", "max-df", "max-features", "select", "weighting",
	"sublinear-tf", "norm", "fields", "alpha", "beta", "C", "vocab",
	"hash-bits", // the search's candidates are unhashed
}

// validate checks the search flags; it is a no-op without --auto.
func (o *autoOptions) validate() error {
	if !o.on {
		return nil
	}
	if _, err := search.ParseBudget(o.budget); err != nil {
		return usageErrorf("--budget: %v", err)
	}
	if !search.ValidMetric(o.metric) {
		return usageErrorf("--metric must be accuracy, macro_f1 or log_loss, got %q", o.metric)
	}
	if o.ensemble < 0 {
		return usageErrorf("--ensemble must be >= 0, got %d", o.ensemble)
	}
	if o.board != "" && o.board != "table" && o.board != "json" {
		return usageErrorf("--leaderboard must be table or json, got %q", o.board)
	}
	var set []string
	for _, name := range searchedFlags {
		if f := o.fs.Lookup(name); f != nil && setOnCommandLine(f) {
			set = append(set, "--"+name)
		}
	}
	if len(set) > 0 {
		return usageErrorf("%s: --auto chooses these settings itself; drop them or drop --auto", strings.Join(set, ", "))
	}
	return nil
}

// options returns the search's options: its budget counted from start.
func (o *autoOptions) options(seed int64, workers int, start time.Time) search.Options {
	b, _ := search.ParseBudget(o.budget) // validated
	return search.Options{
		Seed: uint64(seed), Metric: o.metric, Budget: b, Spent: b.Spent(start),
		Workers: workers, EnsembleRounds: o.ensemble,
	}
}

// kind returns the kind --model narrows the search to, or 0.
func (o *autoOptions) kind(kindFlag string) model.Kind {
	if f := o.fs.Lookup("model"); f != nil && f.Changed {
		kind, _ := model.ParseKind(kindFlag)
		return kind
	}
	return 0
}

// runTrainAuto is 'nbtext train --auto': search, fit the chosen candidate on
// the whole corpus, save it with the search's summary.
func runTrainAuto(s streams, args []string, o *trainOptions, start time.Time) error {
	o.corpus.holds, o.corpus.mem = "train --auto", o.global.mem
	c, remove, err := loadSearchCorpus(s, args, &o.corpus, o.global.quiet)
	if err != nil {
		return err
	}
	req := search.Request{
		Texts: c.Texts(), Y: c.LabelIDs(), Classes: c.Labels, Kind: o.auto.kind(o.kind), Remove: remove,
		Options: o.auto.options(o.fit.seed, o.workers, start),
	}
	req.Folds = o.folds
	req.Progress = progress(s.Err, o.global.quiet, "searching")
	if o.auto.valid != "" {
		vc, err := loadValid(s, o)
		if err != nil {
			return err
		}
		req.ValidTexts = vc.Texts()
		for _, d := range vc.Docs {
			id := indexOf(c.Labels, d.Label)
			if id < 0 {
				return fmt.Errorf("%s: label %q is not a class of the training corpus", o.auto.valid, d.Label)
			}
			req.ValidY = append(req.ValidY, id)
		}
	}
	t, err := search.Train(req)
	if err != nil {
		return err
	}
	res := t.Result
	summary := s.Out // the fitted model's summary
	if o.auto.board == "json" {
		if err := res.WriteJSON(s.Out); err != nil {
			return err
		}
		summary = s.Err
	} else {
		if err := res.WriteTable(s.Out, 15); err != nil {
			return err
		}
		if !o.global.quiet {
			fmt.Fprintln(s.Out)
		}
	}
	if o.global.quiet {
		summary = io.Discard
	}
	if t.X == nil { // an ensemble, or the single model it fell back to
		return saveEnsemble(summary, o, t, len(req.Texts), len(c.Labels), start)
	}
	fmt.Fprintf(summary, "chosen       %s\n", res.Best().Describe())
	return saveModel(summary, o, t.Model, t.X, nil, req.Y, len(c.Docs), res.Best().Spec.Params, t.Calibration, start)
}

// runCVAuto is 'nbtext eval --cv K --auto': nested cross-validation of the
// search.
func runCVAuto(s streams, args []string, o *evalOptions) error {
	start := time.Now()
	o.corpus.holds, o.corpus.mem = "eval --cv --auto", o.global.mem
	c, remove, err := loadSearchCorpus(s, args, &o.corpus, o.global.quiet)
	if err != nil {
		return err
	}
	texts := c.Texts()
	opt := o.auto.options(o.fit.seed, o.workers, start)
	opt.Folds = train.DefaultFolds
	res, searches, err := search.NestedCV(texts, c.LabelIDs(), c.Labels, search.SpaceFor(texts, o.auto.kind(o.model)), remove, o.cv, uint64(o.fit.seed), opt, o.topK)
	if err != nil {
		return err
	}
	for f, r := range searches {
		chosen := r.Best().Describe()
		if e := r.Ensemble; e != nil && e.Used {
			chosen = fmt.Sprintf("an ensemble of %d led by %s", len(e.Members), chosen)
		}
		note(s.Err, o.global.quiet, "fold %d: chose %s (inner %s %.4f, %d of %d candidates scored)",
			f+1, chosen, r.Metric, r.Leaderboard[0].Mean, r.Scored, r.Candidates)
	}
	if err := writeCV(s.Out, o.format, res); err != nil {
		return err
	}
	return applyGates(s, o, res.Scores(), nil)
}

// loadValid reads the corpus of --valid, whole (no split), with the
// reader options of the training corpus.
func loadValid(s streams, o *trainOptions) (*corpus.Corpus, error) {
	vo := o.corpus
	vo.split = ""
	return loadCorpus(s, []string{o.auto.valid}, &vo, "test", true)
}

// loadSearchCorpus reads the corpus to search on (default: the train split)
// and returns it with the --remove setting its candidates record.
func loadSearchCorpus(s streams, args []string, co *corpusOptions, quiet bool) (*corpus.Corpus, string, error) {
	c, err := loadCorpus(s, args, co, "train", quiet)
	if err != nil {
		return nil, "", err
	}
	remove, err := co.removeSetting()
	return c, remove, err
}

// saveEnsemble saves the ensemble the search chose (or, when its refit
// would have overrun the budget, the best single candidate) and prints its
// summary.
func saveEnsemble(w io.Writer, o *trainOptions, t *search.Trained, docs, classes int, start time.Time) error {
	m := t.Model
	m.Meta.Version, m.Meta.CreatedBy = buildVersion(), "nbtext train"
	if err := model.Save(o.output, m); err != nil {
		return err
	}
	res := t.Result
	e := res.Ensemble
	if !e.Used {
		fmt.Fprintf(w, "ensemble     dropped (%s)\n", e.Why)
		fmt.Fprintf(w, "chosen       %s\n", res.Best().Describe())
	} else {
		fmt.Fprintf(w, "chosen       ensemble of %d (%s %.4f on held-out documents, best single %.4f)\n", len(e.Members), res.Metric, e.Score, e.Single)
	}
	fmt.Fprintf(w, "model        %s -> %s\n", m.Kind, o.output)
	fmt.Fprintf(w, "documents    %d\n", docs)
	fmt.Fprintf(w, "classes      %d\n", classes)
	fmt.Fprintf(w, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}
