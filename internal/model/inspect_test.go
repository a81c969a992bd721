package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
)

// topNames returns the term names of TopTerms, per class.
func topNames(top []ClassTerms) [][]string {
	out := make([][]string, len(top))
	for c, ct := range top {
		out[c] = []string{}
		for _, tw := range ct.Terms {
			out[c] = append(out[c], tw.Term)
		}
	}
	return out
}

// TestTopTermsLinear checks the ranking on weights chosen by hand: the
// weight is W minus the term's mean over the classes, so a term heavy in
// every class (a stop word) weighs nothing, ties go to the lower term id,
// and infinite weights rank first or last.
func TestTopTermsLinear(t *testing.T) {
	vocab := testVocab(t, "a", "b", "c", "d", "the")
	W := []float64{
		3, 0, 0, // a: class 0 (+2)
		0, 3, 0, // b: class 1 (+2)
		0, 0, 3, // c: class 2 (+2)
		3, 3, 0, // d: classes 0 and 1 (+1 each)
		9, 9, 9, // the: every class, 0
	}
	m, err := NewLinear(LogReg, classNames(3), vocab, Params{C: 1, Penalty: "l2", Solver: "lbfgs", Epochs: 10}, W, make([]float64, 3))
	if err != nil {
		t.Fatal(err)
	}
	top := m.TopTerms(3)
	want := [][]string{{"a", "d", "the"}, {"b", "d", "the"}, {"c", "the", "a"}}
	if got := topNames(top); !reflect.DeepEqual(got, want) {
		t.Errorf("top terms %q, want %q", got, want)
	}
	if w := float64(top[0].Terms[0].Weight); w != 2 {
		t.Errorf("weight of a in class 0: %v, want 2", w)
	}
	if got := m.TopTerms(0); len(got) != 3 || len(got[0].Terms) != 0 {
		t.Errorf("TopTerms(0): %+v", got)
	}
	if got := m.TopTerms(99); len(got[1].Terms) != 5 {
		t.Errorf("TopTerms(99) gives %d terms, want all 5", len(got[1].Terms))
	}

	// α = 0: a term absent from a class has W = -Inf there.
	m = mustNB(t, Multinomial, classNames(2), testVocab(t, "x", "y"), Params{Alpha: 0, Prior: "learned"}, []float64{1, 1}, []float64{2, 0, 1, 1})
	top = m.TopTerms(2)
	if got := topNames(top); !reflect.DeepEqual(got, [][]string{{"x", "y"}, {"y", "x"}}) {
		t.Errorf("α = 0: %q", got)
	}
	if w := float64(top[1].Terms[1].Weight); !math.IsInf(w, -1) {
		t.Errorf("α = 0: weight of x in class 1 is %v, want -Inf", w)
	}
	b, err := json.Marshal(top[1])
	if err != nil || !strings.Contains(string(b), `"weight":"-Inf"`) {
		t.Errorf("JSON of an infinite weight: %s, %v", b, err)
	}
}

// TestTopTermsEveryKind fits each kind on one corpus whose classes each
// have a word of their own: that word tops its class, whatever the kind.
func TestTopTermsEveryKind(t *testing.T) {
	vocab := testVocab(t, "common", "engine", "orbit", "senate")
	classes := []string{"autos", "space", "politics"}
	// Documents per class; counts: every class uses "common", each its own word.
	classDocs := []float64{4, 4, 4}
	counts := []float64{
		4, 4, 4, // common
		4, 0, 0, // engine
		0, 4, 0, // orbit
		0, 0, 4, // senate
	}
	own := []string{"engine", "orbit", "senate"}
	for _, kind := range []Kind{Bernoulli, Multinomial, Complement} {
		m := mustNB(t, kind, classes, vocab, Params{Alpha: 1, Beta: 1, Prior: "learned"}, classDocs, counts)
		for c, ct := range m.TopTerms(1) {
			if len(ct.Terms) != 1 || ct.Terms[0].Term != own[c] || ct.Class != classes[c] {
				t.Errorf("%s: class %s tops %+v, want %s", kind, classes[c], ct, own[c])
			}
		}
	}
	W := make([]float64, 4*3)
	for c := range 3 {
		W[(c+1)*3+c] = 1.5
	}
	m, err := NewLinear(LogReg, classes, vocab, Params{C: 1, Penalty: "l2", Solver: "lbfgs", Epochs: 10}, W, make([]float64, 3))
	if err != nil {
		t.Fatal(err)
	}
	for c, ct := range m.TopTerms(1) {
		if ct.Terms[0].Term != own[c] {
			t.Errorf("logreg: class %s tops %+v, want %s", classes[c], ct, own[c])
		}
	}
}

// TestInspect checks what Inspect reads from a saved file: size, SHA-256
// (as sha256sum gives it), format version, classes and their documents
// (none for logistic regression), and that a damaged file is refused as
// Load refuses it.
func TestInspect(t *testing.T) {
	dir := t.TempDir()
	vocab := testVocab(t, "engine", "orbit")
	nb := mustNB(t, Multinomial, []string{"autos", "space"}, vocab, Params{Alpha: 1, Prior: "learned"}, []float64{3, 5}, []float64{6, 0, 0, 9})
	nb.Meta = Meta{Version: "v1.2.3", CreatedBy: "test"}
	lr, err := NewLinear(LogReg, []string{"autos", "space"}, vocab, Params{C: 2, Penalty: "l2", Solver: "lbfgs", Epochs: 5}, []float64{1, -1, -1, 1}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		m         *Model
		classDocs []float64
	}{{"nb.nbm", nb, []float64{3, 5}}, {"lr.nbm", lr, nil}} {
		path := filepath.Join(dir, tt.name)
		if err := Save(path, tt.m); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		info, err := Inspect(path, 1)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size != int64(len(b)) || info.SHA256 != hex.EncodeToString(sum[:]) || info.FormatVersion != int(binary.LittleEndian.Uint16(b[8:10])) {
			t.Errorf("%s: size %d, sha256 %s, version %d; want %d, %x, %d", tt.name, info.Size, info.SHA256, info.FormatVersion, len(b), sum, binary.LittleEndian.Uint16(b[8:10]))
		}
		if info.Kind != tt.m.Kind.String() || !reflect.DeepEqual(info.Classes, tt.m.Classes) || !reflect.DeepEqual(info.ClassDocs, tt.classDocs) || info.Terms != 2 || !reflect.DeepEqual(info.Params, tt.m.Params) {
			t.Errorf("%s: %+v", tt.name, info)
		}
		if got := topNames(info.Top); !reflect.DeepEqual(got, [][]string{{"engine"}, {"orbit"}}) {
			t.Errorf("%s: top terms %q", tt.name, got)
		}
		var out bytes.Buffer
		if err := info.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(out.Bytes(), &obj); err != nil || !reflect.DeepEqual(obj["classes"], []any{"autos", "space"}) {
			t.Errorf("%s: JSON %s: %v", tt.name, out.String(), err)
		}
		out.Reset()
		if err := info.WriteTable(&out); err != nil || !strings.Contains(out.String(), "sha256      "+info.SHA256) {
			t.Errorf("%s: table:\n%s", tt.name, out.String())
		}
	}
	// A flipped byte is refused as Load refuses it.
	path := filepath.Join(dir, "nb.nbm")
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 0xff
	bad := filepath.Join(dir, "bad.nbm")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(bad, 1); !errors.Is(err, ErrCorrupt) {
		t.Errorf("flipped byte: %v, want ErrCorrupt", err)
	}
	if _, err := Inspect(filepath.Join(dir, "nope.nbm"), 1); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestInfoWrite checks that Write chooses the table or the JSON writer by
// its format, and refuses another format naming the flag.
func TestInfoWrite(t *testing.T) {
	info, err := Inspect(filepath.Join("testdata", "hashed-v4.nbm"), 2)
	if err != nil {
		t.Fatal(err)
	}
	for format, write := range map[string]func(*bytes.Buffer) error{
		"table": func(b *bytes.Buffer) error { return info.WriteTable(b) },
		"json":  func(b *bytes.Buffer) error { return info.WriteJSON(b) },
	} {
		var got, want bytes.Buffer
		if err := info.Write(&got, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.Len() == 0 || got.String() != want.String() {
			t.Errorf("%s: wrote\n%s\nwant\n%s", format, got.String(), want.String())
		}
	}
	var b bytes.Buffer
	if err := info.Write(&b, "xml"); err == nil || !strings.Contains(err.Error(), "--format") || b.Len() > 0 {
		t.Errorf("format xml: %v, wrote %q", err, b.String())
	}
}

// TestInspectFields checks what Inspect and its writers show of the record
// fields of a mixed NB, a Gaussian NB and a logistic regression with
// fields, against golden files, and that each field's parameters are the
// model's: the P(value|class) of the seen values of a NB field sum to 1
// (N_vc + α) / (N_c + kα), the unseen share α / (N_c + kα) is positive, a
// variance is positive, a linear numeric field
// carries its standardisation.
func TestInspectFields(t *testing.T) {
	for _, name := range []string{"mixed-v3", "gaussian-v3", "logreg-fields-v3"} {
		info, err := Inspect(filepath.Join("testdata", name+".nbm"), 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(info.Fields) == 0 {
			t.Fatalf("%s: no fields in %+v", name, info)
		}
		gen := name != "logreg-fields-v3"
		for _, f := range info.Fields {
			if len(f.Classes) != len(info.Classes) {
				t.Errorf("%s: field %s has %d classes", name, f.Name, len(f.Classes))
			}
			for _, cp := range f.Classes {
				switch {
				case f.Kind == "categorical" && gen:
					sum := 0.0
					for v, p := range cp.Values {
						if v != "(unseen)" {
							sum += p
						}
					}
					if u := cp.Values["(unseen)"]; !(u > 0 && u < 1) || math.Abs(sum-1) > 1e-9 {
						t.Errorf("%s: %s|%s: probabilities %v", name, f.Name, cp.Class, cp.Values)
					}
				case f.Kind == "numeric" && gen:
					if cp.Mean == nil || cp.Var == nil || !(*cp.Var > 0) || cp.Weight != nil {
						t.Errorf("%s: %s|%s: %+v", name, f.Name, cp.Class, cp)
					}
				case f.Kind == "numeric":
					if f.Center == nil || f.Scale == nil || cp.Weight == nil || cp.Mean != nil {
						t.Errorf("%s: %s|%s: %+v of %+v", name, f.Name, cp.Class, cp, f)
					}
				}
			}
		}
		var out bytes.Buffer
		if err := info.WriteTable(&out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "\nfields (") {
			t.Errorf("%s: table without fields:\n%s", name, out.String())
		}
		golden.Check(t, "info-"+name+".table.golden", out.String())
		out.Reset()
		if err := info.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		var obj struct{ Fields []FieldInfo }
		if err := json.Unmarshal(out.Bytes(), &obj); err != nil || !reflect.DeepEqual(obj.Fields, info.Fields) {
			t.Errorf("%s: JSON fields %+v, %v; want %+v", name, obj.Fields, err, info.Fields)
		}
		golden.Check(t, "info-"+name+".json.golden", out.String())
	}
}
