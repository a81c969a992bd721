package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
)

// TestMain runs the tests on Prism, in a temporary folder of their own
// (ownTempDir), as main runs the command.
func TestMain(m *testing.M) {
	os.Exit(ownTempDir(func() int { return ptest.MainRetWithDefault(m, "prism") }))
}

// parse parses args as nbtext-beam's own flags.
func parse(t *testing.T, args ...string) (*options, *flag.FlagSet) {
	t.Helper()
	var o options
	fs := flag.NewFlagSet("nbtext-beam", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.addFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &o, fs
}

func TestConfigFlags(t *testing.T) {
	o, fs := parse(t, "-o", "c.nbc", "--model", "bernoulli", "--alpha", "0.5", "--model-out", "m.nbm", "--settings", `{"min_df":1}`, "--partitions", "8", "in/*.tsv")
	c, err := o.config(fs.Args(), fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != model.Bernoulli || c.Params.Alpha != 0.5 || c.Params.Beta != 0.5 || c.Settings.MinDF != 1 || c.Partitions != 8 || c.Inputs[0] != "in/*.tsv" {
		t.Errorf("config %+v", c)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", "c.nbc"}, "no input pattern"},
		{[]string{"x.tsv"}, "no output"},
		{[]string{"-o", "c.nbc", "--model", "logreg", "x.tsv"}, "--model must be"},
		{[]string{"-o", "c.nbc", "--partitions", "5000", "x.tsv"}, "--partitions"},
		{[]string{"-o", "c.nbc", "--vocab", "r1.nbc", "--remove", "headers", "x.tsv"}, "--remove is not allowed with --vocab"},
		{[]string{"-o", "c.nbc", "--alpha", "1", "x.tsv"}, "give --model-out"},
		{[]string{"-o", "c.nbc", "--model-out", "m.nbm", "--alpha", "-1", "x.tsv"}, "--alpha must be"},
		{[]string{"-o", "c.nbc", "--input-format", "xml", "x.tsv"}, "input format"},
	} {
		o, fs := parse(t, tc.args...)
		if _, err := o.config(fs.Args(), fs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one with %q", tc.args, err, tc.want)
		}
	}
}

// TestRun: the command counts on Prism, prints what it wrote, and exits 2
// on a usage error.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "x.tsv")
	if err := os.WriteFile(in, []byte("sport\tball goal team\ncars\tengine wheel road\nsport\tmatch score ball\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, mout := filepath.Join(dir, "c.nbc"), filepath.Join(dir, "m.nbm")
	o, fs := parse(t, "-o", out, "--model-out", mout, "--settings", `{"min_df":1}`, in)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), o, fs, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"(round 1)", "c.nbc (round 2)", "documents    3", "classes      2", "multinomial -> " + mout} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	c, err := counts.ReadFile(out)
	if err != nil || !c.Weighted() {
		t.Errorf("%s: %v, want round-two counts", out, err)
	}
	if _, err := model.Load(mout); err != nil {
		t.Error(err)
	}
	o, fs = parse(t, "-o", out)
	if code := run(context.Background(), o, fs, &stdout, &stderr); code != exitUsage {
		t.Errorf("no pattern: exit %d, want %d", code, exitUsage)
	}
}

// TestRunLeavesNoTemporaryFiles: a run on Prism, as main makes it, leaves
// the temporary folder as it found it (the SDK's loopback worker file
// included), and restores TMPDIR.
func TestRunLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	in := filepath.Join(dir, "x.tsv")
	if err := os.WriteFile(in, []byte("sport\tball goal team\ncars\tengine wheel road\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, fs := parse(t, "-o", filepath.Join(dir, "c.nbc"), "--model-out", filepath.Join(dir, "m.nbm"), "--settings", `{"min_df":1}`, in)
	var stdout, stderr bytes.Buffer
	if code := ownTempDir(func() int { return run(context.Background(), o, fs, &stdout, &stderr) }); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got := os.Getenv("TMPDIR"); got != tmp {
		t.Errorf("TMPDIR is %q after the run, want %q", got, tmp)
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind in the temporary folder: %s", e.Name())
	}
}

// TestRunRefusesOutputOverInput: -o, --model-out and --round1-out that
// name an input file (also through a pattern or a hard link), and a file
// matched by two patterns, are usage errors before any work, and every
// input keeps its bytes (issue 28, items 1 and 9).
func TestRunRefusesOutputOverInput(t *testing.T) {
	dir := t.TempDir()
	text := []byte("sport\tball goal team\ncars\tengine wheel road\n")
	a, b := filepath.Join(dir, "a.tsv"), filepath.Join(dir, "ab.tsv")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(dir, "hard.tsv")
	if err := os.Link(a, hard); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c.nbc")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", a, a}, "-o " + a + ": would replace an input"},
		{[]string{"-o", b, filepath.Join(dir, "a*.tsv")}, "would replace an input"},
		{[]string{"-o", hard, a}, "it is the same file as " + a},
		{[]string{"-o", c, "--model-out", a, a}, "--model-out " + a + ": would replace an input"},
		{[]string{"-o", c, "--model-out", filepath.Join(dir, "m.nbm"), "--round1-out", b, a, b}, "--round1-out " + b},
		{[]string{"-o", c, "--model-out", c, a}, "the same file as -o"},
		{[]string{"-o", c, a, filepath.Join(dir, "a*.tsv")}, "counted twice"},
		{[]string{"-o", c, a, hard}, "counted twice"},
	} {
		o, fs := parse(t, tc.args...)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), o, fs, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tc.args, code, stderr.String(), exitUsage, tc.want)
		}
		for _, f := range []string{a, b} {
			if got, err := os.ReadFile(f); err != nil || !bytes.Equal(got, text) {
				t.Fatalf("%q: %s changed", tc.args, f)
			}
		}
		if _, err := os.Stat(c); err == nil {
			t.Fatalf("%q: %s written", tc.args, c)
		}
	}
}
