package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
)

// readmePath is the README, from the package's folder.
var readmePath = filepath.Join("..", "..", "README.md")

// outputMarker opens a block whose content is the standard output of the
// command it names: <!-- output: nbtext ARGS --> (or <!-- output: echo
// "TEXT" | nbtext ARGS -->, TEXT and a newline on standard input) on the
// line before a fenced block.
var outputMarker = regexp.MustCompile("(?m)^<!-- output: (.*) -->\n```[a-z]*\n((?s:.*?))```\n")

// volatileLine matches the lines of an output that differ from run to
// run (train's summary line "seconds 1.23"): they are compared by their
// first word only.
var volatileLine = regexp.MustCompile(`(?m)^(seconds)\b.*$`)

// outputDocs returns the README and every docs/*.md, from the package's
// folder: the files whose output blocks TestREADMEOutputs checks.
func outputDocs(t *testing.T) []string {
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{readmePath}, docs...)
}

// outputCommand splits the command of an output marker into nbtext's
// arguments and its standard input.
func outputCommand(cmdline string) (args []string, stdin string, ok bool) {
	if left, right, piped := strings.Cut(cmdline, " | nbtext "); piped {
		text, isEcho := strings.CutPrefix(left, "echo ")
		if !isEcho {
			return nil, "", false
		}
		text = strings.TrimSpace(text)
		if len(text) >= 2 && (text[0] == '"' || text[0] == '\'') && text[len(text)-1] == text[0] {
			text = text[1 : len(text)-1]
		}
		return strings.Fields(right), text + "\n", true
	}
	rest, ok := strings.CutPrefix(cmdline, "nbtext ")
	return strings.Fields(rest), "", ok
}

// TestREADMEOutputs runs the command of every block of the README and of
// docs/*.md marked <!-- output: nbtext ARGS --> and checks that the block
// is its standard output, so that an example in the documentation cannot
// drift from what the program prints. The blocks of one file run in
// order, in one empty folder (testdata/ of the repository linked into
// it), so that a block can use the model an earlier one wrote, as a
// reader copying them would. A command that reads the cached corpus
// (20news) needs NBTEXT_20NEWS_TARBALL (make test and CI set it); without
// it that block and the later ones of its file are skipped. go test
// ./cmd/nbtext -run TestREADMEOutputs -update rewrites the blocks (make
// readme does).
func TestREADMEOutputs(t *testing.T) {
	isolate(t)
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	paths := outputDocs(t)
	for i, p := range paths {
		if paths[i], err = filepath.Abs(p); err != nil {
			t.Fatal(err)
		}
	}
	blocks, ran := 0, 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		ms := outputMarker.FindAllStringSubmatchIndex(doc, -1)
		if len(ms) == 0 {
			continue
		}
		blocks += len(ms)
		dir := t.TempDir()
		if err := os.Symlink(testdata, filepath.Join(dir, "testdata")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		if path == paths[0] {
			name = "README.md"
		}
		outs := make([]*string, len(ms))
		for i, m := range ms {
			cmdline, want := doc[m[2]:m[3]], doc[m[4]:m[5]]
			args, stdin, ok := outputCommand(cmdline)
			if !ok {
				t.Errorf("%s: %q: an output block runs nbtext ARGS or echo TEXT | nbtext ARGS", name, cmdline)
				continue
			}
			if containsArg(args, cachedCorpus) && os.Getenv("NBTEXT_20NEWS_TARBALL") == "" {
				t.Logf("%s: skipped from here on (NBTEXT_20NEWS_TARBALL is not set): %s", name, cmdline)
				break
			}
			ran++
			r := nbtext(t, stdin, args...)
			if r.code != 0 {
				t.Errorf("%s: %s: exit %d: %s", name, cmdline, r.code, r.err)
				continue
			}
			mask := func(s string) string { return volatileLine.ReplaceAllString(s, "$1") }
			if mask(r.out) == mask(want) {
				continue
			}
			if golden.Updating() {
				outs[i] = &r.out
				continue
			}
			t.Errorf("%s: the block of '%s' differs from its output (make readme rewrites it):\n--- %s\n%s--- output\n%s", name, cmdline, name, want, r.out)
		}
		updated := doc
		for i := len(ms) - 1; i >= 0; i-- { // from the end: indices stay valid
			if outs[i] != nil {
				updated = updated[:ms[i][4]] + *outs[i] + updated[ms[i][5]:]
			}
		}
		if updated != doc {
			if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if blocks == 0 {
		t.Fatal("no <!-- output: nbtext ... --> block in the README or docs/")
	}
	if ran == 0 {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set: no output block could be checked")
	}
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// TestREADMEConfigError checks that the README's example of a bad value
// from the environment is what nbtext prints: the variable, then the
// reason.
func TestREADMEConfigError(t *testing.T) {
	isolate(t)
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "toy.tsv", toyTSV)
	for _, env := range [][2]string{{"NBTEXT_ALPHA", "x"}, {"NBTEXT_TRAIN_MIN_DF", "x"}} {
		t.Setenv(env[0], env[1])
		r := nbtext(t, "", "train", data, "-o", filepath.Join(dir, "m.nbm"))
		os.Unsetenv(env[0])
		check(t, r, exitUsage, env[0])
		line := strings.TrimPrefix(strings.SplitN(r.err, "\n", 2)[0], "nbtext: ")
		if !strings.Contains(string(b), "`"+line+"`") {
			t.Errorf("the README does not quote what %s=%s prints: `%s`", env[0], env[1], line)
		}
	}
}

// TestREADMEAll20Figure checks the figure of docs/evaluation.md for the
// learning curves on all 20 classes (nbtext compare 20news): the mean test
// error of logistic regression and multinomial NB with the whole training
// split.
// Minutes on a busy machine: make test-full runs it.
func TestREADMEAll20Figure(t *testing.T) {
	if testing.Short() {
		t.Skip("short: make test-full runs it")
	}
	if os.Getenv("NBTEXT_20NEWS_TARBALL") == "" {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set")
	}
	isolate(t)
	r := nbtext(t, "", "compare", cachedCorpus, "-q")
	check(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	var last []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "11314" {
			last = f
		}
	}
	// "11314  b ± s  m ± s  l ± s": the errors of bernoulli, multinomial, logreg.
	if len(last) != 10 {
		t.Fatalf("no row for the whole split in:\n%s", r.out)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "evaluation.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "test error " + last[7] + "\nagainst " + last[4]
	if s := strings.Join(strings.Fields(string(b)), " "); !strings.Contains(s, strings.Join(strings.Fields(want), " ")) {
		t.Errorf("docs/evaluation.md does not say %q (compare 20news):\n%s", want, r.out)
	}
}
