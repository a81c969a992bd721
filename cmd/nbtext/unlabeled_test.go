package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unlabeledTSV are documents whose labels --unlabeled ignores.
const unlabeledTSV = "x\tcipher keys and pgp encryption again\n" +
	"x\tencryption with a secret cipher key\n" +
	"y\topengl polygons and gpu textures\n" +
	"y\trendering jpeg images with the gpu\n"

func TestTrainUnlabeledFlags(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "toy.tsv", toyTSV)
	un := writeFile(t, dir, "un.tsv", unlabeledTSV)
	out := filepath.Join(dir, "m.nbm")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--per-class", "-1"}, "--per-class must be ≥ 0"},
		{[]string{"--unlabeled-rest"}, "--unlabeled-rest needs --per-class"},
		{[]string{"--unlabeled-weight", "0.5"}, "--unlabeled-weight needs unlabelled documents"},
		{[]string{"--em-iterations", "3"}, "--em-iterations needs unlabelled documents"},
		{[]string{"--unlabeled", un, "--unlabeled-weight", "-1"}, "--unlabeled-weight must be a finite number ≥ 0 or auto"},
		{[]string{"--unlabeled", un, "--unlabeled-weight", "lots"}, "--unlabeled-weight must be"},
		{[]string{"--unlabeled", un, "--em-iterations", "-2"}, "--em-iterations must be ≥ 0"},
		{[]string{"--unlabeled", un, "--em-tol", "-1"}, "--em-tol must be"},
		{[]string{"--unlabeled", un, "--unlabeled-split", "dev"}, "--unlabeled-split must be train or test"},
		{[]string{"--unlabeled", un, "--model", "complement"}, "not a generative model"},
		{[]string{"--unlabeled", un, "--model", "logreg"}, "--model multinomial or bernoulli"},
		{[]string{"--unlabeled", un, "--stream"}, "drop --stream"},
		{[]string{"--unlabeled", un, "--multi-label"}, "drop --multi-label"},
		{[]string{"--unlabeled", "-"}, "not \"-\""},
		{[]string{"--per-class", "2", "--stream"}, "--per-class draws its sample"},
		{[]string{"--unlabeled", un, "--select", "mi:5"}, "--select chooses terms by their labels"},
	}
	for _, tc := range cases {
		args := append([]string{"train", tsv, "-o", out}, tc.args...)
		r := nbtext(t, "", args...)
		if r.code != 2 || !strings.Contains(r.err, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.err, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a refused run wrote %s", out)
	}
}

func TestTrainUnlabeled(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "toy.tsv", toyTSV)
	un := writeFile(t, dir, "un.tsv", unlabeledTSV)
	// A tree whose unlabelled documents sit in an unsup folder, as
	// aclImdb's train/unsup (--unlabeled-split applies to every
	// --unlabeled corpus, so the TSV file is read in another run).
	tree := filepath.Join(dir, "tree")
	writeFile(t, tree, "train/pos/1.txt", "a labelled document that --unlabeled-classes leaves out")
	writeFile(t, tree, "train/unsup/1.txt", "pgp encryption keys")
	writeFile(t, tree, "train/unsup/2.txt", "gpu polygons")
	out := filepath.Join(dir, "m.nbm")
	for _, kind := range []string{"multinomial", "bernoulli"} {
		r := nbtext(t, "", "train", tsv, "--model", kind, "--min-df", "1", "--unlabeled", tree, "--unlabeled", tree,
			"--unlabeled-split", "train", "--unlabeled-classes", "unsup",
			"--unlabeled-weight", "0.5", "--em-iterations", "3", "-o", out)
		if r.code != 0 || !strings.Contains(r.out, "em           4 unlabelled documents") {
			t.Fatalf("%s: the unsup folder, twice: exit %d: %s%s", kind, r.code, r.out, r.err)
		}
		r = nbtext(t, "", "train", tsv, "--model", kind, "--min-df", "1", "--unlabeled", un,
			"--unlabeled-weight", "0.5", "--em-iterations", "3", "-o", out)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", kind, r.code, r.err)
		}
		if !strings.Contains(r.out, "em           4 unlabelled documents, weight λ=0.5 (given)") {
			t.Fatalf("%s: summary lacks the EM line:\n%s", kind, r.out)
		}
		if !strings.Contains(r.err, "EM iteration 1: log-likelihood") {
			t.Fatalf("%s: no log-likelihood per iteration on stderr:\n%s", kind, r.err)
		}
		info := nbtext(t, "", "info", out)
		if info.code != 0 || !strings.Contains(info.out, "4 unlabelled documents") || !strings.Contains(info.out, "vocabulary from labelled and unlabelled documents") {
			t.Fatalf("%s: info does not show EM (exit %d):\n%s%s", kind, info.code, info.out, info.err)
		}
	}
	// The same inputs give the same bytes, whatever the workers.
	var files [][]byte
	for _, w := range []string{"1", "3"} {
		r := nbtext(t, "", "train", tsv, "--min-df", "1", "--unlabeled", un, "--unlabeled-weight", "auto", "--folds", "2", "--workers", w, "-o", out)
		if r.code != 0 || !strings.Contains(r.out, "cross-validation of λ") {
			t.Fatalf("workers %s: exit %d: %s%s", w, r.code, r.out, r.err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("--workers 1 and 3 wrote different models")
	}
	// λ = 0 is naive bayes on the labelled documents alone, over their
	// own vocabulary, as without --unlabeled.
	r0 := nbtext(t, "", "train", tsv, "--min-df", "1", "--unlabeled", un, "--unlabeled-weight", "0", "-o", out)
	same := nbtext(t, "", "train", tsv, "--min-df", "1", "--weighting", "count", "--sublinear-tf=false", "--norm", "none",
		"--stop-words", "english", "--alpha", "0.1", "-o", filepath.Join(dir, "same.nbm"))
	vocabLine := func(s string) string {
		_, v, _ := strings.Cut(s, "vocabulary")
		v, _, _ = strings.Cut(v, "\n")
		return v
	}
	if r0.code != 0 || same.code != 0 || vocabLine(r0.out) != vocabLine(same.out) || !strings.Contains(r0.out, "4 unlabelled documents left out: weight λ=0 (given)") {
		t.Fatalf("λ = 0: exit %d, %d:\n%s\n%s%s", r0.code, same.code, r0.out, same.out, r0.err)
	}
	// --per-class with --unlabeled-rest: one labelled document per class,
	// the other four unlabelled.
	r := nbtext(t, "", "train", tsv, "--min-df", "1", "--per-class", "1", "--unlabeled-rest", "--unlabeled-weight", "1", "-o", out)
	if r.code != 0 || !strings.Contains(r.out, "documents    2\n") || !strings.Contains(r.out, "em           4 unlabelled documents") {
		t.Fatalf("--per-class 1 --unlabeled-rest: exit %d:\n%s%s", r.code, r.out, r.err)
	}
	// --per-class alone trains on the sample.
	r = nbtext(t, "", "train", tsv, "--min-df", "1", "--per-class", "2", "-o", out)
	if r.code != 0 || !strings.Contains(r.out, "documents    4\n") {
		t.Fatalf("--per-class 2: exit %d:\n%s%s", r.code, r.out, r.err)
	}
}

func TestTrainUnlabeledBadInput(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "toy.tsv", toyTSV)
	un := writeFile(t, dir, "un.tsv", unlabeledTSV)
	out := filepath.Join(dir, "m.nbm")
	missing := filepath.Join(dir, "missing.tsv")
	big := writeFile(t, dir, "big.tsv", "x\t"+strings.Repeat("word ", 100)+"\n")
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(filepath.Join(empty, "unsup"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, empty, "unsup/a.txt", "x")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--unlabeled", missing}, 1, missing},
		{[]string{"--unlabeled", big, "--max-doc-bytes", "100"}, 1, "big.tsv:1: document larger than 100 bytes"},
		{[]string{"--unlabeled", empty}, 1, "no labelled documents"},
		{[]string{"--unlabeled", un, "-o", un}, 2, un},
	}
	for _, tc := range cases {
		args := append([]string{"train", tsv, "--min-df", "1", "-o", out}, tc.args...)
		r := nbtext(t, "", args...)
		if r.code != tc.code || !strings.Contains(r.err, tc.want) || strings.Contains(r.err, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.err, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a failed run wrote %s", out)
	}
	if b, _ := os.ReadFile(un); string(b) != unlabeledTSV {
		t.Fatal(fmt.Sprintf("the unlabelled input was overwritten: %q", b))
	}
}
