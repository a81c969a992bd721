package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/golden"
)

// fixtures are the models pinned in testdata, as NAME-vN.nbm for every
// format version N this build reads: files that every later build must
// still read. Only the files of the current version are rewritten by
// -update; older ones are history.
func fixtures(t testing.TB) map[string]*Model {
	vocab := testVocab(t, "password", "program", "pgp")
	bern, err := NewNB(Bernoulli, []string{"sci.crypt", "comp.graphics"}, vocab,
		Params{Prior: "learned"}, []float64{10, 15}, []float64{8, 3, 0, 9, 10, 0})
	if err != nil {
		t.Fatal(err)
	}
	bern.Meta = Meta{Version: "fixture", CreatedBy: "model test: course example, α = β = 0"}
	comp, err := NewNB(Complement, []string{"a", "b", "c"}, testVocab(t, "x", "y", "z", "x y"),
		Params{Alpha: 0.25, Prior: "uniform"}, []float64{2, 3, 1},
		[]float64{0.5, 1.25, 0, 0, 2, 1, 3.5, 0, 0.125, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	comp.Meta = Meta{Version: "fixture", CreatedBy: "model test"}
	lr, err := NewLinear(LogReg, []string{"a", "b"}, testVocab(t, "ünïcode", "word"),
		Params{C: 10, Penalty: "l2", Solver: "lbfgs", Epochs: 100, Seed: 1},
		[]float64{1.5, -1.5, -0.25, 0.25}, []float64{0.1, -0.1})
	if err != nil {
		t.Fatal(err)
	}
	lr.Meta = Meta{Version: "fixture", CreatedBy: "model test"}
	// NB weights that are not what the counts give (train's temperature
	// calibration scales them): version 2 stores them.
	scaled, err := NewNB(Multinomial, []string{"a", "b"}, testVocab(t, "x", "y", "z"),
		Params{Alpha: 0.5, Prior: "learned"}, []float64{2, 1}, []float64{3, 0, 0, 1.5, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for i := range scaled.W {
		scaled.W[i] *= 0.75
	}
	for c := range scaled.B {
		scaled.B[c] *= 0.75
	}
	scaled.Meta = Meta{Version: "fixture", CreatedBy: "model test: weights scaled by 0.75"}
	fx := map[string]*Model{"bernoulli": bern, "complement": comp, "logreg": lr, "multinomial-scaled": scaled}
	addRecordFixtures(t, fx)
	fx["hashed"] = hashedFixture(t)
	return fx
}

// fixtureSince is the first format version of the fixtures added after
// version 1.
var fixtureSince = map[string]int{"multinomial-scaled": 2, "centroid": 2, "mixed": 3, "gaussian": 3, "logreg-fields": 3, "multilabel": 3, "hashed": 4}

// fixturePath returns the file of fixture name in format version v.
func fixturePath(name string, v int) string {
	return filepath.Join("testdata", fmt.Sprintf("%s-v%d.nbm", name, v))
}

func encode(t testing.TB, m *Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFixtures(t *testing.T) {
	for name, m := range fixtures(t) {
		current := fixturePath(name, int(m.formatVersion()))
		if golden.Updating() { // also rewrites the fixture model files and fuzz seeds
			if err := Save(current, m); err != nil {
				t.Fatal(err)
			}
		}
		b, err := os.ReadFile(current)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encode(t, m), b) {
			t.Errorf("%s: encoding the fixture model gives other bytes than %s", name, current)
		}
		// Every version this build reads decodes to the same model, and
		// re-encodes to the current version's bytes.
		for v := max(MinFormatVersion, fixtureSince[name]); v <= int(m.formatVersion()); v++ {
			path := fixturePath(name, v)
			got, err := Load(path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Errorf("%s: decoded model differs from the fixture model", path)
			}
			if !bytes.Equal(encode(t, got), b) {
				t.Errorf("%s: re-encoding gives other bytes than %s", path, current)
			}
		}
	}
	if golden.Updating() { // also rewrites the fixture model files and fuzz seeds
		writeFuzzSeeds(t)
	}
}

// writeFuzzSeeds writes the seed corpus of FuzzDecode: the fixtures, and
// damaged copies of one of them, in the current format version. The seeds
// of older versions (NAME-v1, cut-v1, ...) stay as they were written.
func writeFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDecode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seeds := map[string][]byte{"empty": {}, "magic": magic[:]}
	for name, m := range fixtures(t) {
		b := encode(t, m)
		seeds[fmt.Sprintf("%s-v%d", name, m.formatVersion())] = b
		if strings.HasPrefix(name, "bernoulli") {
			seeds["cut"] = b[:len(b)/2]
			f := bytes.Clone(b)
			f[len(f)/2] ^= 0x10
			seeds["flipped"] = f
			seeds["newer"] = withVersion(b, FormatVersion+1)
		}
	}
	for name, b := range seeds {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(b)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func withVersion(b []byte, v uint16) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint16(b[8:], v)
	return b
}

// withLength changes the payload length field by delta.
func withLength(b []byte, delta int) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint64(b[12:], uint64(int(binary.LittleEndian.Uint64(b[12:]))+delta))
	return b
}

// resum recomputes the checksum of a file whose payload was edited.
func resum(b []byte) []byte {
	n := len(b) - trailerSize
	sum := sha256.Sum256(b[:n])
	copy(b[n:], sum[:])
	return b
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const V, C = 60, 5
	vocab := nTerms(t, V)
	docs, labels := randCorpus(rng, 50, V, C, 6)
	var models []*Model
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		for _, p := range []Params{{Alpha: 0.1, Beta: 2}, {}, {Alpha: 1, Prior: "given", Priors: []float64{.1, .2, .3, .2, .2}}} {
			cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
			models = append(models, mustNB(t, kind, classNames(C), vocab, p, cd, cn))
		}
	}
	W := make([]float64, V*C)
	for i := range W {
		W[i] = rng.NormFloat64()
	}
	lr, err := NewLinear(LogReg, classNames(C), vocab, Params{C: 3}, W, make([]float64, C))
	if err != nil {
		t.Fatal(err)
	}
	models = append(models, lr)
	// NB weights changed after NewNB (as train's calibration scales them)
	// survive: the file stores them.
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		cd, cn := countNB(docs, labels, V, C, kind == Bernoulli)
		m := mustNB(t, kind, classNames(C), vocab, Params{Alpha: 0.5, Beta: 1}, cd, cn)
		plain := len(encode(t, m))
		for i := range m.W {
			m.W[i] *= 1.5
		}
		for c := range m.B {
			m.B[c] *= 1.5
		}
		if n := len(encode(t, m)); n != plain+8*(V*C+C) {
			t.Errorf("%s with scaled weights: %d bytes, want %d + the weights", kind, n, plain)
		}
		models = append(models, m)
	}
	for _, m := range models {
		m.Meta = Meta{Version: "v1.2.3", CreatedBy: "nbtext train --model " + m.Kind.String()}
		b := encode(t, m)
		got, err := Decode(bytes.NewReader(b), "m.nbm")
		if err != nil {
			t.Fatalf("%s: %v", m.Kind, err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s %+v: round trip differs", m.Kind, m.Params)
		}
		d := randDoc(rng, V, 8)
		if a, b := m.NewScorer().Predict(d.ind, d.val), got.NewScorer().Predict(d.ind, d.val); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: predictions differ after a round trip: %+v vs %+v", m.Kind, a, b)
		}
	}
}

func TestEncodeRejectsInvalid(t *testing.T) {
	m := fixtures(t)["logreg"]
	m.W = append([]float64(nil), m.W...)
	m.W[0] = math.NaN()
	var buf bytes.Buffer
	if err := Encode(&buf, m); err == nil || buf.Len() != 0 {
		t.Fatalf("Encode of a NaN weight: %v, %d bytes written", err, buf.Len())
	}
}

// TestDamagedFiles checks that every damaged file is rejected with its own
// error and a message naming the file.
func TestDamagedFiles(t *testing.T) {
	good := encode(t, fixtures(t)["bernoulli"])
	L := len(good)
	flip := func(i int, x byte) []byte {
		b := bytes.Clone(good)
		b[i] ^= x
		return b
	}
	type tc struct {
		name string
		data []byte
		kind error
		msg  string // exact message, or a prefix when it ends with "…"
	}
	cases := []tc{
		{"empty", nil, ErrNotModel, "m.nbm: not an nbtext model file (empty)"},
		{"wrong magic", append([]byte("PK\x03\x04"), good[4:]...), ErrNotModel, "m.nbm: not an nbtext model file"},
		{"text", []byte("sci.crypt\tpassword\n"), ErrNotModel, "m.nbm: not an nbtext model file"},
		{"crlf", append(append(bytes.Clone(good[:4]), '\r', '\r'), good[5:]...), ErrNotModel, "m.nbm: not an nbtext model file"},
		{"raised version", withVersion(good, 9), ErrNewer, "m.nbm: written by a newer nbtext (format version 9, this build reads 1..5)"},
		{"version 0", withVersion(good, 0), ErrCorrupt, "m.nbm: corrupt (format version 0, this build reads 1..5)"},
		{"huge length", flip(19, 0x40), ErrTooLarge, "m.nbm: too large (payload of …"},
		{"trailing data", append(bytes.Clone(good), 0), ErrCorrupt, "m.nbm: corrupt (data after the checksum)"},
		{"unknown kind", resum(func() []byte { b := bytes.Clone(good); b[10] = 200; return b }()), ErrNewer, "m.nbm: written by a newer nbtext (model kind 200, flags 0 unknown to this build)"},
		{"shorter length", withLength(good, -1), ErrCorrupt, "m.nbm: corrupt (data after the checksum)"},
		{"longer length", withLength(good, 2), ErrTruncated, fmt.Sprintf("m.nbm: truncated (%d of %d bytes)", L, L+2)},
	}
	// A flipped bit anywhere after the fixed header, in the kind or the
	// reserved byte, is a checksum mismatch.
	for _, i := range []int{10, 11, 20, 21, 24, 100, L / 2, L - trailerSize - 1, L - trailerSize, L - 1} {
		for _, x := range []byte{0x01, 0x80} {
			cases = append(cases, tc{fmt.Sprintf("flip %d^%#x", i, x), flip(i, x), ErrCorrupt, "m.nbm: corrupt (checksum mismatch)"})
		}
	}
	for _, n := range []int{1, 4, 7} {
		cases = append(cases, tc{fmt.Sprintf("cut %d", n), good[:n], ErrTruncated, fmt.Sprintf("m.nbm: truncated (%d of at least 52 bytes)", n)})
	}
	for _, n := range []int{8, 9, 12, 19} {
		cases = append(cases, tc{fmt.Sprintf("cut %d", n), good[:n], ErrTruncated, fmt.Sprintf("m.nbm: truncated (%d of at least 52 bytes)", n)})
	}
	for _, n := range []int{20, 21, 30, L / 2, L - trailerSize, L - 1} {
		cases = append(cases, tc{fmt.Sprintf("cut %d", n), good[:n], ErrTruncated, fmt.Sprintf("m.nbm: truncated (%d of %d bytes)", n, L)})
	}
	// A valid checksum over a payload that does not decode.
	bad := bytes.Clone(good)
	copy(bad[headerSize+4:], `{"classes":[]`) // breaks the JSON header
	cases = append(cases, tc{"bad header", resum(bad), ErrCorrupt, "m.nbm: corrupt (header: …"})
	nan := bytes.Clone(good)
	binary.LittleEndian.PutUint64(nan[L-trailerSize-1-8:], math.Float64bits(math.NaN())) // last non-zero count, before the weights flag
	cases = append(cases, tc{"NaN count", resum(nan), ErrCorrupt, "m.nbm: corrupt (count of term 2 in class \"sci.crypt\" is NaN (want a finite number ≥ 0))"})
	// The sparse counts of version 2 come last but for the weights flag
	// (0: computed). The fixture's (8, 3), (0, 9), (10, 0) are, per term,
	// k then k × (class, float64): [2 0 f 1 f] [1 1 f] [1 0 f], 39 bytes.
	flag := L - trailerSize - 1
	counts := flag - 39
	edit := func(i int, x byte) []byte {
		b := bytes.Clone(good)
		b[i] = x
		return resum(b)
	}
	cases = append(cases,
		tc{"counts: k > C", edit(counts, 3), ErrCorrupt, "m.nbm: corrupt (term 0: bad number of counts)"},
		tc{"counts: classes not ascending", edit(counts+10, 0), ErrCorrupt, "m.nbm: corrupt (term 0: bad count entry)"},
		tc{"counts: class out of range", edit(flag-9, 2), ErrCorrupt, "m.nbm: corrupt (term 2: bad count entry)"},
		tc{"counts: more than announced", edit(counts+29, 2), ErrCorrupt, "m.nbm: corrupt (term 2: bad count entry)"},
		tc{"weights flag", edit(flag, 2), ErrCorrupt, "m.nbm: corrupt (weights flag 2 (want 0 or 1))"},
		tc{"weights announced, missing", edit(flag, 1), ErrCorrupt, "m.nbm: corrupt (payload has 0 bytes of weights, want 64)"},
	)

	others := []error{ErrNotModel, ErrTruncated, ErrCorrupt, ErrNewer, ErrTooLarge}
	dir := t.TempDir()
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprint(i), "m.nbm")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, derr := Decode(bytes.NewReader(c.data), "m.nbm")
		_, lerr := Load(path)
		for via, err := range map[string]error{"Decode": derr, "Load": lerr} {
			if err == nil {
				t.Errorf("%s via %s: no error", c.name, via)
				continue
			}
			if !errors.Is(err, c.kind) || !errors.Is(err, ErrModelFile) {
				t.Errorf("%s via %s: %v does not match %v", c.name, via, err, c.kind)
			}
			for _, o := range others {
				if o != c.kind && errors.Is(err, o) {
					t.Errorf("%s via %s: %v also matches %v", c.name, via, err, o)
				}
			}
			msg := strings.Replace(err.Error(), path, "m.nbm", 1)
			if p, ok := strings.CutSuffix(c.msg, "…"); ok {
				if !strings.HasPrefix(msg, p) {
					t.Errorf("%s via %s: %q, want prefix %q", c.name, via, msg, p)
				}
			} else if msg != c.msg {
				t.Errorf("%s via %s: %q, want %q", c.name, via, msg, c.msg)
			}
		}
	}
}

func TestLoadMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.nbm")
	_, err := Load(path)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrModelFile) || err.Error() != path+": no such file or directory" {
		t.Fatalf("Load of a missing file: %v", err)
	}
}

func TestSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.nbm")
	fx := fixtures(t)
	old, next := fx["bernoulli"], fx["logreg"]
	if err := Save(path, old); err != nil {
		t.Fatal(err)
	}
	oldBytes, _ := os.ReadFile(path)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}

	// An encoder failing half-way, and an invalid model: the old file is
	// intact and no temporary file is left.
	failing := func(w io.Writer, m *Model) error {
		w.Write(bytes.Repeat([]byte{1}, 100000))
		return errors.New("disk on fire")
	}
	enc, err := newEncoding(next)
	if err != nil {
		t.Fatal(err)
	}
	if err := fsutil.WriteFile(path, func(w io.Writer) error { enc.writeTo(w); return failing(w, next) }); err == nil || !strings.Contains(err.Error(), path+": disk on fire") {
		t.Fatalf("failing save: %v", err)
	}
	invalid := *next
	invalid.B = nil
	if err := Save(path, &invalid); err == nil {
		t.Fatal("saved an invalid model")
	}
	if err := Save(filepath.Join(dir, "no", "such", "dir.nbm"), next); err == nil {
		t.Fatal("saved into a missing directory")
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, oldBytes) {
		t.Fatal("failed saves changed the old file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("directory holds %d entries, want only m.nbm", len(ents))
	}

	// A successful save replaces the old file.
	if err := Save(path, next); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil || !reflect.DeepEqual(got, next) {
		t.Fatalf("Load after Save: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("directory holds %d entries after save", len(ents))
	}
}

// TestDecodeSizeLimit: a small version 2 NB file cannot make the reader
// allocate dense arrays larger than a version 1 payload could hold.
func TestDecodeSizeLimit(t *testing.T) {
	const V, C = 70000, 1000 // 16·V·C > MaxPayload
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
	payload = binary.LittleEndian.AppendUint64(payload, V)
	payload = append(payload, make([]byte, V+8*C+8)...)
	b := append(bytes.Clone(magic[:]), 2, 0, byte(Multinomial), 0)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, payload...)
	sum := sha256.Sum256(b)
	b = append(b, sum[:]...)
	_, err = Decode(bytes.NewReader(b), "m.nbm")
	if want := "m.nbm: too large (too many terms × classes: 70000 terms × 1000 classes need 1.04 GiB of tables, more than the 1.00 GiB a model may hold (fewer terms, e.g. --max-features or --min-df, or fewer classes fit))"; err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Decode: %v, want %q", err, want)
	}
}
