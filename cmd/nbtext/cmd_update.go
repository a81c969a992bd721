package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/update"
)

// updateOptions are the flags of 'nbtext update' and 'nbtext forget'.
type updateOptions struct {
	global    *globalOptions
	corpus    corpusOptions
	forget    bool
	counts    string
	output    string
	noHistory bool
	epochs    int
	replay    string
	workers   int
}

func (o *updateOptions) AddFlags(fs *pflag.FlagSet) {
	o.corpus.AddFlags(fs)
	// The model fixes what is stripped (validate refuses the flag).
	fs.MarkHidden("remove")
	fs.StringVarP(&o.output, "output", "o", "", "model file to write (required); its counts are written beside it (NEW.nbc)")
	fs.StringVar(&o.counts, "counts", "", "naive bayes, centroid: the model's counts (default: MODEL.nbc beside it, as 'train --keep-counts' writes)")
	fs.BoolVar(&o.noHistory, "no-history", false, "record no history step in the model: the file is then byte-identical to the one train writes on the same documents")
	fs.IntVar(&o.workers, "workers", 0, "tokenizer goroutines (0: one per core)")
	if !o.forget {
		fs.IntVar(&o.epochs, "epochs", 0, "linear models: epochs (logreg sgd), iterations (lbfgs) or passes (svm, nblr) of the warm start on the new documents (default: the model's)")
		fs.StringVar(&o.replay, "replay", "", "linear models: a corpus of old training documents (a sample) to train on with the new ones, so that the warm start does not forget them")
	}
}

func newUpdateCmd(g *globalOptions) *cobra.Command {
	o := &updateOptions{global: g}
	cmd := &cobra.Command{
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
		Args:    cobra.ExactArgs(2),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags(), args) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runUpdate(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func newForgetCmd(g *globalOptions) *cobra.Command {
	o := &updateOptions{global: g, forget: true}
	cmd := &cobra.Command{
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
		Args:    cobra.ExactArgs(2),
		PreRunE: func(cmd *cobra.Command, args []string) error { return o.validate(cmd.Flags(), args) },
		RunE:    func(cmd *cobra.Command, args []string) error { return runUpdate(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func (o *updateOptions) validate(fs *pflag.FlagSet, args []string) error {
	if o.output == "" || o.output == "-" {
		return usageErrorf("-o NEW is required (a file: it is written atomically)")
	}
	if err := checkFixedFlags(fs, []string{"remove"}, "update and forget", "the model fixes what is stripped from each document"); err != nil {
		return err
	}
	if o.epochs < 0 {
		return usageErrorf("--epochs must be ≥ 0, got %d", o.epochs)
	}
	if len(args) == 2 && args[1] == "-" && o.replay == "-" {
		return usageErrorf("--replay -: stdin is CORPUS already")
	}
	return nil
}

// countsPath returns the counts file beside the model file path: its
// name with .nbm replaced by (or, without it, followed by) .nbc.
func countsPath(path string) string { return strings.TrimSuffix(path, ".nbm") + ".nbc" }

// historyDate returns the date a history step records: SOURCE_DATE_EPOCH
// (seconds since 1970, as reproducible builds set it) when set, else now,
// in RFC 3339, UTC.
func historyDate() (string, error) {
	t := time.Now()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", usageErrorf("SOURCE_DATE_EPOCH=%q: not a number of seconds", s)
		}
		t = time.Unix(sec, 0)
	}
	return t.UTC().Format(time.RFC3339), nil
}

func runUpdate(cmd *cobra.Command, args []string, o *updateOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	start := time.Now()
	modelPath, src := args[0], args[1]
	m, err := model.Load(modelPath)
	if err != nil {
		return withCode(exitBadModel, err)
	}
	date, err := historyDate()
	if err != nil {
		return err
	}
	source := src
	if o.corpus.split != "" {
		source += " (split " + o.corpus.split + ")"
	}
	opt := update.Options{Date: date, Source: source, NoHistory: o.noHistory}
	co := o.corpus
	co.remove = m.Vocab.Settings.Remove
	if !o.forget && (m.Kind == model.LogReg || m.Kind == model.SVM || m.Kind == model.NBLR) {
		return runUpdateLinear(s, m, args, o, &co, opt, start)
	}
	// tf-idf and the l2 norm: an approximate update (update.AddApprox),
	// whose round two replays the rows of round one.
	approx := update.Exact(m) != nil && update.Approximate(m) == nil
	if err := update.Exact(m); err != nil && !approx {
		return withCode(exitUsage, fmt.Errorf("%s: %w", modelPath, err))
	}
	countsIn := o.counts
	if countsIn == "" {
		countsIn = countsPath(modelPath)
	}
	countsOut := countsPath(o.output)
	if err := checkOutputs([]string{src}, []string{modelPath, countsIn, o.replay}, o.output, countsOut); err != nil {
		return err
	}
	old, err := counts.ReadFile(countsIn)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w: the model's counts are needed to %s it; train it again with --keep-counts, or count its training documents with 'nbtext count --model %s' and the model's settings ('nbtext info %s') and pass the file with --counts", countsIn, update.ErrNoCounts, cmd.Name(), m.Kind, modelPath)
	}
	if err != nil {
		return err
	}
	if err := update.CheckCounts(m, old, modelPath, countsIn); err != nil {
		return err
	}
	corpusSrc, err := co.source(s, []string{src}, "train", o.global.quiet)
	if err != nil {
		return err
	}
	up, err := pipeline.Update(m, old, corpusSrc, o.forget, countsIn, src, opt, o.workers)
	if err != nil {
		return err
	}
	nm, merged := up.Model, up.Counts
	nm.Meta.Version = buildVersion()
	if err := model.Save(o.output, nm); err != nil {
		return err
	}
	if err := counts.WriteFile(countsOut, merged); err != nil {
		return err
	}
	if approx {
		note(s.Err, o.global.quiet, "nbtext: note: weighting %s (norm %s): the vocabulary and the new documents' weights are exact, the old documents' weights are rescaled, not recomputed (docs/updating.md)", m.Vocab.Settings.Weighting, orNone(m.Vocab.Settings.Norm))
	}
	if o.global.quiet {
		return nil
	}
	w := s.Out
	verb, sign := "updated", "+"
	if o.forget {
		verb, sign = "forgotten", "-"
	}
	fmt.Fprintf(w, "model        %s, %s -> %s (counts %s)\n", nm.Kind, verb, o.output, countsOut)
	fmt.Fprintf(w, "documents    %d %s%d = %d\n", up.Old, sign, up.Delta, merged.Documents())
	fmt.Fprintf(w, "classes      %d\n", len(nm.Classes))
	fmt.Fprintf(w, "vocabulary   %d terms (of %d counted)\n", nm.Vocab.Len(), merged.Len())
	fmt.Fprintf(w, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}

// runUpdateLinear is 'nbtext update' of a linear model m (logreg, svm,
// nblr): a warm start on the documents of CORPUS and --replay (update.Linear).
func runUpdateLinear(s streams, m *model.Model, args []string, o *updateOptions, co *corpusOptions, opt update.Options, start time.Time) error {
	if o.counts != "" {
		return usageErrorf("--counts: %s models keep no counts", m.Kind)
	}
	if err := checkOutputs(args[1:], []string{args[0], o.replay}, o.output); err != nil {
		return err
	}
	src, err := co.source(s, args[1:2], "train", o.global.quiet)
	if err != nil {
		return err
	}
	var replay *pipeline.Source
	if o.replay != "" {
		r, err := co.source(s, []string{o.replay}, "train", o.global.quiet)
		if err != nil {
			return err
		}
		replay = &r
		opt.Source += " + replay " + o.replay
	}
	nm, n, replayed, err := pipeline.UpdateLinear(m, src, replay, o.epochs, o.workers, args[1], opt)
	if err != nil {
		return err
	}
	nm.Meta.Version = buildVersion()
	if err := model.Save(o.output, nm); err != nil {
		return err
	}
	if o.global.quiet {
		return nil
	}
	fmt.Fprintf(s.Out, "model        %s, warm start -> %s (not exact: see docs/updating.md)\n", nm.Kind, o.output)
	fmt.Fprintf(s.Out, "documents    %d new, %d replayed\n", n, replayed)
	fmt.Fprintf(s.Out, "classes      %d\n", len(nm.Classes))
	fmt.Fprintf(s.Out, "seconds      %.2f\n", time.Since(start).Seconds())
	return nil
}

// validateKeepCounts checks that 'train --keep-counts' can keep the counts
// a model of kind is refitted from: an NB or centroid model whose
// vocabulary is pruned from its own corpus, in memory.
func (o *trainOptions) validateKeepCounts(kind model.Kind) error {
	switch {
	case !pipeline.FitsCounts(kind):
		return usageErrorf("--keep-counts keeps the counts of naive bayes and centroid models, not %s (its update is a warm start: see 'nbtext update --help')", kind)
	case o.fromCounts != "":
		return usageErrorf("--keep-counts: with --from-counts the counts are kept already: give that file to 'nbtext update --counts'")
	case o.stream:
		return usageErrorf("--keep-counts counts the corpus held in memory: drop --stream, or keep the file of 'nbtext count' with the same settings")
	case o.auto.on:
		return usageErrorf("--keep-counts: --auto chooses the settings; train the chosen model again with --keep-counts")
	case o.vocab != "":
		return usageErrorf("--keep-counts: a --vocab file fixes the vocabulary, which an update prunes again from the counts: drop --vocab")
	case o.ml.multi:
		return usageErrorf("--keep-counts: a --multi-label model keeps no counts")
	case !o.rec.spec().Empty():
		return usageErrorf("--keep-counts keeps the counts of text: record fields cannot be updated")
	}
	return nil
}
