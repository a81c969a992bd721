package nbbeam

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/nbtext/nbtext/internal/fsutil"

	"github.com/nbtext/nbtext/internal/counts"
)

// pendingMax is how many parts an accumulator holds before it merges
// them: merging k parts at once is one k-way pass, so buffering a few
// avoids re-copying the sum for each part added.
const pendingMax = 16

// partial is the accumulator of mergeFn: encoded parts (counts files) of
// one partition still to be summed. They stay encoded, a few bytes a cell
// where a decoded cell takes 40, so that a worker holding the
// accumulators of every partition of a bundle holds about the size of
// their counts files; only a sum decodes them, one partition at a time.
type partial struct {
	parts [][]byte
}

// sum returns the one encoded part that is the sum of a's parts (nil when
// a is empty).
func (a partial) sum() ([]byte, error) {
	switch len(a.parts) {
	case 0:
		return nil, nil
	case 1:
		return a.parts[0], nil
	}
	cs := make([]*counts.Counts, len(a.parts))
	names := make([]string, len(a.parts))
	for i, b := range a.parts {
		names[i] = fmt.Sprintf("part %d", i+1)
		c, err := counts.Decode(bytes.NewReader(b), names[i])
		if err != nil {
			return nil, err
		}
		cs[i] = c
	}
	c, err := counts.Merge(cs, names)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := counts.Encode(&out, c); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// add returns a with the parts ps added, merged into one when there are
// more than pendingMax.
func (a partial) add(ps ...[]byte) (partial, error) {
	a.parts = append(a.parts[:len(a.parts):len(a.parts)], ps...)
	if len(a.parts) <= pendingMax {
		return a, nil
	}
	b, err := a.sum()
	if err != nil {
		return partial{}, err
	}
	return partial{parts: [][]byte{b}}, nil
}

// encodePartial is the coder of partial: the counts file of its sum, or
// no bytes when it is empty.
func encodePartial(a partial) ([]byte, error) { return a.sum() }

// decodePartial decodes what encodePartial wrote.
func decodePartial(b []byte) (partial, error) {
	if len(b) == 0 {
		return partial{}, nil
	}
	return partial{parts: [][]byte{b}}, nil
}

// mergeFn sums the encoded parts of one partition with counts.Merge:
// exact, associative and commutative, so the runner may lift, split and
// order the combine as it likes and the output is the same bytes.
type mergeFn struct{}

func (mergeFn) CreateAccumulator() partial { return partial{} }

func (mergeFn) AddInput(a partial, b []byte) (partial, error) {
	return a.add(b)
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
	var rs []io.Reader
	var names []string
	var b []byte
	for parts(&b) {
		rs, names = append(rs, bytes.NewReader(b)), append(names, fmt.Sprintf("merged partition %d", len(rs)+1))
		b = nil
	}
	if len(rs) != f.Partitions {
		return fmt.Errorf("write %s: got %d merged partitions, want %d", f.Output, len(rs), f.Partitions)
	}
	return writeTo(ctx, f.Output, func(w io.Writer) error {
		_, _, err := counts.Concat(w, rs, names)
		return err
	})
}

// isLocal reports whether path names a local file: no scheme://, as
// Beam's filesystem tells them apart.
func isLocal(path string) bool { return strings.Index(path, "://") <= 0 }

// writeTo writes path with encode: atomically for a local file
// (fsutil.WriteFile), through Beam's filesystem otherwise (an object store
// makes an object visible only once it is whole).
func writeTo(ctx context.Context, path string, encode func(io.Writer) error) error {
	if isLocal(path) {
		return fsutil.WriteFile(path, encode)
	}
	return writeRemote(ctx, path, encode)
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

// scanCounts reads the counts file at path term by term and returns its
// header and number of terms, without holding its terms.
func scanCounts(ctx context.Context, path string) (*counts.Header, int, error) {
	r, err := openRead(ctx, path)
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	return counts.Concat(io.Discard, []io.Reader{r}, []string{path})
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
