package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestEveryFloatFlagIsFinite checks, for every float flag of every command
// (found by walking the command tree, so a new flag is covered as soon as
// it exists), that NaN and ±Inf are usage errors from the command line, an
// NBTEXT_* variable and the config file alike, naming the flag and the
// source. Before, 'eval --min-accuracy nan' made a gate that never fails.
func TestEveryFloatFlagIsFinite(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	model := savePredictModel(t, dir)
	// Arguments that get each command past its own checks to the shared
	// ones; the shared checks run first, so nothing is read or written.
	base := map[string][]string{
		"vocab":   {tsv},
		"train":   {tsv, "-o", filepath.Join(dir, "m.nbm")},
		"predict": {"-m", model},
		"eval":    {"-m", model, tsv},
		"compare": {tsv},
	}
	n := 0
	for _, cmd := range newRootCmd(streams{}).Commands() {
		args, ok := base[cmd.Name()]
		if !ok {
			continue
		}
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "float64" {
				return
			}
			n++
			envName := "NBTEXT_" + strings.ToUpper(cmd.Name()+"_"+strings.ReplaceAll(f.Name, "-", "_"))
			for _, bad := range []string{"nan", "NaN", "inf", "-Inf", "+inf"} {
				name := cmd.Name() + " --" + f.Name + " " + bad
				t.Run(name, func(t *testing.T) {
					r := nbtext(t, "", append([]string{cmd.Name(), "--" + f.Name, bad}, args...)...)
					check(t, r, 2, "--"+f.Name+" must be a finite number")
				})
				t.Run(name+" env", func(t *testing.T) {
					t.Setenv(envName, bad)
					r := nbtext(t, "", append([]string{cmd.Name()}, args...)...)
					check(t, r, 2, envName, "--"+f.Name+" must be a finite number")
				})
			}
			t.Run(cmd.Name()+" --"+f.Name+" config .nan", func(t *testing.T) {
				cfg := writeFile(t, t.TempDir(), "c.yaml", fmt.Sprintf("%s:\n  %s: .nan\n", cmd.Name(), f.Name))
				r := nbtext(t, "", append([]string{cmd.Name(), "--config", cfg}, args...)...)
				check(t, r, 2, cfg, "--"+f.Name+" must be a finite number")
			})
		})
	}
	if n < 8 {
		t.Fatalf("found %d float flags; the walk missed some", n)
	}
}

// TestFloatStringFlagsAreFinite covers the flags that take a number or a
// word (--alpha auto, --C auto, --prior label=p): NaN and Inf are usage
// errors there too.
func TestFloatStringFlagsAreFinite(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	out := filepath.Join(dir, "m.nbm")
	for _, args := range [][]string{
		{"--alpha", "nan"},
		{"--alpha", "inf"},
		{"--model", "logreg", "--C", "NaN"},
		{"--model", "logreg", "--C", "+Inf"},
		{"--prior", "crypt=nan,graphics=0.5"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := nbtext(t, "", append([]string{"train", tsv, "-o", out, "-q"}, args...)...)
			check(t, r, 2, args[len(args)-2])
		})
	}
}

// TestWorkers checks that every command with --workers refuses a negative
// value alike (before, predict and compare accepted -1 and train and vocab
// refused it) and caps a huge one at workersPerCore × cores with a notice
// (before, --workers 100000 ran out of memory).
func TestWorkers(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	model := savePredictModel(t, dir)
	counted := filepath.Join(dir, "counted.nbm")
	check(t, nbtext(t, "", "train", tsv, "--weighting", "count", "--norm", "none", "--min-df", "1", "--keep-counts", "-q", "-o", counted), 0)
	one := writeFile(t, dir, "one.tsv", strings.SplitAfter(toyTSV, "\n")[0])
	runs := map[string][]string{
		"update":  {"update", counted, tsv, "-o", filepath.Join(dir, "u.nbm"), "-q"},
		"forget":  {"forget", counted, one, "-o", filepath.Join(dir, "f.nbm"), "-q"},
		"vocab":   {"vocab", tsv, "--top", "3"},
		"train":   {"train", tsv, "-o", filepath.Join(dir, "m.nbm"), "-q"},
		"count":   {"count", tsv, "-o", filepath.Join(dir, "p.nbc"), "-q"},
		"predict": {"predict", "-m", model},
		"eval":    {"eval", "-m", model, tsv},
		"compare": {"compare", tsv, "--test", tsv, "--models", "multinomial", "--repeats", "1", "--sizes", "2"},
	}
	for _, cmd := range newRootCmd(streams{}).Commands() {
		if cmd.Flags().Lookup("workers") == nil {
			continue
		}
		args, ok := runs[cmd.Name()]
		if !ok {
			t.Errorf("%s has --workers but no case here", cmd.Name())
			continue
		}
		t.Run(cmd.Name()+" -1", func(t *testing.T) {
			check(t, nbtext(t, "pgp keys\n", append(args, "--workers", "-1")...), 2, "--workers must be ≥ 0 (0: one per core), got -1")
		})
		t.Run(cmd.Name()+" env -1", func(t *testing.T) {
			t.Setenv("NBTEXT_WORKERS", "-1")
			check(t, nbtext(t, "pgp keys\n", args...), 2, "NBTEXT_WORKERS: --workers must be ≥ 0")
		})
		t.Run(cmd.Name()+" 100000", func(t *testing.T) {
			r := nbtext(t, "pgp keys\n", append(args, "--workers", "100000")...)
			want := fmt.Sprintf("--workers 100000 is more than %d per core: using %d", workersPerCore, workersPerCore*runtime.NumCPU())
			check(t, r, 0, want)
			if strings.Count(r.err, "--workers") != 1 {
				t.Errorf("want one notice, got %q", r.err)
			}
		})
	}
}

// TestNGramBound checks that an n-gram length above vectorize.MaxNGram is
// a usage error that says why (before, vocab --ngram 1,50 reached 6.7 GB).
func TestNGramBound(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	check(t, nbtext(t, "", "vocab", tsv, "--ngram", "1,50"), 2, "--ngram max must be ≤ 5, got 50", "grows with n")
	check(t, nbtext(t, "", "train", tsv, "--ngram", "6", "-o", filepath.Join(dir, "m.nbm")), 2, "--ngram max must be ≤ 5")
	if r := nbtext(t, "", "vocab", tsv, "--ngram", "1,5", "-q"); r.code != 0 {
		t.Fatalf("--ngram 1,5: exit %d: %s", r.code, r.err)
	}
}

// failWriter fails every write, as /dev/full does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("no space left on device") }

// TestFullStdout checks that output that cannot be written is a failure:
// before, 'vocab --top 5 > /dev/full' and train's summary to a full
// standard output exited 0.
func TestFullStdout(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	model := savePredictModel(t, dir)
	for _, args := range [][]string{
		{"vocab", tsv, "--top", "5"},
		{"vocab", tsv},
		{"train", tsv, "-o", filepath.Join(dir, "m.nbm")},
		{"eval", "-m", model, tsv},
		{"predict", "-m", model},
		{"--version"},
		{"train", "--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb strings.Builder
			code := run(t.Context(), args, streams{In: strings.NewReader("pgp keys\n"), Out: failWriter{}, Err: &errb})
			if code != exitError || !strings.Contains(errb.String(), "no space left on device") {
				t.Fatalf("exit %d, stderr %q; want exit 1 naming the write error", code, errb.String())
			}
		})
	}
	// --quiet: train prints nothing, so nothing fails.
	code := run(t.Context(), []string{"train", tsv, "-o", filepath.Join(dir, "q.nbm"), "-q"}, streams{In: strings.NewReader(""), Out: failWriter{}, Err: io.Discard})
	if code != 0 {
		t.Fatalf("train -q to a full stdout: exit %d, want 0 (it writes nothing there)", code)
	}
}
