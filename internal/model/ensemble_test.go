package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// twoModels returns a multinomial NB and a logistic regression over two
// classes with different vocabularies.
func twoModels(t *testing.T) (*Model, *Model) {
	t.Helper()
	nb, err := NewNB(Multinomial, []string{"ham", "spam"}, testVocab(t, "cash", "hello", "win"),
		Params{Alpha: 1, Prior: "learned"}, []float64{3, 2}, []float64{0, 4, 5, 0, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	s := vectorize.DefaultSettings()
	s.NGramMax = 2
	v, err := vectorize.NewVocabulary(s, []string{"free", "free cash", "meeting"}, []int32{2, 1, 3}, []int64{2, 1, 3}, 5)
	if err != nil {
		t.Fatal(err)
	}
	lr, err := NewLinear(LogReg, []string{"ham", "spam"}, v, Params{C: 1, Penalty: "l2", Solver: "lbfgs", Epochs: 10},
		[]float64{-1, 1, -2, 2, 1.5, -1.5}, []float64{0.2, -0.2})
	if err != nil {
		t.Fatal(err)
	}
	return nb, lr
}

func TestEnsembleRoundTripAndScores(t *testing.T) {
	nb, lr := twoModels(t)
	m, err := NewEnsemble([]*Model{nb, lr}, []float64{0.7, 0.3}, Meta{Version: "test", CreatedBy: "model test", Auto: []byte(`{"metric":"accuracy"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := Encode(&a, m); err != nil {
		t.Fatal(err)
	}
	if err := Encode(&b, m); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("encoding is not deterministic (err %v)", err)
	}
	if v := binary.LittleEndian.Uint16(a.Bytes()[8:]); v != ensembleVersion || a.Bytes()[10] != byte(Ensemble) {
		t.Fatalf("version %d kind %d, want %d and %d", v, a.Bytes()[10], ensembleVersion, Ensemble)
	}
	path := filepath.Join(t.TempDir(), "e.nbm")
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Kind != Ensemble || len(back.Members) != 2 || back.Weights[1] != 0.3 || back.Members[1].Kind != LogReg ||
		back.Members[1].Vocab.Settings.NGramMax != 2 || string(back.Meta.Auto) != `{"metric":"accuracy"}` {
		t.Fatalf("loaded %+v", back)
	}
	for _, text := range []string{"win cash now", "hello meeting", "free cash", "", "unknown words only"} {
		got := back.NewEnsembleScorer().Predict(text)
		// By hand: the weighted average of the members' probabilities.
		want := make([]float64, 2)
		for k, mem := range []*Model{nb, lr} {
			ind, val := mem.Vocab.NewVectorizer().Vectorize(text)
			mem.Vocab.WeightRow(ind, val)
			p := mem.Predict(ind, val)
			for c := range want {
				want[c] += []float64{0.7, 0.3}[k] * p.Prob(c)
			}
		}
		for c := range want {
			if math.Abs(got.Prob(c)-want[c]) > 1e-12 {
				t.Errorf("%q: P(%d) = %v, want %v", text, c, got.Prob(c), want[c])
			}
		}
		if wantC := Decide([]float64{math.Log(want[0]), math.Log(want[1])}, nil); got.Class != wantC {
			t.Errorf("%q: class %d, want %d", text, got.Class, wantC)
		}
		if (text == "" || text == "unknown words only") != got.Empty {
			t.Errorf("%q: Empty = %v", text, got.Empty)
		}
	}
	es := back.NewEnsembleScorer()
	pr := es.Predict("win cash free cash")
	expl := es.Explain(pr.Class, 10)
	if len(expl) == 0 || expl[0].TermID != -1 {
		t.Fatalf("explain: %+v", expl)
	}
	sum := 0.0
	for _, c := range expl {
		sum += c.Value
	}
	if sum <= 0 {
		t.Errorf("the explained class's terms sum to %v against its rival, want > 0: %+v", sum, expl)
	}
	info, err := Inspect(path, 3)
	if err != nil || info.Kind != "ensemble" || len(info.Members) != 2 || info.FormatVersion != 5 {
		t.Fatalf("info %+v, err %v", info, err)
	}
}

func TestEnsembleFileDamage(t *testing.T) {
	nb, lr := twoModels(t)
	m, err := NewEnsemble([]*Model{nb, lr}, []float64{0.5, 0.5}, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	// A member whose own checksum no longer matches, under a valid outer
	// checksum: the member's check catches it.
	bad := bytes.Clone(good)
	bad[len(bad)-trailerSize-1] ^= 0xff
	_, err = Decode(bytes.NewReader(resum(bad)), "e.nbm")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "member 2") {
		t.Errorf("damaged member: %v, want corrupt naming member 2", err)
	}
	if _, err := Decode(bytes.NewReader(bad), "e.nbm"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("damaged file: %v, want corrupt", err)
	}
	if _, err := Decode(bytes.NewReader(resum(withVersion(good, 4))), "e.nbm"); !errors.Is(err, ErrNewer) {
		t.Errorf("ensemble kind in a version 4 file: %v, want unknown kind", err)
	}
	if _, err := Decode(bytes.NewReader(good[:len(good)-40]), "e.nbm"); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
}

func TestNewEnsembleRejects(t *testing.T) {
	nb, lr := twoModels(t)
	other, err := NewNB(Multinomial, []string{"a", "b"}, testVocab(t, "x"), Params{Alpha: 1}, []float64{1, 1}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	ens, err := NewEnsemble([]*Model{nb, lr}, []float64{0.5, 0.5}, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		members []*Model
		weights []float64
	}{
		"no members":      {nil, nil},
		"weights sum":     {[]*Model{nb, lr}, []float64{0.5, 0.6}},
		"zero weight":     {[]*Model{nb, lr}, []float64{1, 0}},
		"weights count":   {[]*Model{nb, lr}, []float64{1}},
		"other classes":   {[]*Model{nb, other}, []float64{0.5, 0.5}},
		"nested ensemble": {[]*Model{nb, ens}, []float64{0.5, 0.5}},
	} {
		if _, err := NewEnsemble(tc.members, tc.weights, Meta{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
