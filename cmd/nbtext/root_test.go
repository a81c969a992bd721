package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
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
		{"bad fields", []string{"vocab", tsv, "--fields", "subject:x"}, 2, "--fields"},
		{"model to stdout", []string{"train", tsv, "-o", "-"}, 2, "-o -"},
		{"too many args", []string{"vocab", tsv, tsv}, 2, "accepts at most 1 arg"},
		{"unknown shorthand", []string{"vocab", tsv, "-Z"}, 2, "unknown shorthand flag"},
		{"flag without value", []string{"vocab", tsv, "--min-df"}, 2, "flag needs an argument"},
		{"bad bool", []string{"vocab", tsv, "--lowercase=maybe"}, 2, "invalid argument"},
		{"root unknown flag", []string{"--no-such-flag"}, 2, "unknown flag"},
		{"bad persistent flag", []string{"--quiet=maybe", "vocab", tsv}, 2, "invalid argument"},
		{"unknown command with flags", []string{"frobnicate", "-q"}, 2, "unknown command"},
		{"train too many args", []string{"train", tsv, tsv, "-o", filepath.Join(dir, "m")}, 2, "accepts at most 1 arg"},
		{"eval too many args", []string{"eval", "-m", filepath.Join(dir, "m"), tsv, tsv}, 2, "accepts at most 1 arg"},
		{"compare too many args", []string{"compare", tsv, tsv}, 2, "accepts at most 1 arg"},
		{"completion extra arg", []string{"completion", "bash", "extra"}, 2, "extra"},
		{"train --vocab with --min-df", []string{"train", tsv, "--vocab", filepath.Join(dir, "v.tsv"), "--min-df", "2", "-o", filepath.Join(dir, "m")}, 2, "--min-df is not allowed with --vocab"},
		{"missing corpus", []string{"vocab", filepath.Join(dir, "nope")}, 1, "nope"},
		{"tsv without tab", []string{"vocab", bad}, 1, "bad.tsv:2"},
		{"train without -o", []string{"train", tsv}, 2, "-o MODEL is required"},
		{"train bad model", []string{"train", tsv, "--model", "svn", "-o", filepath.Join(dir, "m")}, 2, "unknown model"},
		{"train bad alpha", []string{"train", tsv, "--alpha", "-1", "-o", filepath.Join(dir, "m")}, 2, "--alpha"},
		{"train bad C", []string{"train", tsv, "--model", "logreg", "--C", "0", "-o", filepath.Join(dir, "m")}, 2, "--C"},
		{"train bad prior", []string{"train", tsv, "--prior", "crypt", "-o", filepath.Join(dir, "m")}, 2, "--prior"},
		{"train bad class weight", []string{"train", tsv, "--class-weight", "nosuch=2", "-o", filepath.Join(dir, "m")}, 2, "--class-weight: unknown class"},
		{"train zero class weight", []string{"train", tsv, "--model", "svm", "--class-weight", "crypt=0", "-o", filepath.Join(dir, "m")}, 2, "--class-weight"},
		{"train bad l1 ratio", []string{"train", tsv, "--model", "logreg", "--penalty", "elasticnet", "--l1-ratio", "1.5", "-o", filepath.Join(dir, "m")}, 2, "--l1-ratio"},
		{"train bad interpolation", []string{"train", tsv, "--model", "nblr", "--interpolation", "2", "-o", filepath.Join(dir, "m")}, 2, "--interpolation"},
		{"train nblr alpha auto", []string{"train", tsv, "--model", "nblr", "--alpha", "auto", "-o", filepath.Join(dir, "m")}, 2, "--alpha auto"},
		{"train tiny temperature", []string{"train", tsv, "--temperature", "1e-40", "-o", filepath.Join(dir, "m")}, 2, "--temperature must be in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, nbtext(t, "", tt.args...), tt.code, tt.err)
		})
	}
}

// TestUsageErrorsTyped checks that cobra's flag and argument errors reach
// run as codedErrors with exit code 2 through cobra's hooks
// (SetFlagErrorFunc, typeArgErrors), not through isCobraUsageError's
// message matching, which only an unknown command still needs.
func TestUsageErrorsTyped(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	for _, args := range [][]string{
		{"--no-such-flag"},
		{"vocab", "--no-such-flag"},
		{"vocab", tsv, "-Z"},
		{"vocab", tsv, "--min-df", "x"},
		{"vocab", tsv, "--min-df"},
		{"--quiet=maybe", "vocab", tsv},
		{"vocab", tsv, tsv},
		{"train", tsv, tsv},
		{"eval", tsv, tsv},
		{"compare", tsv, tsv},
		{"completion", "bash", "extra"},
	} {
		root := newRootCmd(streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
		root.SetArgs(args)
		_, err := root.ExecuteC()
		var ce *codedError
		if !errors.As(err, &ce) || ce.code != exitUsage {
			t.Errorf("%q: error %v (%T), want a codedError with exit code %d", args, err, err, exitUsage)
		}
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
		if cmd.Name() == "completion" || cmd.Name() == "help" || cmd.Hidden {
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
