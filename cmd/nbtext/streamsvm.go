package main

import (
	"fmt"
	"time"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// runTrainStreamDual is 'nbtext train --stream --model svm' and '--model
// nblr': the passes of streamLinearRows write the weighted rows to a
// temporary row cache, as for a streamed logistic regression, and the
// dual solver reads the cache in blocks of --stream-buffer rows, its dual
// variables in a scratch file beside it (train.FitSVMStream,
// train.FitNBLRStream: dual block minimization). Memory holds the
// weights, one block of rows and their dual variables. No temperature is
// fitted: calibration holds out documents, so the model scores at
// --temperature, or 1.
func runTrainStreamDual(s streams, args []string, o *trainOptions, kind model.Kind) error {
	start := time.Now()
	r, err := streamLinearRows(s, args, o, kind) // --init: logreg only
	if err != nil {
		return err
	}
	defer r.rc.Close()
	fit := train.FitSVMStream
	if kind == model.NBLR {
		fit = train.FitNBLRStream
	}
	m, err := fit(r.rc, r.classes, r.rowVocab, r.p, train.Options{
		Workers: o.workers, Progress: progress(s.Err, o.global.quiet, "fitting"),
	}, o.buffer)
	if err != nil {
		return err
	}
	if err := r.save(s, kind, m, o.output); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "C            %g\n", r.p.C)
	fmt.Fprintf(s.Out, "blocks       of %d rows\n", min(o.buffer, r.rc.Rows()))
	if r.p.Temperature > 0 {
		fmt.Fprintf(s.Out, "temperature  %.4g (given)\n", r.p.Temperature)
	} else {
		fmt.Fprintf(s.Out, "temperature  1 (calibration needs the documents: give --temperature)\n")
	}
	fmt.Fprintf(s.Out, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}
