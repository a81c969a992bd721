package counts

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// The file format; see the package documentation for the byte layout.
const (
	// Version is the newest format version this package writes: 2 for
	// counts with feature hashing (Settings.HashBits), whose terms carry
	// bucket names (see names.go), else 1.
	Version = 2
	// minVersion is the oldest version it reads.
	minVersion = 1
	// maxHeaderBytes bounds the JSON header.
	maxHeaderBytes = 64 << 20
	// maxTermBytes bounds one term.
	maxTermBytes = 1 << 20
)

// magic opens every counts file. As in PNG and the model file, the first
// byte is not ASCII and line-ending conversions would show.
var magic = [8]byte{0x89, 'N', 'B', 'C', '\r', '\n', 0x1a, '\n'}

// ErrNotCounts is the error (wrapped with the file name) for a file that
// does not start with the counts magic number.
var ErrNotCounts = errors.New("not an nbtext counts file")

// writer writes a counts file: the header at creation, then the terms in
// ascending order with add, then the end and the checksum with close.
type writer struct {
	w     io.Writer // the destination and the hash
	h     hash.Hash
	dst   io.Writer
	hdr   *Header
	buf   []byte
	prev  string
	terms uint64
}

// newWriter writes the magic number, the version and the header to w.
func newWriter(w io.Writer, h *Header) (*writer, error) {
	if err := checkHeader(h); err != nil {
		return nil, err
	}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	sum := sha256.New()
	cw := &writer{w: io.MultiWriter(w, sum), h: sum, dst: w, hdr: h}
	b := append([]byte(nil), magic[:]...)
	b = binary.LittleEndian.AppendUint32(b, fileVersion(h))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	b = append(b, js...)
	_, err = cw.w.Write(b)
	return cw, err
}

// add writes the record of one term. Terms come in strictly ascending
// order; cells by strictly ascending class, none empty.
func (w *writer) add(term string, cells []Cell) error { return w.addNamed(term, cells, nil) }

// addNamed is add with the bucket names of the term, which a hashed file
// records after its cells (and other files ignore).
func (w *writer) addNamed(term string, cells []Cell, names []vectorize.TermCount) error {
	if w.terms > 0 && term <= w.prev || term == "" {
		return fmt.Errorf("counts: term %q out of order after %q", term, w.prev)
	}
	if len(cells) == 0 {
		return fmt.Errorf("counts: term %q has no cells", term)
	}
	b := w.buf[:0]
	b = binary.AppendUvarint(b, uint64(len(term)))
	b = append(b, term...)
	b = binary.AppendUvarint(b, uint64(len(cells)))
	prev := int32(-1)
	for _, c := range cells {
		if c.Class <= prev || c.Docs < 1 || c.Occ < c.Docs {
			return fmt.Errorf("counts: term %q: bad cell %+v", term, c)
		}
		b = binary.AppendUvarint(b, uint64(c.Class-prev))
		b = binary.AppendUvarint(b, uint64(c.Docs))
		b = binary.AppendUvarint(b, uint64(c.Occ-c.Docs))
		if w.hdr.Weighted() {
			b = binary.AppendUvarint(b, c.Sum.Hi)
			b = binary.AppendUvarint(b, c.Sum.Lo)
		}
		prev = c.Class
	}
	if hashed(w.hdr) {
		b = vectorize.AppendNames(b, names)
	}
	w.buf = b
	w.prev = term // the caller's string: records are added from stable storage
	w.terms++
	_, err := w.w.Write(b)
	return err
}

// close writes the end of the terms, their number and the SHA-256 of
// everything before it.
func (w *writer) close() error {
	b := binary.AppendUvarint(nil, 0)
	b = binary.AppendUvarint(b, w.terms)
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	_, err := w.dst.Write(w.h.Sum(nil))
	return err
}

// checkHeader reports a header that no counts file may carry.
func checkHeader(h *Header) error {
	if err := h.Settings.Validate(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if len(h.Classes) != len(h.ClassDocs) {
		return fmt.Errorf("%d classes but %d class document counts", len(h.Classes), len(h.ClassDocs))
	}
	var total int64
	for i, c := range h.Classes {
		if d := h.ClassDocs[i]; d > 0 && d > math.MaxInt64-total {
			return fmt.Errorf("the documents of the classes sum past 2^63 (at class %q)", c)
		} else if d > 0 {
			total += d
		}
		if i > 0 && c <= h.Classes[i-1] {
			return fmt.Errorf("classes not distinct and ascending: %q after %q", c, h.Classes[i-1])
		}
		if h.ClassDocs[i] < 1 {
			return fmt.Errorf("class %q has %d documents, want ≥ 1", c, h.ClassDocs[i])
		}
	}
	if h.Vocab != "" && len(h.Vocab) != 64 {
		return fmt.Errorf("vocabulary digest %q is not a hex SHA-256", h.Vocab)
	}
	if err := checkInputs(h.Inputs); err != nil {
		return fmt.Errorf("inputs: %w", err)
	}
	return nil
}

// Encode writes c to w in the counts file format.
func Encode(w io.Writer, c *Counts) error {
	if err := checkNamesLen(c); err != nil {
		return err
	}
	cw, err := newWriter(w, &c.Header)
	if err != nil {
		return err
	}
	for i, t := range c.Terms {
		if err := cw.addNamed(t, c.Row(i), c.names(i)); err != nil {
			return err
		}
	}
	return cw.close()
}

// WriteFile writes c to path atomically (fsutil.WriteFile): an interrupted
// write leaves no half-written file.
func WriteFile(path string, c *Counts) error {
	return fsutil.WriteFile(path, func(w io.Writer) error { return Encode(w, c) })
}

// reader decodes a counts file one term at a time, hashing what it reads:
// the checksum is checked when the end is reached, so a caller that
// streams (the merge) learns of damage before it finishes its output.
type reader struct {
	name  string
	br    *hashReader
	hdr   Header
	prev  string
	terms uint64
	cells []Cell
	names []vectorize.TermCount // of the last term, in a hashed file
	done  bool
}

// newReader reads the magic number, version and header of r, named name
// in errors.
func newReader(r io.Reader, name string) (*reader, error) {
	br := &hashReader{r: r, h: sha256.New(), buf: make([]byte, 0, 1<<16)}
	rd := &reader{name: name, br: br}
	head, err := br.next(16)
	if err != nil {
		if k := min(len(head), len(magic)); k > 0 && !bytes.Equal(head[:k], magic[:k]) {
			return nil, fmt.Errorf("%s: %w", name, ErrNotCounts)
		}
		return nil, rd.cut(err)
	}
	if !bytes.Equal(head[:8], magic[:]) {
		return nil, fmt.Errorf("%s: %w", name, ErrNotCounts)
	}
	v := binary.LittleEndian.Uint32(head[8:])
	if v < minVersion || v > Version {
		return nil, fmt.Errorf("%s: counts format version %d is not one this nbtext reads (%d..%d): a newer nbtext wrote it", name, v, minVersion, Version)
	}
	n := binary.LittleEndian.Uint32(head[12:])
	if n > maxHeaderBytes {
		return nil, fmt.Errorf("%s: header of %d bytes is over the bound of %d: the file is damaged", name, n, maxHeaderBytes)
	}
	js, err := br.next(int(n))
	if err != nil {
		return nil, rd.cut(err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rd.hdr); err != nil {
		return nil, fmt.Errorf("%s: header: %w: the file is damaged", name, err)
	}
	if err := checkHeader(&rd.hdr); err != nil {
		return nil, fmt.Errorf("%s: header: %w: the file is damaged", name, err)
	}
	if hashed(&rd.hdr) != (v >= hashedVersion) {
		return nil, fmt.Errorf("%s: header: hash_bits %d in a version %d file: the file is damaged", name, rd.hdr.Settings.HashBits, v)
	}
	return rd, nil
}

// cut turns a read error into one naming the file.
func (r *reader) cut(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: cut short: the file is truncated", r.name)
	}
	return fmt.Errorf("%s: %w", r.name, err)
}

// bad returns a decoding error at the current term.
func (r *reader) bad(format string, a ...any) error {
	return fmt.Errorf("%s: term %d: %s: the file is damaged", r.name, r.terms+1, fmt.Sprintf(format, a...))
}

// next returns the next term and its cells (valid until the following
// call), or ok = false at the end, once the term count, the checksum and
// the end of the file have been checked.
func (r *reader) next() (term string, cells []Cell, ok bool, err error) {
	if r.done {
		return "", nil, false, nil
	}
	n, err := r.br.uvarint()
	if err != nil {
		return "", nil, false, r.cut(err)
	}
	if n == 0 {
		return "", nil, false, r.finish()
	}
	if n > maxTermBytes {
		return "", nil, false, r.bad("term of %d bytes", n)
	}
	b, err := r.br.next(int(n))
	if err != nil {
		return "", nil, false, r.cut(err)
	}
	term = string(b)
	if r.terms > 0 && term <= r.prev {
		return "", nil, false, r.bad("%q out of order after %q", term, r.prev)
	}
	if !utf8.ValidString(term) {
		return "", nil, false, r.bad("term is not UTF-8")
	}
	C := len(r.hdr.Classes)
	k, err := r.br.uvarint()
	if err != nil {
		return "", nil, false, r.cut(err)
	}
	if k < 1 || k > uint64(C) {
		return "", nil, false, r.bad("%d cells for %d classes", k, C)
	}
	r.cells = r.cells[:0]
	class := int64(-1)
	for range k {
		var x [5]uint64
		m := 3
		if r.hdr.Weighted() {
			m = 5
		}
		for j := range m {
			if x[j], err = r.br.uvarint(); err != nil {
				return "", nil, false, r.cut(err)
			}
		}
		if x[0] == 0 || x[0] > uint64(C) || class+int64(x[0]) >= int64(C) {
			return "", nil, false, r.bad("class out of range")
		}
		class += int64(x[0])
		if x[1] < 1 || x[1] > uint64(r.hdr.ClassDocs[class]) {
			return "", nil, false, r.bad("%d documents of class %q, which has %d", x[1], r.hdr.Classes[class], r.hdr.ClassDocs[class])
		}
		if x[2] > 1<<62 {
			return "", nil, false, r.bad("occurrence count out of range")
		}
		r.cells = append(r.cells, Cell{Class: int32(class), Docs: int64(x[1]), Occ: int64(x[1] + x[2]), Sum: Fixed{Hi: x[3], Lo: x[4]}})
	}
	if hashed(&r.hdr) {
		if r.names, err = r.readNames(); err != nil {
			return "", nil, false, err
		}
	}
	r.prev = term
	r.terms++
	return term, r.cells, true, nil
}

// finish checks the term count, the checksum and the end of the file.
func (r *reader) finish() error {
	n, err := r.br.uvarint()
	if err != nil {
		return r.cut(err)
	}
	want := r.br.sum()
	got, err := r.br.next(sha256.Size)
	if err != nil {
		return r.cut(err)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s: SHA-256 checksum mismatch: the file is damaged", r.name)
	}
	if n != r.terms {
		return fmt.Errorf("%s: says %d terms but holds %d: the file is damaged", r.name, n, r.terms)
	}
	if !r.br.atEOF() {
		return fmt.Errorf("%s: bytes after the checksum: the file is damaged", r.name)
	}
	r.done = true
	return nil
}

// Decode reads a whole counts file from r, named name in errors.
func Decode(r io.Reader, name string) (*Counts, error) {
	rd, err := newReader(r, name)
	if err != nil {
		return nil, err
	}
	c := &Counts{Header: rd.hdr, Start: []int{0}}
	var size int
	var terms []string
	var ends []int
	var bytes []byte
	for {
		t, cells, ok, err := rd.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		bytes = append(bytes, t...)
		size += len(t)
		ends = append(ends, size)
		c.Cells = append(c.Cells, cells...)
		c.Start = append(c.Start, len(c.Cells))
		if hashed(&c.Header) {
			c.Names = append(c.Names, rd.names)
		}
	}
	// One block for the terms' bytes.
	all := string(bytes)
	terms = make([]string, len(ends))
	lo := 0
	for i, e := range ends {
		terms[i] = all[lo:e]
		lo = e
	}
	c.Terms = terms
	return c, nil
}

// ReadFile reads the counts file at path.
func ReadFile(path string) (*Counts, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(f, path)
}

// hashReader is a buffered reader that hashes the bytes it hands out,
// and only those (bufio.Reader over a hashing TeeReader would hash what
// it reads ahead, the checksum included).
type hashReader struct {
	r      io.Reader
	h      hash.Hash
	buf    []byte // buf[pos:] is unread; buf[hashed:pos] is read but not yet hashed
	pos    int
	hashed int
	err    error
}

// fill makes at least n unread bytes available, or fails.
func (b *hashReader) fill(n int) error {
	for len(b.buf)-b.pos < n {
		if b.err != nil {
			return b.err
		}
		b.h.Write(b.buf[b.hashed:b.pos])
		rest := copy(b.buf[:cap(b.buf)], b.buf[b.pos:])
		b.buf, b.pos, b.hashed = b.buf[:rest], 0, 0
		if cap(b.buf) < n {
			// Grow with the data actually read (at most doubling), not
			// to the n a damaged length asks for: a short file cannot
			// make the reader allocate its bound (64 MiB of header).
			b.buf = slices.Grow(b.buf, min(n, 2*max(cap(b.buf), 1<<12))-len(b.buf))
		}
		m, err := b.r.Read(b.buf[len(b.buf):cap(b.buf)])
		b.buf = b.buf[:len(b.buf)+m]
		if err != nil {
			b.err = err
		}
	}
	return nil
}

// next returns the next n bytes, valid until the following call.
func (b *hashReader) next(n int) ([]byte, error) {
	if err := b.fill(n); err != nil {
		return b.buf[b.pos:], err
	}
	p := b.buf[b.pos : b.pos+n]
	b.pos += n
	return p, nil
}

// ReadByte returns the next byte.
func (b *hashReader) ReadByte() (byte, error) {
	if b.pos < len(b.buf) {
		b.pos++
		return b.buf[b.pos-1], nil
	}
	p, err := b.next(1)
	if err != nil {
		return 0, err
	}
	return p[0], nil
}

// uvarint reads an unsigned varint.
func (b *hashReader) uvarint() (uint64, error) {
	x, err := binary.ReadUvarint(b)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return x, err
}

// sum returns the hash of the bytes read so far; nothing is hashed after.
func (b *hashReader) sum() []byte {
	b.h.Write(b.buf[b.hashed:b.pos])
	b.hashed = b.pos
	s := b.h.Sum(nil)
	b.h = nopHash{}
	return s
}

// atEOF reports whether nothing is left to read.
func (b *hashReader) atEOF() bool {
	return b.fill(1) != nil && b.pos == len(b.buf)
}

// nopHash stands in for the hash once the checksum is taken.
type nopHash struct{ hash.Hash }

func (nopHash) Write(p []byte) (int, error) { return len(p), nil }
