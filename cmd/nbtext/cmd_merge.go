package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/pipeline"
)

// mergeOptions are the flags of 'nbtext merge'.
type mergeOptions struct {
	global *globalOptions
	m      pipeline.MergeOptions
}

func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.m.Output, "output", "o", "", "merged counts file to write (required)")
	fs.IntVar(&o.m.ExpectShards, "expect-shards", 0, "counts: refuse a merge that does not hold every document of its inputs once, as all N shards (count --shard i/N) do; names the missing shards (0: no check)")
}

func newMergeCmd(g *globalOptions) *cobra.Command {
	o := &mergeOptions{global: g}
	cmd := &cobra.Command{
		Use:     "merge PARTS... -o ALL.nbc",
		Short:   "Add counts files ('nbtext count') into one",
		Long:    helpText("merge"),
		Example: exampleText("merge"),
		Args:    cobra.MinimumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if err := o.m.Check(); err != nil {
				return err
			}
			return checkOutputs(args, nil, o.m.Output)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.m.Paths, o.m.Version = args, buildVersion()
			o.m.Note = func(msg string) { note(cmd.ErrOrStderr(), o.global.quiet, "%s", msg) }
			r, err := pipeline.Merge(o.m)
			if err == nil && !o.global.quiet {
				r.Write(cmd.OutOrStdout()) // as train: the summary is all merge prints
			}
			return err
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
