package main

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
)

// countOptions are the flags of 'nbtext count'.
type countOptions struct {
	global  *globalOptions
	corpus  corpusOptions
	vec     vectorizeOptions
	kind    string
	shard   string
	vocab   string
	mem     string
	tmpDir  string
	output  string
	workers int
	// fixed are the flags whose settings a --vocab file replaces.
	fixed []string
}

func (o *countOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	o.fixed = vocabFixedFlags(fs, addedFlags(fs, o.vec.AddModelFlags))
	fs.StringVar(&o.kind, "model", "multinomial", "count with the vectorizer settings of this model's defaults: bernoulli, multinomial, complement or centroid (flags override them)")
	fs.StringVar(&o.shard, "shard", "", "count only shard i of N (1 ≤ i ≤ N): documents i, i+N, i+2N, ... of the inputs, in order")
	fs.StringVar(&o.vocab, "vocab", "", "round two: the merged round-one counts whose pruned vocabulary and document frequencies the weighted sums follow (its settings replace the vectorizer flags)")
	fs.StringVar(&o.mem, "mem", "", "bound the count table's memory (e.g. 512MiB, 2G): past half of it, sorted runs spill to disk and are merged at the end (default: no bound)")
	fs.StringVar(&o.tmpDir, "tmp-dir", "", "folder for spilled runs (default: the system's temporary folder)")
	fs.StringVarP(&o.output, "output", "o", "", "counts file to write (required)")
	fs.IntVar(&o.workers, "workers", 0, "tokenizer goroutines (0: one per core)")
}

func newCountCmd(g *globalOptions) *cobra.Command {
	o := &countOptions{global: g}
	cmd := &cobra.Command{
		Use:     "count CORPUS... [--shard i/N] -o PART.nbc",
		Short:   "Count the Naive Bayes statistics of a corpus or one shard of it",
		Long:    helpText("count"),
		Example: exampleText("count"),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags()) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runCount(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func (o *countOptions) validate(fs *pflag.FlagSet) error {
	if o.output == "" {
		return usageErrorf("-o PART.nbc is required")
	}
	if o.output == "-" {
		return usageErrorf("-o -: counts are written to a file (atomically, via a temporary file), not to stdout")
	}
	if k, err := model.ParseKind(o.kind); err != nil || !pipeline.FitsCounts(k) {
		return usageErrorf("--model must be bernoulli, multinomial, complement or centroid, got %q", o.kind)
	}
	if _, _, err := counts.ParseShard(o.shard); err != nil {
		return withCode(exitUsage, err)
	}
	if _, err := parseSize("mem", o.mem); err != nil {
		return err
	}
	if o.vocab != "" {
		return checkFixedFlags(fs, append(o.fixed, "model"), "--vocab", "the round-one counts fix the vectorizer settings")
	}
	return nil
}

// parseSize parses a byte size such as 512MiB, 2G, 100k or 1048576 (k, M,
// G and T are powers of 1024, with or without "iB" or "B"); empty is 0.
func parseSize(flag, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(t[len(num):], "B"), "i"))
	shift := map[string]uint{"": 0, "k": 10, "m": 20, "g": 30, "t": 40}
	sh, ok := shift[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > 1<<(62-sh) {
		return 0, usageErrorf("--%s must be a size such as 512MiB, 2G or 100000 bytes, got %q", flag, s)
	}
	return n << sh, nil
}

func runCount(cmd *cobra.Command, args []string, o *countOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	if o.global.quiet {
		s.Out = io.Discard // as train: the summary is all count prints
	}
	start := time.Now()
	kind, _ := model.ParseKind(o.kind)
	co := o.corpus
	settings, vocab, fixed, err := pipeline.CountSettings(kind, o.vocab, o.vec.apply)
	if err != nil {
		return err
	}
	if fixed {
		co.remove = settings.Remove // what round one stripped
	}
	if settings.Remove, err = co.removeSetting(); err != nil {
		return err
	}
	i, n, _ := counts.ParseShard(o.shard)
	mem, _ := parseSize("mem", o.mem)
	if err := checkOutputs(args, []string{o.vocab}, o.output); err != nil {
		return err
	}
	source := func() (pipeline.Source, error) { return co.source(s, args, "train", o.global.quiet) }
	rep, err := pipeline.Count(pipeline.CountPlan{Start: start, Mem: o.mem, Source: source, Settings: settings, Vocab: vocab,
		Shard: i, Shards: n, Output: o.output, Options: counts.Options{Workers: o.workers, Mem: mem, TempDir: o.tmpDir}})
	if err != nil {
		return err
	}
	rep.Write(s.Out)
	if msg := rep.RoundTwoNeeded(); msg != "" {
		note(s.Err, o.global.quiet, "%s", msg)
	}
	return nil
}

// orNone returns s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// validateFromCounts rejects the train flags that --from-counts makes
// meaningless: the counts fix the vectorizer settings and the documents.
func (o *trainOptions) validateFromCounts(fs *pflag.FlagSet) error {
	if fs.Changed("expect-shards") && o.expectShards < 1 {
		return usageErrorf("--expect-shards must be ≥ 1, got %d", o.expectShards)
	}
	names := append(slices.Clone(o.fixed), "vocab", "split", "input-format", "classes", "folds")
	return checkFixedFlags(fs, names, "--from-counts", "the counts file fixes the documents and the vectorizer settings, so pass such flags to 'nbtext count'")
}
