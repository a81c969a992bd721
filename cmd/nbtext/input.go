package main

import (
	"fmt"
	"io"
	"os"

	"github.com/nbtext/nbtext/internal/corpus"
)

// loadCorpus reads the corpus named by args (none: the cached 20 Newsgroups
// archive, with defaultSplit when --split is not given; "-": stdin).
func loadCorpus(s streams, args []string, o *corpusOptions, defaultSplit string, quiet bool) (*corpus.Corpus, error) {
	opts, err := o.options()
	if err != nil {
		return nil, err
	}
	opts.Progress = progress(s.Err, quiet, "reading")
	opts.Warn = func(msg string) { note(s.Err, false, "nbtext: warning: %s", msg) }
	var path string
	if len(args) == 0 {
		path = corpus.DefaultPath()
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no corpus given and no 20 Newsgroups copy at %s: run scripts/fetch-20news.sh, set NBTEXT_20NEWS_TARBALL, or name a corpus", path)
		}
		if opts.Split == "" {
			opts.Split = defaultSplit
		}
	} else {
		path = args[0]
	}
	if path == "-" {
		return corpus.ReadFrom(s.In, "stdin", opts)
	}
	return corpus.Read(path, opts)
}

// note prints a one-line summary on stderr unless --quiet.
func note(w io.Writer, quiet bool, format string, a ...any) {
	if !quiet {
		fmt.Fprintf(w, format+"\n", a...)
	}
}
