// Command cvfolds prints, one line per record of a corpus in source order,
// the fold (0..k-1) that 'nbtext eval --cv k --seed s' holds that record
// out in: the stratified folds of corpus.StratifiedKFold over the label
// ids, read as eval reads the corpus. With it another library can be
// cross-validated on exactly nbtext's folds (scikit-learn's
// PredefinedSplit; docs/discriminant-analysis.md). A development tool,
// not an nbtext command.
//
//	go run ./tools/cvfolds -label-field species -text-field species testdata/iris.csv > iris.folds
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/nbtext/nbtext/internal/corpus"
)

func main() {
	k := flag.Int("k", 10, "folds")
	seed := flag.Uint64("seed", 1, "seed of eval --cv")
	label := flag.String("label-field", "label", "csv, tsv, jsonl: the label column")
	text := flag.String("text-field", "", "csv, tsv, jsonl: a column that stands for the text (any; the text is not used)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: cvfolds [-k 10] [-seed 1] -label-field NAME -text-field NAME CORPUS")
		os.Exit(2)
	}
	opts := corpus.Options{LabelField: *label}
	if *text != "" {
		opts.TextFields = []string{*text}
	}
	c, err := corpus.Read(flag.Arg(0), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cvfolds:", err)
		os.Exit(1)
	}
	folds, err := corpus.StratifiedKFold(c.LabelIDs(), *k, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cvfolds:", err)
		os.Exit(1)
	}
	fold := make([]int, len(c.Docs))
	for f, held := range folds {
		for _, i := range held {
			fold[i] = f
		}
	}
	w := bufio.NewWriter(os.Stdout)
	for _, f := range fold {
		fmt.Fprintln(w, f)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "cvfolds:", err)
		os.Exit(1)
	}
}
