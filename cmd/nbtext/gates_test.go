package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rotateLabels returns content with every label of from renamed to the
// next one (the last to the first): a model trained on it is wrong on
// every document whose label the text gives away.
func rotateLabels(content string, from []string) string {
	pairs := make([]string, 0, 2*len(from))
	for i, l := range from {
		pairs = append(pairs, l, from[(i+1)%len(from)])
	}
	return strings.NewReplacer(pairs...).Replace(content)
}

// TestGatesEveryMode runs every gate in every mode of eval: a model file
// (text, records, multi-label), --cv (text, records) and --cv --auto. Each
// gate passes at an easy threshold (exit 0, "gates passed" on stderr),
// fails at a hard one (exit 4, "gates failed") or, where it cannot apply,
// is refused (exit 2). Every evaluation set holds a document labelled
// against its text, so no score is perfect.
func TestGatesEveryMode(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	train := func(args ...string) {
		t.Helper()
		check(t, nbtext(t, "", append([]string{"train", "-q"}, args...)...), 0)
	}
	// Text: crypt against graphics; the last test line is graphics text
	// labelled crypt.
	txTrain := autoTSV(10)
	txTest := writeFile(t, dir, "text-test.tsv", autoTSV(4)+"crypt\tthe polygons rendering opengl textures\n")
	txGood, txBad := filepath.Join(dir, "text.nbm"), filepath.Join(dir, "text-bad.nbm")
	train(writeFile(t, dir, "text-train.tsv", txTrain), "-o", txGood)
	train(writeFile(t, dir, "text-bad.tsv", rotateLabels(txTrain, []string{"crypt", "graphics"})), "-o", txBad)
	// Records: the product field gives the team away; the last test row
	// is a team1 row labelled team0.
	teams := []string{"team0", "team1", "team2"}
	fields := []string{"--label-field", "team", "--categorical-field", "product", "--numeric-field", "amount"}
	rcTrain := ticketsCSV(t, dir, "rec-train.csv", 300, 1)
	rcTest := ticketsCSV(t, dir, "rec-test.csv", 60, 2)
	appendFile(t, rcTest, "team0,please help,tv,50.0\n")
	rcGood, rcBad := filepath.Join(dir, "rec.nbm"), filepath.Join(dir, "rec-bad.nbm")
	train(append([]string{rcTrain, "-o", rcGood}, fields...)...)
	train(append([]string{writeFile(t, dir, "rec-bad.csv", rotateLabels(readFile(t, rcTrain), teams)), "-o", rcBad}, fields...)...)
	// Multi-label: the last test line is tech text labelled sport.
	mlTrain := multiLabelLines(t, dir, "ml-train.txt", 200, 1)
	mlTest := multiLabelLines(t, dir, "ml-test.txt", 40, 2)
	appendFile(t, mlTest, "__label__sport cpu code linux chip software the news today\n")
	mlGood, mlBad := filepath.Join(dir, "ml.nbm"), filepath.Join(dir, "ml-bad.nbm")
	train(mlTrain, "--multi-label", "-o", mlGood)
	train(writeFile(t, dir, "ml-bad.txt", rotateLabels(readFile(t, mlTrain), []string{"__label__politics", "__label__sport", "__label__tech"})), "--multi-label", "-o", mlBad)
	cvText := writeFile(t, dir, "cv.tsv", autoTSV(12)+"crypt\tthe polygons rendering opengl textures\ngraphics\tthe key cipher pgp escrow\n")
	iris := filepath.Join("..", "..", "testdata", "iris.csv")

	type mode struct {
		name      string
		args      []string // eval and its arguments, gates aside
		bad       []string // the same with a worse model (nil: no model file)
		baseline  string   // the good model, for --baseline (refused without bad)
		low, high string   // a label of recall < 1, one of precision < 1
		noLogLoss bool
	}
	modes := []mode{
		{name: "model file", args: []string{"eval", "-m", txGood, txTest}, bad: []string{"eval", "-m", txBad, txTest}, baseline: txGood, low: "crypt", high: "graphics"},
		{name: "records", args: []string{"eval", "-m", rcGood, rcTest, "--label-field", "team"}, bad: []string{"eval", "-m", rcBad, rcTest, "--label-field", "team"}, baseline: rcGood, low: "team0", high: "team1"},
		{name: "multi-label", args: []string{"eval", "-m", mlGood, mlTest, "--multi-label"}, bad: []string{"eval", "-m", mlBad, mlTest, "--multi-label"}, baseline: mlGood, low: "sport", high: "tech", noLogLoss: true},
		{name: "cv", baseline: txGood, args: []string{"eval", "--cv", "3", cvText, "--model", "multinomial"}, low: "crypt", high: "graphics"},
		{name: "cv records", baseline: txGood, args: []string{"eval", "--cv", "10", iris, "--model", "gaussian", "--label-field", "species", "--numeric-field", "sepal_length,sepal_width,petal_length,petal_width"}, low: "versicolor", high: "virginica"},
		{name: "cv auto", baseline: txGood, args: []string{"eval", "--cv", "3", "--auto", "--budget", "20s", "--model", "multinomial", cvText}, low: "crypt", high: "graphics"},
	}
	type gate struct {
		name       string
		pass, fail func(m mode) []string // extra arguments; nil: refused
	}
	same := func(a ...string) func(mode) []string { return func(mode) []string { return a } }
	gates := []gate{
		{"--min-accuracy", same("--min-accuracy", "0.01"), same("--min-accuracy", "1")},
		{"--min-macro-f1", same("--min-macro-f1", "0.01"), same("--min-macro-f1", "1")},
		{"--max-log-loss", same("--max-log-loss", "100"), same("--max-log-loss", "1e-9")},
		{"--min-recall", func(m mode) []string { return []string{"--min-recall", m.low + "=0.01"} }, func(m mode) []string { return []string{"--min-recall", m.low + "=1"} }},
		{"--min-precision", func(m mode) []string { return []string{"--min-precision", m.high + "=0.01"} }, func(m mode) []string { return []string{"--min-precision", m.high + "=1"} }},
		{"--baseline", func(m mode) []string { return []string{"--baseline", m.baseline} }, func(m mode) []string { return []string{"--baseline", m.baseline, "--tolerance", "0.01"} }},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			// A label the evaluation does not have is refused.
			check(t, nbtext(t, "", append(m.args, "--min-recall", "nosuch=0.5")...), 2, `no label "nosuch"`)
			for _, g := range gates {
				refused := (g.name == "--max-log-loss" && m.noLogLoss) || (g.name == "--baseline" && m.bad == nil)
				if refused {
					r := nbtext(t, "", append(cloneArgs(m.args), g.pass(m)...)...)
					check(t, r, 2, g.name)
					continue
				}
				r := nbtext(t, "", append(cloneArgs(m.args), g.pass(m)...)...)
				check(t, r, 0, "gates passed", g.name)
				fail := cloneArgs(m.args)
				if g.name == "--baseline" {
					fail = cloneArgs(m.bad)
				}
				r = nbtext(t, "", append(fail, g.fail(m)...)...)
				check(t, r, exitGate, "gates failed", g.name)
				if n := strings.Count(r.err, "nbtext: gates"); n != 1 {
					t.Errorf("%s: %d verdicts, want one line:\n%s", g.name, n, r.err)
				}
			}
		})
	}
}

// cloneArgs returns a copy of a, so that appends to it never share memory.
func cloneArgs(a []string) []string { return append([]string(nil), a...) }

// appendFile appends content to the file at path.
func appendFile(t *testing.T, path, content string) {
	t.Helper()
	writeFile(t, filepath.Dir(path), filepath.Base(path), readFile(t, path)+content)
}

// readFile returns the content of the file at path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
