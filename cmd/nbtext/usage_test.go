package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/train"
)

// TestUsageCases is the table of the smaller command-line defects: each
// row failed (wrong exit code, raw or misleading message, silence) before.
func TestUsageCases(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	model := savePredictModel(t, dir)
	flat := filepath.Join(dir, "flat")
	writeFile(t, flat, "crypt/1.txt", "pgp keys")
	writeFile(t, flat, "graphics/1.txt", "opengl polygons")
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.nbm")
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		err   []string
	}{
		{"temperature -1", "", []string{"train", tsv, "-o", out, "--temperature", "-1"}, 2, []string{"--temperature must be in"}},
		{"eval --cv temperature -1", "", []string{"eval", tsv, "--cv", "2", "--model", "bernoulli", "--temperature", "-1"}, 2, []string{"--temperature must be in"}},
		{"compare duplicate models", "", []string{"compare", tsv, "--models", "multinomial,bernoulli,multinomial"}, 2, []string{"--models names multinomial twice"}},
		{"compare seed -1", "", []string{"compare", tsv, "--seed", "-1"}, 2, []string{"--seed must be ≥ 0, got -1"}},
		{"compare flat folder", "", []string{"compare", flat}, 1, []string{"--test", "nbtext compare TRAIN --test TEST"}},
		{"compare --test without TRAIN", "", []string{"compare", "--test", tsv}, 2, []string{"--test needs the training corpus"}},
		{"compare stdin twice", "", []string{"compare", "-", "--test", "-"}, 2, []string{"cannot both be standard input"}},
		{"eval --alpha without --cv", "", []string{"eval", "-m", model, tsv, "--alpha", "0.5"}, 2, []string{"--alpha: a training setting, used only with --cv"}},
		{"eval two training flags", "", []string{"eval", "-m", model, tsv, "--min-df", "2", "--weighting", "count"}, 2, []string{"--min-df, --weighting: training settings"}},
		{"train --from-counts with record fields", "", []string{"train", "--from-counts", filepath.Join(dir, "none.nbc"), "--categorical-field", "product", "-o", out}, 2, []string{"--from-counts fits text only: record fields"}},
		{"predict empty folder", "", []string{"predict", "-m", model, empty}, 1, []string{"no documents found in " + empty}},
		{"predict file then empty folder", "", []string{"predict", "-m", model, tsv, empty}, 1, []string{"no documents found in " + empty + " (the other arguments were answered)"}},
		{"predict empty folder then folder", "", []string{"predict", "-m", model, empty, flat}, 1, []string{"no documents found in " + empty + " (the other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := nbtext(t, tt.stdin, tt.args...)
			check(t, r, tt.code, tt.err...)
			if strings.Contains(r.err, "strconv.") {
				t.Errorf("raw parse error: %s", r.err)
			}
		})
	}
	// compare cannot read a tree without --split, so it must not advise it
	// (issue 12, item 17); a folder of files alone is not called a folder
	// holding "only nothing".
	files := filepath.Join(dir, "files")
	writeFile(t, files, "1.txt", "pgp keys")
	for arg, want := range map[string]string{flat: "holds no train/test folders, only crypt, graphics", files: "holds no folders at all, only files"} {
		r := nbtext(t, "", "compare", arg)
		check(t, r, 1, want, "--test")
		if strings.Contains(r.err, "without --split") || strings.Contains(r.err, "only nothing") {
			t.Errorf("compare %s: %s", arg, r.err)
		}
	}
	// Training flags from the environment or a config file are meant for
	// train and eval --cv: plain eval ignores them.
	t.Setenv("NBTEXT_ALPHA", "0.5")
	check(t, nbtext(t, "", "eval", "-m", model, tsv), 0)
}

// TestEvalRefusesForeignCorpus checks that eval fails (exit 1, no report)
// when no label of the corpus is a class of the model, instead of
// reporting accuracy 0 with exit 0.
func TestEvalRefusesForeignCorpus(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	model := savePredictModel(t, dir)
	pn := writeFile(t, dir, "pn.tsv", "pos\tgreat fun\nneg\tawful boring\npos\tpgp\n")
	r := nbtext(t, "", "eval", "-m", model, pn)
	check(t, r, 1, "none of the 3 documents of "+pn+" has a label the model knows", "labels neg, pos")
	if r.out != "" {
		t.Errorf("a report was printed: %q", r.out)
	}
	// One known label is enough: the others are reported as unknown.
	mixed := writeFile(t, dir, "mixed.tsv", "pos\tgreat fun\ncrypt\tpgp keys\n")
	check(t, nbtext(t, "", "eval", "-m", model, mixed), 0, "labels the model does not know")
}

// TestDefaultCorpusNotice checks that a command given "20news" says,
// once, which cached corpus it reads, that no corpus argument, or an
// empty one, is a usage error saying how to name one (never the cached
// corpus in silence), and that eval of a model of other labels on the
// cached corpus is refused.
func TestDefaultCorpusNotice(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	archive := newsArchive(t, dir)
	t.Setenv("NBTEXT_20NEWS_TARBALL", archive)
	notice := "20news: reading the %s of the cached 20 Newsgroups archive " + archive
	m := filepath.Join(dir, "m.nbm")
	for _, tt := range []struct {
		args  []string
		split string
	}{
		{[]string{"vocab", "20news", "--top", "2", "-q"}, "train split"},
		{[]string{"train", "20news", "-o", m, "-q"}, "train split"},
		{[]string{"eval", "-m", m, "20news"}, "test split"},
		{[]string{"compare", "20news", "--models", "multinomial", "--sizes", "10", "--repeats", "1", "-q"}, "train and test splits"},
	} {
		r := nbtext(t, "", tt.args...)
		check(t, r, 0, strings.Replace(notice, "%s", tt.split, 1))
		if n := strings.Count(r.err, "20news: reading"); n != 1 {
			t.Errorf("%v: %d notices: %q", tt.args, n, r.err)
		}
		// Without the argument, or with an empty one: a usage error.
		for _, corpus := range []string{"", "none"} {
			args := slices.DeleteFunc(slices.Clone(tt.args), func(a string) bool { return a == "20news" })
			want := "no corpus given: name a folder"
			if corpus == "" {
				args = append(args, "")
				want = "the corpus argument is empty (an unset variable?)"
			}
			r := nbtext(t, "", args...)
			check(t, r, exitUsage, want, "20news names the cached 20 Newsgroups archive")
			if r.out != "" {
				t.Errorf("%v: output %q", args, r.out)
			}
		}
	}
	check(t, nbtext(t, "", "count", "-o", filepath.Join(dir, "c.nbc")), exitUsage, "no corpus given")
	check(t, nbtext(t, "", "train", "--stream", "--model", "logreg", "-o", filepath.Join(dir, "s.nbm")), exitUsage, "no corpus given")
	pn := writeFile(t, dir, "pn.tsv", "pos\tgreat fun\nneg\tawful boring\n")
	if r := nbtext(t, "", "train", pn, "-o", filepath.Join(dir, "pn.nbm"), "-q"); r.code != 0 {
		t.Fatalf("train pn: %s", r.err)
	}
	r := nbtext(t, "", "eval", "-m", filepath.Join(dir, "pn.nbm"), "20news")
	check(t, r, 1, "20news: reading", "the cached 20 Newsgroups test split (20news) has a label the model knows")
}

// TestCompareOwnTestSet runs compare on a user's own pair of corpora,
// TRAIN --test TEST, and checks the notice for a size larger than the
// training set (before, silently clamped).
func TestCompareOwnTestSet(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	train := writeFile(t, dir, "train.tsv", toyTSV+toyTSV)
	test := writeFile(t, dir, "test.jsonl", `{"label":"crypt","text":"pgp cipher keys"}`+"\n"+`{"label":"graphics","text":"opengl textures"}`+"\n")
	csv := filepath.Join(dir, "runs.csv")
	r := nbtext(t, "", "compare", train, "--test", test, "--models", "multinomial,logreg", "--sizes", "4,100", "--repeats", "2", "--csv", csv)
	check(t, r, 0, "--sizes 100: more than the 12 training documents")
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	// Header, then 2 models × 2 sizes (4 and 12) × 2 repeats.
	if rows := strings.Count(strings.TrimSpace(string(b)), "\n"); rows != 8 {
		t.Errorf("%d rows in\n%s", rows, b)
	}
	if !strings.Contains(r.out, "multinomial") || !strings.Contains(r.out, "logreg") {
		t.Errorf("table:\n%s", r.out)
	}
	// Without a too-large size: no notice.
	r = nbtext(t, "", "compare", train, "--test", test, "--models", "multinomial", "--sizes", "4", "--repeats", "1", "-q")
	check(t, r, 0)
	if r.err != "" {
		t.Errorf("stderr %q", r.err)
	}
}

// TestTrainQuiet checks that --quiet silences train's summary.
func TestTrainQuiet(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	r := nbtext(t, "", "train", tsv, "-o", filepath.Join(dir, "m.nbm"), "-q", "--alpha", "auto", "--folds", "3")
	check(t, r, 0)
	if r.out != "" || r.err != "" {
		t.Errorf("train -q printed %q / %q", r.out, r.err)
	}
	if r = nbtext(t, "", "train", tsv, "-o", filepath.Join(dir, "m.nbm")); !strings.Contains(r.out, "train acc") {
		t.Errorf("train without -q: %q", r.out)
	}
}

// TestVocabStdoutLeavesNoFile checks that 'vocab -o -' writes to standard
// output and creates no file named '-' (one was committed as cmd/nbtext/-).
func TestVocabStdoutLeavesNoFile(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	t.Chdir(dir)
	r := nbtext(t, "", "vocab", tsv, "-o", "-", "-q")
	check(t, r, 0)
	if !strings.Contains(r.out, "term\tdf\tcf") {
		t.Errorf("stdout %q", r.out)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("vocab -o - created a file named '-'")
	}
}

// TestCompareFormatFlags checks that compare reads a user's pair of
// corpora in other key names and formats (before, it had no
// --label-field, --text-field or --input-format).
func TestCompareFormatFlags(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var train, test strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&train, `{"sentiment":"pos","review":"great fun film %d"}`+"\n", i)
		fmt.Fprintf(&train, `{"sentiment":"neg","review":"dull awful film %d"}`+"\n", i)
	}
	trainPath := writeFile(t, dir, "train.jsonl", train.String())
	test.WriteString(`{"sentiment":"pos","review":"great fun"}` + "\n" + `{"sentiment":"neg","review":"awful dull"}` + "\n")
	testPath := writeFile(t, dir, "test.data", test.String())
	r := nbtext(t, "", "compare", trainPath, "--test", testPath, "--input-format", "jsonl",
		"--label-field", "sentiment", "--text-field", "review", "--models", "multinomial", "--sizes", "6", "--repeats", "1", "--metric", "errors")
	check(t, r, 0)
	for _, want := range []string{"(neg, pos)", "2 test documents"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("table does not mention %q:\n%s", want, r.out)
		}
	}
}

// TestCompletion checks the values the shell completion offers for flags.
func TestCompletion(t *testing.T) {
	isolate(t)
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"train", "--model", ""}, []string{"bernoulli", "multinomial", "complement", "logreg", ":4"}},
		{[]string{"compare", "--models", ""}, []string{"bernoulli", "logreg"}},
		{[]string{"predict", "-m", ""}, []string{"nbm", ":8"}},
		{[]string{"eval", "-m", ""}, []string{"nbm", ":8"}},
		{[]string{"eval", "--cv", "5", "--model", ""}, []string{"complement", ":4"}},
		{[]string{"eval", "--format", ""}, []string{"table", "tsv", "json"}},
		{[]string{"predict", "--format", ""}, []string{"text", "tsv", "json"}},
		{[]string{"predict", "--input", ""}, []string{"lines", "doc", "jsonl", "nul"}},
		{[]string{"train", "--input-format", ""}, inputFormats},
		{[]string{"vocab", "--input-format", ""}, []string{"auto", "tsv"}},
		{[]string{"info", "--format", ""}, []string{"table", "json", ":4"}},
	} {
		r := nbtext(t, "", append([]string{"__complete"}, tt.args...)...)
		lines := strings.Split(strings.TrimSpace(r.out), "\n")
		for _, w := range tt.want {
			found := false
			for _, l := range lines {
				if strings.Split(l, "\t")[0] == w {
					found = true
				}
			}
			if !found {
				t.Errorf("%v: %q not offered:\n%s", tt.args, w, r.out)
			}
		}
	}
}

// TestManPages generates the man pages as 'make man' does.
func TestManPages(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	r := nbtext(t, "", "generate", "--man", dir)
	check(t, r, 0)
	for _, name := range []string{"nbtext.1", "nbtext-train.1", "nbtext-predict.1", "nbtext-eval.1", "nbtext-vocab.1", "nbtext-compare.1"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), ".nh\n.TH") && !strings.Contains(string(b), ".TH") {
			t.Errorf("%s is not a man page:\n%.200s", name, b)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "nbtext-train.1"))
	// Man pages print --flag=DEFAULT: the default model's, as in --help.
	settings, _ := train.Defaults(defaultKind)
	if want := fmt.Sprintf(`\fB--min-df\fP=%d`, settings.MinDF); !strings.Contains(string(b), want) {
		t.Errorf("train's man page lacks %s:\n%s", want, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "nbtext-generate.1")); err == nil {
		t.Error("the hidden generate command got a man page")
	}
}
