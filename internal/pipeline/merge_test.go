package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestMergeCounts merges the counts of two corpora into the counts of
// both, notes that the parts record no inputs (CountRound records none),
// prints the summary of a counts merge, and refuses parts counted with
// other settings without writing anything.
func TestMergeCounts(t *testing.T) {
	dir := t.TempDir()
	part := func(name, text string, s vectorize.Settings) string {
		tsv := filepath.Join(dir, name+".tsv")
		if err := os.WriteFile(tsv, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		ctr, err := CountRound(&Source{Paths: []string{tsv}}, s, nil, counts.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ctr.Close()
		out := filepath.Join(dir, name+".nbc")
		if _, err := ctr.WriteFile(out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	d := vectorize.DefaultSettings()
	a := part("a", "x\tgpu texture\ny\torbit launch\n", d)
	b := part("b", "x\tgpu shader\nz\tbrake engine\nz\tengine oil\n", d)
	var notes []string
	out := filepath.Join(dir, "ab.nbc")
	r, err := Merge(MergeOptions{Paths: []string{a, b}, Output: out, Note: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != nil || r.Header.Documents() != 5 || len(r.Header.Classes) != 3 || len(notes) != 1 || !strings.Contains(notes[0], "record no inputs") {
		t.Fatalf("merged %+v, notes %q", r, notes)
	}
	c, err := counts.ReadFile(out)
	if err != nil || c.Documents() != 5 {
		t.Fatalf("read back: %v", err)
	}
	var w strings.Builder
	r.Write(&w)
	if want := "counts       2 parts -> " + out + "\ndocuments    5\nclasses      3\nseconds      "; !strings.HasPrefix(w.String(), want) {
		t.Errorf("summary:\n%s\nwant it to start with\n%s", w.String(), want)
	}
	bigrams := d
	bigrams.NGramMax = 2
	c2 := part("c", "x\tgpu texture\n", bigrams)
	if _, err := Merge(MergeOptions{Paths: []string{a, c2}, Output: filepath.Join(dir, "ac.nbc")}); err == nil {
		t.Error("parts of other settings: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "ac.nbc")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused merge left a file: %v", err)
	}
}

// TestMergeModels averages two logistic regression models by their
// documents, records the merge in the model's Meta and prints the
// summary of a model merge; a model that is not logistic regression is
// refused, naming it.
func TestMergeModels(t *testing.T) {
	dir := t.TempDir()
	v, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), []string{"gpu", "orbit"}, []int32{1, 1}, []int64{1, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	save := func(name string, kind model.Kind, docs int, w float64) string {
		p := model.Params{C: 1, Penalty: "l2", Solver: "lbfgs", Epochs: 1, Docs: docs}
		m, err := model.NewLinear(kind, []string{"a", "b"}, v, p, []float64{w, -w, -w, w}, []float64{0, 0})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := model.Save(path, m); err != nil {
			t.Fatal(err)
		}
		return path
	}
	one, three := save("1.nbm", model.LogReg, 1, 4), save("3.nbm", model.LogReg, 3, 0)
	out := filepath.Join(dir, "mixed.nbm")
	r, err := Merge(MergeOptions{Paths: []string{one, three}, Output: out, Version: "v9"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Params.Docs != 4 || m.Meta.Version != "v9" || m.Meta.CreatedBy != "nbtext merge" || r.Header != nil {
		t.Errorf("mixed: docs %d, meta %+v", m.Params.Docs, m.Meta)
	}
	if got := m.W[0]; got != 1 { // (1·4 + 3·0) / 4
		t.Errorf("W[gpu, a] = %v, want 1", got)
	}
	var w strings.Builder
	r.Write(&w)
	if want := "model        logreg, 2 models averaged -> " + out + "\ndocuments    4\nclasses      2\nseconds      "; !strings.HasPrefix(w.String(), want) {
		t.Errorf("summary:\n%s\nwant it to start with\n%s", w.String(), want)
	}
	svm := save("svm.nbm", model.SVM, 2, 1)
	if _, err := Merge(MergeOptions{Paths: []string{one, svm}, Output: filepath.Join(dir, "x.nbm")}); err == nil || !strings.Contains(err.Error(), svm) {
		t.Errorf("an svm model: %v, want an error naming it", err)
	}
	if _, err := Merge(MergeOptions{Paths: []string{one, filepath.Join(dir, "none.nbm")}, Output: filepath.Join(dir, "y.nbm")}); !errors.Is(err, model.ErrModelFile) {
		t.Errorf("a missing model: %v", err)
	}
}
