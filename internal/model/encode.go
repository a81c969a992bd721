package model

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"math"
	"math/bits"

	"github.com/nbtext/nbtext/internal/vectorize"
)

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
	e := &encoding{m: m, stats: keepsCounts(m.Kind, m.MultiLabel), hashed: m.formatVersion() == hashedVersion}
	if err := (tableBudget{left: MaxTableBytes}).take(V, C, e.stats); err != nil {
		return nil, fmt.Errorf("encode model: %w", err)
	}
	var err error
	e.hdr, err = json.Marshal(fileHeader{
		Classes: m.Classes, Params: m.Params, Settings: m.Vocab.Settings,
		Terms: V, NDocs: m.Vocab.NDocs, Binary: m.Binary, Stats: e.stats,
		Version: m.Meta.Version, CreatedBy: m.Meta.CreatedBy, Fields: m.Fields, Multi: m.MultiLabel, Auto: m.Meta.Auto,
		History: m.Meta.History, Input: m.Meta.Input, Trained: m.Meta.Trained,
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
		// The sparse counts (one goroutine) while derivedNB recomputes
		// the weights (on all cores): the two only read m.
		sparse := make(chan []byte, 1)
		go func() { sparse <- sparseCounts(m.Counts, V, C) }()
		e.derived = derivedNB(m)
		e.countSection = <-sparse
		e.n += 8*uint64(C) + 8 + uint64(len(e.countSection)) + 1
		if !e.derived {
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
	bw := bufio.NewWriterSize(&hashingWriter{w: w, h: h}, 1<<16)
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

// hashingWriter writes to w and hashes what it writes with h, as
// io.MultiWriter(w, h) does, but a large write (the megabytes of the
// sparse counts) is hashed by a goroutine while w takes it: on a file,
// hashing and the kernel's copy into the page cache take about as long.
type hashingWriter struct {
	w io.Writer
	h hash.Hash
}

// hashAside is the size from which hashingWriter hashes beside the write.
const hashAside = 1 << 20

func (t *hashingWriter) Write(p []byte) (int, error) {
	if len(p) < hashAside {
		t.h.Write(p)
		return t.w.Write(p)
	}
	done := make(chan struct{})
	go func() {
		t.h.Write(p)
		close(done)
	}()
	n, err := t.w.Write(p)
	<-done
	return n, err
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
