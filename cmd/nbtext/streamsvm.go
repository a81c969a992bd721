package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// runTrainStreamDual is 'nbtext train --stream --model svm' and '--model
// nblr': the vocabulary and row cache of a streamed logistic regression
// (runTrainStreamLogReg: a first pass counts the corpus, a second writes
// the weighted rows to a temporary row cache; stdin is spooled for the
// second pass), then the dual solver reads the cache in blocks of
// --stream-buffer rows, its dual variables in a scratch file beside it
// (train.FitSVMStream, train.FitNBLRStream: dual block minimization).
// Memory holds the weights, one block of rows and their dual variables.
// No temperature is fitted: calibration holds out documents, so the
// model scores at --temperature, or 1.
func runTrainStreamDual(s streams, args []string, o *trainOptions, kind model.Kind) error {
	start := time.Now()
	if o.fit.changed("class-weight") {
		return usageErrorf("--class-weight is not supported with --stream: train from the corpus")
	}
	if o.ml.multi {
		return usageErrorf("--stream trains text models of one label: drop --multi-label")
	}
	if _, err := loadInit(o.init, kind, nil, ""); err != nil {
		return err // --init starts logistic regression only
	}
	co := o.corpus
	var (
		fixed *vectorize.Settings
		vocab *vectorize.Vocabulary
		err   error
	)
	if o.vocab != "" {
		if vocab, err = readVocabFile(o.vocab, &co); err != nil {
			return err
		}
		fixed = &vocab.Settings
	}
	settings, _ := train.Defaults(kind)
	if settings, err = resolveSettings(settings, fixed, &o.vec, &co); err != nil {
		return err
	}
	if len(args) == 1 && args[0] == "-" { // read twice: spool it
		spool, err := spoolStdin(s.In)
		if err != nil {
			return err
		}
		defer os.Remove(spool)
		args = []string{spool}
	}
	// Record fields (the SVM's) go to a spool on disk in the first pass.
	fields, err := spoolFields(o, &co, kind)
	if err != nil {
		return err
	}
	if fields != nil {
		defer fields.Close()
	}
	vocab, classes, err := streamVocabulary(s, args, &co, o, settings, nil, vocab)
	if err != nil {
		return err
	}
	co.onDoc = nil
	p, auto, err := o.fit.params(kind, classes, nil)
	if err != nil {
		return err
	}
	if auto {
		return usageErrorf("--C auto cross-validates on documents held in memory: give --C with --stream")
	}
	var f *model.Fields
	rowVocab := vocab
	if fields != nil {
		if f, err = train.LinearFieldsStream(fields, len(classes)); err != nil {
			return err
		}
		if rowVocab, err = train.FieldVocabulary(vocab, f); err != nil {
			return err
		}
		o.rec.params(&p)
	}
	debug.FreeOSMemory() // see runTrainStreamLogReg
	rc, err := rowCache(s, args, &co, o.global.quiet, vocab, classes, f)
	if err != nil {
		return err
	}
	defer rc.Close()
	debug.FreeOSMemory()
	fit := train.FitSVMStream
	if kind == model.NBLR {
		fit = train.FitNBLRStream
	}
	m, err := fit(rc, classes, rowVocab, p, train.Options{
		Workers: o.workers, Progress: progress(s.Err, o.global.quiet, "fitting"),
	}, o.buffer)
	if err != nil {
		return err
	}
	if f != nil {
		if m, err = train.SplitFieldWeights(kind, m, vocab, f); err != nil {
			return err
		}
	}
	if err := saveStreamed(s, m, o.output, rc.Rows()); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "vocabulary   %d terms\n", m.NumTerms())
	if f != nil {
		fmt.Fprintf(s.Out, "fields       %d categorical, %d numeric\n", len(f.Categorical), len(f.Numeric))
	}
	fmt.Fprintf(s.Out, "C            %g\n", p.C)
	fmt.Fprintf(s.Out, "blocks       of %d rows\n", min(o.buffer, rc.Rows()))
	if p.Temperature > 0 {
		fmt.Fprintf(s.Out, "temperature  %.4g (given)\n", p.Temperature)
	} else {
		fmt.Fprintf(s.Out, "temperature  1 (calibration needs the documents: give --temperature)\n")
	}
	fmt.Fprintf(s.Out, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}
