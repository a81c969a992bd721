package main

import (
	"path/filepath"
	"strings"
	"testing"
)

var irisFields = []string{"--label-field", "species", "--numeric-field", "sepal_length,sepal_width,petal_length,petal_width"}

// TestDiscriminantCLI runs LDA, QDA and kernel NB through train, info,
// predict --explain and eval --cv on iris: 10-fold CV accuracies as
// scikit-learn's on the same folds (LDA 0.98, QDA 0.9733, measured by hand),
// and kernel NB 0.96.
func TestDiscriminantCLI(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	iris := filepath.Join("..", "..", "testdata", "iris.csv")
	for _, c := range []struct {
		flags []string
		cv    string
		info  string
	}{
		{[]string{"--model", "lda"}, "accuracy     0.9800", "sepal_length (numeric): weight of (x - 5.843) / 1"},
		{[]string{"--model", "qda"}, "accuracy     0.9733", "class mean and variance (diagonal of the class covariance"},
		{[]string{"--model", "gaussian", "--numeric-density", "kernel"}, "accuracy     0.9600", "Gaussian kernel density on 1024 grid points"},
	} {
		r := nbtext(t, "", append(append([]string{"eval", "--cv", "10", iris}, irisFields...), c.flags...)...)
		check(t, r, 0)
		if !strings.Contains(r.out, c.cv) {
			t.Errorf("eval --cv %v: want %q in\n%s", c.flags, c.cv, r.out)
		}
		m := filepath.Join(dir, c.flags[1]+".nbm")
		check(t, nbtext(t, "", append(append([]string{"train", iris, "-q", "-o", m}, irisFields...), c.flags...)...), 0)
		r = nbtext(t, "", "info", m)
		check(t, r, 0)
		if !strings.Contains(r.out, c.info) {
			t.Errorf("info of %v: want %q in\n%s", c.flags, c.info, r.out)
		}
		r = nbtext(t, `{"text":"","sepal_length":6.0,"sepal_width":2.7,"petal_length":5.0,"petal_width":1.6}`+"\n", "predict", "-m", m, "--input", "jsonl", "--explain", "4", "-")
		check(t, r, 0)
		if !strings.HasPrefix(r.out, "virginica") && !strings.HasPrefix(r.out, "versicolor") || !strings.Contains(r.out, "petal_length=5:") {
			t.Errorf("predict %v: %q", c.flags, r.out)
		}
	}
}

// TestDiscriminantFlags checks the usage errors of the new flags.
func TestDiscriminantFlags(t *testing.T) {
	isolate(t)
	iris := filepath.Join("..", "..", "testdata", "iris.csv")
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--model", "lda", "--categorical-field", "species"}, "--model lda needs --numeric-field and no --categorical-field"},
		{[]string{"--model", "lda", "--shrinkage", "2"}, "--shrinkage must be auto, none or a number in [0, 1]"},
		{[]string{"--model", "qda", "--shrinkage", "auto"}, "--shrinkage applies to --model lda"},
		{[]string{"--model", "lda", "--reg-param", "0.1"}, "--reg-param applies to --model qda"},
		{[]string{"--model", "qda", "--reg-param", "1.5"}, "--reg-param must be in [0, 1]"},
		{[]string{"--model", "gaussian", "--numeric-density", "parzen"}, "--numeric-density must be gaussian or kernel"},
		{[]string{"--model", "gaussian", "--bandwidth", "scott"}, "--bandwidth needs --numeric-density kernel"},
		{[]string{"--model", "gaussian", "--numeric-density", "kernel", "--bandwidth", "-1"}, "--bandwidth must be scott, silverman, cv or a number > 0"},
		{[]string{"--model", "lda", "--numeric-density", "kernel"}, "--numeric-density kernel applies to the numeric fields of naive Bayes"},
	} {
		args := append([]string{"train", iris, "-q", "-o", filepath.Join(t.TempDir(), "m.nbm"), "--label-field", "species"}, c.flags...)
		if !strings.Contains(strings.Join(c.flags, " "), "categorical") {
			args = append(args, "--numeric-field", "sepal_length,sepal_width")
		}
		check(t, nbtext(t, "", args...), 2, c.want)
	}
	// A singular covariance is an error (1) naming the remedy, which cures it.
	csv := writeFile(t, t.TempDir(), "line.csv", "x,y,label\n0,0,a\n1,2,a\n2,4,a\n5,10,b\n6,12,b\n7,14,b\n")
	args := []string{"train", csv, "-q", "-o", filepath.Join(t.TempDir(), "m.nbm"), "--label-field", "label", "--numeric-field", "x,y"}
	check(t, nbtext(t, "", append(args, "--model", "lda")...), 1, "the pooled covariance is singular", "collinear", "--shrinkage auto")
	check(t, nbtext(t, "", append(args, "--model", "qda")...), 1, "the covariance of class a is singular", "--reg-param")
	check(t, nbtext(t, "", append(args, "--model", "lda", "--shrinkage", "auto")...), 0)
	check(t, nbtext(t, "", append(args, "--model", "qda", "--reg-param", "0.1")...), 0)
}
