package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/pipeline"
)

// mergeOptions are the flags of 'nbtext merge'.
type mergeOptions struct {
	global       *globalOptions
	output       string
	expectShards int
}

func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.output, "output", "o", "", "merged counts file to write (required)")
	fs.IntVar(&o.expectShards, "expect-shards", 0, "counts: refuse a merge that does not hold every document of its inputs once, as all N shards (count --shard i/N) do; names the missing shards (0: no check)")
}

func newMergeCmd(g *globalOptions) *cobra.Command {
	o := &mergeOptions{global: g}
	cmd := &cobra.Command{
		Use:   "merge PARTS... -o ALL.nbc",
		Short: "Add counts files ('nbtext count') into one",
		Long: `Add counts files written by 'nbtext count' (or by earlier merges) into one.
The merge is exact, associative and commutative: merging the parts of a
corpus flat, as any tree of merges, or counting the whole corpus at once
gives the same bytes. It streams (one term of each part in memory), checks
each part's checksum, and refuses parts counted with different settings or,
in round two, over different vocabularies, naming the difference. The
output is written atomically and only once every part has been read whole.

Counts record what they counted: each input by the SHA-256 of its
documents (not by its path), and the shards of them. Merge refuses a
document counted twice, naming the files, the input and the shard: the same
shard in two parts, a merge and one of its own parts ('merge *.nbc' run
again with another -o), or overlapping counts of the same input.
--expect-shards N also refuses a merge that misses shards. 'nbtext info'
shows what a counts file holds.

Given logistic regression models (of 'train --model logreg', over the same
vocabulary and classes) instead, merge averages their weights, each model
weighted by the number of documents it was fitted on: the mixing step of
iterative parameter mixing, where each shard runs one epoch from the mixed
model ('train --init MIXED.nbm --epochs 1 SHARD') and the results are
merged again.`,
		Example: `  nbtext merge part*.nbc -o all.nbc
  nbtext merge --expect-shards 8 part*.nbc -o all.nbc
  nbtext merge a.nbc b.nbc -o ab.nbc && nbtext merge ab.nbc cd.nbc -o all.nbc
  nbtext merge shard1.nbm shard2.nbm -o mixed.nbm`,
		Args: cobra.MinimumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if o.output == "" || o.output == "-" {
				return usageErrorf("-o ALL.nbc is required (a file: it is written atomically)")
			}
			if o.expectShards < 0 {
				return usageErrorf("--expect-shards must be ≥ 0, got %d", o.expectShards)
			}
			return checkOutputs(args, nil, o.output)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := pipeline.Merge(pipeline.MergeOptions{Paths: args, Output: o.output, ExpectShards: o.expectShards, Version: buildVersion(),
				Note: func(msg string) { note(cmd.ErrOrStderr(), o.global.quiet, "%s", msg) }})
			if err == nil && !o.global.quiet {
				r.Write(cmd.OutOrStdout()) // as train: the summary is all merge prints
			}
			return err
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
