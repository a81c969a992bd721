package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
)

// trainFixedFlags returns the flags of 'nbtext train' that --vocab fixes,
// as train derives them.
func trainFixedFlags(t *testing.T) (*pflag.FlagSet, []string) {
	t.Helper()
	o := &trainOptions{global: &globalOptions{}}
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	o.AddFlags(fs)
	return fs, o.fixed
}

// TestVocabFixedFlags checks that the derived list holds the vectorizer
// flags the review named (a floor: new vectorizer flags join it by
// themselves) and no flag that a vocabulary file does not record.
func TestVocabFixedFlags(t *testing.T) {
	_, fixed := trainFixedFlags(t)
	for _, name := range []string{"lowercase", "stop-words", "ngram", "min-df", "max-df", "max-features", "select", "weighting", "sublinear-tf", "norm", "remove"} {
		if !slices.Contains(fixed, name) {
			t.Errorf("--%s is not among the flags --vocab fixes: %v", name, fixed)
		}
	}
	for _, name := range []string{"model", "vocab", "output", "alpha", "split", "classes", "input-format", "workers", "seed"} {
		if slices.Contains(fixed, name) {
			t.Errorf("--%s should not conflict with --vocab: %v", name, fixed)
		}
	}
}

// TestTrainVocabConflicts: with --vocab, every vectorizer flag (and
// --remove) given on the command line is a usage error that names it and
// --vocab on one line; the same settings from NBTEXT_* or the config file
// are ignored, and the vocabulary's settings, --remove included, apply.
func TestTrainVocabConflicts(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	// Each document quotes words of the other class.
	var jsonl strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(toyTSV), "\n") {
		label, text, _ := strings.Cut(line, "\t")
		quote := "opengl textures polygons"
		if label == "graphics" {
			quote = "pgp encryption cipher"
		}
		fmt.Fprintf(&jsonl, "{\"label\": %q, \"text\": %q}\n", label, text+"\n> "+quote+"\n")
	}
	corpusFile := writeFile(t, dir, "c.jsonl", jsonl.String())
	vocab := filepath.Join(dir, "v.tsv")
	if r := nbtext(t, "", "vocab", corpusFile, "--remove", "quotes", "--min-df", "2", "-o", vocab, "-q"); r.code != 0 {
		t.Fatalf("vocab: exit %d: %s", r.code, r.err)
	}
	out := filepath.Join(dir, "m.nbm")

	fs, fixed := trainFixedFlags(t)
	for _, name := range fixed {
		t.Run(name, func(t *testing.T) {
			f := fs.Lookup(name)
			val := f.DefValue // the default: any value given counts
			if strings.HasSuffix(f.Value.Type(), "Slice") {
				val = ""
			}
			r := nbtext(t, "", "train", corpusFile, "--vocab", vocab, "--"+name+"="+val, "-o", out, "-q")
			check(t, r, exitUsage, "--"+name+" is not allowed with --vocab", "nbtext vocab")
			if first, _, _ := strings.Cut(r.err, "\n"); !strings.Contains(first, "--"+name) || !strings.Contains(first, "--vocab") {
				t.Errorf("first line %q does not name --%s and --vocab", first, name)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a model was written")
			}
		})
	}

	// Several at once: all named, in one line.
	r := nbtext(t, "", "train", corpusFile, "--vocab", vocab, "--ngram", "1,2", "--min-df", "3", "--remove", "headers", "-o", out)
	check(t, r, exitUsage, "--min-df, --ngram, --remove are not allowed with --vocab")

	// Environment and config file values are defaults, not requests: no
	// error, and the vocabulary's settings win over them.
	cfg := writeFile(t, dir, "nbtext.yaml", "min-df: 1\ntrain:\n  weighting: tfidf\n  remove: headers\n")
	t.Setenv("NBTEXT_TRAIN_NGRAM", "1,2")
	t.Setenv("NBTEXT_STOP_WORDS", "english")
	r = nbtext(t, "", "train", corpusFile, "--vocab", vocab, "--config", cfg, "-o", out, "-q")
	check(t, r, exitOK)
	m, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Vocab.Settings
	if s.MinDF != 2 || s.NGramMax != 1 || s.StopWords != "" || s.Weighting != "count" || s.Remove != "quotes" {
		t.Errorf("model settings %+v, want the vocabulary's (min-df 2, ngram 1,1, no stop words, count, remove quotes)", s)
	}
	// The corpus was stripped as for the vocabulary: the model is the one
	// the same settings give without --vocab, and not the one they give
	// on the corpus as is.
	same := []string{"train", corpusFile, "--lowercase", "--stop-words=", "--ngram", "1,1", "--min-df", "2", "--max-df", "1",
		"--max-features", "0", "--select=", "--weighting", "count", "--sublinear-tf=false", "--norm", "none", "-q"}
	for _, remove := range []string{"quotes", ""} {
		out2 := filepath.Join(dir, "m-"+remove+".nbm")
		check(t, nbtext(t, "", append(same, "--remove="+remove, "-o", out2)...), exitOK)
		m2, err := model.Load(out2)
		if err != nil {
			t.Fatal(err)
		}
		if eq := slices.Equal(m.Counts, m2.Counts) && slices.Equal(m.Vocab.Terms, m2.Vocab.Terms); eq != (remove == "quotes") {
			t.Errorf("--vocab model equal to the model of --remove=%q: %v", remove, eq)
		}
	}

	// Flags that a vocabulary does not fix still apply with --vocab.
	r = nbtext(t, "", "train", corpusFile, "--vocab", vocab, "--model", "bernoulli", "--alpha", "0.5", "--classes", "crypt,graphics", "-o", out, "-q")
	check(t, r, exitOK)
}
