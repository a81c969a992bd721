package train

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// RowCache is a compact binary copy of weighted document rows on disk, as
// Vowpal Wabbit's --cache: each row is its label id, its number of terms,
// the term ids as uvarint deltas (ascending, so the deltas are small) and
// the values as float32, little-endian. Rows are read back in the order
// they were added, as many times as wanted (Each), or by chunks of 64
// rows in any order (EachChunk), so that an iterative fit holds a bounded
// buffer of them, not the corpus.
//
// The file is created in a temporary directory and unlinked at once where
// the system allows it (the data lives until Close, and nothing is left
// behind however the process ends); elsewhere Close removes it.
type RowCache struct {
	f       *fsutil.Scratch
	w       *bufio.Writer
	rows    int
	nnz     int64
	sq      float64 // Σ of the squared values, in the order they were added
	classes int     // 1 + the largest label id
	sizes   []int   // rows of each label id
	buf     []byte
	reading bool
	off     int64   // bytes written
	chunks  []int64 // offset of every cacheChunk-th row
}

// cacheChunk is the number of rows of a chunk of a RowCache, the unit
// EachChunk reads in a random order: a few MB of offsets for 10^8 rows.
const cacheChunk = 64

// NewRowCache creates an empty row cache in dir ("" means os.TempDir).
func NewRowCache(dir string) (*RowCache, error) {
	f, err := fsutil.NewScratch(dir, "nbtext-rows-*")
	if err != nil {
		return nil, fmt.Errorf("row cache: %w", err)
	}
	return &RowCache{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// Add appends a row: label id y and the ascending term ids ind with their
// values val.
func (c *RowCache) Add(y int, ind []int32, val []float32) error {
	if c.reading {
		return errors.New("row cache: add after reading")
	}
	if y < 0 {
		return fmt.Errorf("row cache: label id %d", y)
	}
	if c.rows%cacheChunk == 0 {
		c.chunks = append(c.chunks, c.off)
	}
	b, err := appendRow(c.buf[:0], y, ind, val)
	if err != nil {
		return fmt.Errorf("row cache: row %d: %w", c.rows, err)
	}
	for _, v := range val[:len(ind)] {
		c.sq += float64(v) * float64(v)
	}
	c.buf = b
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("row cache %s: %w", c.f.Name(), err)
	}
	c.off += int64(len(b))
	c.rows++
	c.nnz += int64(len(ind))
	c.classes = max(c.classes, y+1)
	for len(c.sizes) <= y {
		c.sizes = append(c.sizes, 0)
	}
	c.sizes[y]++
	return nil
}

// appendRow appends the encoding of a row of a RowCache to b.
func appendRow(b []byte, y int, ind []int32, val []float32) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(y))
	b = binary.AppendUvarint(b, uint64(len(ind)))
	prev := int32(0)
	for j, t := range ind {
		if t < prev || (j > 0 && t == prev) {
			return b, fmt.Errorf("term ids not ascending (%d after %d)", t, prev)
		}
		b = binary.AppendUvarint(b, uint64(t-prev))
		prev = t
	}
	for _, v := range val[:len(ind)] {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b, nil
}

// decodeRows calls fn with each of the rows encoded in data (as appendRow
// encodes them), the first being row first of the file named in errors.
func (c *RowCache) decodeRows(data []byte, first, rows int, fn func(y int, ind []int32, val []float32) error) error {
	rr := &rowReader{c: c, fn: fn}
	return rr.rows(bytes.NewReader(data), first, first+rows)
}

// Rows returns the number of rows added.
func (c *RowCache) Rows() int { return c.rows }

// ClassSizes returns the number of rows of each label id below nc (the
// sizes --class-weight balanced needs).
func (c *RowCache) ClassSizes(nc int) []int {
	n := make([]int, nc)
	copy(n, c.sizes)
	return n
}

// check returns an error unless the cache has rows, all of label ids
// below nc, for a fit that reads it in blocks of buffer rows; and the
// buffer, DefaultStreamBuffer when buffer ≤ 0.
func (c *RowCache) check(nc, buffer int) (int, error) {
	if c.rows == 0 {
		return 0, errors.New("no training documents")
	}
	if c.classes > nc {
		return 0, fmt.Errorf("row cache has label id %d, but %d classes", c.classes-1, nc)
	}
	if buffer <= 0 {
		buffer = DefaultStreamBuffer
	}
	return buffer, nil
}

// Chunks returns the number of chunks of the cache: rows
// [k·64, (k+1)·64) form chunk k.
func (c *RowCache) Chunks() int { return len(c.chunks) }

// Each calls fn with every row, in the order they were added. The slices
// are valid until fn returns. After the first Each, Add fails.
func (c *RowCache) Each(fn func(y int, ind []int32, val []float32) error) error {
	return c.read(nil, fn)
}

// EachChunk calls fn with every row of the chunks order, chunk after chunk
// and in order within a chunk (see Each).
func (c *RowCache) EachChunk(order []int, fn func(y int, ind []int32, val []float32) error) error {
	return c.read(order, fn)
}

// read reads the chunks order (nil: every row in order). In order, the
// file is read through a 1 MB buffer; a chunk out of order is read whole
// with one positioned read of exactly its bytes (a 1 MB read-ahead after
// every seek read 13 times the data at 10^6 rows).
func (c *RowCache) read(order []int, fn func(y int, ind []int32, val []float32) error) error {
	if !c.reading {
		if err := c.w.Flush(); err != nil {
			return fmt.Errorf("row cache %s: %w", c.f.Name(), err)
		}
		c.reading = true
	}
	rr := &rowReader{c: c, fn: fn}
	if order == nil {
		if _, err := c.f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("row cache %s: %w", c.f.Name(), err)
		}
		return rr.rows(bufio.NewReaderSize(c.f, 1<<20), 0, c.rows)
	}
	var (
		buf []byte
		br  bytes.Reader
	)
	for _, k := range order {
		if k < 0 || k >= len(c.chunks) {
			return fmt.Errorf("row cache: chunk %d of %d", k, len(c.chunks))
		}
		end := c.off
		if k+1 < len(c.chunks) {
			end = c.chunks[k+1]
		}
		n := int(end - c.chunks[k])
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := c.f.ReadAt(buf, c.chunks[k]); err != nil {
			return rr.bad(k*cacheChunk, err)
		}
		br.Reset(buf)
		if err := rr.rows(&br, k*cacheChunk, min(c.rows, (k+1)*cacheChunk)); err != nil {
			return err
		}
	}
	return nil
}

// rowReader decodes the rows of a RowCache for fn, reusing its slices.
type rowReader struct {
	c   *RowCache
	fn  func(y int, ind []int32, val []float32) error
	ind []int32
	val []float32
	b4  [4]byte
}

// byteReader is what rows reads from: a buffered file or a chunk's bytes.
type byteReader interface {
	io.Reader
	io.ByteReader
}

// bad words an error met reading row i.
func (rr *rowReader) bad(i int, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("row cache %s: row %d: %w", rr.c.f.Name(), i, err)
}

// rows decodes rows lo to hi from r and calls fn with each.
func (rr *rowReader) rows(r byteReader, lo, hi int) error {
	b4 := rr.b4[:]
	for i := lo; i < hi; i++ {
		y, err := binary.ReadUvarint(r)
		if err != nil {
			return rr.bad(i, err)
		}
		k, err := binary.ReadUvarint(r)
		if err != nil {
			return rr.bad(i, err)
		}
		ind, val := rr.ind[:0], rr.val[:0]
		t := uint64(0)
		for range k {
			d, err := binary.ReadUvarint(r)
			if err != nil {
				return rr.bad(i, err)
			}
			t += d
			ind = append(ind, int32(t))
		}
		for range k {
			if _, err := io.ReadFull(r, b4); err != nil {
				return rr.bad(i, err)
			}
			val = append(val, math.Float32frombits(binary.LittleEndian.Uint32(b4)))
		}
		rr.ind, rr.val = ind, val
		if err := rr.fn(int(y), ind, val); err != nil {
			return err
		}
	}
	return nil
}

// Close closes and removes the cache file.
func (c *RowCache) Close() error { return c.f.Close() }
