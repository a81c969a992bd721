package main

import (
	"github.com/spf13/pflag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExitCodes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	bad := writeFile(t, dir, "bad.tsv", "crypt\tok\nno tab here\n")
	tests := []struct {
		name string
		args []string
		code int
		err  string // substring of stderr
	}{
		{"version", []string{"--version"}, 0, ""},
		{"help", []string{"--help"}, 0, ""},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"unknown flag", []string{"vocab", "--no-such-flag"}, 2, "unknown flag"},
		{"bad int", []string{"vocab", tsv, "--min-df", "x"}, 2, "invalid argument"},
		{"bad min-df", []string{"vocab", tsv, "--min-df", "0"}, 2, "--min-df"},
		{"bad ngram", []string{"vocab", tsv, "--ngram", "2,1"}, 2, "--ngram"},
		{"bad split", []string{"vocab", tsv, "--split", "dev"}, 2, "--split must be train or test"},
		{"bad remove", []string{"vocab", tsv, "--remove", "sigs"}, 2, "--remove"},
		{"too many args", []string{"vocab", tsv, tsv}, 2, "accepts at most 1 arg"},
		{"missing corpus", []string{"vocab", filepath.Join(dir, "nope")}, 1, "nope"},
		{"tsv without tab", []string{"vocab", bad}, 1, "bad.tsv:2"},
		{"train without -o", []string{"train", tsv}, 2, "-o MODEL is required"},
		{"train bad model", []string{"train", tsv, "--model", "svm", "-o", filepath.Join(dir, "m")}, 2, "unknown model"},
		{"train bad alpha", []string{"train", tsv, "--alpha", "-1", "-o", filepath.Join(dir, "m")}, 2, "--alpha"},
		{"train bad C", []string{"train", tsv, "--model", "logreg", "--C", "0", "-o", filepath.Join(dir, "m")}, 2, "--C"},
		{"train bad prior", []string{"train", tsv, "--prior", "crypt", "-o", filepath.Join(dir, "m")}, 2, "--prior"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, nbtext(t, "", tt.args...), tt.code, tt.err)
		})
	}
}

func TestConfigPrecedence(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	cfg := writeFile(t, dir, "nbtext.yaml", "top: 3\nvocab:\n  min-df: 2\n")
	// Config file: top-level key and a key under the command's name.
	r := nbtext(t, "", "vocab", tsv, "--config", cfg, "-q")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if got := strings.Count(strings.TrimSpace(r.out), "\n"); got != 3 {
		t.Fatalf("--top 3 from the config file: got %d rows:\n%s", got, r.out)
	}
	// The command's own section applies: min-df 2 leaves no term of df 1.
	r = nbtext(t, "", "vocab", tsv, "--config", cfg, "-q", "--top", "100")
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n")[1:] {
		if f := strings.Fields(line); len(f) != 4 || f[2] == "1" {
			t.Fatalf("min-df 2 from the config file not applied: %q in\n%s", line, r.out)
		}
	}
	// Environment beats the config file; the flag beats both.
	t.Setenv("NBTEXT_TOP", "2")
	if r = nbtext(t, "", "vocab", tsv, "--config", cfg, "-q"); strings.Count(strings.TrimSpace(r.out), "\n") != 2 {
		t.Fatalf("NBTEXT_TOP=2 should beat the config file:\n%s", r.out)
	}
	t.Setenv("NBTEXT_VOCAB_TOP", "1")
	if r = nbtext(t, "", "vocab", tsv, "--config", cfg, "-q"); strings.Count(strings.TrimSpace(r.out), "\n") != 1 {
		t.Fatalf("NBTEXT_VOCAB_TOP=1 should beat NBTEXT_TOP:\n%s", r.out)
	}
	if r = nbtext(t, "", "vocab", tsv, "--config", cfg, "-q", "--top", "4"); strings.Count(strings.TrimSpace(r.out), "\n") != 4 {
		t.Fatalf("--top 4 should beat the environment:\n%s", r.out)
	}
	// A bad value names its source.
	t.Setenv("NBTEXT_VOCAB_TOP", "many")
	r = nbtext(t, "", "vocab", tsv, "-q")
	if r.code != 2 || !strings.Contains(r.err, `NBTEXT_VOCAB_TOP="many"`) {
		t.Fatalf("bad env value: exit %d, stderr %q", r.code, r.err)
	}
	os.Unsetenv("NBTEXT_VOCAB_TOP")
	os.Unsetenv("NBTEXT_TOP")
	badCfg := writeFile(t, dir, "bad.yaml", "min-df: lots\n")
	r = nbtext(t, "", "vocab", tsv, "--config", badCfg, "-q")
	if r.code != 2 || !strings.Contains(r.err, "bad.yaml") || !strings.Contains(r.err, "min-df") {
		t.Fatalf("bad config value: exit %d, stderr %q", r.code, r.err)
	}
	// A named config file that does not exist is an error.
	r = nbtext(t, "", "vocab", tsv, "--config", filepath.Join(dir, "missing.yaml"))
	if r.code != 2 || !strings.Contains(r.err, "missing.yaml") {
		t.Fatalf("missing config: exit %d, stderr %q", r.code, r.err)
	}
}

// TestConfigFileDocumentsEveryFlag keeps configs/nbtext.yaml in step with
// the commands: every flag of every command appears in it as a key.
func TestConfigFileDocumentsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../configs/nbtext.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	root := newRootCmd(streams{})
	for _, cmd := range root.Commands() {
		if cmd.Name() == "completion" || cmd.Name() == "help" {
			continue
		}
		if !strings.Contains(text, "\n"+cmd.Name()+":") && !strings.Contains(text, "# "+cmd.Name()+":") {
			t.Errorf("configs/nbtext.yaml has no section for %q", cmd.Name())
		}
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			if !strings.Contains(text, " "+f.Name+":") {
				t.Errorf("configs/nbtext.yaml does not document %s --%s", cmd.Name(), f.Name)
			}
		})
	}
}
