package main

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/search"
)

// autoOptions are the flags of the model search: train --auto and eval
// --cv K --auto.
type autoOptions struct {
	fs    *pflag.FlagSet
	on    bool
	set   pipeline.SearchSettings
	valid string // train only
	board string // train only: table or json
}

func (o *autoOptions) AddFlags(fs *pflag.FlagSet, train bool) {
	o.fs = fs
	fs.BoolVar(&o.on, "auto", false, "search model kind × preprocessing × α/C by cross-validation on the training data, the kinds' defaults first (see docs/auto.md)")
	fs.StringVar(&o.set.Budget, "budget", "60s", "--auto: budget of the whole run: wall time (60s), process CPU time (cpu:60s) or candidate evaluations (evals:40, the same model on any machine)")
	fs.StringVar(&o.set.Metric, "metric", search.Accuracy, "--auto: what the search optimises: accuracy, macro_f1 or log_loss")
	fs.IntVar(&o.set.EnsembleRounds, "ensemble", search.DefaultEnsembleRounds, "--auto: rounds of the ensemble selection over the best candidates (0: the best single one)")
	if train {
		fs.StringVar(&o.valid, "valid", "", "--auto: score candidates on this labelled corpus instead of by cross-validation")
		fs.StringVar(&o.board, "leaderboard", "table", "--auto: the search's leaderboard on stdout as a table, or json (the summary then goes to stderr)")
	}
}

// validate checks the search flags; it is a no-op without --auto.
func (o *autoOptions) validate() error { return o.check(false, false) }

// check checks the search flags (pipeline.SearchSettings.CheckFlags), for
// a multi-label search or not.
func (o *autoOptions) check(multiLabel, tune bool) error {
	if !o.on {
		return nil
	}
	typed := func(name string) bool { f := o.fs.Lookup(name); return f != nil && setOnCommandLine(f) }
	return o.set.CheckFlags(pipeline.SearchFlags{MultiLabel: multiLabel, TuneThresholds: tune, Leaderboard: o.board, Changed: o.fs.Changed, Typed: typed})
}

// plan sets the memory budget of p, the corpus it searches (the train
// split of args by default) and the kind --model (kind) narrows it to.
func (o *autoOptions) plan(s streams, args []string, co *corpusOptions, g *globalOptions, kind string, p *pipeline.Plan) (err error) {
	if o.fs.Changed("model") {
		p.Kind, _ = model.ParseKind(kind)
	}
	if p.Budget, err = membudget.Resolve(g.mem); err != nil {
		return usageErrorf("%v", err)
	}
	p.Source, err = co.source(s, args, "train", g.quiet)
	return err
}

// runTrainAuto is 'nbtext train --auto' (with --multi-label too): the
// searched run of pipeline, its leaderboard on stdout, its summary after
// it (on stderr with --leaderboard json).
func runTrainAuto(s streams, args []string, o *trainOptions, start time.Time) error {
	o.ml.apply(&o.corpus)
	p := o.basePlan(s)
	p.Folds, p.MultiLabel = o.folds, o.ml.multi
	p.Search = &pipeline.Search{Options: o.auto.set.Options(o.fit.seed, o.workers, start), Leaderboard: s.Out, JSON: o.auto.board == "json"}
	p.Search.Options.FixedDefaults = !o.followProfile
	if err := o.auto.plan(s, args, &o.corpus, o.global, o.kind, p); err != nil {
		return err
	}
	if o.auto.valid != "" {
		vo := o.corpus
		vo.split = ""
		v, err := vo.source(s, []string{o.auto.valid}, "test", true)
		if err != nil {
			return err
		}
		p.Search.Valid, p.Search.ValidName = &v, o.auto.valid
	}
	rep, err := pipeline.Run(p)
	if err == nil && !o.global.quiet {
		w := s.Out
		if p.Search.JSON {
			w = s.Err // the leaderboard has stdout
		}
		rep.Write(w)
	}
	return err
}

// runCVAuto is 'nbtext eval --cv K --auto': nested cross-validation of the
// search.
func runCVAuto(s streams, args []string, o *evalOptions) error {
	p := &pipeline.Plan{Note: func(msg string) { note(s.Err, o.global.quiet, "%s", msg) }}
	p.Search = &pipeline.Search{Options: o.auto.set.Options(o.fit.seed, o.workers, time.Now())}
	if err := o.auto.plan(s, args, &o.corpus, o.global, o.model, p); err != nil {
		return err
	}
	res, err := pipeline.SearchCV(p, o.cv, o.topK)
	if err != nil {
		return err
	}
	if err := res.Write(s.Out, o.format); err != nil {
		return err
	}
	verdict, err := o.gates.Check(res.Scores(), nil, o.baseline)
	return o.verdict(s, verdict, err)
}
