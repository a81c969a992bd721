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
	budget time.Duration
	metric string
	valid  string // train only
	board  string // train only: table or json
	// ensemble is the rounds of the ensemble selection (0: none).
	ensemble int
}

func (o *autoOptions) AddFlags(fs *pflag.FlagSet, train bool) {
	o.fs = fs
	fs.BoolVar(&o.on, "auto", false, "search model kind × preprocessing × α/C by cross-validation on the training data (see the README)")
	fs.DurationVar(&o.budget, "budget", 60*time.Second, "--auto: time budget of the whole run")
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
	if o.budget <= 0 {
		return usageErrorf("--budget must be > 0, got %v", o.budget)
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

// space returns the search space for texts: DefaultSpace, with the Subject
// field terms when the texts have mail headers, narrowed to kind when
// --model was given.
func (o *autoOptions) space(texts []string, kindFlag string) search.Space {
	sp := search.DefaultSpace(search.HasMailHeaders(texts))
	if f := o.fs.Lookup("model"); f != nil && f.Changed {
		kind, _ := model.ParseKind(kindFlag)
		var ks []search.KindSpace
		for _, k := range sp.Kinds {
			if k.Kind == kind {
				ks = append(ks, k)
			}
		}
		sp.Kinds = ks
	}
	return sp
}

// runTrainAuto is 'nbtext train --auto': search, fit the chosen candidate on
// the whole corpus, save it with the search's summary.
func runTrainAuto(s streams, args []string, o *trainOptions, start time.Time) error {
	c, remove, err := loadSearchCorpus(s, args, &o.corpus, o.global.quiet)
	if err != nil {
		return err
	}
	texts, y := c.Texts(), c.LabelIDs()
	var valid *search.Split
	if o.auto.valid != "" {
		vo := o.corpus
		vo.split = ""
		vc, err := loadCorpus(s, []string{o.auto.valid}, &vo, "test", true)
		if err != nil {
			return err
		}
		vy := make([]int, len(vc.Docs))
		for i, d := range vc.Docs {
			if vy[i] = indexOf(c.Labels, d.Label); vy[i] < 0 {
				return fmt.Errorf("%s: label %q is not a class of the training corpus", o.auto.valid, d.Label)
			}
		}
		valid = &search.Split{}
		for i := range texts {
			valid.Train = append(valid.Train, i)
		}
		for i := range vy {
			valid.Held = append(valid.Held, len(texts)+i)
		}
		texts, y = append(texts, vc.Texts()...), append(y, vy...)
	}
	sp := o.auto.space(texts, o.kind)
	res, err := search.Run(texts, y, c.Labels, sp, remove, valid, search.Options{
		Folds: o.folds, Seed: uint64(o.fit.seed), Metric: o.auto.metric,
		Deadline: start.Add(o.auto.budget), Workers: o.workers,
		Progress:       progress(s.Err, o.global.quiet, "searching"),
		EnsembleRounds: o.auto.ensemble,
	})
	if err != nil {
		return err
	}
	summary := s.Out // the fitted model's summary
	if o.auto.board == "json" {
		if err := res.WriteJSON(s.Out); err != nil {
			return err
		}
		summary = s.Err
		if o.global.quiet {
			summary = io.Discard
		}
	} else {
		if err := res.WriteTable(s.Out, 15); err != nil {
			return err
		}
		if o.global.quiet {
			summary = io.Discard
		} else {
			fmt.Fprintln(s.Out)
		}
	}
	best := res.Best()
	if valid != nil {
		texts, y = texts[:len(valid.Train)], y[:len(valid.Train)]
	}
	if res.Ensemble != nil && res.Ensemble.Used {
		return saveEnsemble(summary, o, res, texts, y, c.Labels, start)
	}
	m, X, cal, err := search.Fit(texts, y, c.Labels, best, o.workers)
	if err != nil {
		return err
	}
	if m.Meta.Auto, err = res.Summary(); err != nil {
		return err
	}
	fmt.Fprintf(summary, "chosen       %s\n", best.Describe())
	return saveModel(summary, o, m, X, nil, y, len(c.Docs), best.Spec.Params, cal, start)
}

// runCVAuto is 'nbtext eval --cv K --auto': nested cross-validation of the
// search.
func runCVAuto(s streams, args []string, o *evalOptions) error {
	c, remove, err := loadSearchCorpus(s, args, &o.corpus, o.global.quiet)
	if err != nil {
		return err
	}
	texts := c.Texts()
	sp := o.auto.space(texts, o.model)
	res, searches, err := search.NestedCV(texts, c.LabelIDs(), c.Labels, sp, remove, o.cv, uint64(o.fit.seed), search.Options{
		Folds: train.DefaultFolds, Seed: uint64(o.fit.seed), Metric: o.auto.metric,
		Deadline: time.Now().Add(o.auto.budget), Workers: o.workers, EnsembleRounds: o.auto.ensemble,
	}, o.topK)
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

// saveEnsemble fits the members of the ensemble the search chose on the
// whole corpus and saves it (or, when their refit would overrun the budget,
// the best single candidate) with the search's summary.
func saveEnsemble(w io.Writer, o *trainOptions, res *search.Result, texts []string, y []int, classes []string, start time.Time) error {
	m, err := search.FitEnsemble(texts, y, classes, res, o.workers, start.Add(o.auto.budget))
	if err != nil {
		return err
	}
	if m.Meta.Auto, err = res.Summary(); err != nil {
		return err
	}
	m.Meta.Version, m.Meta.CreatedBy = buildVersion(), "nbtext train"
	if err := model.Save(o.output, m); err != nil {
		return err
	}
	e := res.Ensemble
	if !e.Used {
		fmt.Fprintf(w, "ensemble     dropped (%s)\n", e.Why)
		fmt.Fprintf(w, "chosen       %s\n", res.Best().Describe())
	} else {
		fmt.Fprintf(w, "chosen       ensemble of %d (%s %.4f on held-out documents, best single %.4f)\n", len(e.Members), res.Metric, e.Score, e.Single)
	}
	fmt.Fprintf(w, "model        %s -> %s\n", m.Kind, o.output)
	fmt.Fprintf(w, "documents    %d\n", len(texts))
	fmt.Fprintf(w, "classes      %d\n", len(classes))
	fmt.Fprintf(w, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}
