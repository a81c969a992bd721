package main

import (
	"fmt"
	"io"
	"time"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/search"
	"github.com/nbtext/nbtext/internal/train"
)

// validateMultiLabel checks the flags of 'train --auto --multi-label'.
func (o *autoOptions) validateMultiLabel(tune bool) error {
	if tune {
		return usageErrorf("--tune-thresholds with --auto --multi-label: the search scores candidates at the threshold it stores (%g); drop --tune-thresholds, or drop --auto and give --model", train.DefaultLabelThreshold)
	}
	if f := o.fs.Lookup("ensemble"); f != nil && f.Changed {
		return usageErrorf("--ensemble with --auto --multi-label: the multi-label search chooses one model; drop --ensemble")
	}
	if !o.fs.Changed("metric") {
		o.metric = search.MicroF1
	}
	if !search.ValidMultiLabelMetric(o.metric) {
		return usageErrorf("--metric with --auto --multi-label must be micro_f1, macro_f1 or p_at_1, got %q", o.metric)
	}
	m := o.metric
	o.metric = search.Accuracy // the shared checks know the single-label metrics
	err := o.validate()
	o.metric = m
	return err
}

// runTrainAutoMultiLabel is 'nbtext train --auto --multi-label': search
// one-vs-rest models, fit the chosen one on the whole corpus, save it.
func runTrainAutoMultiLabel(s streams, args []string, o *trainOptions, start time.Time) error {
	o.ml.apply(&o.corpus)
	o.corpus.holds, o.corpus.mem = "train --auto --multi-label", o.global.mem
	c, remove, err := loadSearchCorpus(s, args, &o.corpus, o.global.quiet)
	if err != nil {
		return err
	}
	sets, labels := pipeline.LabelSets(c)
	if len(labels) < 2 {
		return fmt.Errorf("--multi-label needs at least two labels, got %d", len(labels))
	}
	Y, _ := eval.MapLabelSets(labels, sets)
	opt := o.auto.options(o.fit.seed, o.workers, start)
	req := search.MultiLabelRequest{
		Texts: c.Texts(), Y: Y, Labels: labels, Kind: o.auto.kind(o.kind), Remove: remove,
		Metric: o.auto.metric, Budget: opt.Budget, Spent: opt.Spent, Seed: opt.Seed, Workers: o.workers,
		Progress: progress(s.Err, o.global.quiet, "searching"),
	}
	if o.auto.valid != "" {
		vc, err := loadValid(s, o)
		if err != nil {
			return err
		}
		vsets, _ := pipeline.LabelSets(vc)
		vY, unknown := eval.MapLabelSets(labels, vsets)
		if len(unknown) > 0 {
			return fmt.Errorf("%s: labels that are not labels of the training corpus: %s", o.auto.valid, unknownList(unknown))
		}
		req.ValidTexts, req.ValidY = vc.Texts(), vY
	}
	t, err := search.TrainMultiLabel(req)
	if err != nil {
		return err
	}
	summary := s.Out
	if o.auto.board == "json" {
		if err := t.Result.WriteJSON(s.Out); err != nil {
			return err
		}
		summary = s.Err
	} else {
		if err := t.Result.WriteTable(s.Out, 15); err != nil {
			return err
		}
		if !o.global.quiet {
			fmt.Fprintln(s.Out)
		}
	}
	if o.global.quiet {
		summary = io.Discard
	}
	fmt.Fprintf(summary, "chosen       %s\n", t.Result.Best().Describe())
	plan := o.basePlan(streams{Err: io.Discard})
	plan.Summary = summary != io.Discard
	rep, err := pipeline.SaveMultiLabel(plan, t.Model, t.X, Y, labels, len(c.Docs), t.Params, start)
	if err != nil {
		return err
	}
	rep.Write(summary)
	return nil
}
