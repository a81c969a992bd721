package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
)

// updateOptions are the flags of 'nbtext update' and 'nbtext forget'.
type updateOptions struct {
	global *globalOptions
	corpus corpusOptions
	u      pipeline.UpdateOptions
}

func (o *updateOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	// The model fixes what is stripped (validate refuses the flag).
	fs.MarkHidden("remove")
	fs.StringVarP(&o.u.Output, "output", "o", "", "model file to write (required); its counts are written beside it (NEW.nbc)")
	fs.StringVar(&o.u.Counts, "counts", "", "naive bayes, centroid: the model's counts (default: MODEL.nbc beside it, as 'train --keep-counts' writes)")
	fs.BoolVar(&o.u.NoHistory, "no-history", false, "record no history step in the model: the file is then byte-identical to the one train writes on the same documents")
	fs.IntVar(&o.u.Workers, "workers", 0, "tokenizer goroutines (0: one per core)")
	if !o.u.Forget {
		fs.IntVar(&o.u.Epochs, "epochs", 0, "linear models: epochs (logreg sgd), iterations (lbfgs) or passes (svm, nblr) of the warm start on the new documents (default: the model's)")
		fs.StringVar(&o.u.Replay, "replay", "", "linear models: a corpus of old training documents (a sample) to train on with the new ones, so that the warm start does not forget them")
	}
}

func newUpdateCmd(g *globalOptions) *cobra.Command {
	return updateCmd(g, false, &cobra.Command{
		Use:     "update MODEL CORPUS -o NEW",
		Short:   "Add the documents of a corpus to a trained model",
		Long:    helpText("update"),
		Example: exampleText("update"),
	})
}

func newForgetCmd(g *globalOptions) *cobra.Command {
	return updateCmd(g, true, &cobra.Command{
		Use:     "forget MODEL CORPUS -o NEW",
		Short:   "Remove the contribution of some training documents from a model",
		Long:    helpText("forget"),
		Example: exampleText("forget"),
	})
}

// updateCmd completes the command of update (forget): its arguments,
// flags, validation and run.
func updateCmd(g *globalOptions, forget bool, cmd *cobra.Command) *cobra.Command {
	o := &updateOptions{global: g, u: pipeline.UpdateOptions{Forget: forget}}
	cmd.Args = cobra.ExactArgs(2)
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		fixed := checkFixedFlags(cmd.Flags(), []string{"remove"}, "update and forget", "the model fixes what is stripped from each document")
		return o.u.Check(args[1], fixed)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return runUpdate(cmd, args, o) }
	o.AddFlags(cmd.Flags())
	return cmd
}

// countsPath returns the counts file beside a model file (train
// --keep-counts writes it).
var countsPath = pipeline.CountsPath

func runUpdate(cmd *cobra.Command, args []string, o *updateOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	u, co := o.u, o.corpus
	u.ModelPath, u.Corpus, u.Split = args[0], args[1], o.corpus.split
	u.SourceDateEpoch, u.Version, u.CheckFiles = os.Getenv("SOURCE_DATE_EPOCH"), buildVersion(), checkOutputs
	u.Source = func(arg, remove string) (pipeline.Source, error) {
		co.remove = remove
		return co.source(s, []string{arg}, "train", o.global.quiet)
	}
	u.Note = func(msg string) { note(s.Err, o.global.quiet, "%s", msg) }
	r, err := pipeline.UpdateModel(u)
	if errors.Is(err, model.ErrModelFile) {
		return withCode(exitBadModel, err)
	} else if err == nil && !o.global.quiet {
		r.Write(s.Out)
	}
	return err
}
