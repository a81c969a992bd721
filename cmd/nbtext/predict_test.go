package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// predictDocs is the training corpus of the model the predict tests use.
var predictDocs = []struct{ label, text string }{
	{"crypt", "the key and the cipher and pgp encryption"},
	{"crypt", "pgp keys encryption security cipher"},
	{"crypt", "secret key escrow clipper chip encryption"},
	{"graphics", "polygons rendering textures with opengl"},
	{"graphics", "the gpu renders polygons and textures"},
	{"graphics", "image formats jpeg gif rendering"},
}

// savePredictModel fits a multinomial NB model on predictDocs (α = 1),
// without package train, saves it in dir and returns its path.
func savePredictModel(t *testing.T, dir string) string {
	t.Helper()
	classes := []string{"crypt", "graphics"}
	texts := make([]string, len(predictDocs))
	y := make([]int, len(predictDocs))
	for i, d := range predictDocs {
		texts[i], y[i] = d.text, slices.Index(classes, d.label)
	}
	vocab, X, err := vectorize.Fit(texts, y, len(classes), vectorize.DefaultSettings(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	C := len(classes)
	classDocs := make([]float64, C)
	counts := make([]float64, X.Cols*C)
	for i, c := range y {
		classDocs[c]++
		ind, val := X.Row(i)
		for j, tm := range ind {
			counts[int(tm)*C+c] += float64(val[j])
		}
	}
	m, err := model.NewNB(model.Multinomial, classes, vocab, model.Params{Alpha: 1, Prior: "learned"}, classDocs, counts)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "toy.nbm")
	if err := model.Save(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPredictExitCodes covers the failures of 'nbtext predict': usage
// errors exit 2, a bad model file exits 3 naming the file, bad input
// exits 1 naming the line. None prints a stack trace.
func TestPredictExitCodes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	good, corrupt, cut := damagedModels(t, dir)
	text := writeFile(t, dir, "notes.txt", "crypt\tthis is a corpus, not a model\n")
	empty := writeFile(t, dir, "empty.nbm", "")
	missing := filepath.Join(dir, "missing.nbm")

	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		err   []string // substrings of stderr
	}{
		{"no model flag", "", []string{"predict"}, 2, []string{"-m MODEL is required", "nbtext predict --help"}},
		{"missing model", "", []string{"predict", "-m", missing}, 3, []string{missing, "no such file"}},
		{"corrupt model", "", []string{"predict", "-m", corrupt}, 3, []string{corrupt, "corrupt"}},
		{"truncated model", "", []string{"predict", "-m", cut}, 3, []string{cut, "truncated"}},
		{"not a model", "", []string{"predict", "-m", text}, 3, []string{text, "not an nbtext model file"}},
		{"empty model", "", []string{"predict", "-m", empty}, 3, []string{empty, "not an nbtext model file"}},
		{"model is a folder", "", []string{"predict", "-m", dir}, 3, []string{dir}},
		{"unknown cost class", "", []string{"predict", "-m", good, "--costs", "crypt=2,spam=5"}, 2, []string{`unknown class "spam"`, "crypt, graphics"}},
		{"bad cost", "", []string{"predict", "-m", good, "--costs", "crypt=-1"}, 2, []string{"--costs", "> 0"}},
		{"cost not a pair", "", []string{"predict", "-m", good, "--costs", "crypt"}, 2, []string{"--costs", "label=weight"}},
		// Flag values are checked before the model is read.
		{"bad format", "", []string{"predict", "-m", missing, "--format", "xml"}, 2, []string{"--format must be text, tsv or json"}},
		{"bad input", "", []string{"predict", "-m", good, "--input", "xml"}, 2, []string{"--input must be auto, lines, doc, jsonl, nul, csv, tsv, fasttext"}},
		{"bad threshold", "", []string{"predict", "-m", good, "--threshold", "2"}, 2, []string{"--threshold must be between 0 and 1"}},
		{"bad top-k", "", []string{"predict", "-m", good, "--top-k", "-1"}, 2, []string{"--top-k must be ≥ 0"}},
		{"not a number", "", []string{"predict", "-m", good, "--top-k", "two"}, 2, []string{"invalid argument"}},
		{"invalid jsonl", "{\"text\": \"pgp\"}\n{\"text\": pgp}\n", []string{"predict", "-m", good, "--input", "jsonl"}, 1, []string{"stdin:2: invalid JSON"}},
		{"missing text", "{\"id\": 1}\n", []string{"predict", "-m", good, "--input", "jsonl"}, 1, []string{"stdin:1: missing \"text\""}},
		{"oversized line", "pgp\n" + strings.Repeat("x", 100) + "\n", []string{"predict", "-m", good, "--max-doc-bytes", "50"}, 1, []string{"stdin:2: document larger than 50 bytes"}},
		{"missing file", "", []string{"predict", "-m", good, filepath.Join(dir, "nope.txt")}, 1, []string{"nope.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, nbtext(t, tt.stdin, tt.args...), tt.code, tt.err...)
		})
	}
}

// TestPredictStdin runs the default framing and formats end to end.
func TestPredictStdin(t *testing.T) {
	isolate(t)
	m := savePredictModel(t, t.TempDir())
	in := "pgp encryption key\nthe gpu renders textures\n\nopengl polygons"
	r := nbtext(t, in, "predict", "-m", m)
	if r.code != 0 || r.out != "crypt\ngraphics\ncrypt\ngraphics\n" {
		t.Fatalf("exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
	r = nbtext(t, in, "predict", "-m", m, "--format", "tsv", "--header", "--top-k", "2")
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	if r.code != 0 || len(lines) != 5 || lines[0] != "id\tlabel\tprob\tlabel2\tprob2" || !strings.HasPrefix(lines[2], "2\tgraphics\t") {
		t.Fatalf("tsv: exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
	r = nbtext(t, "{\"id\": 7, \"text\": \"pgp cipher\", \"src\": \"x\"}\n", "predict", "-m", m, "--input", "jsonl", "--format", "json")
	if r.code != 0 || !strings.HasPrefix(r.out, `{"id":7,"src":"x","label":"crypt","probs":{"crypt":`) {
		t.Fatalf("json: exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
	// --costs moves a close call; unknown words are predicted from the
	// prior (a tie here: crypt, the lower id).
	r = nbtext(t, "zebra\n", "predict", "-m", m, "--costs", "graphics=3")
	if r.code != 0 || r.out != "graphics\n" {
		t.Fatalf("costs: exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
}

// TestPredictFiles checks file, folder and archive arguments: a plain file
// is read as stdin is, one answer per line (issue 9: a 3-line file used to
// get one answer); in a folder each file is one document whose id is its
// path, walked in byte order; paths in argument order.
func TestPredictFiles(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	m := savePredictModel(t, dir)
	questions := "pgp encryption and the secret key\nthe gpu renders polygons\nclipper chip escrow\n"
	a := writeFile(t, dir, "in/questions.txt", questions)
	writeFile(t, dir, "posts/2", "the gpu renders polygons")
	writeFile(t, dir, "posts/10", "opengl textures\n\nand jpeg images")
	writeFile(t, dir, "posts/sub/1", "clipper chip escrow")
	r := nbtext(t, "ignored stdin", "predict", "-m", m, a)
	if r.code != 0 || r.out != "crypt\ngraphics\ncrypt\n" {
		t.Fatalf("plain file: exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
	if s := nbtext(t, questions, "predict", "-m", m); s.out != r.out {
		t.Errorf("stdin gives %q, the file %q", s.out, r.out)
	}
	if r := nbtext(t, "", "predict", "-m", m, "--input", "doc", a); r.code != 0 || r.out != "crypt\n" {
		t.Errorf("--input doc: exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
	r = nbtext(t, "ignored stdin", "predict", "-m", m, "--format", "tsv", a, filepath.Join(dir, "posts"))
	want := strings.Join([]string{
		a + ":1\tcrypt",
		a + ":2\tgraphics",
		a + ":3\tcrypt",
		filepath.Join(dir, "posts", "10") + "\tgraphics",
		filepath.Join(dir, "posts", "2") + "\tgraphics",
		filepath.Join(dir, "posts", "sub", "1") + "\tcrypt",
	}, "\n")
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(r.out, "\n"), "\n") {
		f := strings.Split(l, "\t")
		got = append(got, f[0]+"\t"+f[1])
	}
	if r.code != 0 || strings.Join(got, "\n") != want {
		t.Fatalf("exit %d, stderr %q\ngot:\n%s\nwant:\n%s", r.code, r.err, strings.Join(got, "\n"), want)
	}
}

// TestPredictUnreadable checks that a document predict cannot read keeps
// its place in the output, with a warning and exit 1 at the end, and that
// --max-doc-bytes holds for files, archive members and endless stdin.
func TestPredictUnreadable(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	m := savePredictModel(t, dir)
	writeFile(t, dir, "posts/1", "pgp encryption key")
	writeFile(t, dir, "posts/2", "\x00\x01binary")
	writeFile(t, dir, "posts/3", "the gpu renders polygons")
	r := nbtext(t, "", "predict", "-m", m, filepath.Join(dir, "posts"))
	check(t, r, 1, filepath.Join(dir, "posts", "2")+": contains NUL bytes", "1 of 3 documents could not be read")
	if r.out != "crypt\n?\ngraphics\n" {
		t.Errorf("output %q, want crypt ? graphics", r.out)
	}
	// A big file is not read whole: its lines are framed one by one.
	big := writeFile(t, dir, "big.txt", "pgp key\n"+strings.Repeat("gpu ", 1000)+"\nopengl\n")
	r = nbtext(t, "", "predict", "-m", m, "--max-doc-bytes", "1000", big)
	check(t, r, 1, big+":2: document larger than 1000 bytes")
	if r.out != "crypt\n?\ngraphics\n" {
		t.Errorf("big file: output %q", r.out)
	}
	r = nbtext(t, "", "predict", "-m", m, "--max-doc-bytes", "1000", "--input", "doc", "--format", "json", big)
	check(t, r, 1, big+": document larger than 1000 bytes")
	if !strings.HasPrefix(r.out, `{"id":"`+big+`","label":"","probs":{},"error":"`) {
		t.Errorf("big file, json: %q", r.out)
	}
	// A device is refused before anything is read.
	if _, err := os.Stat("/dev/zero"); err == nil {
		r = nbtext(t, "", "predict", "-m", m, big, "/dev/zero")
		check(t, r, 1, "/dev/zero: not a regular file")
		if r.out != "" {
			t.Errorf("/dev/zero: output %q", r.out)
		}
	}
}

// TestPredictEndlessStdin is 'cat /dev/zero | nbtext predict' (issue 12
// item 1): the first line never ends. It used to read forever; now it
// answers '?', reports the line and stops, in lines and jsonl framing.
func TestPredictEndlessStdin(t *testing.T) {
	isolate(t)
	m := savePredictModel(t, t.TempDir())
	for _, input := range []string{"lines", "jsonl"} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"predict", "-m", m, "--input", input, "--max-doc-bytes", "1000"}, streams{In: zeros{}, Out: &out, Err: &errb})
		r := result{code, out.String(), errb.String()}
		check(t, r, 1, "stdin:1: document larger than 1000 bytes", "stdin:1: no end of the document")
		if r.out != "?\n" {
			t.Errorf("%s: output %q, want ?", input, r.out)
		}
	}
}

// zeros reads as /dev/zero does.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestTrainThenPredict runs the two commands the way a user does.
func TestTrainThenPredict(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	m := filepath.Join(dir, "m.nbm")
	if r := nbtext(t, "", "train", tsv, "-o", m, "-q"); r.code != 0 {
		t.Fatalf("train: exit %d, stderr %s", r.code, r.err)
	}
	r := nbtext(t, "pgp encryption\nthe gpu renders polygons\n", "predict", "-m", m, "--format", "json", "--explain", "1")
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	if r.code != 0 || len(lines) != 2 || !strings.Contains(lines[0], `"label":"crypt"`) || !strings.Contains(lines[1], `"label":"graphics"`) || !strings.Contains(lines[0], `"explain":[{"term":`) {
		t.Fatalf("exit %d, output %q, stderr %q", r.code, r.out, r.err)
	}
}
