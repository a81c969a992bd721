package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// hashedFixture is a multinomial model over a hashed vocabulary of 4
// bits: three buckets, with the names of the terms each holds.
func hashedFixture(t testing.TB) *Model {
	s := legacySettings()
	s.HashBits = 4
	terms := []string{"~3", "~a", "~f"}
	v, err := vectorize.NewVocabulary(s, terms, []int32{2, 3, 1}, []int64{5, 4, 1}, 4)
	if err != nil {
		t.Fatal(err)
	}
	v.Names = [][]vectorize.TermCount{
		{{Term: "space", Count: 4}, {Term: "orbit", Count: 1}},
		{{Term: "graphics", Count: 4}},
		{{Term: "pgp", Count: 1}},
	}
	m, err := NewNB(Multinomial, []string{"graphics", "space"}, v, Params{Alpha: 1, Prior: "learned"},
		[]float64{2, 2}, []float64{0, 5, 4, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	m.Meta = Meta{Version: "fixture", CreatedBy: "model test: hashed"}
	return m
}

// TestHashedFormat checks that a hashed model is written as version 4 and
// that its bucket names survive a round trip, and that a hashed header in
// an older version, a term that is no bucket, or bad names are corrupt.
func TestHashedFormat(t *testing.T) {
	m := hashedFixture(t)
	b := encode(t, m)
	if v := binary.LittleEndian.Uint16(b[8:]); v != 4 {
		t.Fatalf("hashed model written as version %d", v)
	}
	got, err := Decode(bytes.NewReader(b), "h.nbm")
	if err != nil {
		t.Fatal(err)
	}
	if got.Vocab.DisplayName(0) != "~3 (space|orbit)" || got.Vocab.Settings.HashBits != 4 {
		t.Errorf("decoded names %v, settings %+v", got.Vocab.Names, got.Vocab.Settings)
	}
	// An unhashed model stays version 2.
	if v := fixtures(t)["logreg"].formatVersion(); v != 2 {
		t.Errorf("unhashed logreg written as version %d", v)
	}
	corrupt := func(name string, b []byte) {
		t.Helper()
		_, err := Decode(bytes.NewReader(b), "h.nbm")
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want corrupt", name, err)
		}
	}
	corrupt("version 3", resum(withVersion(b, 3)))
	// The names of bucket ~3 out of order: swap the counts 4 and 1.
	i := bytes.Index(b, []byte("space\x04"))
	j := bytes.Index(b, []byte("orbit\x01"))
	if i < 0 || j < 0 {
		t.Fatal("names not found in the file")
	}
	bad := bytes.Clone(b)
	bad[i+5], bad[j+5] = 1, 4
	corrupt("names out of order", resum(bad))
	// A term that is not a bucket of 4 bits.
	bad = bytes.Clone(b)
	k := bytes.Index(bad, []byte("\x02~a"))
	bad[k+2] = 'x'
	corrupt("not a bucket", resum(bad))
}

// TestInspectHashed checks the info of a hashed model against golden
// files: the bucket count, and the names of the top buckets.
func TestInspectHashed(t *testing.T) {
	info, err := Inspect(filepath.Join("testdata", "hashed-v4.nbm"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if info.Buckets != 16 || info.Top[1].Terms[0].Term != "~3" || len(info.Top[1].Terms[0].Names) != 2 {
		t.Errorf("info %+v", info)
	}
	var out bytes.Buffer
	if err := info.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "~3 (space 4 | orbit 1)") || !strings.Contains(out.String(), "16 buckets") {
		t.Errorf("table:\n%s", out.String())
	}
	golden.Check(t, "info-hashed-v4.table.golden", out.String())
	out.Reset()
	if err := info.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "info-hashed-v4.json.golden", out.String())
}

// TestExplainHashed checks that explanations name a bucket's words.
func TestExplainHashed(t *testing.T) {
	m := hashedFixture(t)
	c := m.Explain([]int32{0}, []float32{2}, 1, 3)
	if len(c) != 1 || c[0].Term != "~3 (space|orbit)" {
		t.Errorf("explanation %+v", c)
	}
}
