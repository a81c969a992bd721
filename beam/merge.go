package nbbeam

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/nbtext/nbtext/internal/counts"
)

// pendingMax is how many parts an accumulator holds before it merges
// them: merging k parts at once is one k-way pass, so buffering a few
// avoids re-copying the sum for each part added.
const pendingMax = 16

// partial is the accumulator of mergeFn: parts still to be summed. Its
// coder (encodePartial, decodePartial) sums them into one counts file.
type partial struct {
	parts []*counts.Counts
}

// sum returns the one part that is the sum of a's parts (nil when a is
// empty).
func (a partial) sum() (*counts.Counts, error) {
	switch len(a.parts) {
	case 0:
		return nil, nil
	case 1:
		return a.parts[0], nil
	}
	names := make([]string, len(a.parts))
	for i := range names {
		names[i] = fmt.Sprintf("part %d", i+1)
	}
	return counts.Merge(a.parts, names)
}

// add returns a with the parts ps added, merged into one when there are
// more than pendingMax.
func (a partial) add(ps ...*counts.Counts) (partial, error) {
	a.parts = append(a.parts[:len(a.parts):len(a.parts)], ps...)
	if len(a.parts) <= pendingMax {
		return a, nil
	}
	c, err := a.sum()
	if err != nil {
		return partial{}, err
	}
	return partial{parts: []*counts.Counts{c}}, nil
}

// encodePartial is the coder of partial: the counts file of its sum, or
// no bytes when it is empty.
func encodePartial(a partial) ([]byte, error) {
	c, err := a.sum()
	if err != nil || c == nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := counts.Encode(&b, c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// decodePartial decodes what encodePartial wrote.
func decodePartial(b []byte) (partial, error) {
	if len(b) == 0 {
		return partial{}, nil
	}
	c, err := counts.Decode(bytes.NewReader(b), "accumulator")
	if err != nil {
		return partial{}, err
	}
	return partial{parts: []*counts.Counts{c}}, nil
}

// mergeFn sums the encoded parts of one partition with counts.Merge:
// exact, associative and commutative, so the runner may lift, split and
// order the combine as it likes and the output is the same bytes.
type mergeFn struct{}

func (mergeFn) CreateAccumulator() partial { return partial{} }

func (mergeFn) AddInput(a partial, b []byte) (partial, error) {
	c, err := counts.Decode(bytes.NewReader(b), "part")
	if err != nil {
		return partial{}, err
	}
	return a.add(c)
}

func (mergeFn) MergeAccumulators(a, b partial) (partial, error) {
	return a.add(b.parts...)
}

func (mergeFn) ExtractOutput(a partial) ([]byte, error) {
	return encodePartial(a)
}

// dropKey drops the partition key of a merged partition.
func dropKey(_ int, b []byte) []byte { return b }

// writeFn gathers the merged partitions, checks them and writes their
// union to Output (local, gs:// or s3://).
type writeFn struct {
	Output     string `json:"output"`
	Partitions int    `json:"partitions"`
}

func (f *writeFn) ProcessElement(ctx context.Context, _ int, parts func(*[]byte) bool) error {
	var cs []*counts.Counts
	var b []byte
	for parts(&b) {
		c, err := counts.Decode(bytes.NewReader(b), fmt.Sprintf("partition %d", len(cs)+1))
		if err != nil {
			return err
		}
		cs = append(cs, c)
	}
	if len(cs) != f.Partitions {
		return fmt.Errorf("write %s: got %d merged partitions, want %d", f.Output, len(cs), f.Partitions)
	}
	all, err := concat(cs)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.Output, err)
	}
	return writeCounts(ctx, f.Output, all)
}

// concat returns the union of parts that hold disjoint terms under one
// header (merged term-hash partitions): the terms of all, ascending, with
// their cells. Headers that differ or a term in two parts are errors: the
// partitions did not all see every file.
func concat(parts []*counts.Counts) (*counts.Counts, error) {
	h := &parts[0].Header
	type ref struct{ part, term int }
	var refs []ref
	for p, c := range parts {
		if c.Settings != h.Settings || c.Vocab != h.Vocab || !slices.Equal(c.Classes, h.Classes) || !slices.Equal(c.ClassDocs, h.ClassDocs) {
			return nil, fmt.Errorf("merged partitions %d and 1 have different headers", p+1)
		}
		for i := range c.Terms {
			refs = append(refs, ref{p, i})
		}
	}
	term := func(r ref) string { return parts[r.part].Terms[r.term] }
	sort.Slice(refs, func(i, j int) bool { return term(refs[i]) < term(refs[j]) })
	out := &counts.Counts{Header: *h, Terms: make([]string, 0, len(refs)), Start: make([]int, 1, len(refs)+1)}
	for i, r := range refs {
		t := term(r)
		if i > 0 && t == out.Terms[i-1] {
			return nil, fmt.Errorf("term %q is in two partitions", t)
		}
		out.Terms = append(out.Terms, t)
		out.Cells = append(out.Cells, parts[r.part].Row(r.term)...)
		out.Start = append(out.Start, len(out.Cells))
	}
	return out, nil
}

// isLocal reports whether path names a local file: no scheme://, as
// Beam's filesystem tells them apart.
func isLocal(path string) bool { return strings.Index(path, "://") <= 0 }

// writeCounts writes c to path: atomically for a local file
// (counts.WriteFile), through Beam's filesystem otherwise (an object store
// makes an object visible only once it is whole).
func writeCounts(ctx context.Context, path string, c *counts.Counts) error {
	if isLocal(path) {
		return counts.WriteFile(path, c)
	}
	return writeRemote(ctx, path, func(w io.Writer) error { return counts.Encode(w, c) })
}

// writeRemote writes path through Beam's filesystem with encode.
func writeRemote(ctx context.Context, path string, encode func(io.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := encode(w); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readCounts reads the counts file at path (local, gs:// or s3://).
func readCounts(ctx context.Context, path string) (*counts.Counts, error) {
	if isLocal(path) {
		return counts.ReadFile(path)
	}
	r, err := openRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return counts.Decode(r, path)
}

// fsReader is a file opened through Beam's filesystem: closing it closes
// the file, then the filesystem.
type fsReader struct {
	io.ReadCloser
	fs filesystem.Interface
}

func (r fsReader) Close() error {
	err := r.ReadCloser.Close()
	if ferr := r.fs.Close(); err == nil {
		err = ferr
	}
	return err
}

// openRead opens path (local, gs:// or s3://) through Beam's filesystem.
func openRead(ctx context.Context, path string) (io.ReadCloser, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return fsReader{rc, fs}, nil
}
