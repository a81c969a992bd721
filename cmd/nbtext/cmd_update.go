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
		Use:   "update MODEL CORPUS -o NEW",
		Short: "Add the documents of a corpus to a trained model",
		Long: `Add the documents of CORPUS to the trained model MODEL and write the
result to NEW, without reading the old documents again.

Naive Bayes (bernoulli, multinomial, complement) and centroid models with
count or binary weighting (no l2 norm) are updated exactly: the counts of
every term of the old documents, kept beside the model by
'train --keep-counts' (MODEL.nbc, or --counts), and those of CORPUS are
added, pruning (--min-df, --max-df, --max-features, --select) is applied
again over the sum, and the model is fitted with its own parameters. NEW is
then byte-identical to the model 'train' fits on the old and new documents
with the same settings (and --temperature of the model, for a calibrated
one), but for the history step it records (--no-history leaves it out).
New classes are added. NEW's counts are written beside it (NEW.nbc).

Not exact: tf-idf weighting or --norm l2 weigh every document by the whole
corpus's document frequencies, which the update changes. For multinomial
and complement NB the update is then approximate: the vocabulary (pruning,
document frequencies, idf) is recomputed exactly from the counts, the new
documents are weighted exactly as training on the union would, and the old
documents' sums are the model's, rescaled by each term's new idf over its
old one (their l2 norms are not recomputed); forget likewise. Bernoulli NB
counts documents, so it stays exact; centroid is refused. Linear models have
no counts: their update is a warm start from the old weights on CORPUS (and
--replay, a sample of old documents), over the old vocabulary (terms it
lacks are ignored); a new class is added after the old ones with zero
weights and learnt from its documents. Logistic regression trains from the old weights
for --epochs epochs (sgd) or iterations (lbfgs). SVM and NB-LR take a
proximal step: each class's problem minimises
½‖w - w_old‖² + C Σ squared hinge over CORPUS (and --replay) by dual
coordinate descent, for at most --epochs passes; the temperature is kept,
and NB-LR's log-count ratios stay folded in the old weights (the step is
taken on the presence features the model scores). See docs/updating.md.

'nbtext info NEW' shows the history: trained, updated, forgotten, with the
documents and the date of each step (SOURCE_DATE_EPOCH, when set, gives
the date). See docs/updating.md.`,
		Example: `  nbtext train news.tsv --model multinomial --weighting count --keep-counts -o news.nbm
  nbtext update news.nbm more.tsv -o news2.nbm
  nbtext update news.nbm 20news-bydate.tar.gz --split test -o all.nbm
  nbtext update lr.nbm new.tsv --replay old-sample.tsv --epochs 3 -o lr2.nbm`,
	})
}

func newForgetCmd(g *globalOptions) *cobra.Command {
	return updateCmd(g, true, &cobra.Command{
		Use:   "forget MODEL CORPUS -o NEW",
		Short: "Remove the contribution of some training documents from a model",
		Long: `Remove exactly the contribution of the documents of CORPUS from the naive
Bayes or centroid model MODEL, and write the result to NEW: their counts
are subtracted from the model's (MODEL.nbc, or --counts), pruning is
applied again and the model fitted with its own parameters. For the models
'update' updates exactly, NEW is byte-identical to the model 'train' fits
without those documents (but for its history step; --no-history leaves it
out); forgetting what an update added gives back the model before it.

The contract: CORPUS holds documents MODEL was trained on, each with the
label it was trained with, as many times as it was. A document the model
never saw cannot be told from one it saw in general; forget refuses when
the subtraction shows it (a count would go below zero, a class or a term
the model never counted), naming the file. A class left without documents
is dropped. Logistic regression, SVM and NB-LR keep no counts and cannot
forget: retrain them. tf-idf and l2-normalised multinomial and complement
NB forget approximately, as 'update' adds (see its help).`,
		Example: `  nbtext forget news.nbm removed.tsv -o news2.nbm
  nbtext forget all.nbm 20news-bydate.tar.gz --split test -o train-only.nbm`,
	})
}

// updateCmd completes the command of update (forget): its arguments,
// flags, validation and run.
func updateCmd(g *globalOptions, forget bool, cmd *cobra.Command) *cobra.Command {
	o := &updateOptions{global: g, u: pipeline.UpdateOptions{Forget: forget}}
	cmd.Args = cobra.ExactArgs(2)
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags(), args) }
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return runUpdate(cmd, args, o) }
	o.AddFlags(cmd.Flags())
	return cmd
}

func (o *updateOptions) validate(fs *pflag.FlagSet, args []string) error {
	if o.u.Output == "" || o.u.Output == "-" {
		return usageErrorf("-o NEW is required (a file: it is written atomically)")
	}
	if err := checkFixedFlags(fs, []string{"remove"}, "update and forget", "the model fixes what is stripped from each document"); err != nil {
		return err
	}
	if o.u.Epochs < 0 {
		return usageErrorf("--epochs must be ≥ 0, got %d", o.u.Epochs)
	}
	if len(args) == 2 && args[1] == "-" && o.u.Replay == "-" {
		return usageErrorf("--replay -: stdin is CORPUS already")
	}
	return nil
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

// validateKeepCounts checks that 'train --keep-counts' can keep the counts
// a model of kind is refitted from (pipeline.CheckKeepCounts).
func (o *trainOptions) validateKeepCounts(kind model.Kind) error {
	return pipeline.CheckKeepCounts(kind, pipeline.KeepCountsWith{FromCounts: o.fromCounts != "", Stream: o.stream,
		Auto: o.auto.on, Vocab: o.vocab != "", MultiLabel: o.ml.multi, Fields: !o.rec.spec().Empty()})
}
