package main

import (
	"io"
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

// validate checks what the flags ask for (pipeline.CountRequest.Check).
func (o *countOptions) validate(fs *pflag.FlagSet) error {
	r := &pipeline.CountRequest{Output: o.output, Kind: o.kind, Shard: o.shard, Mem: o.mem, VocabFile: o.vocab,
		Given: givenOn(fs), VectorizerFlags: o.fixed}
	return r.Check()
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
	mem, _ := pipeline.ParseSize("mem", o.mem)
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
