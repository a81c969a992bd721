package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// craftedNB returns a version 2 multinomial file declaring V terms and C
// classes with empty sparse counts: small on disk, 16·V·C bytes of tables
// once decoded.
func craftedNB(t *testing.T, V, C int) []byte {
	t.Helper()
	classes := make([]string, C)
	for i := range classes {
		classes[i] = fmt.Sprint("c", i)
	}
	hdr, err := json.Marshal(fileHeader{Classes: classes, Params: Params{Prior: "learned"}, Terms: V, NDocs: 1, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	payload := binary.LittleEndian.AppendUint32(nil, uint32(len(hdr)))
	payload = append(payload, hdr...)
	payload = binary.LittleEndian.AppendUint64(payload, uint64(V))
	payload = append(payload, make([]byte, V+8*C+8)...)
	return fileOf(2, Multinomial, payload)
}

// fileOf wraps payload in a model file of version v and kind k.
func fileOf(v uint16, k Kind, payload []byte) []byte {
	b := append(bytes.Clone(magic[:]), 0, 0, byte(k), 0)
	binary.LittleEndian.PutUint16(b[8:], v)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, payload...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// TestDecodeEnsembleSizeLimit: the size rule bounds the sum of an
// ensemble's members, each under the bound alone, before any is decoded
// (the allocation bomb of issue 28, item 2).
func TestDecodeEnsembleSizeLimit(t *testing.T) {
	const V, C, N = 17000, 1000, 4 // 272 MB each, 1.09 GB together
	member := craftedNB(t, V, C)
	classes := make([]string, C)
	for i := range classes {
		classes[i] = fmt.Sprint("c", i)
	}
	hdr, err := json.Marshal(ensembleHeader{Classes: classes, Weights: []float64{1, 1, 1, 1}, Members: N})
	if err != nil {
		t.Fatal(err)
	}
	payload := binary.LittleEndian.AppendUint32(nil, uint32(len(hdr)))
	payload = append(payload, hdr...)
	for range N {
		payload = binary.LittleEndian.AppendUint64(payload, uint64(len(member)))
		payload = append(payload, member...)
	}
	_, err = Decode(bytes.NewReader(fileOf(ensembleVersion, Ensemble, payload)), "e.nbm")
	if err == nil || !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "e.nbm: too large (member 4: too many terms × classes: 17000 terms × 1000 classes need 259.4 MiB") {
		t.Fatalf("Decode: %v, want too large at member 4", err)
	}
}

// TestEncodeSizeLimit: Encode refuses what Decode would refuse (issue 28,
// item 3), and CheckSize says so before a fit.
func TestEncodeSizeLimit(t *testing.T) {
	const V, C = 9000, 7500 // 16·V·C = 1.01 GiB, 8·V·C under the bound
	if err := CheckSize(Multinomial, false, V, C); !errors.Is(err, ErrSize) {
		t.Fatalf("CheckSize(multinomial): %v, want ErrSize", err)
	}
	if err := CheckSize(LogReg, false, V, C); err != nil {
		t.Fatalf("CheckSize(logreg): %v", err)
	}
	if err := CheckSize(Multinomial, true, V, C); err != nil {
		t.Fatalf("CheckSize(multi-label multinomial): %v", err)
	}
	terms := make([]string, V)
	for i := range terms {
		terms[i] = fmt.Sprintf("t%05d", i)
	}
	classes := make([]string, C)
	for i := range classes {
		classes[i] = fmt.Sprint("c", i)
	}
	vocab, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), terms, make([]int32, V), make([]int64, V), 1)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Kind: Multinomial, Classes: classes, Vocab: vocab}
	if _, err := newValidEncoding(m); !errors.Is(err, ErrSize) {
		t.Fatalf("encode: %v, want ErrSize", err)
	}
}
