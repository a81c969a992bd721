// Command nbtext-beam counts the Naive Bayes statistics of labelled text
// files on Apache Beam, and writes the counts file that 'nbtext count'
// writes for the same documents (and, with --model-out, the model that
// 'nbtext train --from-counts' fits from it).
//
//	nbtext-beam [flags] PATTERN... -o counts.nbc
//
// Flags come before the patterns (Go's flag package stops at the first
// argument that is not a flag). The runner and its options are Beam's own
// flags: --runner (prism, the default, in-process; dataflow; flink and
// spark with --endpoint), --project, --region, --staging_location,
// --worker_binary and the rest (see docs/beam.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	nbbeam "github.com/nbtext/nbtext/beam"
	"github.com/nbtext/nbtext/internal/buildinfo"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// version is set at build time (-ldflags -X main.version=...).
var version string

// Exit codes, as nbtext's.
const (
	exitError = 1
	exitUsage = 2
)

// DefaultWorkerMem is the default of --worker-mem: the count tables of one
// count stay under about 256 MiB.
const DefaultWorkerMem = 256 << 20

// DefaultSplitBytes is the default of --split-bytes: a line file is cut
// into ranges of 64 MiB.
const DefaultSplitBytes = 64 << 20

// options are nbtext-beam's own flags.
type options struct {
	output, round1, modelOut     string
	kind, settings, remove       string
	vocab, format, alpha, temp   string
	split, labelField, textField string
	labelPrefix                  string
	splitBytes                   int64
	partitions, workers          int
	flushBytes, workerMem        int64
}

func (o *options) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.output, "o", "", "counts file to write (.nbc; local, gs:// or s3://; required)")
	fs.StringVar(&o.modelOut, "model-out", "", "also fit a model from the counts and write it here (.nbm), as 'nbtext train --from-counts'; two rounds when the weighting needs them")
	fs.StringVar(&o.round1, "round1-out", "", "where round one's counts go when --model-out needs two rounds (default: -o with .round1 before its extension)")
	fs.StringVar(&o.kind, "model", "multinomial", "count with the vectorizer settings of this model's defaults: bernoulli, multinomial or complement")
	fs.StringVar(&o.settings, "settings", "", `JSON object overriding those settings, with the keys of a counts file's header, e.g. '{"ngram_max":2,"min_df":1}'`)
	fs.StringVar(&o.remove, "remove", "", "strip these parts of each document: headers, footers, quotes (comma-separated)")
	fs.StringVar(&o.vocab, "vocab", "", "round two: the merged round-one counts whose vocabulary the weighted sums follow (as 'nbtext count --vocab'; its settings replace --model, --settings and --remove)")
	fs.StringVar(&o.format, "input-format", "auto", "input format, as nbtext's: auto (a folder is a tree; a file by its name, then its first bytes), dir, tar, tsv, csv, jsonl or fasttext")
	fs.StringVar(&o.split, "split", "", "the split folder of a bydate tree or archive to read (train, test)")
	fs.StringVar(&o.labelField, "label-field", "", "the label column or key of CSV, TSV with a header and JSONL (default label)")
	fs.StringVar(&o.textField, "text-field", "", "the text column or key of CSV, TSV with a header and JSONL (default text)")
	fs.StringVar(&o.labelPrefix, "label-prefix", "", "the label prefix of fastText lines (default __label__)")
	fs.Int64Var(&o.splitBytes, "split-bytes", DefaultSplitBytes, "cut a TSV, JSONL or fastText file (uncompressed) larger than this into byte ranges of this size, each counted on its own (0: a shard per file)")
	fs.IntVar(&o.partitions, "partitions", 64, fmt.Sprintf("term-hash partitions, the keys of the merge (1 to %d)", nbbeam.MaxPartitions))
	fs.Int64Var(&o.flushBytes, "flush-bytes", 256<<20, "emit a file's counts every this many bytes of text (0: one table per file or byte range)")
	fs.Int64Var(&o.workerMem, "worker-mem", DefaultWorkerMem, "bound a count's tables to this many bytes: past half of it they spill to sorted runs in the worker's temporary folder (0: no bound)")
	fs.IntVar(&o.workers, "workers", 0, "tokenizing goroutines of each count (0: one per core)")
	fs.StringVar(&o.alpha, "alpha", "", "smoothing of the model (default: the model's)")
	fs.StringVar(&o.temp, "temperature", "", "temperature of the model's probabilities (default: none, calibration needs the documents)")
}

// config turns the options and the patterns into a run.
func (o *options) config(patterns []string, fs *flag.FlagSet) (*nbbeam.Config, error) {
	kind, err := model.ParseKind(o.kind)
	if err != nil || !kind.IsNB() {
		return nil, fmt.Errorf("--model must be bernoulli, multinomial or complement, got %q", o.kind)
	}
	c := &nbbeam.Config{
		Inputs: patterns, Vocab: o.vocab, Output: o.output, SplitBytes: o.splitBytes,
		Reading:      nbbeam.Reading{Format: o.format, Split: o.split, LabelField: o.labelField, TextField: o.textField, LabelPrefix: o.labelPrefix},
		Round1Output: o.round1, ModelOutput: o.modelOut, Kind: kind,
		Partitions: o.partitions, FlushBytes: o.flushBytes, WorkerMem: o.workerMem, Workers: o.workers,
		Meta: model.Meta{Version: buildinfo.Version(version, buildinfo.Read()), CreatedBy: "nbtext-beam"},
	}
	if o.vocab != "" {
		for _, name := range []string{"model", "settings", "remove"} {
			if isSet(fs, name) {
				return nil, fmt.Errorf("--%s is not allowed with --vocab: the round-one counts fix the vectorizer settings", name)
			}
		}
	} else if c.Settings, err = nbbeam.Settings(kind, o.settings, o.remove); err != nil {
		return nil, err
	}
	_, c.Params = train.Defaults(kind)
	if o.alpha != "" {
		a, err := strconv.ParseFloat(o.alpha, 64)
		if err != nil || !(a > 0) {
			return nil, fmt.Errorf("--alpha must be a number > 0, got %q", o.alpha)
		}
		if kind == model.Bernoulli && c.Params.Beta == c.Params.Alpha {
			c.Params.Beta = a // as train: beta follows alpha unless given
		}
		c.Params.Alpha = a
	}
	if o.temp != "" {
		t, err := strconv.ParseFloat(o.temp, 64)
		if err != nil || !(t > 0) {
			return nil, fmt.Errorf("--temperature must be a number > 0, got %q", o.temp)
		}
		c.Params.Temperature = t
	}
	if o.modelOut == "" && (isSet(fs, "alpha") || isSet(fs, "temperature")) {
		return nil, errors.New("--alpha and --temperature are for the model: give --model-out")
	}
	return c, c.Validate()
}

// isSet reports whether the flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func main() {
	var o options
	o.addFlags(flag.CommandLine)
	flag.Usage = func() {
		w := flag.CommandLine.Output()
		fmt.Fprintf(w, "Usage: nbtext-beam [flags] PATTERN... -o counts.nbc\n\n")
		fmt.Fprintf(w, "Counts labelled TSV/JSONL files matching PATTERN (local, gs://, s3://) on Apache Beam,\n")
		fmt.Fprintf(w, "as 'nbtext count' would, and with --model-out fits the model as 'nbtext train --from-counts'.\n")
		fmt.Fprintf(w, "Flags go before the patterns. --runner picks the runner (prism, the default; dataflow; flink, spark).\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if isWorker(flag.CommandLine) {
		dieWithParent()
	}
	// On a distributed runner, workers run this binary too: Init takes
	// them over here and never returns.
	beam.Init()
	fsutil.CleanupOnSignal()
	os.Exit(ownTempDir(func() int {
		return run(context.Background(), &o, flag.CommandLine, os.Stdout, os.Stderr)
	}))
}

// ownTempDir runs f with TMPDIR set to a folder of its own inside the
// system's temporary folder, and removes that folder when f returns. In
// loopback mode (Prism, the default runner) the Beam Go SDK creates an
// empty temporary file for a worker binary it never uses and never removes
// (apache/beam#27569): one file per pipeline run would pile up in /tmp.
// When the folder cannot be made, f runs with TMPDIR as it is. A signal
// (SIGINT, SIGTERM, SIGHUP) removes the folder, and the outputs' temporary
// files, before the process dies of it (fsutil.CleanupOnSignal); the
// folder a kill -9 leaves is removed by the next run (fsutil.TempDir).
func ownTempDir(f func() int) int {
	dir, remove, err := fsutil.TempDir("nbtext-beam")
	if err != nil {
		return f()
	}
	defer remove()
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	defer func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}()
	return f()
}

// run is the launcher: it checks the flags, runs the pipeline and prints
// what it wrote.
func run(ctx context.Context, o *options, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	start := time.Now()
	c, err := o.config(fs.Args(), fs)
	if err == nil {
		_, err = stageSelf(flag.CommandLine, runtime.GOOS, runtime.GOARCH)
	}
	if err != nil {
		fmt.Fprintf(stderr, "nbtext-beam: %v\n", err)
		fmt.Fprintf(stderr, "Run 'nbtext-beam -h' for usage.\n")
		return exitUsage
	}
	res, err := nbbeam.Run(ctx, c)
	if errors.Is(err, nbbeam.ErrUsage) {
		fmt.Fprintf(stderr, "nbtext-beam: %v\n", err)
		fmt.Fprintf(stderr, "Run 'nbtext-beam -h' for usage.\n")
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "nbtext-beam: %v\n", err)
		return exitError
	}
	for i, f := range res.Counts {
		fmt.Fprintf(stdout, "counts       %s (round %d)\n", f, i+1+boolInt(c.Vocab != ""))
	}
	fmt.Fprintf(stdout, "documents    %d\n", res.Header.Documents())
	fmt.Fprintf(stdout, "classes      %d\n", len(res.Header.Classes))
	fmt.Fprintf(stdout, "terms        %d\n", res.Terms)
	if res.Model != nil {
		fmt.Fprintf(stdout, "model        %s -> %s (from counts)\n", res.Model.Kind, c.ModelOutput)
		fmt.Fprintf(stdout, "vocabulary   %d terms\n", res.Model.Vocab.Len())
	}
	fmt.Fprintf(stdout, "seconds      %.2f\n", time.Since(start).Seconds())
	if c.ModelOutput == "" && !res.Header.Weighted() && counts.NeedsVocab(c.Settings) {
		fmt.Fprintf(stderr, "nbtext-beam: these are round-one counts: weighting %s needs the document frequencies of the whole corpus; run again with --vocab %s (or give --model-out to run both rounds)\n", c.Settings.Weighting, c.Output)
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
