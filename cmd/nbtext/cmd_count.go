package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
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
		Use:   "count CORPUS... [--shard i/N] -o PART.nbc",
		Short: "Count the Naive Bayes statistics of a corpus or one shard of it",
		Long: `Count the sufficient statistics of the Naive Bayes models (per-class
documents, per-term and class documents, occurrences and weighted sums) of
the documents of CORPUS..., or of one shard of them, and write them as a
counts file (.nbc). Counts add: 'nbtext merge' sums parts counted anywhere,
in any order or tree, to the same bytes as one count of everything, and
'nbtext train --from-counts' fits the model that 'nbtext train' fits on
those documents. The per-class weighted sums are also the class sums of
nearest centroid ('train --from-counts --model centroid'). CORPUS 20news reads the train
split of the cached 20 Newsgroups archive.

The vectorizer settings are those of 'train --model M', overridden by the
flags given. Every term is kept: pruning (--min-df, --max-df,
--max-features, --select) needs the whole corpus and applies when a model
is fitted. Weightings that need the document frequencies of the whole
corpus (tfidf, --norm l2, the defaults of multinomial and complement NB)
count in two rounds: merge the parts of round one, then count the same
documents again with --vocab ROUND1.nbc and merge those.`,
		Example: `  nbtext count corpus.tsv --shard 1/4 -o part1.nbc
  nbtext count 20news --model bernoulli -o all.nbc
  nbtext count corpus.tsv --shard 1/4 --vocab round1.nbc -o part1.r2.nbc
  nbtext count big.jsonl --mem 256MiB -o big.nbc`,
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
	if k, err := model.ParseKind(o.kind); err != nil || !fitsCounts(k) {
		return usageErrorf("--model must be bernoulli, multinomial, complement or centroid, got %q", o.kind)
	}
	if _, _, err := parseShard(o.shard); err != nil {
		return err
	}
	if _, err := parseSize("mem", o.mem); err != nil {
		return err
	}
	if o.vocab != "" {
		return checkFixedFlags(fs, append(o.fixed, "model"), "--vocab", "the round-one counts fix the vectorizer settings")
	}
	return nil
}

// parseShard parses --shard i/N (1 ≤ i ≤ N); empty is the one shard 1/1.
func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usageErrorf("--shard must be i/N with 1 ≤ i ≤ N, got %q", s)
	}
	return i, n, nil
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
	defs, _ := train.Defaults(kind)
	co := o.corpus
	var (
		vocab *vectorize.Vocabulary
		fixed *vectorize.Settings
	)
	if o.vocab != "" {
		r1, err := counts.ReadFile(o.vocab)
		if err != nil {
			return err
		}
		if r1.Weighted() {
			return fmt.Errorf("%s: --vocab takes round-one counts (counted without --vocab), these are of round two", o.vocab)
		}
		if vocab, _, err = r1.Vocabulary(); err != nil {
			return fmt.Errorf("%s: %w", o.vocab, err)
		}
		fixed = &r1.Settings
	}
	settings, err := resolveSettings(defs, fixed, &o.vec, &co)
	if err != nil {
		return err
	}
	i, n, _ := parseShard(o.shard)
	mem, _ := parseSize("mem", o.mem)
	if err := checkOutputs(args, []string{o.vocab}, o.output); err != nil {
		return err
	}
	ctr, err := counts.NewCounter(settings, vocab, counts.Options{Workers: o.workers, Mem: mem, TempDir: o.tmpDir})
	if err != nil {
		return withCode(exitUsage, err)
	}
	defer ctr.Close()
	rec := counts.NewRecorder() // what was counted, recorded in the file
	seq, docs, err := countRecorded(s, args, &co, o.global.quiet, ctr, rec, i, n)
	if err != nil {
		return err
	}
	ins, err := rec.Inputs(i, n)
	if err != nil {
		return err
	}
	ctr.SetInputs(ins)
	h, err := ctr.WriteFile(o.output)
	if err != nil {
		return err
	}
	round := "one"
	if h.Weighted() {
		round = "two"
	}
	fmt.Fprintf(s.Out, "counts       %s\n", o.output)
	fmt.Fprintf(s.Out, "documents    %d of %d (shard %d/%d)\n", docs, seq, i, n)
	fmt.Fprintf(s.Out, "classes      %d\n", len(h.Classes))
	fmt.Fprintf(s.Out, "round        %s\n", round)
	if ctr.Runs() > 0 {
		fmt.Fprintf(s.Out, "runs         %d spilled under --mem %s\n", ctr.Runs(), o.mem)
	}
	fmt.Fprintf(s.Out, "seconds      %.2f\n", time.Since(start).Seconds())
	if !h.Weighted() && counts.NeedsVocab(settings) {
		note(s.Err, o.global.quiet, "nbtext: these are round-one counts: weighting %s with norm %s needs the document frequencies of the whole corpus, so merge the parts of this round (nbtext merge PARTS... -o round1.nbc), count the same documents again with --vocab round1.nbc, and train from the merge of that round",
			settings.Weighting, orNone(settings.Norm))
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

// countInto counts shard i of n of the corpora args (none: the cached 20
// Newsgroups) with ctr, and returns how many documents it saw and
// counted.
func countInto(s streams, args []string, co *corpusOptions, quiet bool, ctr *counts.Counter, i, n int) (seq, docs int, err error) {
	return countRecorded(s, args, co, quiet, ctr, nil, i, n)
}

// countRecorded is countInto that also records each corpus and all its
// documents with rec (when not nil), for the counts file to say what it
// counted.
func countRecorded(s streams, args []string, co *corpusOptions, quiet bool, ctr *counts.Counter, rec *counts.Recorder, i, n int) (seq, docs int, err error) {
	add := func(text, label string) error {
		rec.Add(label, text)
		if seq%n == i-1 {
			if err := ctr.Add(text, label); err != nil {
				return err
			}
			docs++
		}
		seq++
		return nil
	}
	if err := requireCorpus(args); err != nil {
		return 0, 0, err
	}
	for _, src := range args {
		rec.Begin(src)
		if err := countSource(s, src, co, quiet, add); err != nil {
			return 0, 0, err
		}
	}
	return seq, docs, nil
}

// countSource reads the corpus src ("20news": the train split of the
// cached 20 Newsgroups; "-": stdin) and calls add with each document. Every source
// streams (corpus.Stream), a document at a time, so memory does not grow
// with the corpus; documents come in corpus.Stream's order, which --shard
// follows: Read's order for folders and record files, member order for
// archives. The strings add gets are valid only until it returns
// (streamCorpus): counts.Counter.Add copies them.
func countSource(s streams, src string, co *corpusOptions, quiet bool, add func(text, label string) error) error {
	return streamCorpus(s, []string{src}, co, "train", quiet, func(d corpus.Document) error {
		if co.onDoc != nil {
			if err := co.onDoc(d); err != nil {
				return err
			}
		}
		if err := add(d.Text, d.Label); err != nil {
			if errors.Is(err, counts.ErrClasses) {
				return fmt.Errorf("%s: %w", d.ID, err)
			}
			return err
		}
		return nil
	})
}

// runTrainFromCounts is 'nbtext train --from-counts FILE': an NB model
// fitted from merged counts (train.FitNBCounts).
func runTrainFromCounts(s streams, args []string, o *trainOptions) error {
	if len(args) > 0 {
		return usageErrorf("--from-counts fits from the counts file alone: drop the corpus argument %q", args[0])
	}
	start := time.Now()
	kind, _ := model.ParseKind(o.kind)
	if !fitsCounts(kind) {
		return usageErrorf("--from-counts fits naive bayes models (bernoulli, multinomial, complement) and centroid, not %s", kind)
	}
	if err := checkOutputs([]string{o.fromCounts}, nil, o.output); err != nil {
		return err
	}
	cs, err := counts.ReadFile(o.fromCounts)
	if err != nil {
		return err
	}
	if o.expectShards > 0 {
		if err := cs.CheckShards(o.expectShards); err != nil {
			return fmt.Errorf("%s: %w", o.fromCounts, err)
		}
	}
	stats := func() (*counts.Stats, error) { return cs.Stats(kind == model.Bernoulli) }
	if err := fitCounts(s, o, kind, cs.Classes, stats, nil, start, "counts do not hold"); err != nil {
		return fmt.Errorf("%s: %w", o.fromCounts, err)
	}
	return nil
}

// fitsCounts reports whether a model of kind is fitted from counts: the
// naive bayes models, and centroid, whose class sums are multinomial NB's
// statistics (train.FitCentroidStats).
func fitsCounts(kind model.Kind) bool { return kind.IsNB() || kind == model.Centroid }

// fitCounts fits an NB or centroid model of kind from the statistics that stats
// returns (of counts of classes) with the estimator flags of o, saves it
// to o.output and prints the summary. why says why --alpha auto cannot be
// (what does not keep the documents).
func fitCounts(s streams, o *trainOptions, kind model.Kind, classes []string, stats func() (*counts.Stats, error), fields *train.FieldSpool, start time.Time, why string) error {
	p, auto, err := o.fit.params(kind, classes, nil)
	if err != nil {
		return err
	}
	if auto {
		return usageErrorf("--alpha auto cross-validates on documents, which %s: give --alpha", why)
	}
	if fields != nil {
		o.rec.params(&p, kind)
	}
	st, err := stats()
	if err != nil {
		return err
	}
	// --class-weight balanced needs the class sizes: the documents the
	// counts' header records.
	if p.ClassWeights, err = train.ClassWeights(o.fit.classWeight, classes, classSizes(st.Header.ClassDocs)); err != nil {
		return withCode(exitUsage, err)
	}
	var m *model.Model
	if kind == model.Centroid {
		m, err = train.FitCentroidStats(st, p)
	} else {
		m, err = train.FitNBStats(kind, st, p)
	}
	if err != nil {
		return err
	}
	if fields != nil { // mixed naive Bayes, as train.FitWithFields fits it
		f, err := train.FitFieldsStream(fields, m.Classes, m.Params)
		if err != nil {
			return err
		}
		if err := train.SetMixedFields(m, f); err != nil {
			return err
		}
	}
	m.Meta = model.Meta{Version: buildVersion(), CreatedBy: "nbtext train"}
	if err := model.Save(o.output, m); err != nil {
		return err
	}
	writeCountsModel(s.Out, m, st, o.output, p, time.Since(start))
	return nil
}

// classSizes returns the documents of each class of counts as the class
// sizes of train.ClassWeights.
func classSizes(classDocs []int64) []int {
	n := make([]int, len(classDocs))
	for c, d := range classDocs {
		n[c] = int(d)
	}
	return n
}

// runTrainStream is 'nbtext train --stream': an NB model counted in
// bounded memory, in-process, as count, merge and train --from-counts
// would: one pass over the corpus; the weightings that need the document
// frequencies of the whole corpus count their second round from a row
// cache written during the first (streamCounts).
func runTrainStream(s streams, args []string, o *trainOptions) error {
	start := time.Now()
	kind, _ := model.ParseKind(o.kind)
	if kind == model.Categorical || kind == model.Gaussian {
		return runTrainStreamRecords(s, args, o, kind, start)
	}
	if !fitsCounts(kind) {
		return usageErrorf("--stream trains naive bayes models (bernoulli, multinomial, complement, categorical, gaussian), centroid, logreg, svm and nblr, not %s: train it without --stream", kind)
	}
	if _, err := loadInit(o.init, kind, nil, ""); err != nil {
		return err
	}
	co := o.corpus
	// Mixed naive Bayes: the record fields go to a spool on disk as the
	// text is counted.
	fields, err := spoolFields(o, &co, kind)
	if err != nil {
		return err
	}
	if fields != nil {
		defer fields.Close()
	}
	if o.vocab != "" {
		// The vocabulary file gives the vocabulary and document
		// frequencies: one round, counted over it.
		vocab, err := readVocabFile(o.vocab, &co)
		if err != nil {
			return err
		}
		ctr, err := countRound(s, args, &co, o.global.quiet, vocab.Settings, vocab, counts.Options{Workers: o.workers})
		if err != nil {
			return err
		}
		defer ctr.Close()
		return fitCounter(s, o, kind, ctr, fields, start)
	}
	settings, _ := train.Defaults(kind)
	if settings, err = resolveSettings(settings, nil, &o.vec, &co); err != nil {
		return err
	}
	opt := counts.Options{Workers: o.workers}
	if settings.HashBits > 0 {
		// The terms that name the buckets grow with the corpus: bound
		// them as logreg's first pass does (spilled, they let the terms
		// go; counts.Options.Replay). Unhashed, the tables are the
		// vocabulary's, which the model holds anyway.
		opt.Mem = streamCountMem()
	}
	ctr, runs, err := streamCounts(s, args, &co, o.global.quiet, settings, opt)
	if err == nil {
		defer ctr.Close()
		err = fitCounter(s, o, kind, ctr, fields, start)
	}
	if errors.Is(err, vectorize.ErrPrunedAll) && o.vec.softMinDF() && settings.MinDF > 1 && fields == nil && !slices.Contains(args, "-") {
		// As in-memory training relaxes a default --min-df that keeps no
		// term (a corpus of numbers, of unique ids): count again with
		// --min-df 1. Stdin cannot be read twice, nor the spooled fields.
		note(s.Err, false, "nbtext: the default --min-df %d would keep no term of these documents: using --min-df 1", settings.MinDF)
		settings.MinDF = 1
		if ctr, runs, err = streamCounts(s, args, &co, o.global.quiet, settings, opt); err == nil {
			defer ctr.Close()
			err = fitCounter(s, o, kind, ctr, fields, start)
		}
	}
	if err != nil {
		return err
	}
	if runs > 0 {
		fmt.Fprintf(s.Out, "runs         %d spilled by the count tables (bound %d MiB)\n", runs, opt.Mem>>20)
	}
	return nil
}

// fitCounter fits a model of kind from the statistics of the streamed
// count ctr, and the record fields of fields when not nil (fitCounts).
func fitCounter(s streams, o *trainOptions, kind model.Kind, ctr *counts.Counter, fields *train.FieldSpool, start time.Time) error {
	st, err := ctr.Stats(kind == model.Bernoulli)
	if err != nil {
		return err
	}
	stats := func() (*counts.Stats, error) { return st, nil }
	return fitCounts(s, o, kind, st.Classes, stats, fields, start, "--stream does not keep")
}

// streamCounts counts the corpora args for a model with settings, in
// one pass: the returned Counter holds round one, or when the weighting
// NeedsVocab, round two, counted from round one's row cache on disk over
// the vocabulary of round one (so stdin needs no spooling). It also
// returns the runs round one spilled under opt.Mem.
func streamCounts(s streams, args []string, co *corpusOptions, quiet bool, settings vectorize.Settings, opt counts.Options) (*counts.Counter, int, error) {
	if !counts.NeedsVocab(settings) {
		ctr, err := countRound(s, args, co, quiet, settings, nil, opt)
		if err != nil {
			return nil, 0, err
		}
		return ctr, ctr.Runs(), nil
	}
	opt.Replay, opt.VocabOnly = true, true // round one gives the vocabulary only
	r1, err := countRound(s, args, co, quiet, settings, nil, opt)
	if err != nil {
		return nil, 0, err
	}
	defer r1.Close()
	vocab, _, err := r1.Vocabulary()
	if err != nil {
		return nil, 0, err
	}
	ctr, err := r1.RoundTwo(vocab)
	return ctr, r1.Runs(), err
}

// countRound counts the corpora args in a new Counter and returns it, to
// be read (Stats, Vocabulary, Counts) and closed.
func countRound(s streams, args []string, co *corpusOptions, quiet bool, settings vectorize.Settings, vocab *vectorize.Vocabulary, opt counts.Options) (*counts.Counter, error) {
	ctr, err := counts.NewCounter(settings, vocab, opt)
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	if _, _, err := countInto(s, args, co, quiet, ctr, 1, 1); err != nil {
		ctr.Close()
		return nil, err
	}
	return ctr, nil
}

// spoolStdin copies s.In to a scratch file (unlinked, so that no kill
// leaves it behind), so that stdin can be read more than once, and returns
// the spool and a function that sets s.In to a reader of it from its
// start, to call before each pass: the passes read "-" as stdin, in the
// format its first bytes show, and errors name stdin and its lines.
func spoolStdin(s *streams) (*fsutil.Scratch, func(), error) {
	f, err := fsutil.NewScratch("", "nbtext-stdin-*")
	if err != nil {
		return nil, nil, fmt.Errorf("spool stdin: %w", err)
	}
	n, err := io.Copy(f, s.In)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("spool stdin to %s: %w", f.Name(), err)
	}
	return f, func() { s.In = io.NewSectionReader(f, 0, n) }, nil
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

// writeCountsModel prints the summary of a model fitted from counts.
func writeCountsModel(w io.Writer, m *model.Model, cs *counts.Stats, out string, p model.Params, d time.Duration) {
	fmt.Fprintf(w, "model        %s -> %s (from counts)\n", m.Kind, out)
	fmt.Fprintf(w, "documents    %d\n", cs.Documents())
	fmt.Fprintf(w, "classes      %d\n", len(cs.Classes))
	fmt.Fprintf(w, "vocabulary   %d terms (of %d counted)\n", m.Vocab.Len(), cs.Counted)
	if m.Kind.IsNB() {
		fmt.Fprintf(w, "alpha        %g\n", p.Alpha)
	}
	if p.Temperature > 0 {
		fmt.Fprintf(w, "temperature  %.4g (given)\n", p.Temperature)
	} else {
		fmt.Fprintf(w, "temperature  1 (calibration needs the documents: give --temperature)\n")
	}
	fmt.Fprintf(w, "seconds      %.2f\n", d.Seconds())
}
