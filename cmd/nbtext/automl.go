package main

import (
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

// runTrainAutoMultiLabel is 'nbtext train --auto --multi-label': the
// searched run of pipeline does both.
var runTrainAutoMultiLabel = runTrainAuto
