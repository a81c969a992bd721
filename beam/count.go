package nbbeam

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// expandFn turns a file pattern into the files it matches, in byte order.
// A pattern that matches nothing is an error, as a missing file is for
// 'nbtext count'.
type expandFn struct{}

func (expandFn) ProcessElement(ctx context.Context, pattern string, emit func(string)) error {
	files, err := expand(ctx, pattern)
	if err != nil {
		return err
	}
	for _, f := range files {
		emit(f)
	}
	return nil
}

// countFn counts one file of labelled documents (TSV or JSONL lines,
// gzip-compressed when the name ends in .gz) and emits its counts as
// Partitions parts keyed by term-hash partition (see Partition). Every
// part carries the whole header, so that each merged partition holds the
// classes and documents of the whole corpus.
type countFn struct {
	// Settings are the vectorizer settings to count with (round one); in
	// round two the vocabulary's settings replace them.
	Settings vectorize.Settings `json:"settings"`
	// Vocab, when set, is the path of merged round-one counts: their
	// pruned vocabulary is what round two counts and weights over.
	Vocab string `json:"vocab"`
	// Format is "auto" (by file name), "tsv" or "jsonl".
	Format string `json:"format"`
	// Partitions is the number of term-hash partitions, ≥ 1.
	Partitions int `json:"partitions"`
	// FlushBytes bounds the text counted into one table before it is
	// emitted (0: a table per file).
	FlushBytes int64 `json:"flush_bytes"`
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

func (f *countFn) ProcessElement(ctx context.Context, path string, emit func(int, []byte)) error {
	format, err := fileFormat(path, f.Format)
	if err != nil {
		return err
	}
	settings := f.Settings
	if f.vocab != nil {
		settings = f.vocab.Settings
	}
	remove, err := corpus.ParseRemove(settings.Remove)
	if err != nil {
		return err
	}
	rc, err := openRead(ctx, path)
	if err != nil {
		return err
	}
	defer rc.Close()
	var r io.Reader = rc
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		zr, err := gzip.NewReader(rc)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}

	var ctr *counts.Counter
	var text int64
	flush := func() error {
		if ctr == nil {
			return nil
		}
		defer ctr.Close()
		c, err := ctr.Counts()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		ctr, text = nil, 0
		return emitParts(c, f.Partitions, emit)
	}
	opts := corpus.Options{Format: format, Remove: remove}
	err = corpus.WalkFrom(r, path, opts, func(d corpus.Document, err error) error {
		if err != nil {
			return err // a count reads every document or fails
		}
		if d.Label == "" {
			return fmt.Errorf("%s: a document without a label", d.ID)
		}
		if ctr == nil {
			c, err := counts.NewCounter(settings, f.vocab, counts.Options{Workers: f.Workers})
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

// fileFormat returns the line format of path: forced, or by its name
// (.tsv and .txt are TSV, .jsonl and .ndjson JSONL, each perhaps with .gz
// after it).
func fileFormat(path, forced string) (string, error) {
	switch forced {
	case corpus.FormatTSV, corpus.FormatJSONL:
		return forced, nil
	case "", corpus.FormatAuto:
	default:
		return "", fmt.Errorf("input format %q: want auto, tsv or jsonl", forced)
	}
	n := strings.TrimSuffix(strings.ToLower(path), ".gz")
	switch {
	case strings.HasSuffix(n, ".tsv"), strings.HasSuffix(n, ".txt"):
		return corpus.FormatTSV, nil
	case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".ndjson"):
		return corpus.FormatJSONL, nil
	}
	return "", fmt.Errorf("%s: cannot tell its format by its name (.tsv, .txt, .jsonl, .ndjson, perhaps .gz): name it with --input-format", path)
}

// Partition returns the term-hash partition of term among n: FNV-1a of its
// bytes, mod n.
func Partition(term string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(term))
	return int(h.Sum64() % uint64(n))
}

// split returns c cut into n parts by Partition: part p holds c's header
// and the terms of partition p, in c's order.
func split(c *counts.Counts, n int) []*counts.Counts {
	parts := make([]*counts.Counts, n)
	for p := range parts {
		parts[p] = &counts.Counts{Header: c.Header, Start: []int{0}}
	}
	for i, t := range c.Terms {
		p := parts[Partition(t, n)]
		p.Terms = append(p.Terms, t)
		p.Cells = append(p.Cells, c.Row(i)...)
		p.Start = append(p.Start, len(p.Cells))
	}
	return parts
}

// emitParts emits c as n encoded parts keyed by partition, each of them,
// even those without a term (they carry the header).
func emitParts(c *counts.Counts, n int, emit func(int, []byte)) error {
	for p, part := range split(c, n) {
		var b bytes.Buffer
		if err := counts.Encode(&b, part); err != nil {
			return err
		}
		emit(p, b.Bytes())
	}
	return nil
}
