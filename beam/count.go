package nbbeam

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Reading says how the inputs are read, as nbtext's corpus flags do.
type Reading struct {
	// Format is corpus.Options.Format: "auto" (by name, then by the
	// first bytes), "dir", "tar", "tsv", "csv", "jsonl" or "fasttext".
	Format string `json:"format"`
	// Split picks the split folder of a bydate tree (--split).
	Split string `json:"split"`
	// LabelField, TextField and LabelPrefix name the label and the text
	// of record files (--label-field, --text-field, --label-prefix).
	LabelField  string `json:"label_field"`
	TextField   string `json:"text_field"`
	LabelPrefix string `json:"label_prefix"`
}

// options returns the corpus options of r, with remove.
func (r Reading) options(remove corpus.Remove) corpus.Options {
	o := corpus.Options{Format: r.Format, Split: r.Split, LabelField: r.LabelField, LabelPrefix: r.LabelPrefix, Remove: remove, Transient: true}
	if r.TextField != "" {
		o.TextFields = []string{r.TextField}
	}
	return o
}

// expandFn turns a file pattern into the shards of the files it matches
// (shards), in byte order of the paths. A pattern that matches nothing is
// an error, as a missing file is for 'nbtext count'.
type expandFn struct {
	// SplitBytes is the size of a byte range of a large line file (0:
	// no ranges).
	SplitBytes int64   `json:"split_bytes"`
	Reading    Reading `json:"reading"`
}

func (f *expandFn) ProcessElement(ctx context.Context, pattern string, emit func(Shard)) error {
	files, err := expand(ctx, pattern)
	if err != nil {
		return err
	}
	for _, p := range files {
		ss, err := shards(ctx, p, f.SplitBytes, f.Reading.options(0))
		if err != nil {
			return err
		}
		for _, s := range ss {
			emit(s)
		}
	}
	return nil
}

// countFn counts one shard of labelled documents (a whole source in any
// format nbtext reads, or a byte range of a line file) and emits its
// counts as Partitions parts keyed by term-hash partition (see
// Partition). Every part carries the whole header, so that each merged
// partition holds the classes and documents of the whole corpus.
type countFn struct {
	// Settings are the vectorizer settings to count with (round one); in
	// round two the vocabulary's settings replace them.
	Settings vectorize.Settings `json:"settings"`
	// Vocab, when set, is the path of merged round-one counts: their
	// pruned vocabulary is what round two counts and weights over.
	Vocab string `json:"vocab"`
	// Reading says how the inputs are read.
	Reading Reading `json:"reading"`
	// Partitions is the number of term-hash partitions, ≥ 1.
	Partitions int `json:"partitions"`
	// FlushBytes bounds the text counted into one table before it is
	// emitted (0: a table per file).
	FlushBytes int64 `json:"flush_bytes"`
	// WorkerMem bounds the memory of the count tables (counts.Options.Mem):
	// past half of it they spill to sorted runs in the worker's temporary
	// folder, merged as the table is emitted (0: no bound).
	WorkerMem int64 `json:"worker_mem"`
	// Workers is the number of tokenizing goroutines (0: one per core).
	Workers int `json:"workers"`

	vocab *vectorize.Vocabulary
}

func (f *countFn) Setup(ctx context.Context) error {
	if f.Vocab == "" {
		return nil
	}
	r1, err := readCounts(ctx, f.Vocab)
	if err != nil {
		return err
	}
	if r1.Weighted() {
		return fmt.Errorf("%s: a vocabulary comes from round-one counts, these are of round two", f.Vocab)
	}
	if f.vocab, _, err = r1.Vocabulary(); err != nil {
		return fmt.Errorf("%s: %w", f.Vocab, err)
	}
	return nil
}

func (f *countFn) ProcessElement(ctx context.Context, shard Shard, emit func(int, []byte)) error {
	settings := f.Settings
	if f.vocab != nil {
		settings = f.vocab.Settings
	}
	remove, err := corpus.ParseRemove(settings.Remove)
	if err != nil {
		return err
	}
	path := shard.name()
	opts := f.Reading.options(remove)

	var ctr *counts.Counter
	var text int64
	flush := func() error {
		if ctr == nil {
			return nil
		}
		defer ctr.Close()
		c := ctr
		ctr, text = nil, 0
		if err := emitParts(c, f.Partitions, emit); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	}
	first := path + ":1"
	err = readShard(ctx, shard, opts, func(d corpus.Document, skipFirst bool) error {
		if skipFirst && d.ID == first {
			return nil // a record of the first range, read for its header row
		}
		if d.Label == "" {
			return fmt.Errorf("%s: a document without a label", d.ID)
		}
		if ctr == nil {
			opt := counts.Options{Workers: f.Workers, Mem: f.WorkerMem}
			if f.WorkerMem > 0 {
				opt.TempDir = os.TempDir()
			}
			c, err := counts.NewCounter(settings, f.vocab, opt)
			if err != nil {
				return err
			}
			ctr = c
		}
		if err := ctr.Add(d.Text, d.Label); err != nil {
			return err
		}
		if text += int64(len(d.Text)); f.FlushBytes > 0 && text >= f.FlushBytes {
			return flush()
		}
		return nil
	})
	if err != nil {
		if ctr != nil {
			ctr.Close()
		}
		return err
	}
	return flush()
}

// readShard calls fn with each document of shard: a whole local source
// is read by corpus.Stream (folders and archives included), a remote one
// by corpus.StreamFrom; a range by corpus.StreamFrom with the range's
// format. skipFirst says that fn must drop the document of the file's
// first line (openShard).
func readShard(ctx context.Context, shard Shard, opts corpus.Options, fn func(d corpus.Document, skipFirst bool) error) error {
	each := func(skip bool) func(corpus.Document) error {
		return func(d corpus.Document) error { return fn(d, skip) }
	}
	if shard.whole() && isLocal(shard.Path) {
		return corpus.Stream(shard.Path, opts, each(false))
	}
	r, skip, err := openShard(ctx, shard)
	if err != nil || r == nil {
		return err
	}
	defer r.Close()
	if shard.whole() {
		return corpus.StreamFrom(r, shard.name(), opts, each(false))
	}
	// A range may hold no document (blank lines only, or the first line
	// read for its header): not an error, as it is not for the file.
	opts.Format = shard.Format
	docs := 0
	err = corpus.StreamFrom(r, shard.name(), opts, func(d corpus.Document) error {
		docs++
		return fn(d, skip)
	})
	if err != nil && docs == 0 && err.Error() == shard.name()+": no documents" {
		return nil
	}
	return err
}

// checkFormat checks a forced input format.
func checkFormat(forced string) error {
	if forced == "" {
		return nil
	}
	for _, f := range corpus.Formats {
		if f == forced {
			return nil
		}
	}
	return fmt.Errorf("input format %q: want one of %s", forced, strings.Join(corpus.Formats, ", "))
}

// Partition returns the term-hash partition of term among n: FNV-1a of its
// bytes, mod n.
func Partition(term string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(term))
	return int(h.Sum64() % uint64(n))
}

// emitParts emits the counts of c as n encoded parts keyed by partition
// (Partition), each of them, even those without a term (they carry the
// header). The counts are never built in memory: c writes them term by
// term into the parts (counts.Counter.WriteParts), whose encoded bytes
// are a fraction of the table's.
func emitParts(c *counts.Counter, n int, emit func(int, []byte)) error {
	bufs := make([]bytes.Buffer, n)
	ws := make([]io.Writer, n)
	for p := range bufs {
		ws[p] = &bufs[p]
	}
	if _, err := c.WriteParts(ws, func(t string) int { return Partition(t, n) }); err != nil {
		return err
	}
	for p := range bufs {
		emit(p, bufs[p].Bytes())
	}
	return nil
}
