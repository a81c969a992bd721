package model

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// The model file format; the byte layout is documented in doc.go.
const (
	// FormatVersion is the newest format version this build writes: 4
	// for a model with feature hashing, 3 for one with record fields, 2
	// for any other (see doc.go), and 5 for an ensemble (ensembleVersion).
	FormatVersion = 5
	// MinFormatVersion is the oldest format version this build reads.
	MinFormatVersion = 1
	// MaxPayload bounds the payload length a reader accepts (1 GiB), so
	// that a damaged length field cannot make it allocate without limit.
	MaxPayload = 1 << 30

	headerSize  = 20 // magic, version, kind, reserved, payload length
	trailerSize = sha256.Size
	minFileSize = headerSize + trailerSize
)

// magic opens every model file. As in PNG, the first byte is not ASCII (it
// catches 7-bit transfers), "\r\n" catches CRLF conversion, 0x1a stops
// DOS type, and the final "\n" catches LF-to-CRLF conversion.
var magic = [8]byte{0x89, 'N', 'B', 'M', '\r', '\n', 0x1a, '\n'}

// Errors of Load and Decode. Every error they return is a *FileError that
// matches ErrModelFile and, for a bad file, exactly one of the other
// sentinels; an I/O error matches the underlying error instead (e.g.
// fs.ErrNotExist for a missing file).
var (
	// ErrModelFile matches every error of Load and Decode: the CLI maps it
	// to exit code 3.
	ErrModelFile = errors.New("bad model file")
	// ErrNotModel: the file does not start with the magic number (or is
	// empty).
	ErrNotModel = errors.New("not an nbtext model file")
	// ErrTruncated: the file is shorter than its header announces.
	ErrTruncated = errors.New("truncated")
	// ErrCorrupt: the checksum does not match, data follows the checksum,
	// or the payload does not decode to a valid model.
	ErrCorrupt = errors.New("corrupt")
	// ErrNewer: the format version, model kind or flags are newer than
	// this build.
	ErrNewer = errors.New("written by a newer nbtext")
	// ErrTooLarge: the announced payload exceeds MaxPayload.
	ErrTooLarge = errors.New("too large")
)

// FileError is a failure to read a model file. Its message names the file
// and says what is wrong, e.g. "m.nbm: truncated (40 of 1052 bytes)".
type FileError struct {
	Name string // the file name as given to Load or Decode
	Err  error  // ErrNotModel, ErrTruncated, ErrCorrupt, ErrNewer, ErrTooLarge or an I/O error
	Msg  string // the message after "Name: "
}

// Error returns "Name: Msg".
func (e *FileError) Error() string { return e.Name + ": " + e.Msg }

// Unwrap returns Err and ErrModelFile, for errors.Is.
func (e *FileError) Unwrap() []error { return []error{e.Err, ErrModelFile} }

func fileErr(name string, kind error, format string, args ...any) *FileError {
	return &FileError{Name: name, Err: kind, Msg: fmt.Sprintf(format, args...)}
}

func ioErr(name string, err error) *FileError {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &FileError{Name: name, Err: err, Msg: msg}
}

func truncated(name string, got int, want uint64) *FileError {
	return fileErr(name, ErrTruncated, "truncated (%d of %d bytes)", got, want)
}

// Encode writes m to w in the model file format, version FormatVersion
// (see the package documentation for the byte layout). It validates m
// first and writes nothing if m is invalid. Encoding is deterministic:
// equal models give equal bytes.
func Encode(w io.Writer, m *Model) error {
	enc, err := encodingOf(m)
	if err != nil {
		return err
	}
	return enc.writeTo(w)
}

// encoding is a model ready to be written: everything that allocates in
// proportion to the model (the header, the sparse counts, the check that
// the NB weights can be left out) is done, so that Save creates its
// temporary file only once the memory is in hand, and running out of it
// cannot leave an empty temporary file.
type encoding struct {
	m            *Model
	hdr          []byte
	termBytes, n uint64
	stats        bool   // NB: counts follow
	derived      bool   // NB weights that Decode can compute from the counts
	hashed       bool   // version 4: bucket names follow each term
	countSection []byte // NB: the sparse counts
}

func newEncoding(m *Model) (*encoding, error) {
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("encode model: %w", err)
	}
	return newValidEncoding(m)
}

// newValidEncoding is newEncoding of a model validated already.
func newValidEncoding(m *Model) (*encoding, error) {
	V, C := m.Vocab.Len(), len(m.Classes)
	e := &encoding{m: m, stats: m.Kind.IsNB() && !m.MultiLabel, hashed: m.formatVersion() == hashedVersion}
	var err error
	e.hdr, err = json.Marshal(fileHeader{
		Classes: m.Classes, Params: m.Params, Settings: m.Vocab.Settings,
		Terms: V, NDocs: m.Vocab.NDocs, Binary: m.Binary, Stats: e.stats,
		Version: m.Meta.Version, CreatedBy: m.Meta.CreatedBy, Fields: m.Fields, Multi: m.MultiLabel, Auto: m.Meta.Auto,
	})
	if err != nil {
		return nil, fmt.Errorf("encode model: %w", err)
	}
	for i, t := range m.Vocab.Terms {
		e.termBytes += uint64(uvarintLen(uint64(len(t))) + len(t) + varintLen(e.df(i)) + varintLen(e.cf(i)))
		if e.hashed {
			e.termBytes += namesLen(m.bucketNames(i))
		}
	}
	e.n = 4 + uint64(len(e.hdr)) + 8 + e.termBytes
	if e.stats {
		e.countSection = sparseCounts(m.Counts, V, C)
		e.n += 8*uint64(C) + 8 + uint64(len(e.countSection)) + 1
		if e.derived = derivedNB(m); !e.derived {
			e.n += 8*uint64(V*C) + 8*uint64(C)
		}
	} else {
		e.n += 8*uint64(V*C) + 8*uint64(C)
	}
	if e.n > MaxPayload {
		return nil, fmt.Errorf("encode model: payload of %d bytes exceeds the %d-byte limit", e.n, MaxPayload)
	}
	return e, nil
}

func (e *encoding) df(i int) int64 {
	if i < len(e.m.Vocab.DF) {
		return int64(e.m.Vocab.DF[i])
	}
	return 0
}

func (e *encoding) cf(i int) int64 {
	if i < len(e.m.Vocab.CF) {
		return e.m.Vocab.CF[i]
	}
	return 0
}

// writeTo writes the file: header, payload, checksum.
func (enc *encoding) writeTo(w io.Writer) error {
	m := enc.m
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<16)
	e := &encoder{w: bw, buf: make([]byte, 0, 1<<12)}
	e.bytes(magic[:])
	e.u16(m.formatVersion())
	e.bytes([]byte{byte(m.Kind), 0})
	e.u64(enc.n)
	e.u32(uint32(len(enc.hdr)))
	e.bytes(enc.hdr)
	e.u64(enc.termBytes)
	for i, t := range m.Vocab.Terms {
		e.buf = binary.AppendUvarint(e.buf, uint64(len(t)))
		e.buf = append(e.buf, t...)
		e.buf = binary.AppendVarint(e.buf, enc.df(i))
		e.buf = binary.AppendVarint(e.buf, enc.cf(i))
		if enc.hashed {
			e.buf = vectorize.AppendNames(e.buf, m.bucketNames(i))
		}
		e.flush(false)
	}
	if enc.stats {
		e.f64s(m.ClassDocs)
		e.u64(uint64(len(enc.countSection)))
		e.bytes(enc.countSection)
		if enc.derived {
			e.bytes([]byte{0})
		} else {
			e.bytes([]byte{1})
			e.f64s(m.W)
			e.f64s(m.B)
		}
	} else {
		e.f64s(m.W)
		e.f64s(m.B)
	}
	e.flush(true)
	if e.err == nil {
		e.err = bw.Flush()
	}
	if e.err == nil {
		_, e.err = w.Write(h.Sum(nil))
	}
	if e.err != nil {
		return fmt.Errorf("encode model: %w", e.err)
	}
	return nil
}

// formatVersion returns the format version Encode writes m in: 4 with
// feature hashing, whose terms carry bucket names; 3 when it has record
// fields, which a version 2 reader would ignore; else 2, so that models
// without them stay readable by builds that read 1..2.
func (m *Model) formatVersion() uint16 {
	if m.Vocab != nil && m.Vocab.Settings.HashBits > 0 {
		return hashedVersion
	}
	if m.Fields != nil || m.MultiLabel {
		return 3
	}
	return 2
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, x := range a {
		if math.Float64bits(x) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// sparseCounts returns the counts section of a version 2 file: for each
// of the V terms, a uvarint k and its k non-zero counts as (uvarint class,
// float64). With at most 64 classes, each term's non-zero classes are
// first gathered into a bit mask without a branch per count (most counts
// are 0, in no predictable pattern), which also sizes the section.
func sparseCounts(counts []float64, V, C int) []byte {
	if C > 64 {
		var out []byte
		for t := 0; t < V; t++ {
			row := counts[t*C : t*C+C]
			k := 0
			for _, x := range row {
				if x != 0 {
					k++
				}
			}
			out = binary.AppendUvarint(out, uint64(k))
			for c, x := range row {
				if x != 0 {
					out = binary.AppendUvarint(out, uint64(c))
					out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
				}
			}
		}
		return out
	}
	masks := make([]uint64, V)
	nnz := 0
	for t := range masks {
		var mask uint64
		for c, x := range counts[t*C : t*C+C] {
			// x ≠ 0 as a bit (counts are never NaN): the magnitude's bits
			// are non-zero exactly then, and adding 2^63-1 carries into
			// bit 63.
			mag := math.Float64bits(x) &^ (1 << 63)
			mask |= ((mag + (1<<63 - 1)) >> 63) << c
		}
		masks[t] = mask
		nnz += bits.OnesCount64(mask)
	}
	out := make([]byte, 0, V+9*nnz) // k and class ids < 64 take one uvarint byte
	for t, mask := range masks {
		out = append(out, byte(bits.OnesCount64(mask)))
		for ; mask != 0; mask &= mask - 1 {
			c := bits.TrailingZeros64(mask)
			out = append(out, byte(c))
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(counts[t*C+c]))
		}
	}
	return out
}

// encoder appends little-endian values to a small buffer and writes it out
// in chunks; the first error sticks. Appends of at most 16 bytes may
// follow a flush(false).
type encoder struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *encoder) flush(force bool) {
	if e.err != nil {
		e.buf = e.buf[:0]
		return
	}
	if force || len(e.buf) >= cap(e.buf)-32 {
		_, e.err = e.w.Write(e.buf)
		e.buf = e.buf[:0]
	}
}

// bytes writes b through, past the buffer (it may be the megabytes of
// the sparse counts).
func (e *encoder) bytes(b []byte) {
	if e.flush(true); e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) u16(x uint16) { e.buf = binary.LittleEndian.AppendUint16(e.buf, x); e.flush(false) }
func (e *encoder) u32(x uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, x); e.flush(false) }
func (e *encoder) u64(x uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, x); e.flush(false) }

// f64s appends xs a buffer-full at a time.
func (e *encoder) f64s(xs []float64) {
	for len(xs) > 0 {
		k := min(len(xs), (cap(e.buf)-len(e.buf))/8)
		if k == 0 {
			e.flush(true)
			continue
		}
		for _, x := range xs[:k] {
			e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(x))
		}
		xs = xs[k:]
		e.flush(false)
	}
}

func varintLen(x int64) int {
	ux := uint64(x) << 1
	if x < 0 {
		ux = ^ux
	}
	return uvarintLen(ux)
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// Decode reads one model file from r; name is used in error messages. It
// checks, in this order, the magic number, the format version range, the
// payload length against MaxPayload, the length of the data, the SHA-256
// checksum, and then decodes and validates the payload. It reads at most
// the 20-byte header, the payload length it announces (≤ MaxPayload), the
// checksum and one byte more (to reject trailing data), and its buffer
// grows only with the data actually read. Errors are *FileError; see
// ErrModelFile.
func Decode(r io.Reader, name string) (*Model, error) {
	return decodeReader(r, name, 0)
}

// decodeReader is Decode with a size hint for the buffer (the file size).
func decodeReader(r io.Reader, name string, hint int64) (*Model, error) {
	var hdr [headerSize]byte
	k, err := io.ReadFull(r, hdr[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, ioErr(name, err)
	}
	n, ferr := parseHeader(name, hdr[:k])
	if ferr != nil {
		return nil, ferr
	}
	total := headerSize + n + trailerSize
	capacity := uint64(1 << 16)
	if hint > 0 {
		capacity = uint64(hint)
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(total, capacity)))
	buf.Write(hdr[:])
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(n+trailerSize))); err != nil {
		return nil, ioErr(name, err)
	}
	if uint64(buf.Len()) < total {
		return nil, truncated(name, buf.Len(), total)
	}
	var one [1]byte
	if k, _ := io.ReadFull(r, one[:]); k > 0 {
		return nil, fileErr(name, ErrCorrupt, "corrupt (data after the checksum)")
	}
	return decodeBytes(name, buf.Bytes())
}

// parseHeader checks the fixed header (b may be shorter than the header)
// and returns the payload length.
func parseHeader(name string, b []byte) (uint64, *FileError) {
	if len(b) == 0 {
		return 0, fileErr(name, ErrNotModel, "not an nbtext model file (empty)")
	}
	if k := min(len(b), len(magic)); !bytes.Equal(b[:k], magic[:k]) {
		return 0, fileErr(name, ErrNotModel, "not an nbtext model file")
	}
	if len(b) < 10 {
		return 0, fileErr(name, ErrTruncated, "truncated (%d of at least %d bytes)", len(b), minFileSize)
	}
	if v := binary.LittleEndian.Uint16(b[8:]); v > FormatVersion {
		return 0, fileErr(name, ErrNewer, "written by a newer nbtext (format version %d, this build reads %d..%d)", v, MinFormatVersion, FormatVersion)
	} else if v < MinFormatVersion {
		return 0, fileErr(name, ErrCorrupt, "corrupt (format version %d, this build reads %d..%d)", v, MinFormatVersion, FormatVersion)
	}
	if len(b) < headerSize {
		return 0, fileErr(name, ErrTruncated, "truncated (%d of at least %d bytes)", len(b), minFileSize)
	}
	n := binary.LittleEndian.Uint64(b[12:])
	if n > MaxPayload {
		return 0, fileErr(name, ErrTooLarge, "too large (payload of %d bytes, this build reads at most %d)", n, MaxPayload)
	}
	return n, nil
}

// decodeBytes decodes a complete model file held in b.
func decodeBytes(name string, b []byte) (*Model, error) {
	n, ferr := parseHeader(name, b[:min(len(b), headerSize)])
	if ferr != nil {
		return nil, ferr
	}
	total := headerSize + n + trailerSize
	switch {
	case uint64(len(b)) < total:
		return nil, truncated(name, len(b), total)
	case uint64(len(b)) > total:
		return nil, fileErr(name, ErrCorrupt, "corrupt (data after the checksum)")
	}
	sum := sha256.Sum256(b[:headerSize+n])
	if !bytes.Equal(sum[:], b[headerSize+n:]) {
		return nil, fileErr(name, ErrCorrupt, "corrupt (checksum mismatch)")
	}
	kind := Kind(b[10])
	if v := binary.LittleEndian.Uint16(b[8:]); kind == Ensemble && b[11] == 0 && v >= ensembleVersion {
		m, err := decodeEnsemble(name, b[headerSize:headerSize+n])
		if err != nil {
			return nil, fileErr(name, ErrCorrupt, "corrupt (%v)", err)
		}
		return m, nil
	}
	if !kind.Valid() || b[11] != 0 {
		return nil, fileErr(name, ErrNewer, "written by a newer nbtext (model kind %d, flags %d unknown to this build)", b[10], b[11])
	}
	var m *Model
	var err error
	if v := int(binary.LittleEndian.Uint16(b[8:])); v >= 2 {
		m, err = decodePayloadV2(kind, b[headerSize:headerSize+n], v)
	} else {
		m, err = decodePayload(kind, b[headerSize:headerSize+n])
	}
	if err != nil {
		return nil, fileErr(name, ErrCorrupt, "corrupt (%v)", err)
	}
	return m, nil
}

// cursor reads little-endian values from a byte slice; reading past the
// end sets ok to false and returns zeros.
type cursor struct {
	b  []byte
	ok bool
}

func (c *cursor) next(n uint64) []byte {
	if !c.ok || n > uint64(len(c.b)) {
		c.ok = false
		return nil
	}
	p := c.b[:n:n]
	c.b = c.b[n:]
	return p
}

// term reads term number i of a terms section: a uvarint length, then the
// bytes.
func (c *cursor) term(i int) (string, error) {
	l, k := binary.Uvarint(c.b)
	if k <= 0 {
		return "", fmt.Errorf("term %d: bad length", i)
	}
	c.b = c.b[k:]
	p := c.next(l)
	if !c.ok {
		return "", fmt.Errorf("term %d: length %d exceeds the terms section", i, l)
	}
	return string(p), nil
}

func (c *cursor) u32() uint32 {
	if p := c.next(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (c *cursor) u64() uint64 {
	if p := c.next(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (c *cursor) f64s(n int) []float64 {
	p := c.next(8 * uint64(n))
	if p == nil {
		return nil
	}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return xs
}

// decodePayload decodes and validates a version 1 payload whose checksum
// matched.
func decodePayload(kind Kind, payload []byte) (*Model, error) {
	c := &cursor{b: payload, ok: true}
	h, err := decodeHeader(c, kind, 1)
	if err != nil {
		return nil, err
	}
	C := len(h.Classes)
	// Check the section sizes against what is left before allocating.
	V, rest := uint64(h.Terms), uint64(len(c.b))
	if rest < 8 {
		return nil, errors.New("payload ends before the terms")
	}
	tb := binary.LittleEndian.Uint64(c.b)
	rest -= 8
	if tb > rest || V > tb { // each term takes at least its length byte
		return nil, fmt.Errorf("%d terms in %d bytes, %d bytes left", V, tb, rest)
	}
	rest -= tb
	units := uint64(1) // groups of V×C and C float64s
	if h.Stats {
		units = 2
	}
	uC := uint64(C)
	if V > rest/12 || uC > rest/8 || (V > 0 && uC > rest/8/V) {
		return nil, fmt.Errorf("%d terms × %d classes do not fit in %d bytes", V, C, rest)
	}
	if want := 12*V + units*(8*V*uC+8*uC); rest != want {
		return nil, fmt.Errorf("payload has %d bytes of arrays, want %d", rest, want)
	}
	c.u64()
	tc := &cursor{b: c.next(tb), ok: true}
	terms := make([]string, V)
	for i := range terms {
		t, err := tc.term(i)
		if err != nil {
			return nil, err
		}
		terms[i] = t
	}
	if len(tc.b) != 0 {
		return nil, fmt.Errorf("%d bytes after the last term", len(tc.b))
	}
	df := make([]int32, V)
	p := c.next(4 * V)
	for i := range df {
		df[i] = int32(binary.LittleEndian.Uint32(p[4*i:]))
	}
	cf := make([]int64, V)
	p = c.next(8 * V)
	for i := range cf {
		cf[i] = int64(binary.LittleEndian.Uint64(p[8*i:]))
	}
	m, err := h.model(kind, terms, df, cf)
	if err != nil {
		return nil, err
	}
	m.W = c.f64s(int(V) * C)
	m.B = c.f64s(C)
	if h.Stats {
		m.ClassDocs = c.f64s(C)
		m.Counts = c.f64s(int(V) * C)
	}
	if !c.ok || len(c.b) != 0 {
		return nil, errors.New("arrays do not match the header") // unreachable after the size check
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}

// decodePayloadV2 decodes and validates a version 2 or 3 payload (version
// v) whose checksum matched. The weights of NB models are computed from their statistics,
// by the code of NewNB.
func decodePayloadV2(kind Kind, payload []byte, v int) (*Model, error) {
	c := &cursor{b: payload, ok: true}
	h, err := decodeHeader(c, kind, v)
	if err != nil {
		return nil, err
	}
	C := len(h.Classes)
	// Check the sizes against what is left before allocating.
	V, uC := uint64(h.Terms), uint64(C)
	tb := c.u64()
	if !c.ok || tb > uint64(len(c.b)) || V > tb { // each term takes at least its length byte
		return nil, fmt.Errorf("%d terms in a section of %d bytes, %d bytes left", V, tb, len(c.b))
	}
	rest := uint64(len(c.b)) - tb
	if h.Stats {
		// The counts are sparse: bound the dense arrays they expand to
		// (counts and weights, 16·V·C bytes) by what a version 1 payload
		// could hold.
		if uC > rest/8 || (V > 0 && uC > MaxPayload/16/V) {
			return nil, fmt.Errorf("%d terms × %d classes exceed the size limit", V, C)
		}
	} else {
		if V > rest/8 || uC > rest/8 || (V > 0 && uC > rest/8/V) {
			return nil, fmt.Errorf("%d terms × %d classes do not fit in %d bytes", V, C, rest)
		}
		if want := 8*V*uC + 8*uC; rest != want {
			return nil, fmt.Errorf("payload has %d bytes of arrays, want %d", rest, want)
		}
	}
	tc := &cursor{b: c.next(tb), ok: true}
	terms := make([]string, V)
	df := make([]int32, V)
	cf := make([]int64, V)
	var names [][]vectorize.TermCount
	if v >= hashedVersion && h.Settings.HashBits > 0 {
		names = make([][]vectorize.TermCount, V)
	}
	for i := range terms {
		t, err := tc.term(i)
		if err != nil {
			return nil, err
		}
		terms[i] = t
		d, k := binary.Varint(tc.b)
		if k <= 0 || d != int64(int32(d)) {
			return nil, fmt.Errorf("term %d: bad document frequency", i)
		}
		tc.b = tc.b[k:]
		f, k := binary.Varint(tc.b)
		if k <= 0 {
			return nil, fmt.Errorf("term %d: bad collection frequency", i)
		}
		tc.b = tc.b[k:]
		df[i], cf[i] = int32(d), f
		if names != nil {
			if names[i], err = tc.names(i); err != nil {
				return nil, err
			}
		}
	}
	if len(tc.b) != 0 {
		return nil, fmt.Errorf("%d bytes after the last term", len(tc.b))
	}
	m, err := h.model(kind, terms, df, cf)
	if err != nil {
		return nil, err
	}
	if err := vectorize.CheckNames(names, int(V)); err != nil {
		return nil, err
	}
	m.Vocab.Names = names
	if !h.Stats {
		m.W = c.f64s(int(V) * C)
		m.B = c.f64s(C)
	} else {
		m.ClassDocs = c.f64s(C)
		sb := c.u64()
		if !c.ok || sb >= uint64(len(c.b)) { // the weights flag follows
			return nil, fmt.Errorf("counts section of %d bytes, %d bytes left", sb, len(c.b))
		}
		m.Counts = make([]float64, int(V)*C)
		b := c.next(sb)
		for t := 0; t < int(V); t++ {
			k, n := binary.Uvarint(b)
			if n <= 0 || k > uC {
				return nil, fmt.Errorf("term %d: bad number of counts", t)
			}
			b = b[n:]
			prev := -1
			for range k {
				cl, n := binary.Uvarint(b)
				if n <= 0 || cl >= uC || int(cl) <= prev || len(b) < n+8 {
					return nil, fmt.Errorf("term %d: bad count entry", t)
				}
				prev = int(cl)
				m.Counts[t*C+prev] = math.Float64frombits(binary.LittleEndian.Uint64(b[n:]))
				b = b[n+8:]
			}
		}
		if len(b) != 0 {
			return nil, fmt.Errorf("%d bytes after the last count", len(b))
		}
		switch flag := c.next(1); {
		case flag == nil:
			return nil, errors.New("payload ends before the weights flag")
		case flag[0] == 1: // stored weights
			if want := 8*V*uC + 8*uC; uint64(len(c.b)) != want {
				return nil, fmt.Errorf("payload has %d bytes of weights, want %d", len(c.b), want)
			}
			m.W = c.f64s(int(V) * C)
			m.B = c.f64s(C)
		case flag[0] == 0: // weights computed from the counts
			if m.Binary != kind.BinaryFeatures() {
				return nil, fmt.Errorf("%s model with Binary = %v", kind, m.Binary)
			}
			if err := ValidateParams(kind, m.Params, C); err != nil {
				return nil, err
			}
			if err := validateStats(kind, m.Classes, int(V), m.ClassDocs, m.Counts); err != nil {
				return nil, err
			}
			m.W, m.B = fitNB(kind, m.Params, m.ClassDocs, m.Counts, C)
		default:
			return nil, fmt.Errorf("weights flag %d (want 0 or 1)", flag[0])
		}
	}
	if !c.ok || len(c.b) != 0 {
		return nil, errors.New("arrays do not match the header") // unreachable after the size checks
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}

// Load reads the model file at path; see Decode for the checks and the
// errors.
func Load(path string) (*Model, error) {
	m, _, err := load(path, nil)
	return m, err
}

// load is Load that also returns the file's size and copies every byte it
// reads to tee, when tee is not nil.
func load(path string, tee io.Writer) (*Model, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, ioErr(path, err)
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	if tee != nil {
		r = io.TeeReader(r, tee)
	}
	m, err := decodeReader(r, path, size)
	return m, size, err
}

// Save writes m to path atomically with fsutil.WriteFile: into a
// temporary file in the same folder, synced, renamed over path, the folder
// synced. If writing fails, path is left as it was (an old model intact)
// and the temporary file is removed, so an interrupted train never leaves
// a half-written model. A path that exists and is not a regular file is
// refused; a symlink to one is written through. A new file gets mode 0666
// less the umask, a replaced one keeps its mode. Everything that needs
// memory in proportion to the model is done before the temporary file is
// created.
func Save(path string, m *Model) error {
	enc, err := encodingOf(m)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return fsutil.WriteFile(path, enc.writeTo)
}
