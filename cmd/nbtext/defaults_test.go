package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// flagHelpLine returns the line of help that documents --name.
func flagHelpLine(t *testing.T, help, name string) string {
	t.Helper()
	re := regexp.MustCompile(`^\s+(-\w, )?--` + regexp.QuoteMeta(name) + `\s`)
	for _, line := range strings.Split(help, "\n") {
		if re.MatchString(line) {
			return line
		}
	}
	t.Fatalf("no line for --%s in:\n%s", name, help)
	return ""
}

// TestHelpShowsModelDefaults checks that 'train --model M --help' shows,
// for every vectorizer and estimator flag, the default that M really uses,
// read from train.Defaults (so the help stays true whatever values the
// table holds). Before, train's help showed vectorize.DefaultSettings
// (--min-df 1, no stop words) while the models used others.
func TestHelpShowsModelDefaults(t *testing.T) {
	isolate(t)
	for k := model.Kind(1); k.Valid(); k++ {
		args := []string{"train", "--model", k.String(), "--help"}
		if k == defaultKind {
			args = []string{"train", "--help"}
		}
		r := nbtext(t, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d", args, r.code)
		}
		s, p := train.Defaults(k)
		str := func(v string) string {
			if v == "" {
				return `""`
			}
			return v
		}
		want := map[string]string{
			"min-df":       fmt.Sprint(s.MinDF),
			"stop-words":   str(s.StopWords),
			"weighting":    s.Weighting,
			"norm":         s.Norm,
			"sublinear-tf": fmt.Sprint(s.Sublinear),
			"lowercase":    fmt.Sprint(s.Lowercase),
			"ngram":        fmt.Sprintf("%d,%d", s.NGramMin, s.NGramMax),
			"max-df":       fmt.Sprint(s.MaxDF),
			"seed":         fmt.Sprint(p.Seed),
		}
		switch {
		case k.IsNB():
			want["alpha"] = fmt.Sprint(p.Alpha)
		case k == model.LogReg:
			want["C"] = fmt.Sprint(p.C)
			want["epochs"] = fmt.Sprint(p.Epochs)
			want["solver"] = p.Solver
		case k == model.SVM || k == model.NBLR:
			want["C"] = fmt.Sprint(p.C)
		}
		if c, ok := train.MultiLabelC(k); ok {
			want["C"] += fmt.Sprintf("; %v with --multi-label", c)
		}
		for name, v := range want {
			line := flagHelpLine(t, r.out, name)
			if w := fmt.Sprintf("(default for --model %s: %s)", k, v); !strings.HasSuffix(strings.TrimSpace(line), w) {
				t.Errorf("%s: --%s: want %q in %q", k, name, w, line)
			}
			if strings.Count(line, "default") != 1 {
				t.Errorf("%s: --%s shows two defaults: %q", k, name, line)
			}
		}
		if k == model.LogReg {
			if line := flagHelpLine(t, r.out, "alpha"); !strings.Contains(line, "not used by --model logreg") {
				t.Errorf("--alpha for logreg: %q", line)
			}
		}
	}
	// vocab uses vectorize.DefaultSettings: its help says so as it always did.
	r := nbtext(t, "", "vocab", "--help")
	if line := flagHelpLine(t, r.out, "min-df"); !strings.Contains(line, fmt.Sprintf("(default %d)", vectorize.DefaultSettings().MinDF)) {
		t.Errorf("vocab --min-df: %q", line)
	}
	// eval: only --cv trains; the defaults are then the estimator's.
	r = nbtext(t, "", "eval", "--help")
	if line := flagHelpLine(t, r.out, "min-df"); !strings.Contains(line, "(with --cv, default: the model's, see nbtext train --model M --help)") {
		t.Errorf("eval --min-df: %q", line)
	}
	r = nbtext(t, "", "eval", "--cv", "5", "--model", "bernoulli", "--help")
	s, _ := train.Defaults(model.Bernoulli)
	if line := flagHelpLine(t, r.out, "min-df"); !strings.Contains(line, fmt.Sprintf("(with --cv, default for --model bernoulli: %d)", s.MinDF)) {
		t.Errorf("eval --cv 5 --model bernoulli --min-df: %q", line)
	}
}

// TestTinyCorpusTrains checks that a corpus of two short lines trains with
// no flags for every model: a model's default --min-df that would keep no
// term falls back to 1 with a notice, while a --min-df the user gives
// still fails as scikit-learn's CountVectorizer does. Before, 'nbtext
// train two.tsv' failed with "lower --min-df (2)".
func TestTinyCorpusTrains(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	two := writeFile(t, dir, "two.tsv", "a\tgood movie\nb\tbad film\n")
	for k := model.Kind(1); k.Valid(); k++ {
		if k == model.Categorical || k == model.Gaussian {
			continue // record-field models: they read no text
		}
		out := filepath.Join(dir, k.String()+".nbm")
		args := []string{"train", two, "-o", out}
		if k != defaultKind {
			args = append(args, "--model", k.String())
		}
		r := nbtext(t, "", args...)
		check(t, r, 0)
		s, _ := train.Defaults(k)
		if notice := "the default --min-df"; (s.MinDF > 1) != strings.Contains(r.err, notice) {
			t.Errorf("%s (min_df %d): stderr %q", k, s.MinDF, r.err)
		}
		terms := 4 // good, movie, bad, film
		if s.NGramMax >= 2 {
			terms += 2 // "good movie", "bad film"
		}
		if !strings.Contains(r.out, fmt.Sprintf("vocabulary   %d terms", terms)) {
			t.Errorf("%s: summary %q, want %d terms", k, r.out, terms)
		}
		if r = nbtext(t, "good\nbad film\n", "predict", "-m", out); r.code != 0 || r.out != "a\nb\n" {
			t.Errorf("%s: predict: exit %d, %q, %s", k, r.code, r.out, r.err)
		}
	}
	check(t, nbtext(t, "", "train", two, "--min-df", "2", "-o", filepath.Join(dir, "x.nbm")), 1, "no terms left after pruning")
	t.Setenv("NBTEXT_MIN_DF", "2")
	check(t, nbtext(t, "", "train", two, "-o", filepath.Join(dir, "x.nbm")), 1, "no terms left after pruning")
}
