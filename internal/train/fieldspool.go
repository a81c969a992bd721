package train

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/model"
)

// FieldSpool keeps the record fields of a streamed training set on disk
// (train --stream with --categorical-field or --numeric-field), so that
// the fields' naive Bayes parameters are fitted in bounded memory by the
// two passes of FitFieldsNB, over the file: memory holds the distinct
// values of the categorical fields and the labels, which the model holds
// anyway, never the records. Each record is a varint label id, a varint
// per categorical field (0: missing, else 1 + the value's id) and the 8
// bytes of each numeric value (NaN: missing); ids are in order of first
// appearance.
type FieldSpool struct {
	spec   FieldSpec
	f      *fsutil.Scratch
	w      *bufio.Writer
	labels map[string]int
	names  []string         // the labels, by id
	docs   []int            // the records of each label, by id
	values []map[string]int // per categorical field: value -> id
	vnames [][]string       // per categorical field: the values, by id
	n      int
	buf    []byte
	err    error
}

// NewFieldSpool returns an empty spool of the fields of spec, in a
// scratch file of the temporary folder.
func NewFieldSpool(spec FieldSpec) (*FieldSpool, error) {
	f, err := fsutil.NewScratch("", "nbtext-fields-*.bin")
	if err != nil {
		return nil, fmt.Errorf("field spool: %w", err)
	}
	s := &FieldSpool{spec: spec, f: f, w: bufio.NewWriterSize(f, 64<<10), labels: map[string]int{}}
	s.values = make([]map[string]int, len(spec.Categorical))
	for j := range s.values {
		s.values[j] = map[string]int{}
	}
	s.vnames = make([][]string, len(spec.Categorical))
	return s, nil
}

// Add appends the record rec of a document labelled label. The strings
// may be reused after Add returns.
func (s *FieldSpool) Add(label string, rec model.Record) error {
	if s.err != nil {
		return s.err
	}
	id, ok := s.labels[label]
	if !ok {
		id = len(s.names)
		label = strings.Clone(label)
		s.labels[label] = id
		s.names = append(s.names, label)
		s.docs = append(s.docs, 0)
	}
	s.docs[id]++
	b := binary.AppendUvarint(s.buf[:0], uint64(id))
	for j := range s.spec.Categorical {
		v, code := "", uint64(0)
		if j < len(rec.Cat) {
			v = rec.Cat[j]
		}
		if v != "" {
			k, ok := s.values[j][v]
			if !ok {
				k = len(s.vnames[j])
				v = strings.Clone(v)
				s.values[j][v] = k
				s.vnames[j] = append(s.vnames[j], v)
			}
			code = uint64(k) + 1
		}
		b = binary.AppendUvarint(b, code)
	}
	for j := range s.spec.Numeric {
		x := math.NaN()
		if j < len(rec.Num) {
			x = rec.Num[j]
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	s.buf = b
	if _, err := s.w.Write(b); err != nil {
		s.err = fmt.Errorf("field spool: %w", err)
		return s.err
	}
	s.n++
	return nil
}

// Len returns the number of records added.
func (s *FieldSpool) Len() int { return s.n }

// Labels returns the labels of the records added, ascending.
func (s *FieldSpool) Labels() []string { return slices.Sorted(slices.Values(s.names)) }

// ClassSizes returns the number of records of each of classes (the sizes
// --class-weight balanced needs).
func (s *FieldSpool) ClassSizes(classes []string) []int {
	n := make([]int, len(classes))
	for i, name := range s.names {
		if c := slices.Index(classes, name); c >= 0 {
			n[c] = int(s.docs[i])
		}
	}
	return n
}

// Close releases the spool's file.
func (s *FieldSpool) Close() { s.f.Close() }

// each calls fn with every record, in the order added, and its label's
// index in classes.
func (s *FieldSpool) each(classes []string, fn func(c int, rec model.Record)) error {
	if s.err != nil {
		return s.err
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("field spool: %w", err)
	}
	ids := make([]int, len(s.names))
	for i, name := range s.names {
		k := slices.Index(classes, name)
		if k < 0 {
			return fmt.Errorf("field spool: label %q is not one of the classes", name)
		}
		ids[i] = k
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, math.MaxInt64), 64<<10)
	rec := model.Record{Cat: make([]string, len(s.spec.Categorical)), Num: make([]float64, len(s.spec.Numeric))}
	var x [8]byte
	damaged := errors.New("field spool: a damaged record")
	for range s.n {
		id, err := binary.ReadUvarint(r)
		if err != nil || id >= uint64(len(ids)) {
			return damaged
		}
		for j := range rec.Cat {
			code, err := binary.ReadUvarint(r)
			if err != nil || code > uint64(len(s.vnames[j])) {
				return damaged
			}
			rec.Cat[j] = ""
			if code > 0 {
				rec.Cat[j] = s.vnames[j][code-1]
			}
		}
		for j := range rec.Num {
			if _, err := io.ReadFull(r, x[:]); err != nil {
				return damaged
			}
			rec.Num[j] = math.Float64frombits(binary.LittleEndian.Uint64(x[:]))
		}
		fn(ids[id], rec)
	}
	return nil
}

// FitFieldsStream is FitFieldsNB over the records of s, whose labels
// index classes: the same parameters, bit for bit, read from the spool
// twice.
func FitFieldsStream(s *FieldSpool, classes []string, p model.Params) (*model.Fields, error) {
	var err error
	each := func(fn func(c int, rec model.Record)) error {
		if err != nil {
			return err
		}
		err = s.each(classes, fn)
		return err
	}
	return fitFields(s.spec, len(classes), p, each)
}

// FitRecordsStream is FitRecords (categorical or Gaussian naive Bayes)
// over the records of s: the same model, bit for bit.
func FitRecordsStream(kind model.Kind, s *FieldSpool, p model.Params) (*model.Model, error) {
	if kind != model.Categorical && kind != model.Gaussian {
		return nil, fmt.Errorf("FitRecordsStream needs a categorical or gaussian model, got %s", kind)
	}
	if s.Len() == 0 {
		return nil, errors.New("no training records")
	}
	classes := s.Labels()
	if len(classes) < 2 {
		return nil, fmt.Errorf("need at least two classes to train, got %d", len(classes))
	}
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	f, err := FitFieldsStream(s, classes, p)
	if err != nil {
		return nil, err
	}
	classDocs := make([]float64, len(classes))
	for c, n := range s.ClassSizes(classes) {
		classDocs[c] = float64(n)
	}
	return model.NewRecordModel(kind, classes, p, classDocs, f)
}
