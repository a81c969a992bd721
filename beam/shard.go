package nbbeam

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/nbtext/nbtext/internal/corpus"
)

// Shard is one piece of the input counted by one count DoFn call: a whole
// source (a record file, compressed or not, an archive, a folder tree), or
// the lines of a record file that start in the bytes [Start, End).
type Shard struct {
	// Path is the file or folder (local, gs://, s3://).
	Path string
	// Start and End are the byte range; End < 0 is the whole source.
	Start, End int64
	// Format is the line format of a range (corpus.SplitFormat).
	Format string
}

// whole reports whether s is a whole source.
func (s Shard) whole() bool { return s.End < 0 }

// name is how s is named in document IDs and errors: the path, with the
// range's first byte after an @ ("x.tsv@67108864:3" is the third line
// that starts at or after byte 67108864).
func (s Shard) name() string {
	if s.whole() || s.Start == 0 {
		return s.Path
	}
	return fmt.Sprintf("%s@%d", s.Path, s.Start)
}

// headLen is how many first bytes of a file shards looks at to tell its
// format.
const headLen = 64 << 10

// shards returns the shards of the file or folder path: the whole source,
// or, when splitBytes > 0 and path is a record file larger than that
// which corpus.SplitFormat says can be cut at line breaks, ranges of
// splitBytes.
func shards(ctx context.Context, path string, splitBytes int64, opts corpus.Options) ([]Shard, error) {
	whole := []Shard{{Path: path, End: -1}}
	if splitBytes <= 0 {
		return whole, nil
	}
	if isLocal(path) {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return whole, nil // a folder; anything else fails when read
		}
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	size, err := fs.Size(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if size <= splitBytes {
		return whole, nil
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head, err := io.ReadAll(io.LimitReader(rc, headLen))
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	format := corpus.SplitFormat(path, head, opts)
	if format == "" {
		return whole, nil
	}
	var out []Shard
	for s := int64(0); s < size; s += splitBytes {
		out = append(out, Shard{Path: path, Start: s, End: min(s+splitBytes, size), Format: format})
	}
	return out, nil
}

// openShard opens the bytes the count of s reads: the whole source, or
// for a range its lines that start in [Start, End), after the file's first
// line for a TSV range past the start (skipFirst: the caller drops the
// document of that line, "NAME:1", when it is a record rather than a
// header row). A range in which no line starts is nil.
func openShard(ctx context.Context, s Shard) (r io.ReadCloser, skipFirst bool, err error) {
	rc, err := openRead(ctx, s.Path)
	if err != nil || s.whole() {
		return rc, false, err
	}
	var first []byte
	if s.Start > 0 && s.Format == corpus.FormatTSV {
		// The first line, for its header row.
		first, err = bufio.NewReader(io.LimitReader(rc, corpus.DefaultMaxDocBytes+1)).ReadBytes('\n')
		rc.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, false, fmt.Errorf("%s: %w", s.Path, err)
		}
		if first = bytes.TrimRight(first, "\n"); len(first) > 0 {
			first = append(first, '\n')
		}
		if rc, err = openRead(ctx, s.Path); err != nil {
			return nil, false, err
		}
	}
	lr, err := newLineRange(rc, s.Start, s.End)
	if err != nil {
		rc.Close()
		return nil, false, fmt.Errorf("%s: %w", s.Path, err)
	}
	if lr.done {
		rc.Close()
		return nil, false, nil
	}
	var body io.Reader = lr
	if first != nil {
		body = io.MultiReader(bytes.NewReader(first), lr)
	}
	return readCloser{body, rc}, first != nil, nil
}

// readCloser reads from Reader and closes Closer.
type readCloser struct {
	io.Reader
	io.Closer
}

// lineRange reads the lines of r (a file from its first byte) that start
// at a byte in [start, end): it skips to the first line that starts at or
// after start (seeking when r can), and reads on past end to the end of
// the line that holds byte end-1.
type lineRange struct {
	br   *bufio.Reader
	pos  int64 // the offset in the file of the next byte of br
	end  int64
	done bool
}

func newLineRange(r io.Reader, start, end int64) (*lineRange, error) {
	lr := &lineRange{end: end}
	if start > 0 {
		// Look from the byte before start: when it ends a line, a line
		// starts at start.
		from := start - 1
		if sk, ok := r.(io.Seeker); ok {
			if _, err := sk.Seek(from, io.SeekStart); err != nil {
				return nil, err
			}
		} else if _, err := io.CopyN(io.Discard, r, from); err != nil {
			return nil, err
		}
		lr.br = bufio.NewReaderSize(r, 1<<16)
		lr.pos = from
		for {
			b, err := lr.br.ReadSlice('\n')
			lr.pos += int64(len(b))
			if err == nil {
				break
			}
			if errors.Is(err, io.EOF) {
				lr.done = true
				break
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
		}
	} else {
		lr.br = bufio.NewReaderSize(r, 1<<16)
	}
	if lr.pos >= end {
		lr.done = true
	}
	return lr, nil
}

// Read reads the range's bytes: up to end, then to the end of that line.
func (lr *lineRange) Read(p []byte) (int, error) {
	if lr.done || len(p) == 0 {
		if lr.done {
			return 0, io.EOF
		}
		return 0, nil
	}
	if lr.pos < lr.end {
		p = p[:min(int64(len(p)), lr.end-lr.pos)]
		n, err := lr.br.Read(p)
		lr.pos += int64(n)
		if n > 0 && lr.pos == lr.end && p[n-1] == '\n' {
			lr.done = true // the last line ends at end
		}
		if errors.Is(err, io.EOF) {
			lr.done = true
		}
		if n > 0 {
			return n, nil
		}
		return n, err
	}
	// Past end: the rest of the line holding byte end-1.
	n := 0
	for n < len(p) {
		c, err := lr.br.ReadByte()
		if errors.Is(err, io.EOF) {
			lr.done = true
			break
		}
		if err != nil {
			return n, err
		}
		p[n] = c
		n++
		if c == '\n' {
			lr.done = true
			break
		}
	}
	lr.pos += int64(n)
	return n, nil
}
