package main

import (
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realCorpus returns the 20 Newsgroups archive, or skips the test.
func realCorpus(t *testing.T) string {
	t.Helper()
	p := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if p == "" {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set: the end-to-end tests need the 20 Newsgroups archive (make test sets it when ../shared/data has it)")
	}
	return p
}

// TestEndToEnd runs the README's commands on the real corpus: vocab, train,
// eval with a gate, predict in a pipeline, and compare with CSV and plots.
func TestEndToEnd(t *testing.T) {
	tb := realCorpus(t)
	isolate(t)
	dir := t.TempDir()

	// vocab: scikit-learn's CountVectorizer finds 130,107 terms.
	vocab := filepath.Join(dir, "vocab.tsv")
	r := nbtext(t, "", "vocab", tb, "--split", "train", "-o", vocab)
	if r.code != 0 {
		t.Fatalf("vocab: exit %d: %s", r.code, r.err)
	}
	b, err := os.ReadFile(vocab)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	terms := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") && l != "term\tdf\tcf" {
			terms++
		}
	}
	if terms != 130107 {
		t.Errorf("vocabulary has %d terms, want 130107", terms)
	}

	// train + eval, with the CI gate both ways.
	model := filepath.Join(dir, "m.nbm")
	if r = nbtext(t, "", "train", tb, "--split", "train", "--model", "multinomial", "-o", model, "-q"); r.code != 0 {
		t.Fatalf("train: exit %d: %s", r.code, r.err)
	}
	r = nbtext(t, "", "eval", "-m", model, tb, "--split", "test", "--format", "json", "--min-accuracy", "0.8")
	if r.code != 0 {
		t.Fatalf("eval: exit %d: %s", r.code, r.err)
	}
	var rep struct {
		Accuracy float64 `json:"accuracy"`
		N        int     `json:"n"`
		MacroF1  float64 `json:"macro_f1"`
	}
	if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
		t.Fatalf("eval json: %v\n%s", err, r.out)
	}
	if rep.N != 7532 || rep.Accuracy < 0.8 || rep.MacroF1 < 0.8 {
		t.Errorf("eval: %+v", rep)
	}
	if r = nbtext(t, "", "eval", "-m", model, tb, "--split", "test", "--min-accuracy", "0.99", "-q"); r.code != exitGate || !strings.Contains(r.err, "--min-accuracy") {
		t.Errorf("gate: exit %d, stderr %q", r.code, r.err)
	}

	// predict from stdin, one answer per line, in order.
	r = nbtext(t, "How should I add PGP support to my program?\nThe Sabres scored twice in the third period\n\n", "predict", "-m", model)
	if r.code != 0 {
		t.Fatalf("predict: exit %d: %s", r.code, r.err)
	}
	got := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	if len(got) != 3 || got[0] != "sci.crypt" || got[1] != "rec.sport.hockey" {
		t.Errorf("predict: %q", got)
	}

	// compare: table, CSV (to a file and to stdout), PNG and SVG.
	csvPath, pngPath, svgPath := filepath.Join(dir, "c.csv"), filepath.Join(dir, "c.png"), filepath.Join(dir, "c.svg")
	args := []string{"compare", tb, "--classes", "sci.crypt,comp.graphics", "--sizes", "20,200", "--repeats", "2", "-q"}
	if r = nbtext(t, "", append(args, "--csv", csvPath, "--plot", pngPath)...); r.code != 0 {
		t.Fatalf("compare: exit %d: %s", r.code, r.err)
	}
	if !strings.Contains(r.out, "bernoulli") || !strings.Contains(r.out, "logreg") {
		t.Errorf("compare table:\n%s", r.out)
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 1+3*2*2 {
		t.Errorf("compare csv: %d rows, %v", len(rows), err)
	}
	f, err = os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() < 400 {
		t.Errorf("compare png: %v", err)
	}
	// The same seeded runs, with the SVG plot and the CSV on stdout.
	if r = nbtext(t, "", append(args, "--plot", svgPath, "--csv", "-")...); r.code != 0 {
		t.Fatalf("compare svg: exit %d: %s", r.code, r.err)
	}
	if b, _ := os.ReadFile(csvPath); r.out != string(b) {
		t.Errorf("compare --csv - wrote to stdout:\n%s\nwant what --csv FILE wrote:\n%s", r.out, b)
	}
	if b, err := os.ReadFile(svgPath); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("compare svg: %v", err)
	}
}
