package main

import (
	"github.com/nbtext/nbtext/internal/train"
)

// validateMultiLabel checks the flags of 'train --auto --multi-label'.
func (o *autoOptions) validateMultiLabel(tune bool) error {
	if tune {
		return usageErrorf("--tune-thresholds with --auto --multi-label: the search scores candidates at the threshold it stores (%g); drop --tune-thresholds, or drop --auto and give --model", train.DefaultLabelThreshold)
	}
	return o.check(true)
}

// runTrainAutoMultiLabel is 'nbtext train --auto --multi-label': the
// searched run of pipeline does both.
var runTrainAutoMultiLabel = runTrainAuto
