package main

import (
	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/fsutil"
)

// checkOutputs refuses, as a usage error before any work is done, an
// output file (outputs; "" and "-" are none) that exists and is not a
// regular file, that is the same file as an input or lies inside an input
// folder (fsutil.CheckOutput), or that is named twice. The inputs are the
// corpus arguments ("20news": the cached 20 Newsgroups archive) and
// extra, e.g. a --vocab file or a model. It also refuses an input argument
// given twice, or inside a folder given too (fsutil.CheckDistinct): its
// documents or counts would be added twice.
func checkOutputs(args, extra []string, outputs ...string) error {
	if err := fsutil.CheckDistinct(args...); err != nil {
		return withCode(exitUsage, err)
	}
	inputs := append([]string{}, extra...)
	for _, a := range args {
		if isCachedCorpus(a) {
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
				return usageErrorf("%s: the same file as the output %s", out, f)
			}
		}
		if err := fsutil.CheckOutput(out, inputs...); err != nil {
			return withCode(exitUsage, err)
		}
		files = append(files, out)
	}
	return nil
}
