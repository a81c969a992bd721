package pipeline

// The corpus arguments of a command, as a run reads them: files,
// folders, archives, "-" for standard input, and "20news" for the cached
// 20 Newsgroups archive.

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/fsutil"
)

// CachedCorpus is the corpus argument that names the cached 20 Newsgroups
// archive (corpus.FindDefault), unless a file of that name exists.
const CachedCorpus = "20news"

// corpusHint says how to name a corpus, for the usage error of a missing
// or empty corpus argument.
const corpusHint = "name a folder, an archive, a tsv, csv, jsonl or fastText file, or - for standard input; " +
	CachedCorpus + " names the cached 20 Newsgroups archive (scripts/fetch-20news.sh)"

// RequireCorpus fails, as a usage error, when args names no corpus or an
// empty one: a script whose corpus variable is unset must not train on
// some other corpus.
func RequireCorpus(args []string) error {
	if len(args) == 0 {
		return usagef("no corpus given: %s", corpusHint)
	}
	for _, a := range args {
		if strings.TrimSpace(a) == "" {
			return usagef("the corpus argument is empty (an unset variable?): %s", corpusHint)
		}
	}
	return nil
}

// IsCachedCorpus reports whether the corpus argument a names the cached
// 20 Newsgroups archive: it is CachedCorpus and no such file exists.
func IsCachedCorpus(a string) bool {
	if a != CachedCorpus {
		return false
	}
	_, err := os.Lstat(a)
	return err != nil
}

// SourceOf returns the corpora args as a run reads them, with the reader
// options opts: "-" is stdin; CachedCorpus names the cached 20 Newsgroups
// archive, whose defaultSplit is read unless opts.Split says otherwise;
// cached, when not nil, is told its path and split. No corpus argument,
// or an empty one, is a usage error (RequireCorpus).
func SourceOf(args []string, stdin io.Reader, opts corpus.Options, defaultSplit string, cached func(path, split string)) (Source, error) {
	if err := RequireCorpus(args); err != nil {
		return Source{}, err
	}
	src := Source{Paths: slices.Clone(args), Splits: make([]string, len(args)), Stdin: stdin, Options: opts}
	for i, a := range args {
		if !IsCachedCorpus(a) {
			continue
		}
		path, err := corpus.FindDefault()
		if err != nil {
			return Source{}, err
		}
		src.Paths[i], src.Splits[i] = path, defaultSplit
		if cached != nil {
			split := opts.Split
			if split == "" {
				split = defaultSplit
			}
			cached(path, split)
		}
	}
	return src, nil
}

// CheckOutputs refuses, as a usage error before any work is done, an
// output file (outputs; "" and "-" are none) that exists and is not a
// regular file, that is the same file as an input or lies inside an input
// folder (fsutil.CheckOutput), or that is named twice. The inputs are the
// corpus arguments args (CachedCorpus: the cached archive) and extra,
// e.g. a --vocab file or a model. It also refuses an input argument given
// twice, or inside a folder given too (fsutil.CheckDistinct): its
// documents or counts would be added twice.
func CheckOutputs(args, extra []string, outputs ...string) error {
	if err := fsutil.CheckDistinct(args...); err != nil {
		return usage(err)
	}
	inputs := slices.Clone(extra)
	for _, a := range args {
		if IsCachedCorpus(a) {
			inputs = append(inputs, corpus.DefaultPath())
		} else if a != "-" {
			inputs = append(inputs, a)
		}
	}
	var files []string
	for _, out := range outputs {
		if out == "" || out == "-" {
			continue
		}
		for _, f := range files {
			if fsutil.SamePath(f, out) {
				return usagef("%s: the same file as the output %s", out, f)
			}
		}
		if err := fsutil.CheckOutput(out, inputs...); err != nil {
			return usage(err)
		}
		files = append(files, out)
	}
	return nil
}
