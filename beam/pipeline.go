package nbbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	// File systems, registered by import: local paths, gs:// and s3://.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

func init() {
	register.DoFn3x1[context.Context, string, func(Shard), error](&expandFn{})
	register.DoFn3x1[context.Context, Shard, func(int, []byte), error](&countFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&writeFn{})
	register.Function2x1(dropKey)
	register.Emitter1[Shard]()
	beam.RegisterType(reflect.TypeOf(Shard{}))
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
	register.Combiner3[partial, []byte, []byte](&mergeFn{})
	beam.RegisterCoder(reflect.TypeOf(partial{}), encodePartial, decodePartial)
}

// MaxPartitions bounds Config.Partitions: the Go SDK's lifted combiner
// caches 2,000 keys per bundle, and the partitions are its keys.
const MaxPartitions = 1000

// Config is one run of nbtext-beam.
type Config struct {
	// Inputs are file patterns (local, gs://, s3://) of labelled corpora
	// in any format nbtext reads (see Reading); each file or folder is a
	// shard, or several when it is a line file past SplitBytes.
	Inputs []string
	// Reading says how they are read (format, split, fields).
	Reading Reading
	// SplitBytes cuts a line file (TSV, JSONL, fastText, uncompressed)
	// larger than this into byte ranges of this size, each its own shard
	// (0: a shard per file).
	SplitBytes int64
	// Settings are the vectorizer settings to count with (see Settings).
	// A Vocab replaces them.
	Settings vectorize.Settings
	// Vocab, when set, makes the run round two: the merged round-one
	// counts whose pruned vocabulary the weighted sums follow, as
	// 'nbtext count --vocab'.
	Vocab string
	// Output is the counts file to write (.nbc).
	Output string
	// Round1Output is where round one goes when Run counts two rounds to
	// fit a model ("": Output with .round1 before its extension).
	Round1Output string
	// ModelOutput, when set, is the model file (.nbm) to fit from the
	// counts, of Kind with Params, as 'nbtext train --from-counts' fits them
	// (pipeline.FitCounts).
	ModelOutput string
	Kind        model.Kind
	Params      model.Params
	Meta        model.Meta
	// Partitions is the number of term-hash partitions (the keys of the
	// merge), 1 to MaxPartitions.
	Partitions int
	// FlushBytes bounds the text a count DoFn tables before it emits
	// (0: one table per file).
	FlushBytes int64
	// WorkerMem bounds the memory of a count's tables (0: no bound): past
	// half of it they spill to the worker's temporary folder.
	WorkerMem int64
	// Workers is the tokenizing goroutines of each count (0: one per core).
	Workers int
}

// Settings returns the vectorizer settings of kind's defaults (those of
// 'nbtext count --model kind'), with the fields of override, a JSON object
// with the keys of a counts file's "settings" (for example
// {"ngram_max": 2}), replaced, and remove (as --remove) recorded.
func Settings(kind model.Kind, override, remove string) (vectorize.Settings, error) {
	if !kind.IsNB() {
		return vectorize.Settings{}, fmt.Errorf("counts are for naive bayes models (bernoulli, multinomial, complement), not %s", kind)
	}
	s, _ := train.Defaults(kind)
	if strings.TrimSpace(override) != "" {
		d := json.NewDecoder(strings.NewReader(override))
		d.DisallowUnknownFields()
		if err := d.Decode(&s); err != nil {
			return s, fmt.Errorf("--settings: %w", err)
		}
		if d.More() {
			return s, errors.New("--settings: one JSON object, then nothing")
		}
	}
	r, err := corpus.ParseRemove(remove)
	if err != nil {
		return s, fmt.Errorf("--remove: %w", err)
	}
	s.Remove = r.String()
	if err := s.Validate(); err != nil {
		return s, err
	}
	return s, nil
}

// Validate reports the first field of c out of range.
func (c *Config) Validate() error {
	switch {
	case len(c.Inputs) == 0:
		return errors.New("no input pattern")
	case c.Output == "":
		return errors.New("no output counts file")
	case c.Partitions < 1 || c.Partitions > MaxPartitions:
		return fmt.Errorf("--partitions must be between 1 and %d, got %d", MaxPartitions, c.Partitions)
	case c.FlushBytes < 0:
		return fmt.Errorf("--flush-bytes must be ≥ 0, got %d", c.FlushBytes)
	case c.WorkerMem < 0:
		return fmt.Errorf("--worker-mem must be ≥ 0, got %d", c.WorkerMem)
	case c.Workers < 0:
		return fmt.Errorf("--workers must be ≥ 0, got %d", c.Workers)
	case c.ModelOutput != "" && !c.Kind.IsNB():
		return fmt.Errorf("a model from counts is a naive bayes model (bernoulli, multinomial, complement), not %s", c.Kind)
	}
	if c.SplitBytes < 0 {
		return fmt.Errorf("--split-bytes must be ≥ 0, got %d", c.SplitBytes)
	}
	if err := checkFormat(c.Reading.Format); err != nil {
		return err
	}
	return nil
}

// Result says what Run wrote.
type Result struct {
	// Counts are the counts files written, in order (round one, then
	// round two when there were two rounds).
	Counts []string
	// Header is the header of the last of them.
	Header counts.Header
	// Terms is the number of its terms.
	Terms int
	// Model is the model fitted, when one was asked for.
	Model *model.Model
}

// Build adds to s the count pipeline of one round: the files of inputs
// counted by fn, partitioned, merged per partition and written to output.
func build(s beam.Scope, inputs []string, ex *expandFn, fn *countFn, output string) {
	patterns := beam.CreateList(s, inputs)
	files := beam.ParDo(s, ex, patterns)
	// Break fusion, so that a runner spreads the files over its workers.
	files = beam.Reshuffle(s, files)
	parts := beam.ParDo(s, fn, files)
	merged := beam.CombinePerKey(s, &mergeFn{}, parts)
	all := beam.GroupByKey(s, beam.AddFixedKey(s, beam.ParDo(s, dropKey, merged)))
	beam.ParDo0(s, &writeFn{Output: output, Partitions: fn.Partitions}, all)
}

// round runs the pipeline of one round on the runner of beamx (--runner,
// Prism by default).
func (c *Config) round(ctx context.Context, vocab, output string) error {
	p, s := beam.NewPipelineWithRoot()
	ex := &expandFn{SplitBytes: c.SplitBytes, Reading: c.Reading}
	fn := &countFn{Settings: c.Settings, Vocab: vocab, Reading: c.Reading, Partitions: c.Partitions, FlushBytes: c.FlushBytes, WorkerMem: c.WorkerMem, Workers: c.Workers}
	build(s.Scope("nbtext-count"), c.Inputs, ex, fn, output)
	if err := beamx.Run(ctx, p); err != nil {
		return fmt.Errorf("count %s: %w", output, err)
	}
	return nil
}

// Run counts the inputs on a Beam runner and writes the counts, and the
// model when one is asked for. With ModelOutput and settings whose
// weighting needs the corpus's document frequencies (counts.NeedsVocab)
// and no Vocab, it runs two rounds: round one to Round1Output, then round
// two over its vocabulary to Output.
func Run(ctx context.Context, c *Config) (*Result, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := c.CheckFiles(ctx); err != nil {
		return nil, err
	}
	res := &Result{}
	vocab := c.Vocab
	if vocab == "" && c.ModelOutput != "" && needsTwoRounds(c) {
		r1 := c.Round1Output
		if r1 == "" {
			r1 = round1Name(c.Output)
		}
		if err := c.round(ctx, "", r1); err != nil {
			return nil, err
		}
		res.Counts = append(res.Counts, r1)
		vocab = r1
	}
	if err := c.round(ctx, vocab, c.Output); err != nil {
		return nil, err
	}
	res.Counts = append(res.Counts, c.Output)
	if c.ModelOutput == "" {
		// The summary: the header and the terms, read term by term.
		h, n, err := scanCounts(ctx, c.Output)
		if err != nil {
			return nil, err
		}
		res.Header, res.Terms = *h, n
		return res, nil
	}
	cs, err := readCounts(ctx, c.Output)
	if err != nil {
		return nil, err
	}
	res.Header, res.Terms = cs.Header, cs.Len()
	// Fitted as train --from-counts fits the same counts (pipeline.FitCounts:
	// the defaults follow the counts' class balance as train's do).
	params := func([]string, []int) (model.Params, bool, error) { return c.Params, false, nil }
	m, err := pipeline.FitCounts(&pipeline.Plan{Kind: c.Kind, Params: params, FollowProfile: true, Meta: c.Meta}, cs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Output, err)
	}
	m.Meta = c.Meta
	if isLocal(c.ModelOutput) {
		err = model.Save(c.ModelOutput, m)
	} else {
		err = writeRemote(ctx, c.ModelOutput, func(w io.Writer) error { return model.Encode(w, m) })
	}
	if err != nil {
		return nil, err
	}
	res.Model = m
	return res, nil
}

// needsTwoRounds reports whether a run without Vocab and with ModelOutput
// counts two rounds.
func needsTwoRounds(c *Config) bool { return counts.NeedsVocab(c.Settings) }

// round1Name returns out with ".round1" before its extension.
func round1Name(out string) string {
	if i := strings.LastIndexByte(out, '.'); i > strings.LastIndexByte(out, '/') {
		return out[:i] + ".round1" + out[i:]
	}
	return out + ".round1"
}
