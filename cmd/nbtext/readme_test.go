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

// outputMarker opens a README block whose content is the standard output
// of the command it names: <!-- output: nbtext ARGS --> on the line before
// a fenced block.
var outputMarker = regexp.MustCompile("(?m)^<!-- output: nbtext (.*) -->\n```[a-z]*\n((?s:.*?))```\n")

// TestREADMEOutputs runs the command of every README block marked
// <!-- output: nbtext ARGS --> and checks that the block is its standard
// output, so a figure in the README cannot drift from what the program
// prints. A command that reads the cached corpus (20news) needs
// NBTEXT_20NEWS_TARBALL (make test and CI set it); go test ./cmd/nbtext
// -run TestREADMEOutputs -update rewrites the blocks (make readme does).
func TestREADMEOutputs(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	blocks := outputMarker.FindAllStringSubmatchIndex(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("no <!-- output: nbtext ... --> block in the README")
	}
	isolate(t)
	updated, ran := readme, 0
	for i := len(blocks) - 1; i >= 0; i-- { // from the end: indices stay valid
		m := blocks[i]
		cmdline, want := readme[m[2]:m[3]], readme[m[4]:m[5]]
		args := strings.Fields(cmdline)
		if containsArg(args, cachedCorpus) && os.Getenv("NBTEXT_20NEWS_TARBALL") == "" {
			t.Logf("skipped (NBTEXT_20NEWS_TARBALL is not set): nbtext %s", cmdline)
			continue
		}
		ran++
		r := nbtext(t, "", args...)
		if r.code != 0 {
			t.Errorf("nbtext %s: exit %d: %s", cmdline, r.code, r.err)
			continue
		}
		if r.out == want {
			continue
		}
		if golden.Updating() {
			updated = updated[:m[4]] + r.out + updated[m[5]:]
			continue
		}
		t.Errorf("README block of 'nbtext %s' differs from its output (go test ./cmd/nbtext -run TestREADMEOutputs -update rewrites it):\n--- README\n%s--- output\n%s", cmdline, want, r.out)
	}
	if golden.Updating() && updated != readme {
		if err := os.WriteFile(readmePath, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if ran == 0 {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set: no README block could be checked")
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

// TestREADMEAll20Figure checks the README's figure for the learning curves
// on all 20 classes (nbtext compare 20news): the mean test error of
// logistic regression and multinomial NB with the whole training split.
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
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	want := "test error " + last[7] + "\nagainst " + last[4]
	if s := strings.Join(strings.Fields(string(b)), " "); !strings.Contains(s, strings.Join(strings.Fields(want), " ")) {
		t.Errorf("the README does not say %q (compare 20news):\n%s", want, r.out)
	}
}
