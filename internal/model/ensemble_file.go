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
	"slices"
	"strings"
)

// ensembleVersion is the format version of an ensemble's file (kind
// Ensemble): its payload is a JSON header (classes, weights, the number of
// members and the writer's Meta), then each member's complete model file
// (in its own format version, with its own checksum) preceded by its
// length as a u64. Files of the other kinds keep their versions 2 to 4.
const ensembleVersion = 5

// ensembleHeader is the JSON header of an ensemble's payload.
type ensembleHeader struct {
	Classes   []string        `json:"classes"`
	Weights   []float64       `json:"weights"`
	Members   int             `json:"members"`
	Version   string          `json:"nbtext_version"`
	CreatedBy string          `json:"created_by"`
	Auto      json.RawMessage `json:"auto,omitempty"`
}

// fileWriter is a model ready to be written (see encoding).
type fileWriter interface {
	writeTo(w io.Writer) error
}

// encodingOf prepares m for writing: an ensemble, or one model.
func encodingOf(m *Model) (fileWriter, error) {
	if m != nil && m.Kind == Ensemble {
		return newEnsembleEncoding(m)
	}
	return newEncoding(m)
}

// ensembleEncoding is an ensemble ready to be written: its header and
// its members' encodings.
type ensembleEncoding struct {
	m       *Model
	hdr     []byte
	members []*encoding
	n       uint64 // payload bytes
}

func newEnsembleEncoding(m *Model) (*ensembleEncoding, error) {
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("encode model: %w", err)
	}
	e := &ensembleEncoding{m: m}
	var err error
	e.hdr, err = json.Marshal(ensembleHeader{Classes: m.Classes, Weights: m.Weights, Members: len(m.Members),
		Version: m.Meta.Version, CreatedBy: m.Meta.CreatedBy, Auto: m.Meta.Auto})
	if err != nil {
		return nil, fmt.Errorf("encode model: %w", err)
	}
	e.n = 4 + uint64(len(e.hdr))
	bud := tableBudget{left: MaxTableBytes}
	for k, mem := range m.Members {
		if err := bud.use(mem.Vocab.Len(), len(mem.Classes), keepsCounts(mem.Kind, mem.MultiLabel)); err != nil {
			return nil, fmt.Errorf("encode model: member %d: %w", k+1, err)
		}
		enc, err := newValidEncoding(mem) // m.validate validated it
		if err != nil {
			return nil, err
		}
		e.members = append(e.members, enc)
		e.n += 8 + headerSize + enc.n + trailerSize
	}
	if e.n > MaxPayload {
		return nil, fmt.Errorf("encode model: payload of %d bytes exceeds the %d-byte limit", e.n, MaxPayload)
	}
	return e, nil
}

// writeTo writes the file: header, payload (the members' files in
// turn), checksum of all that.
func (e *ensembleEncoding) writeTo(w io.Writer) error {
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<16)
	b := append([]byte(nil), magic[:]...)
	b = binary.LittleEndian.AppendUint16(b, ensembleVersion)
	b = append(b, byte(Ensemble), 0)
	b = binary.LittleEndian.AppendUint64(b, e.n)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(e.hdr)))
	b = append(b, e.hdr...)
	_, err := bw.Write(b)
	for _, enc := range e.members {
		if err != nil {
			break
		}
		if _, err = bw.Write(binary.LittleEndian.AppendUint64(nil, headerSize+enc.n+trailerSize)); err == nil {
			err = enc.writeTo(bw)
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		_, err = w.Write(h.Sum(nil))
	}
	if err != nil {
		return fmt.Errorf("encode model: %w", err)
	}
	return nil
}

// decodeEnsemble decodes and validates an ensemble's payload whose
// checksum matched; name is the file's, for the members' errors.
func decodeEnsemble(name string, payload []byte, bud *tableBudget) (*Model, error) {
	c := &cursor{b: payload, ok: true}
	hdr := c.next(uint64(c.u32()))
	if !c.ok {
		return nil, errors.New("ensemble header exceeds the payload")
	}
	var h ensembleHeader
	if err := json.Unmarshal(hdr, &h); err != nil {
		return nil, fmt.Errorf("ensemble header: %w", err)
	}
	if h.Members <= 0 || h.Members != len(h.Weights) {
		return nil, fmt.Errorf("ensemble header: %d members, %d weights", h.Members, len(h.Weights))
	}
	// Sum the members' tables from their headers before decoding any, so
	// that an ensemble over the size rule allocates nothing.
	pre, sum := &cursor{b: c.b, ok: true}, tableBudget{left: bud.left}
	for k := range h.Members {
		b := pre.next(pre.u64())
		if !pre.ok {
			break // the loop below names the member
		}
		if V, C, counts, ok := peekTables(b); ok {
			if err := sum.use(V, C, counts); err != nil {
				return nil, sizeError(fmt.Sprintf("member %d: %v", k+1, err))
			}
		}
	}
	var members []*Model
	for k := range h.Members {
		b := c.next(c.u64())
		if !c.ok {
			return nil, fmt.Errorf("member %d exceeds the payload", k+1)
		}
		if len(b) >= headerSize && Kind(b[10]) == Ensemble {
			return nil, fmt.Errorf("member %d is an ensemble", k+1)
		}
		mem, err := decodeBytes(fmt.Sprintf("%s member %d", name, k+1), b, bud)
		if err != nil {
			var fe *FileError
			if errors.As(err, &fe) && errors.Is(fe.Err, ErrTooLarge) {
				msg := strings.TrimSuffix(strings.TrimPrefix(fe.Msg, "too large ("), ")")
				return nil, sizeError(fmt.Sprintf("member %d: %s", k+1, msg))
			}
			if errors.As(err, &fe) {
				return nil, fmt.Errorf("member %d: %s", k+1, fe.Msg)
			}
			return nil, fmt.Errorf("member %d: %w", k+1, err)
		}
		members = append(members, mem)
	}
	if len(c.b) > 0 {
		return nil, errors.New("data after the last member")
	}
	m, err := newEnsemble(members, h.Weights, Meta{Version: h.Version, CreatedBy: h.CreatedBy, Auto: h.Auto}, true) // decodeBytes validated the members
	if err != nil {
		return nil, err
	}
	if !slices.Equal(m.Classes, h.Classes) {
		return nil, errors.New("ensemble header: classes differ from the members'")
	}
	return m, nil
}

// peekTables returns the terms and classes a member's file b declares,
// and whether it keeps counts, from its header alone (ok false when b is
// not a well-formed start of a version 2+ model file: decoding it reports
// why).
func peekTables(b []byte) (V, C int, counts, ok bool) {
	if len(b) < headerSize || !bytes.Equal(b[:len(magic)], magic[:]) {
		return 0, 0, false, false
	}
	v := int(binary.LittleEndian.Uint16(b[8:]))
	kind := Kind(b[10])
	if v < 2 || v > FormatVersion || !kind.Valid() || kind == Ensemble {
		return 0, 0, false, false
	}
	h, err := decodeHeader(&cursor{b: b[headerSize:], ok: true}, kind, v)
	if err != nil {
		return 0, 0, false, false
	}
	return h.Terms, len(h.Classes), h.Stats, true
}
