package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
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

// loadCorpus reads the corpus named by args ("20news": the cached 20
// Newsgroups archive, with defaultSplit when --split is not given; "-":
// stdin).
func loadCorpus(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool) (*corpus.Corpus, error) {
	c, _, err := loadCorpusStream(s, args, o, defaultSplit, quiet, nil)
	return c, err
}

// streamCorpus calls fn with each document of the corpus args[0] ("-":
// stdin; "20news": the cached 20 Newsgroups, its defaultSplit unless
// --split says otherwise), one at a time (corpus.Stream): memory does not grow
// with the corpus. The document's strings are valid only until fn returns
// (corpus.Options.Transient): fn copies what it keeps.
func streamCorpus(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool, fn func(corpus.Document) error) error {
	opts, path, err := corpusSource(s, args, o, defaultSplit, quiet)
	if err != nil {
		return err
	}
	opts.Transient = true
	if path == "-" {
		return corpus.StreamFrom(s.In, "stdin", opts, fn)
	}
	return corpus.Stream(path, opts, fn)
}

// corpusSource returns the reader options of o and the path of the
// corpus args[0] ("20news": the cached 20 Newsgroups, its defaultSplit
// unless --split says otherwise, with a notice the first time). No corpus
// argument, or an empty one, is a usage error (requireCorpus).
func corpusSource(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool) (corpus.Options, string, error) {
	opts, err := o.options()
	if err != nil {
		return opts, "", err
	}
	opts.Progress = progress(s.Err, quiet, "reading")
	opts.Warn = func(msg string) { note(s.Err, false, "nbtext: warning: %s", msg) }
	if err := requireCorpus(args); err != nil {
		return opts, "", err
	}
	if !isCachedCorpus(args[0]) {
		return opts, args[0], nil
	}
	path, err := corpus.FindDefault()
	if err != nil {
		return opts, "", err
	}
	if opts.Split == "" {
		opts.Split = defaultSplit
	}
	if !o.defaultNoticed {
		o.defaultNoticed = true
		note(s.Err, false, "nbtext: %s: reading the %s split of the cached 20 Newsgroups archive %s", cachedCorpus, opts.Split, path)
	}
	return opts, path, nil
}

// loadCorpusStream is loadCorpus for a consumer that works while the source
// is read (vectorize.FitStream): emit, when not nil, gets every text as it
// is decoded, and seq maps the corpus's documents to the emit calls (see
// corpus.ReadStream).
func loadCorpusStream(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool, emit func(string)) (*corpus.Corpus, []int, error) {
	opts, path, err := corpusSource(s, args, o, defaultSplit, quiet)
	if err != nil {
		return nil, nil, err
	}
	if path == "-" || emit == nil {
		var c *corpus.Corpus
		if path == "-" {
			c, err = corpus.ReadFrom(s.In, "stdin", opts)
		} else {
			c, err = corpus.Read(path, opts)
		}
		if err != nil || emit == nil {
			return c, nil, err
		}
		return c, corpus.EmitAll(c, emit, opts.DropTexts), nil
	}
	return corpus.ReadStream(path, opts, emit)
}

// fitCorpus reads the corpus while fitting a vocabulary with settings on
// it: vectorize.FitStream tokenizes the texts as corpus.ReadStream decodes
// them, so gunzip runs on one core and the tokenizer on the others. It
// returns the corpus, its label ids, the vocabulary and, with wantMatrix,
// the count matrix of the corpus (nil otherwise). softMinDF makes
// settings.MinDF a default the corpus may be too small for
// (vectorize.FitStream.RelaxMinDF), with a notice when it is.
func fitCorpus(s streams, args []string, o *corpusOptions, settings vectorize.Settings, pc *train.ProfileChoice, softMinDF bool, workers int, quiet, wantMatrix bool) (c *corpus.Corpus, y []int, v *vectorize.Vocabulary, X *vectorize.Matrix, err error) {
	fst, err := train.NewProfiledFitStream(settings, workers, pc)
	if err != nil {
		return nil, nil, nil, nil, withCode(exitUsage, err)
	}
	defer fst.Close()
	if softMinDF {
		fst.RelaxMinDF()
		defer func() {
			if v != nil && v.Settings.MinDF < settings.MinDF {
				note(s.Err, false, "nbtext: the default --min-df %d would keep no term of these %d documents: using --min-df 1", settings.MinDF, len(c.Docs))
			} else if v != nil && smallCorpusPruned(len(c.Docs), v.Len(), fst.Unpruned(), settings.MinDF) {
				note(s.Err, false, "nbtext: warning: the default --min-df %d kept %d of %d terms of these %d documents: a document of the other words is empty to the model; --min-df 1 keeps them all", settings.MinDF, v.Len(), fst.Unpruned(), len(c.Docs))
			}
		}()
	}
	restore := func() {}
	if o.dropTexts {
		restore = relaxGC()
	}
	c, seq, err := loadCorpusStream(s, args, o, "train", quiet, fst.Add)
	restore()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	y = c.LabelIDs()
	if !wantMatrix {
		v, err = fst.FinishVocabulary(seq, y, len(c.Labels))
		return c, y, v, nil, err
	}
	v, X, err = fst.Finish(seq, y, len(c.Labels))
	return c, y, v, X, err
}

// smallCorpusLimit is the number of documents below which a corpus is
// small enough for a default --min-df to leave most of its words out.
const smallCorpusLimit = 1000

// smallCorpusPruned reports whether the default minimum document
// frequency minDF kept fewer than a quarter of the unpruned terms of a
// corpus of fewer than smallCorpusLimit docs: on toy data, most words of
// a new document are then unknown to the model.
func smallCorpusPruned(docs, kept, unpruned, minDF int) bool {
	return minDF > 1 && docs < smallCorpusLimit && unpruned > 0 && 4*kept < unpruned
}

// note prints a one-line summary on stderr unless --quiet.
func note(w io.Writer, quiet bool, format string, a ...any) {
	if !quiet {
		fmt.Fprintf(w, format+"\n", a...)
	}
}
