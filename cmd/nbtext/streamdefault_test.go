package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamByDefault: train streams when holding the corpus would exceed
// the memory budget (here --mem, small), or streaming gives the same model
// and holding it would exceed a quarter of the budget; the summary says
// which way it went and why, and a model streamed for being the same is
// the bytes of the one held in memory. --no-stream holds it; stdin, whose
// size is unknown, is held.
func TestStreamByDefault(t *testing.T) {
	td := filepath.Join("testdata", "pipeline", "train.tsv")
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	r := nbtext(t, "", "train", td, "-o", out("held.nbm"))
	checkOut(t, r, "training     in memory: the corpus (30.6 KiB) needs about", "(streaming gives the same model)", "train acc")

	// 31 KB of text, about 200 KB held: over a quarter of 400 KiB.
	r = nbtext(t, "", "train", td, "--mem", "400K", "-o", out("same.nbm"))
	checkOut(t, r, "(streamed, from counts)", "training     streamed: the same model as in memory")
	sameFile(t, out("held.nbm"), out("same.nbm"))
	r = nbtext(t, "", "train", td, "--mem", "400K", "--model", "logreg", "-o", out("lr.nbm"))
	checkOut(t, r, "(streamed)", "training     streamed: the same model")
	nbtext(t, "", "train", td, "--no-stream", "--model", "logreg", "-o", out("lr-held.nbm"))
	sameFile(t, out("lr.nbm"), out("lr-held.nbm"))

	// Complement NB fits a temperature in memory: streamed only past half
	// the budget, with a warning.
	r = nbtext(t, "", "train", td, "--mem", "1M", "--model", "complement", "-o", out("c1.nbm"))
	checkOut(t, r, "training     in memory: the corpus (30.6 KiB) needs about", "within half the budget 1.0 MiB (--mem)")
	r = nbtext(t, "", "train", td, "--mem", "300K", "--model", "complement", "-o", out("c2.nbm"))
	checkOut(t, r, "training     streamed: the corpus (30.6 KiB) would need about")
	check(t, r, 0, "over half the memory budget 300.0 KiB (--mem): streaming it; no temperature is fitted", "--no-stream holds it")
	r = nbtext(t, "", "train", td, "--mem", "300K", "--model", "complement", "--no-stream", "-o", out("c3.nbm"))
	checkOut(t, r, "temperature  ")
	if strings.Contains(r.out, "training ") {
		t.Errorf("--no-stream: the summary gives a reason for what was forced:\n%s", r.out)
	}
	sameFile(t, out("c1.nbm"), out("c3.nbm"))

	// What streaming cannot do is held, and says so.
	r = nbtext(t, "", "train", td, "--mem", "300K", "--alpha", "auto", "--folds", "3", "-o", out("a.nbm"))
	checkOut(t, r, "training     in memory: cross-validating α or C needs the documents in memory")
	data, err := os.ReadFile(td)
	if err != nil {
		t.Fatal(err)
	}
	r = nbtext(t, string(data), "train", "-", "--mem", "300K", "-o", out("stdin.nbm"))
	checkOut(t, r, "training     in memory: the size of standard input is unknown")
	check(t, nbtext(t, "", "train", td, "--stream", "--no-stream", "-o", out("x.nbm")), 2, "--stream and --no-stream")
}

// TestStreamSameModel: where train streams by default for giving the same
// model (pipeline's sameModel), --stream and --no-stream write the same
// bytes.
func TestStreamSameModel(t *testing.T) {
	td := filepath.Join("testdata", "pipeline")
	text, csv := filepath.Join(td, "train.tsv"), filepath.Join(td, "tickets.csv")
	dir := t.TempDir()
	vocab := filepath.Join(dir, "v.tsv")
	check(t, nbtext(t, "", "vocab", text, "--ngram", "1,2", "-q", "-o", vocab), 0)
	for i, args := range [][]string{
		{text, "--model", "multinomial"},
		{text, "--model", "multinomial", "--weighting", "count", "--hash-bits", "12"},
		{text, "--model", "multinomial", "--vocab", vocab},
		{text, "--model", "logreg"},
		{text, "--model", "logreg", "--vocab", vocab, "--class-weight", "balanced"},
		{text, "--model", "bernoulli", "--temperature", "1"},
		{text, "--model", "complement", "--temperature", "2"},
		{text, "--model", "centroid", "--temperature", "1"},
		{text, "--model", "svm", "--temperature", "1"},
		{text, "--model", "nblr", "--temperature", "1"},
		{csv, "--label-field", "team", "--model", "categorical", "--categorical-field", "product"},
		{csv, "--label-field", "team", "--model", "gaussian", "--numeric-field", "amount"},
	} {
		held, streamed := filepath.Join(dir, fmt.Sprintf("%d-held.nbm", i)), filepath.Join(dir, fmt.Sprintf("%d-streamed.nbm", i))
		check(t, nbtext(t, "", append([]string{"train", "--no-stream", "-q", "-o", held}, args...)...), 0)
		check(t, nbtext(t, "", append([]string{"train", "--stream", "-q", "-o", streamed}, args...)...), 0)
		sameFile(t, held, streamed)
	}
}
