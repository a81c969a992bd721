package main

import (
	"fmt"
	"io"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/pipeline"
)

// cachedCorpus is the corpus argument naming the cached 20 Newsgroups
// archive (pipeline.CachedCorpus).
const cachedCorpus = pipeline.CachedCorpus

var (
	requireCorpus  = pipeline.RequireCorpus
	isCachedCorpus = pipeline.IsCachedCorpus
	// checkOutputs refuses outputs that would replace an input or a
	// non-regular file, before any work (pipeline.CheckOutputs).
	checkOutputs = pipeline.CheckOutputs
)

// source returns the corpora args as the pipeline reads them, with the
// reader options of o, a reading bar and warnings on stderr, and a notice
// the first time the cached 20 Newsgroups archive is read
// (pipeline.SourceOf).
func (o *corpusOptions) source(s streams, args []string, defaultSplit string, quiet bool) (pipeline.Source, error) {
	opts, err := o.options()
	if err != nil {
		return pipeline.Source{}, err
	}
	opts.Warn = func(msg string) { note(s.Err, false, "nbtext: warning: %s", msg) }
	src, err := pipeline.SourceOf(args, s.In, opts, defaultSplit, func(path, split string) {
		if !o.defaultNoticed {
			o.defaultNoticed = true
			note(s.Err, false, "nbtext: %s: reading the %s split of the cached 20 Newsgroups archive %s", cachedCorpus, split, path)
		}
	})
	if err == nil {
		src.Options.Progress = readingProgress(s.Err, quiet, src.Paths[0])
	}
	return src, err
}

// loadCorpus reads the corpus named by args (source).
func loadCorpus(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool) (*corpus.Corpus, error) {
	c, _, err := loadCorpusStream(s, args, o, defaultSplit, quiet, nil)
	return c, err
}

// loadCorpusStream is loadCorpus for a consumer that works while the source
// is read: emit, when not nil, gets every text as it is decoded, and seq
// maps the corpus's documents to the emit calls (pipeline.Source.LoadStream).
// A command that holds every document (o.holds) refuses a corpus over the
// memory budget first.
func loadCorpusStream(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool, emit func(string)) (*corpus.Corpus, []int, error) {
	src, err := o.source(s, args, defaultSplit, quiet)
	if err != nil {
		return nil, nil, err
	}
	if o.holds != "" {
		b, err := membudget.Resolve(o.mem)
		if err != nil {
			return nil, nil, usageErrorf("%v", err)
		}
		if err := src.CheckHold(b, o.holds); err != nil {
			return nil, nil, err
		}
	}
	return src.LoadStream(emit)
}

// note prints a one-line summary on stderr unless --quiet.
func note(w io.Writer, quiet bool, format string, a ...any) {
	if !quiet {
		fmt.Fprintf(w, format+"\n", a...)
	}
}
