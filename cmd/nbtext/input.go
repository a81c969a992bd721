package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/pipeline"
)

// cachedCorpus is the corpus argument that names the cached 20 Newsgroups
// archive (corpus.FindDefault), unless a file of that name exists.
const cachedCorpus = "20news"

// corpusHint says how to name a corpus, for the usage error of a missing
// or empty corpus argument.
const corpusHint = "name a folder, an archive, a tsv, csv, jsonl or fastText file, or - for standard input; " +
	cachedCorpus + " names the cached 20 Newsgroups archive (scripts/fetch-20news.sh)"

// requireCorpus fails, as a usage error, when args names no corpus or an
// empty one: a script whose corpus variable is unset must not train on
// some other corpus.
func requireCorpus(args []string) error {
	if len(args) == 0 {
		return usageErrorf("no corpus given: %s", corpusHint)
	}
	for _, a := range args {
		if strings.TrimSpace(a) == "" {
			return usageErrorf("the corpus argument is empty (an unset variable?): %s", corpusHint)
		}
	}
	return nil
}

// isCachedCorpus reports whether the corpus argument a names the cached
// 20 Newsgroups archive: it is cachedCorpus and no such file exists.
func isCachedCorpus(a string) bool {
	if a != cachedCorpus {
		return false
	}
	_, err := os.Lstat(a)
	return err != nil
}

// source returns the corpora args as the pipeline reads them, with the
// reader options of o: "-" is stdin; "20news" names the cached 20
// Newsgroups archive (corpus.FindDefault), whose defaultSplit is read
// unless --split says otherwise, with a notice the first time. No corpus
// argument, or an empty one, is a usage error (requireCorpus).
func (o *corpusOptions) source(s streams, args []string, defaultSplit string, quiet bool) (pipeline.Source, error) {
	opts, err := o.options()
	if err != nil {
		return pipeline.Source{}, err
	}
	opts.Progress = progress(s.Err, quiet, "reading")
	opts.Warn = func(msg string) { note(s.Err, false, "nbtext: warning: %s", msg) }
	if err := requireCorpus(args); err != nil {
		return pipeline.Source{}, err
	}
	src := pipeline.Source{Paths: slices.Clone(args), Splits: make([]string, len(args)), Stdin: s.In, Options: opts}
	for i, a := range args {
		if !isCachedCorpus(a) {
			continue
		}
		path, err := corpus.FindDefault()
		if err != nil {
			return pipeline.Source{}, err
		}
		src.Paths[i], src.Splits[i] = path, defaultSplit
		if !o.defaultNoticed {
			o.defaultNoticed = true
			split := opts.Split
			if split == "" {
				split = defaultSplit
			}
			note(s.Err, false, "nbtext: %s: reading the %s split of the cached 20 Newsgroups archive %s", cachedCorpus, split, path)
		}
	}
	// The bar counts what the readers count: bytes of a file, an archive
	// or stdin, documents of a folder.
	src.Options.Progress = readingProgress(s.Err, quiet, src.Paths[0])
	return src, nil
}

// loadCorpus reads the corpus named by args[0] ("20news": the cached 20
// Newsgroups archive, with defaultSplit when --split is not given; "-":
// stdin).
func loadCorpus(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool) (*corpus.Corpus, error) {
	c, _, err := loadCorpusStream(s, args, o, defaultSplit, quiet, nil)
	return c, err
}

// loadCorpusStream is loadCorpus for a consumer that works while the source
// is read (vectorize.FitStream): emit, when not nil, gets every text as it
// is decoded, and seq maps the corpus's documents to the emit calls
// (pipeline.Source.LoadStream).
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
