package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// vocabOptions are the flags of 'nbtext vocab'.
type vocabOptions struct {
	global  *globalOptions
	corpus  corpusOptions
	vec     vectorizeOptions
	out     pipeline.VocabOutput
	tmpDir  string
	workers int
}

func (o *vocabOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	o.vec.AddFlags(fs)
	fs.StringVarP(&o.out.File, "output", "o", "", "write the vocabulary TSV to this file, or - for stdout (default: stdout, unless --top is given)")
	fs.IntVar(&o.out.Top, "top", 0, "print the N terms of highest document frequency as a table")
	fs.StringVar(&o.tmpDir, "tmp-dir", "", "folder for the count tables spilled past a quarter of --mem (default: the system's temporary folder)")
	fs.IntVar(&o.workers, "workers", 0, "tokenizer goroutines (0: one per core)")
}

func newVocabCmd(g *globalOptions) *cobra.Command {
	o := &vocabOptions{global: g}
	cmd := &cobra.Command{
		Use:     "vocab CORPUS",
		Short:   "Build a vocabulary and write it as TSV",
		Long:    helpText("vocab"),
		Example: exampleText("vocab"),
		Args:    cobra.MaximumNArgs(1),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.out.Check() },
		RunE:    func(cmd *cobra.Command, args []string) error { return runVocab(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runVocab(cmd *cobra.Command, args []string, o *vocabOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	if err := checkOutputs(args, nil, o.out.File); err != nil {
		return err
	}
	settings := vectorize.DefaultSettings()
	if err := o.vec.apply(&settings); err != nil {
		return err
	}
	var err error
	if settings.Remove, err = o.corpus.removeSetting(); err != nil {
		return err
	}
	src, err := o.corpus.source(s, args, "train", o.global.quiet)
	if err != nil {
		return err
	}
	opt := counts.Options{Workers: o.workers, Mem: vocabCountMem(), TempDir: o.tmpDir}
	vc, err := pipeline.CountVocabulary(&src, settings, opt, o.vec.softMinDF(), func(msg string) { note(s.Err, false, "%s", msg) })
	if err != nil {
		return err
	}
	if err := o.out.Write(vc, s.Out); err != nil { // a failed write of the table fails the run (checkedWriter)
		return err
	}
	note(s.Err, o.global.quiet, "%s", vc.Summary(o.out.File))
	return nil
}

// vocabCountMem bounds the count tables of 'nbtext vocab'
// (counts.Options.Mem): membudget.CountTables, a variable so that tests can make
// a small corpus spill.
var vocabCountMem = membudget.CountTables
