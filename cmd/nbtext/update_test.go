package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
)

// synthTSV returns n documents of the classes, seeded: each class has
// words of its own, all share common words, and rare words make pruning
// (min_df, max_features) change as documents are added. shift moves the
// class words, so that a later corpus differs from an earlier one.
func synthTSV(seed uint64, n int, classes []string, shift int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for i := 0; i < n; i++ {
		c := classes[r.IntN(len(classes))]
		b.WriteString(c + "\t")
		for j, k := 0, 5+r.IntN(25); j < k; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			switch x := r.Float64(); {
			case x < 0.45:
				fmt.Fprintf(&b, "%s%d", c, r.IntN(30)+shift)
			case x < 0.95:
				fmt.Fprintf(&b, "common%d", r.IntN(60))
			default:
				fmt.Fprintf(&b, "rare%d", r.IntN(400))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// sameFile fails unless the files at a and b hold the same bytes.
func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Errorf("%s (%d bytes) and %s (%d bytes) differ", a, len(x), b, len(y))
	}
}

// TestUpdateForgetExact: for each kind that updates exactly, update of a
// model of A with B is, byte for byte, train on A+B (without history),
// and forget of B gives back the model of A; B brings a new class, and
// the pruning settings change which terms are kept.
func TestUpdateForgetExact(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	a := synthTSV(1, 300, []string{"sport", "tech"}, 0)
	b := synthTSV(2, 200, []string{"food", "sport", "tech"}, 0)
	pa := writeFile(t, dir, "a.tsv", a)
	pb := writeFile(t, dir, "b.tsv", b)
	pab := writeFile(t, dir, "ab.tsv", a+b)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"multinomial", []string{"--model", "multinomial", "--weighting", "count", "--norm", "none"}},
		{"multinomial-maxfeatures", []string{"--model", "multinomial", "--weighting", "count", "--norm", "none", "--min-df", "1", "--max-features", "70"}},
		{"bernoulli", []string{"--model", "bernoulli", "--temperature", "1"}},
		{"bernoulli-tfidf", []string{"--model", "bernoulli", "--weighting", "tfidf", "--norm", "l2", "--temperature", "1"}},
		{"complement", []string{"--model", "complement", "--weighting", "count", "--norm", "none", "--temperature", "1"}},
		{"binary-balanced", []string{"--model", "multinomial", "--weighting", "binary", "--norm", "none", "--class-weight", "balanced"}},
		{"centroid", []string{"--model", "centroid", "--weighting", "count", "--norm", "none", "--temperature", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := filepath.Join(dir, tc.name)
			os.Mkdir(d, 0o755)
			ma, mab, mu := filepath.Join(d, "a.nbm"), filepath.Join(d, "ab.nbm"), filepath.Join(d, "u.nbm")
			check(t, nbtext(t, "", append([]string{"train", pa, "--keep-counts", "-o", ma}, tc.args...)...), 0)
			check(t, nbtext(t, "", append([]string{"train", pab, "-o", mab}, tc.args...)...), 0)
			check(t, nbtext(t, "", "update", ma, pb, "--no-history", "-o", mu), 0)
			sameFile(t, mu, mab)
			// With history: only the history differs, and info shows it.
			mh := filepath.Join(d, "h.nbm")
			t.Setenv("SOURCE_DATE_EPOCH", "1790000000")
			check(t, nbtext(t, "", "update", ma, pb, "-o", mh), 0)
			r := nbtext(t, "", "info", mh, "--format", "json")
			check(t, r, 0)
			var info struct {
				Classes []string
				History []struct {
					Op      string
					Docs    int64
					Total   int64
					Date    string
					Classes []string
				}
			}
			if err := json.Unmarshal([]byte(r.out), &info); err != nil {
				t.Fatal(err)
			}
			if len(info.Classes) != 3 || len(info.History) != 2 || info.History[0].Op != "train" || info.History[0].Docs != 300 ||
				info.History[1].Op != "update" || info.History[1].Docs != 200 || info.History[1].Total != 500 ||
				info.History[1].Date != "2026-09-21T14:13:20Z" || strings.Join(info.History[1].Classes, ",") != "food" {
				t.Errorf("info: classes %v, history %+v", info.Classes, info.History)
			}
			// Forget B: the model of A, from either.
			mf := filepath.Join(d, "f.nbm")
			check(t, nbtext(t, "", "forget", mh, pb, "--no-history", "-o", mf), 0)
			sameFile(t, mf, ma)
			sameFile(t, filepath.Join(d, "f.nbc"), filepath.Join(d, "a.nbc"))
			mf2 := filepath.Join(d, "f2.nbm")
			check(t, nbtext(t, "", "forget", mh, pb, "-o", mf2), 0)
			r = nbtext(t, "", "info", mf2)
			if !strings.Contains(r.out, "forget  -200 documents, 300 in all (2026-09-21T14:13:20Z)") || !strings.Contains(r.out, "classes dropped: food") {
				t.Errorf("info does not show the forget step:\n%s", r.out)
			}
		})
	}
}

// TestUpdateRefusals: what cannot be updated or forgotten says why, names
// the file, and writes nothing.
func TestUpdateRefusals(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	pa := writeFile(t, dir, "a.tsv", synthTSV(1, 120, []string{"sport", "tech"}, 0))
	pb := writeFile(t, dir, "b.tsv", synthTSV(2, 60, []string{"sport", "tech"}, 0))
	pc := writeFile(t, dir, "c.tsv", synthTSV(3, 40, []string{"food", "sport"}, 0))
	count := []string{"--model", "multinomial", "--weighting", "count", "--norm", "none"}
	ma := filepath.Join(dir, "a.nbm")
	check(t, nbtext(t, "", append([]string{"train", pa, "--keep-counts", "-o", ma}, count...)...), 0)
	bare := filepath.Join(dir, "bare.nbm")
	check(t, nbtext(t, "", append([]string{"train", pa, "-o", bare}, count...)...), 0)
	tfidf := filepath.Join(dir, "tfidf.nbm")
	check(t, nbtext(t, "", "train", pa, "--model", "centroid", "--keep-counts", "-o", tfidf), 0)
	svm := filepath.Join(dir, "svm.nbm")
	check(t, nbtext(t, "", "train", pa, "--model", "svm", "-o", svm), 0)
	mb := filepath.Join(dir, "b.nbm")
	check(t, nbtext(t, "", append([]string{"train", pb, "--keep-counts", "-o", mb}, count...)...), 0)
	out := filepath.Join(dir, "out.nbm")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no counts", []string{"update", bare, pb, "-o", out}, 1, []string{"bare.nbc", "--keep-counts"}},
		{"centroid tfidf", []string{"update", tfidf, pb, "-o", out}, 2, []string{"tfidf.nbm", "weighting tfidf", "--weighting count"}},
		{"forget svm", []string{"forget", svm, pb, "-o", out}, 2, []string{"svm.nbm", "no counts"}},
		{"other counts", []string{"update", ma, pb, "--counts", filepath.Join(dir, "b.nbc"), "-o", out}, 1, []string{"b.nbc", "not the model's counts"}},
		{"forget unseen class", []string{"forget", ma, pc, "-o", out}, 1, []string{"c.tsv", `class "food"`, "a.nbc"}},
		{"forget unseen documents", []string{"forget", ma, pb, "-o", out}, 1, []string{"b.tsv", "a.nbc"}},
		{"keep-counts svm", []string{"train", pa, "--model", "svm", "--keep-counts", "-o", out}, 2, []string{"--keep-counts"}},
		{"overwrite model", []string{"update", ma, pb, "-o", ma}, 2, []string{"a.nbm"}},
		{"overwrite counts", []string{"update", mb, pb, "--counts", filepath.Join(dir, "a.nbc"), "-o", ma}, 2, []string{"a.nbc"}},
		{"remove", []string{"update", ma, pb, "--remove", "headers", "-o", out}, 2, []string{"--remove"}},
		{"no output", []string{"update", ma, pb}, 2, []string{"-o NEW"}},
		{"bad model", []string{"update", pa, pb, "-o", out}, 3, []string{"a.tsv"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check(t, nbtext(t, "", tc.args...), tc.code, tc.want...)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}

// accuracy returns the accuracy of model m on corpus c ('nbtext eval').
func accuracy(t *testing.T, m, c string) float64 {
	t.Helper()
	r := nbtext(t, "", "eval", "-m", m, c, "--format", "json")
	check(t, r, 0)
	var e struct{ Accuracy float64 }
	if err := json.Unmarshal([]byte(r.out), &e); err != nil {
		t.Fatal(err)
	}
	return e.Accuracy
}

// TestUpdateLogRegWarmStart: a logistic regression model of old documents
// updated by a warm start on new ones (whose class words have moved) does
// better on held-out new documents, keeps its classes, refuses a new one,
// and records the step.
func TestUpdateLogRegWarmStart(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	classes := []string{"sport", "tech"}
	// The old corpus has class words 0..29 and a few of 25..54, so that
	// those are in the vocabulary; the new corpus's class words are
	// 25..54.
	old := synthTSV(1, 300, classes, 0) + synthTSV(4, 30, classes, 25)
	pa := writeFile(t, dir, "a.tsv", old)
	pb := writeFile(t, dir, "b.tsv", synthTSV(2, 300, classes, 25))
	pt := writeFile(t, dir, "t.tsv", synthTSV(3, 300, classes, 25))
	pr := writeFile(t, dir, "r.tsv", synthTSV(5, 60, classes, 0))
	pc := writeFile(t, dir, "c.tsv", synthTSV(6, 30, []string{"food", "tech"}, 0))
	ma, mu := filepath.Join(dir, "a.nbm"), filepath.Join(dir, "u.nbm")
	// C = 0.1 on two classes is the old C = 0.05 (C is now scikit-learn's
	// binomial C, where it acted as 2C).
	check(t, nbtext(t, "", "train", pa, "--model", "logreg", "--C", "0.1", "-o", ma), 0)
	t.Setenv("SOURCE_DATE_EPOCH", "1790000000")
	check(t, nbtext(t, "", "update", ma, pb, "--replay", pr, "--epochs", "5", "-o", mu), 0)
	before, after := accuracy(t, ma, pt), accuracy(t, mu, pt)
	if !(after > before) {
		t.Errorf("accuracy on new held-out documents %.3f before the update, %.3f after", before, after)
	}
	t.Logf("held-out accuracy %.3f -> %.3f", before, after)
	if a := accuracy(t, mu, pr); a < 0.9 {
		t.Errorf("accuracy on old documents %.3f after the update with replay", a)
	}
	r := nbtext(t, "", "info", mu)
	if !strings.Contains(r.out, "update  +300 documents, 630 in all (2026-09-21T14:13:20Z) from "+pb+" + replay "+pr) {
		t.Errorf("info does not show the update:\n%s", r.out)
	}
	// A new class is added after the old ones, from zero weights.
	mc := filepath.Join(dir, "c.nbm")
	check(t, nbtext(t, "", "update", ma, pc, "-o", mc), 0)
	if c := loadModel(t, mc); !slices.Equal(c.Classes, []string{"sport", "tech", "food"}) {
		t.Errorf("classes after an update with a new class: %v, want sport, tech, food", c.Classes)
	}
}

// TestUpdateDualWarmStart: an SVM or NB-LR model of old documents
// updated by a warm start on new ones (whose class words have moved) does
// better on held-out new documents, comes close to the model retrained on
// old and new documents, keeps its classes and temperature, learns a new
// class from its documents, and records the step; --epochs 1 gives
// another model.
func TestUpdateDualWarmStart(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	classes := []string{"sport", "tech", "food"}
	old := synthTSV(1, 300, classes, 0) + synthTSV(4, 30, classes, 25)
	newDocs := synthTSV(2, 300, classes, 25)
	pa := writeFile(t, dir, "a.tsv", old)
	pb := writeFile(t, dir, "b.tsv", newDocs)
	pab := writeFile(t, dir, "ab.tsv", old+newDocs)
	pt := writeFile(t, dir, "t.tsv", synthTSV(3, 300, classes, 25))
	pr := writeFile(t, dir, "r.tsv", synthTSV(5, 60, classes, 0))
	pc := writeFile(t, dir, "c.tsv", synthTSV(6, 30, []string{"wine", "tech"}, 0))
	for _, kind := range []string{"svm", "nblr"} {
		t.Run(kind, func(t *testing.T) {
			ma, mu, mr := filepath.Join(dir, kind+"-a.nbm"), filepath.Join(dir, kind+"-u.nbm"), filepath.Join(dir, kind+"-ab.nbm")
			check(t, nbtext(t, "", "train", pa, "--model", kind, "-o", ma), 0)
			check(t, nbtext(t, "", "train", pab, "--model", kind, "-o", mr), 0)
			t.Setenv("SOURCE_DATE_EPOCH", "1790000000")
			check(t, nbtext(t, "", "update", ma, pb, "--replay", pr, "-o", mu), 0)
			before, after, retrained := accuracy(t, ma, pt), accuracy(t, mu, pt), accuracy(t, mr, pt)
			t.Logf("held-out accuracy %.3f -> %.3f (retrained: %.3f)", before, after, retrained)
			if !(after > before) || after < retrained-0.05 {
				t.Errorf("accuracy on new held-out documents %.3f before the update, %.3f after, %.3f retrained", before, after, retrained)
			}
			if a := accuracy(t, mu, pr); a < 0.9 {
				t.Errorf("accuracy on old documents %.3f after the update with replay", a)
			}
			a, u := loadModel(t, ma), loadModel(t, mu)
			if u.Params.Temperature != a.Params.Temperature || !slices.Equal(u.Classes, a.Classes) {
				t.Errorf("temperature %v, classes %v after the update; want %v, %v", u.Params.Temperature, u.Classes, a.Params.Temperature, a.Classes)
			}
			r := nbtext(t, "", "info", mu)
			if !strings.Contains(r.out, "update  +300 documents, 630 in all (2026-09-21T14:13:20Z) from "+pb+" + replay "+pr) {
				t.Errorf("info does not show the update:\n%s", r.out)
			}
			m1 := filepath.Join(dir, kind+"-1.nbm")
			check(t, nbtext(t, "", "update", ma, pb, "--replay", pr, "--epochs", "1", "-o", m1), 0)
			if slices.Equal(loadModel(t, m1).W, u.W) {
				t.Errorf("--epochs 1 gives the model of the model's %d epochs", a.Params.Epochs)
			}
			// A new class is added: its documents teach it from zero
			// weights over the old vocabulary, and the old classes stay.
			// Its words are in that vocabulary (on old documents of every
			// class, as noise): a linear update ignores terms it lacks.
			var noisy strings.Builder
			for i, line := range strings.Split(strings.TrimSuffix(old, "\n"), "\n") {
				fmt.Fprintf(&noisy, "%s wine%d\n", line, i%30)
			}
			mw, mc := filepath.Join(dir, kind+"-w.nbm"), filepath.Join(dir, kind+"-c.nbm")
			check(t, nbtext(t, "", "train", writeFile(t, dir, "aw.tsv", noisy.String()), "--model", kind, "-o", mw), 0)
			check(t, nbtext(t, "", "update", mw, pc, "--replay", pr, "-o", mc), 0)
			w, c := loadModel(t, mw), loadModel(t, mc)
			if !slices.Equal(c.Classes, append(slices.Clone(w.Classes), "wine")) {
				t.Errorf("classes after an update with a new class: %v, want %v then wine", c.Classes, w.Classes)
			}
			pw := writeFile(t, dir, "w.tsv", synthTSV(7, 60, []string{"wine"}, 0))
			if acc := accuracy(t, mc, pw); acc < 0.8 {
				t.Errorf("accuracy %.3f on held-out documents of the new class", acc)
			}
			if acc := accuracy(t, mc, pr); acc < 0.8 {
				t.Errorf("accuracy %.3f on old documents after adding a class", acc)
			}
			if r := nbtext(t, "", "info", mc); !strings.Contains(r.out, "new classes: wine") {
				t.Errorf("info does not show the class the update added:\n%s", r.out)
			}
		})
	}
}

// TestUpdate20News: on four groups of 20 Newsgroups, update of a model of
// the train split with the test split is, byte for byte, the model trained
// on both splits, and forgetting the test split gives back the model of
// the train split, counts included.
func TestUpdate20News(t *testing.T) {
	tarball := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if tarball == "" {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set: no 20 Newsgroups archive to read")
	}
	isolate(t)
	dir := t.TempDir()
	groups := []string{"alt.atheism", "comp.graphics", "sci.space", "talk.religion.misc"}
	// Both splits as one folder tree, label/split-id: what train reads
	// as the union.
	both := filepath.Join(dir, "both")
	for _, split := range []string{"train", "test"} {
		c, err := corpus.Read(tarball, corpus.Options{Split: split, Classes: groups})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range c.Docs {
			writeFile(t, both, filepath.Join(d.Label, split+"-"+filepath.Base(d.ID)), d.Text)
		}
	}
	flags := []string{"--model", "multinomial", "--weighting", "count", "--norm", "none", "--classes", strings.Join(groups, ",")}
	mt, mb, mu, mf := filepath.Join(dir, "train.nbm"), filepath.Join(dir, "both.nbm"), filepath.Join(dir, "u.nbm"), filepath.Join(dir, "f.nbm")
	check(t, nbtext(t, "", append([]string{"train", tarball, "--split", "train", "--keep-counts", "-o", mt}, flags...)...), 0)
	check(t, nbtext(t, "", append([]string{"train", both, "-o", mb}, flags...)...), 0)
	classes := "--classes=" + strings.Join(groups, ",")
	check(t, nbtext(t, "", "update", mt, tarball, "--split", "test", classes, "--no-history", "-o", mu), 0)
	sameFile(t, mu, mb)
	check(t, nbtext(t, "", "forget", mu, tarball, "--split", "test", classes, "--no-history", "-o", mf), 0)
	sameFile(t, mf, mt)
	sameFile(t, filepath.Join(dir, "f.nbc"), filepath.Join(dir, "train.nbc"))
}

// evalOf returns the accuracy and log-loss of model m on corpus c.
func evalOf(t *testing.T, m, c string) (acc, logLoss float64) {
	t.Helper()
	r := nbtext(t, "", "eval", "-m", m, c, "--format", "json")
	check(t, r, 0)
	var e struct {
		Accuracy float64
		LogLoss  float64 `json:"log_loss"`
	}
	if err := json.Unmarshal([]byte(r.out), &e); err != nil {
		t.Fatal(err)
	}
	return e.Accuracy, e.LogLoss
}

// TestUpdateTfidfApprox: a tf-idf model's update is approximate: its
// vocabulary is the union's, its scores close to the union's; without
// the l2 norm, the rescaled sums give the union's decisions; forget of
// the update gives back the model's decisions.
func TestUpdateTfidfApprox(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	a := synthTSV(1, 300, []string{"sport", "tech"}, 0)
	b := synthTSV(2, 200, []string{"food", "sport", "tech"}, 3)
	pa := writeFile(t, dir, "a.tsv", a)
	pb := writeFile(t, dir, "b.tsv", b)
	pab := writeFile(t, dir, "ab.tsv", a+b)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"l2", []string{"--model", "multinomial"}},
		{"none", []string{"--model", "complement", "--norm", "none", "--temperature", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := filepath.Join(dir, tc.name)
			os.Mkdir(d, 0o755)
			ma, mab, mu, mf := filepath.Join(d, "a.nbm"), filepath.Join(d, "ab.nbm"), filepath.Join(d, "u.nbm"), filepath.Join(d, "f.nbm")
			check(t, nbtext(t, "", append([]string{"train", pa, "--keep-counts", "-o", ma}, tc.args...)...), 0)
			check(t, nbtext(t, "", append([]string{"train", pab, "-o", mab}, tc.args...)...), 0)
			check(t, nbtext(t, "", "update", ma, pb, "-o", mu), 0, "rescaled, not recomputed")
			terms := func(m string) int {
				var info struct{ Terms int }
				json.Unmarshal([]byte(nbtext(t, "", "info", m, "--format", "json").out), &info)
				return info.Terms
			}
			if terms(mu) != terms(mab) {
				t.Errorf("vocabulary of %d terms, the union's has %d", terms(mu), terms(mab))
			}
			accU, llU := evalOf(t, mu, pab)
			accAB, llAB := evalOf(t, mab, pab)
			t.Logf("on A+B: update %.4f / %.4f, union %.4f / %.4f", accU, llU, accAB, llAB)
			if accU < accAB-0.01 || llU > llAB*1.1+0.01 {
				t.Errorf("update: accuracy %.4f, log-loss %.4f; the union's %.4f, %.4f", accU, llU, accAB, llAB)
			}
			check(t, nbtext(t, "", "forget", mu, pb, "-o", mf), 0)
			accF, _ := evalOf(t, mf, pa)
			accA, _ := evalOf(t, ma, pa)
			if accF != accA {
				t.Errorf("forget: accuracy %.4f on A, the model of A %.4f", accF, accA)
			}
		})
	}
}
