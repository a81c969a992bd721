package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// FuzzDecode checks that Decode never panics, rejects every input it
// cannot read with a *FileError, and that whatever it accepts scores
// without NaN and survives a round trip. Seeds: testdata/fuzz/FuzzDecode
// (written by go test -run TestFixtures -update) and the fixtures.
func FuzzDecode(f *testing.F) {
	if paths, _ := filepath.Glob(filepath.Join("testdata", "*.nbm")); len(paths) > 0 {
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(bytes.NewReader(data), "fuzz.nbm")
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || !errors.Is(err, ErrModelFile) {
				t.Fatalf("error %v is not a *FileError", err)
			}
			return
		}
		s := m.NewScorer()
		for _, ind := range [][]int32{nil, {0}, {0, 1, 2}} {
			val := []float32{1, 2, 3}[:len(ind)]
			p := s.Predict(ind, val)
			if hasNaN(p.LogProbs) {
				t.Fatalf("NaN log-probabilities %v", p.LogProbs)
			}
			s.Explain(ind, val, p.Class, 3)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatalf("decoded model does not encode: %v", err)
		}
		m2, err := Decode(&buf, "again")
		if err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip of a decoded model: %v", err)
		}
	})
}

// FuzzDecodePayload fuzzes the payload decoder behind a valid header and
// checksum, which random bytes would almost never get past: data[0] is the
// model kind, the rest the payload.
func FuzzDecodePayload(f *testing.F) {
	if paths, _ := filepath.Glob(filepath.Join("testdata", "*.nbm")); len(paths) > 0 {
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil && len(b) > minFileSize {
				f.Add(append([]byte{b[10]}, b[headerSize:len(b)-trailerSize]...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		b := make([]byte, headerSize, headerSize+len(data)+trailerSize)
		copy(b, magic[:])
		binary.LittleEndian.PutUint16(b[8:], FormatVersion)
		b[10] = data[0]
		binary.LittleEndian.PutUint64(b[12:], uint64(len(data)-1))
		b = append(b, data[1:]...)
		sum := sha256.Sum256(b)
		b = append(b, sum[:]...)
		// Memory: whatever the file declares, the decoder allocates at
		// most the size rule's tables (MaxTableBytes, summed over an
		// ensemble's members, issue 28 item 2) and a few times the file.
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		m, err := Decode(bytes.NewReader(b), "fuzz.nbm")
		runtime.ReadMemStats(&ms)
		if used, bound := ms.TotalAlloc-before, uint64(2*MaxTableBytes+64*len(b)+64<<20); used > bound {
			t.Fatalf("decoding %d bytes allocated %d, over %d", len(b), used, bound)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNewer) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error %v is neither corrupt, newer nor too large", err)
			}
			return
		}
		s := m.NewScorer()
		for _, ind := range [][]int32{nil, {0}, {0, 1, 2}} {
			val := []float32{1, 2, 3}[:len(ind)]
			if p := s.Predict(ind, val); hasNaN(p.LogProbs) {
				t.Fatalf("NaN log-probabilities %v", p.LogProbs)
			}
			for _, r := range []Record{{Cat: []string{"tv", "x"}, Num: []float64{12, -3}}, {Num: []float64{0, 1e300}}} {
				if p := s.PredictRecord(ind, val, r); hasNaN(p.LogProbs) {
					t.Fatalf("NaN log-probabilities %v for record %v", p.LogProbs, r)
				}
			}
		}
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			t.Fatalf("decoded model does not encode: %v", err)
		}
	})
}
