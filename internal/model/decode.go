package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/nbtext/nbtext/internal/vectorize"
)

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
	return decodeBytes(name, buf.Bytes(), &tableBudget{left: MaxTableBytes})
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

// decodeBytes decodes a complete model file held in b, whose tables take
// from bud (ensemble members share one).
func decodeBytes(name string, b []byte, bud *tableBudget) (*Model, error) {
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
		m, err := decodeEnsemble(name, b[headerSize:headerSize+n], bud)
		if errors.Is(err, ErrSize) {
			return nil, fileErr(name, ErrTooLarge, "too large (%v)", err)
		}
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
		m, err = decodePayloadV2(kind, b[headerSize:headerSize+n], v, bud)
	} else {
		m, err = decodePayload(kind, b[headerSize:headerSize+n], bud)
	}
	if errors.Is(err, ErrSize) {
		return nil, fileErr(name, ErrTooLarge, "too large (%v)", err)
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
func decodePayload(kind Kind, payload []byte, bud *tableBudget) (*Model, error) {
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
	if err := bud.use(int(V), C, h.Stats); err != nil {
		return nil, err
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
	return c.finish(m)
}

// decodePayloadV2 decodes and validates a version 2 or 3 payload (version
// v) whose checksum matched. The weights of NB models are computed from their statistics,
// by the code of NewNB.
func decodePayloadV2(kind Kind, payload []byte, v int, bud *tableBudget) (*Model, error) {
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
		if uC > rest/8 {
			return nil, fmt.Errorf("%d classes in %d bytes", C, rest)
		}
	} else {
		if V > rest/8 || uC > rest/8 || (V > 0 && uC > rest/8/V) {
			return nil, fmt.Errorf("%d terms × %d classes do not fit in %d bytes", V, C, rest)
		}
		if want := 8*V*uC + 8*uC; rest != want {
			return nil, fmt.Errorf("payload has %d bytes of arrays, want %d", rest, want)
		}
	}
	if V > MaxTableBytes {
		return nil, fmt.Errorf("%w: %d terms", ErrSize, V)
	}
	if err := bud.use(int(V), C, h.Stats); err != nil {
		return nil, err
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
	return c.finish(m)
}

// finish checks that the payload's arrays, now read into m, filled it
// exactly, validates m and derives its scoring state: the last step of
// decoding every version.
func (c *cursor) finish(m *Model) (*Model, error) {
	if !c.ok || len(c.b) != 0 {
		return nil, errors.New("arrays do not match the header") // unreachable after the size checks
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.d = derive(m)
	return m, nil
}
