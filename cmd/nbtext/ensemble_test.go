package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestEnsembleFileCommands runs predict, eval and info on an ensemble of
// two trained models of different kinds and vocabularies.
func TestEnsembleFileCommands(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := writeFile(t, dir, "c.tsv", autoTSV(15))
	var members []*model.Model
	for _, kind := range []string{"multinomial", "logreg"} {
		out := filepath.Join(dir, kind+".nbm")
		check(t, nbtext(t, "", "train", corpus, "--model", kind, "--ngram", map[string]string{"multinomial": "1,1", "logreg": "1,2"}[kind], "--min-df", "1", "-q", "-o", out), 0)
		m, err := model.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, m)
	}
	ens, err := model.NewEnsemble(members, []float64{0.5, 0.5}, model.Meta{Version: "test", CreatedBy: "test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "e.nbm")
	if err := model.Save(path, ens); err != nil {
		t.Fatal(err)
	}
	r := nbtext(t, "the pgp cipher key\nopengl rendering with the gpu\n", "predict", "-m", path, "--explain", "2")
	check(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "crypt") || !strings.HasPrefix(lines[1], "graphics") || !strings.Contains(lines[0], "pgp:") {
		t.Errorf("predict with an ensemble:\n%s", r.out)
	}
	r = nbtext(t, "", "eval", "-m", path, corpus, "--format", "json")
	check(t, r, 0)
	if !strings.Contains(r.out, `"accuracy": 1`) {
		t.Errorf("eval of the ensemble on its training corpus:\n%s", r.out)
	}
	r = nbtext(t, "", "info", path)
	check(t, r, 0)
	for _, want := range []string{"kind        ensemble", "members (2)", "multinomial", "logreg", "format      version 5"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("info lacks %q:\n%s", want, r.out)
		}
	}
}
