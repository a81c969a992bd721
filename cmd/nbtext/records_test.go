package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestIrisCV runs the target command: Gaussian NB on Fisher's
// iris data, 10-fold cross-validation, ≥ 0.94 mean accuracy.
func TestIrisCV(t *testing.T) {
	isolate(t)
	r := nbtext(t, "", "eval", "--cv", "10", filepath.Join("..", "..", "testdata", "iris.csv"), "--model", "gaussian",
		"--label-field", "species", "--numeric-field", "sepal_length,sepal_width,petal_length,petal_width", "--format", "json")
	check(t, r, 0)
	var res struct {
		Mean struct{ Accuracy float64 } `json:"mean"`
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil {
		t.Fatalf("%v: %s", err, r.out)
	}
	t.Logf("iris, gaussian NB, 10-fold CV: mean accuracy %.4f", res.Mean.Accuracy)
	if res.Mean.Accuracy < 0.94 {
		t.Errorf("mean accuracy %.4f, want ≥ 0.94", res.Mean.Accuracy)
	}
	check(t, nbtext(t, "", "eval", "--cv", "10", filepath.Join("..", "..", "testdata", "iris.csv"), "--model", "gaussian",
		"--label-field", "species", "--categorical-field", "species"), 2, "--model gaussian needs --numeric-field")
}

// TestPredictRecordModelCSV trains Gaussian NB on the iris fields (no
// text column) and predicts records without a text column from standard
// input and from a file: the first field stands in for the text, as in
// train.
func TestPredictRecordModelCSV(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "iris.nbm")
	check(t, nbtext(t, "", "train", filepath.Join("..", "..", "testdata", "iris.csv"), "--model", "gaussian",
		"--label-field", "species", "--numeric-field", "sepal_length,sepal_width,petal_length,petal_width", "-q", "-o", m), 0)
	in := "sepal_length,sepal_width,petal_length,petal_width\n5.1,3.5,1.4,0.2\n6.7,3.0,5.2,2.3\n"
	r := nbtext(t, in, "predict", "-m", m, "--input", "csv")
	check(t, r, 0)
	if r.out != "setosa\nvirginica\n" {
		t.Errorf("predict on iris records: %q", r.out)
	}
	r = nbtext(t, "", "predict", "-m", m, writeFile(t, dir, "x.csv", in))
	check(t, r, 0)
	if r.out != "setosa\nvirginica\n" {
		t.Errorf("predict on an iris file: %q", r.out)
	}
}

// ticketsCSV writes a CSV of support tickets whose text says little and
// whose product field says much about the class.
func ticketsCSV(t *testing.T, dir, name string, n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 5))
	var b strings.Builder
	b.WriteString("team,text,product,amount\n")
	words := strings.Fields("please help issue problem order account service thanks hello")
	for i := 0; i < n; i++ {
		c := rng.IntN(3)
		var w []string
		for range 8 {
			w = append(w, words[rng.IntN(len(words))])
		}
		prod := []string{"phone", "tv", "laptop"}[c]
		if rng.Float64() < 0.1 {
			prod = ""
		}
		fmt.Fprintf(&b, "team%d,%s,%s,%.1f\n", c, strings.Join(w, " "), prod, 50*float64(c)+20*rng.NormFloat64())
	}
	return writeFile(t, dir, name, b.String())
}

// TestTrainRecords trains text-only and mixed models from a CSV and
// evaluates them: the fields lift the accuracy, the model file carries
// them (info lists their parameters), and eval refuses a mismatch of
// fields.
func TestTrainRecords(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr, te := ticketsCSV(t, dir, "train.csv", 600, 1), ticketsCSV(t, dir, "test.csv", 300, 2)
	fields := []string{"--label-field", "team", "--categorical-field", "product", "--numeric-field", "amount"}
	acc := func(r result) float64 {
		var rep struct{ Accuracy float64 }
		if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
			t.Fatalf("%v: %s", err, r.out)
		}
		return rep.Accuracy
	}
	for _, kind := range []string{"multinomial", "logreg", "svm"} {
		text, mixed := filepath.Join(dir, kind+"-text.nbm"), filepath.Join(dir, kind+"-mixed.nbm")
		check(t, nbtext(t, "", "train", tr, "--model", kind, "--label-field", "team", "-q", "-o", text), 0)
		r := nbtext(t, "", append([]string{"train", tr, "--model", kind, "-o", mixed}, fields...)...)
		check(t, r, 0)
		if !strings.Contains(r.out, "fields       1 categorical, 1 numeric") {
			t.Errorf("train output: %s", r.out)
		}
		a0 := acc(nbtext(t, "", "eval", "-m", text, te, "--label-field", "team", "--format", "json"))
		a1 := acc(nbtext(t, "", append([]string{"eval", "-m", mixed, te, "--format", "json"}, fields...)...))
		t.Logf("%s: text only %.4f, with fields %.4f", kind, a0, a1)
		if a1 < a0+0.3 {
			t.Errorf("%s: with fields %.4f, text only %.4f", kind, a1, a0)
		}
		check(t, nbtext(t, "", "eval", "-m", mixed, te, "--label-field", "team", "--categorical-field", "product"), 2, "has the fields product, amount")
		// The model knows its fields: eval reads them without the flags.
		if a2 := acc(nbtext(t, "", "eval", "-m", mixed, te, "--label-field", "team", "--format", "json")); a2 != a1 {
			t.Errorf("%s: eval without the field flags: accuracy %.4f, with them %.4f", kind, a2, a1)
		}
		// predict reads the fields from JSONL and explains them.
		r = nbtext(t, `{"text":"please help","product":"laptop","amount":100}`+"\n", "predict", "-m", mixed, "--input", "jsonl", "--explain", "2")
		check(t, r, 0)
		if !strings.HasPrefix(r.out, "team2\t") || !strings.Contains(r.out, "product=laptop:+") || !strings.Contains(r.out, "amount=100:") {
			t.Errorf("%s: predict --explain of a record: %q", kind, r.out)
		}
		check(t, nbtext(t, "please help\n", "predict", "-m", mixed), 2, "--input csv, tsv or jsonl")
		what := "P(value|class)"
		if kind != "multinomial" {
			what = "one-hot weight of each value"
		}
		r = nbtext(t, "", "info", mixed)
		check(t, r, 0)
		for _, want := range []string{"\nfields (2)\nproduct (categorical): " + what, "\n  laptop ", "\namount (numeric): "} {
			if !strings.Contains(r.out, want) {
				t.Errorf("%s: info does not show %q:\n%s", kind, want, r.out)
			}
		}
	}
	check(t, nbtext(t, "", append([]string{"train", tr, "--model", "complement", "-o", filepath.Join(dir, "c.nbm")}, fields...)...), 2, "record fields need")
	check(t, nbtext(t, "", append([]string{"train", tr, "--model", "nblr", "-o", filepath.Join(dir, "c.nbm")}, fields...)...), 2, "nblr scales each feature by its log-count ratio")
	bad := writeFile(t, dir, "bad.csv", "team,text,product,amount\nteam0,hello there,tv,12x\nteam1,hello there,phone,3\n")
	check(t, nbtext(t, "", append([]string{"train", bad, "--model", "multinomial", "-o", filepath.Join(dir, "b.nbm")}, fields...)...), 1, "bad.csv:2: field amount: \"12x\" is not a number")
}

// TestTrainStreamRecords: train --stream spools record fields to disk and
// fits the model in-memory train fits, bit for bit: categorical and
// Gaussian NB, mixed NB (text and fields), logistic regression and the SVM over
// text and fields, from a file and stdin. A bad value names the document
// as in-memory train does.
func TestTrainStreamRecords(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr := ticketsCSV(t, dir, "train.csv", 400, 3)
	data := string(readBytes(t, tr))
	cat, num := []string{"--categorical-field", "product"}, []string{"--numeric-field", "amount"}
	both := append(slices.Clone(cat), num...)
	unweighted := map[string]string{} // kind: its model without class weights
	for _, tc := range []struct {
		kind   string
		fields []string
		cw     string // --class-weight
	}{
		{"categorical", cat, ""}, {"gaussian", num, ""}, {"multinomial", both, ""}, {"bernoulli", both, ""}, {"logreg", both, ""}, {"svm", both, ""},
		{"categorical", cat, "team0=3"}, {"gaussian", num, "balanced"}, {"multinomial", both, "balanced"},
	} {
		flags := append([]string{"--model", tc.kind, "--label-field", "team", "--temperature", "1", "--field-alpha", "0.5"}, tc.fields...)
		name := tc.kind
		if tc.cw != "" {
			flags = append(flags, "--class-weight", tc.cw)
			name += "-cw"
		}
		mem, file, stdin := filepath.Join(dir, name+"-mem.nbm"), filepath.Join(dir, name+"-file.nbm"), filepath.Join(dir, name+"-stdin.nbm")
		mustRun(t, append([]string{"train", tr, "-o", mem}, flags...)...)
		mustRun(t, append([]string{"train", tr, "--stream", "-o", file}, flags...)...)
		if r := nbtext(t, data, append([]string{"train", "-", "--input-format", "csv", "--stream", "-o", stdin}, flags...)...); r.code != 0 {
			t.Fatalf("%s: train - --stream: exit %d: %s", tc.kind, r.code, r.err)
		}
		ref, others := mem, []string{file, stdin}
		if tc.kind == "logreg" || tc.kind == "svm" {
			// In memory, the fields of a linear model are stacked on
			// held-out text scores (train.FitWithFields); --stream fits
			// terms and fields jointly, from a file or stdin alike.
			ref, others = file, []string{stdin}
		}
		for _, other := range others {
			a, b := loadModel(t, ref), loadModel(t, other)
			if !reflect.DeepEqual(a.Fields, b.Fields) || !reflect.DeepEqual(a.Params, b.Params) || !slices.Equal(a.Classes, b.Classes) || !slices.Equal(a.ClassDocs, b.ClassDocs) {
				t.Errorf("%s: %s and %s: fields, parameters or classes differ", tc.kind, ref, other)
			}
			if a.Vocab != nil {
				sameModels(t, ref, other)
			}
		}
		if tc.cw == "" {
			unweighted[tc.kind] = mem
			continue
		}
		// The weights weigh the prior (and categorical counts).
		if a, b := loadModel(t, mem), loadModel(t, unweighted[tc.kind]); slices.Equal(a.B, b.B) {
			t.Errorf("%s --class-weight %s: the prior is the one without weights", tc.kind, tc.cw)
		}
	}
	bad := writeFile(t, dir, "bad.csv", "team,text,product,amount\nteam0,hello there,tv,3\nteam1,hello there,phone,12x\n")
	for _, kind := range []string{"gaussian", "multinomial", "logreg", "svm"} {
		out := filepath.Join(dir, "b.nbm")
		check(t, nbtext(t, "", append([]string{"train", bad, "--stream", "--model", kind, "--label-field", "team", "-o", out}, num...)...), 1, "bad.csv:3: field amount: \"12x\" is not a number")
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a failed train --stream left its output", kind)
		}
	}
}

// loadModel loads the model file path.
func loadModel(t *testing.T, path string) *model.Model {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
