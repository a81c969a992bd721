package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
)

// infoOptions are the flags of 'nbtext info' (model.InfoOptions).
type infoOptions struct{ model.InfoOptions }

func (o *infoOptions) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Top, "top", 10, "show the N terms that weigh most for each class")
	fs.StringVar(&o.Format, "format", "table", "output: table (for people) or json")
}

func newInfoCmd(g *globalOptions) *cobra.Command {
	o := &infoOptions{}
	cmd := &cobra.Command{
		Use:     "info MODEL|COUNTS",
		Short:   "Show what a model or counts file holds: kind, classes, settings, top terms; documents, inputs, shards",
		Long:    helpText("info"),
		Example: exampleText("info"),
		Args:    cobra.ExactArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return withCode(exitUsage, o.Validate()) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runInfo(cmd.OutOrStdout(), args[0], o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// runInfo describes the model or, failing that, the counts file at path.
func runInfo(w io.Writer, path string, o *infoOptions) error {
	mi, err := model.Inspect(path, o.Top)
	if err == nil {
		return mi.Write(w, o.Format)
	} else if !errors.Is(err, model.ErrNotModel) {
		return withCode(exitBadModel, err)
	}
	ci, err := counts.Inspect(path)
	if errors.Is(err, counts.ErrNotCounts) {
		err = fmt.Errorf("%s: neither an nbtext model nor a counts file", path)
	}
	if err != nil {
		return withCode(exitBadModel, err)
	}
	return ci.Write(w, o.Format)
}
