//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The bad-input catalog: every command line nbtext must refuse, with its
// exit code and a fragment of its message, run against one folder of
// inputs that no case may change (nor add a file to). The slow cases
// (endless stdin, kill -9 during writes, millions of lines, fuzzing) are
// in scripts/stress.sh (make stress).

// catalogDir builds the folder the catalog runs in: a corpus, its
// vocabulary and model, damaged models, and paths that are not regular
// files.
func catalogDir(t *testing.T) string {
	t.Helper()
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	writeFile(t, dir, "corpus/crypt/1.txt", "pgp key encryption cipher")
	writeFile(t, dir, "corpus/graphics/1.txt", "polygons textures rendering")
	writeFile(t, dir, "one-class.tsv", "crypt\tpgp key\ncrypt\tcipher key\n")
	writeFile(t, dir, "no-tab.tsv", "crypt pgp key\n")
	writeFile(t, dir, "empty.tsv", "")
	writeFile(t, dir, "old.csv", "old csv\n")
	writeFile(t, dir, "old.png", "old png\n")
	for _, args := range [][]string{
		{"vocab", "-q", data, "-o", filepath.Join(dir, "v.tsv")},
		{"train", "-q", data, "-o", filepath.Join(dir, "m.nbm")},
	} {
		if r := nbtext(t, "", args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.err)
		}
	}
	m, err := os.ReadFile(filepath.Join(dir, "m.nbm"))
	if err != nil {
		t.Fatal(err)
	}
	// Damaged models: a flipped byte, a cut file, and valid checksums over
	// headers with a misspelt or a renamed key (same lengths, so only the
	// checksum needs redoing).
	flipped := bytes.Clone(m)
	flipped[len(flipped)/2] ^= 0x10
	writeFile(t, dir, "corrupt.nbm", string(flipped))
	writeFile(t, dir, "cut.nbm", string(m[:len(m)-40]))
	for name, edit := range map[string][2]string{
		"alhpa.nbm":  {`"alpha":`, `"alhpa":`},
		"paramz.nbm": {`"params":`, `"paramz":`},
	} {
		b := bytes.Replace(m[:len(m)-sha256.Size], []byte(edit[0]), []byte(edit[1]), 1)
		sum := sha256.Sum256(b)
		writeFile(t, dir, name, string(append(b, sum[:]...)))
	}
	if err := os.Link(data, filepath.Join(dir, "hard.tsv")); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"link.tsv": "data.tsv", "dangling.nbm": "nowhere", "dir-link": "corpus"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"fifo", "fifo2"} {
		if err := syscall.Mkfifo(filepath.Join(dir, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot describes every entry under dir: its type and mode, and the
// checksum of a regular file's content or a symlink's target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		}
		out[strings.TrimPrefix(p, dir)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBadInputCatalog(t *testing.T) {
	dir := catalogDir(t)
	before := snapshot(t, dir)
	devNull, err := os.Stat(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  string // split on spaces; $D is the catalog folder
		stdin string // "<" + a path: stdin is that file (e.g. /dev/zero)
		code  int
		msg   string
	}{
		// -o over an input, compared by device and inode (issue 12, item 7).
		{"train over its corpus", "train $D/data.tsv -o $D/data.tsv", "", exitUsage, "would replace an input: it is the same file as"},
		{"vocab over its corpus", "vocab $D/data.tsv -o $D/data.tsv", "", exitUsage, "would replace an input"},
		{"train over its --vocab", "train --vocab $D/v.tsv $D/data.tsv -o $D/v.tsv", "", exitUsage, "would replace an input"},
		{"train over a hard link of its corpus", "train $D/data.tsv -o $D/hard.tsv", "", exitUsage, "same file as " + "$D/data.tsv"},
		{"train from a symlink over its target", "train $D/link.tsv -o $D/data.tsv", "", exitUsage, "would replace an input"},
		{"train over a file of its corpus folder", "train $D/corpus -o $D/corpus/crypt/1.txt", "", exitUsage, "inside the input folder"},
		{"train over a file of a symlinked corpus folder", "train $D/dir-link -o $D/corpus/graphics/1.txt", "", exitUsage, "inside the input folder"},
		{"compare --csv over its corpus", "compare $D/data.tsv --csv $D/data.tsv", "", exitUsage, "would replace an input"},
		{"compare --csv and --plot one file", "compare $D/data.tsv --csv $D/x.png --plot $D/x.png", "", exitUsage, "the same file as the output"},
		// -o that is not a regular file (item 6).
		{"vocab -o a FIFO", "vocab $D/data.tsv -o $D/fifo", "", exitUsage, "not a regular file but a named pipe"},
		{"vocab -o a folder", "vocab $D/data.tsv -o $D/corpus", "", exitUsage, "not a regular file but a folder"},
		{"train -o a folder/", "train $D/data.tsv -o $D/corpus/", "", exitUsage, "but a folder"},
		{"vocab -o /dev/null", "vocab $D/data.tsv -o " + os.DevNull, "", exitUsage, "not a regular file but a character device"},
		{"train -o /dev/null", "train $D/data.tsv -o " + os.DevNull, "", exitUsage, "character device"},
		{"compare --plot a FIFO", "compare $D/data.tsv --plot $D/fifo", "", exitUsage, "--plot must end in .png or .svg"},
		{"train -o a dangling symlink", "train $D/data.tsv -o $D/dangling.nbm", "", exitUsage, "a symlink to a missing file"},
		// Damaged models (item 15 and the audit's damaged files).
		{"predict: misspelt alpha", "predict -m $D/alhpa.nbm", "pgp key\n", exitBadModel, `unknown field "alhpa"`},
		{"eval: misspelt alpha", "eval -m $D/alhpa.nbm $D/data.tsv", "", exitBadModel, "corrupt (header: "},
		{"predict: misspelt params", "predict -m $D/paramz.nbm", "pgp key\n", exitBadModel, `unknown field "paramz"`},
		{"predict: flipped byte", "predict -m $D/corrupt.nbm", "pgp key\n", exitBadModel, "checksum mismatch"},
		{"predict: cut file", "predict -m $D/cut.nbm", "pgp key\n", exitBadModel, "truncated"},
		{"predict: not a model", "predict -m $D/data.tsv", "pgp key\n", exitBadModel, "not an nbtext model file"},
		{"predict: missing model", "predict -m $D/none.nbm", "pgp key\n", exitBadModel, "no such file"},
		{"predict: model is a folder", "predict -m $D/corpus", "pgp key\n", exitBadModel, "$D/corpus"},
		{"eval: missing model", "eval -m $D/none.nbm $D/data.tsv", "", exitBadModel, "no such file"},
		// Corpora that cannot be trained on.
		{"train: missing corpus", "train $D/none.tsv -o $D/new.nbm", "", exitError, "none.tsv: no such file"},
		{"train: line without a tab", "train $D/no-tab.tsv -o $D/new.nbm", "", exitError, "no-tab.tsv:1: missing tab"},
		{"train: empty corpus", "train $D/empty.tsv -o $D/new.nbm", "", exitError, "no documents"},
		{"train: one class", "train $D/one-class.tsv --min-df 1 -o $D/new.nbm", "", exitError, "two classes"},
		{"vocab: empty stdin", "vocab - -o $D/new.tsv", "", exitError, "no documents"},
		// Flags.
		{"train without -o", "train $D/data.tsv", "", exitUsage, "-o MODEL is required"},
		{"train -o -", "train $D/data.tsv -o -", "", exitUsage, "not to stdout"},
		{"train: unknown model", "train $D/data.tsv --model svn -o $D/new.nbm", "", exitUsage, `unknown model "svn"`},
		{"train: --folds 1", "train $D/data.tsv --folds 1 -o $D/new.nbm", "", exitUsage, "--folds must be ≥ 2"},
		{"train: --workers -1", "train $D/data.tsv --workers -1 -o $D/new.nbm", "", exitUsage, "--workers must be ≥ 0"},
		{"train: --alpha abc", "train $D/data.tsv --alpha abc -o $D/new.nbm", "", exitUsage, "--alpha must be a finite number or auto"},
		{"train: --prior of an unknown class", "train $D/data.tsv --prior x=1 -o $D/new.nbm", "", exitUsage, `unknown class "x"`},
		{"train: --mem 0", "train $D/data.tsv --mem 0 -o $D/new.nbm", "", exitUsage, "--mem"},
		{"train: --mem in furlongs", "train $D/data.tsv --mem 3X -o $D/new.nbm", "", exitUsage, "--mem"},
		{"unknown flag", "train $D/data.tsv --alpah 1 -o $D/new.nbm", "", exitUsage, "unknown flag: --alpah"},
		{"missing config", "--config $D/none.yaml train $D/data.tsv -o $D/new.nbm", "", exitUsage, "none.yaml"},
		{"vocab --top -1", "vocab $D/data.tsv --top -1", "", exitUsage, "--top must be ≥ 0"},
		{"eval without -m", "eval $D/data.tsv", "", exitUsage, "-m MODEL is required"},
		{"eval --format xml", "eval -m $D/m.nbm $D/data.tsv --format xml", "", exitUsage, "--format must be"},
		{"eval --cv 1", "eval --cv 1 --model multinomial $D/data.tsv", "", exitUsage, "--cv must be ≥ 2"},
		{"predict without -m", "predict", "x\n", exitUsage, "-m MODEL is required"},
		{"compare --plot .txt", "compare $D/data.tsv --plot $D/x.txt", "", exitUsage, "--plot must end in .png or .svg"},
		{"compare: unknown model", "compare $D/data.tsv --models svn", "", exitUsage, "--models"},
		{"unknown command", "trian", "", exitUsage, "unknown command"},
		{"eval --min-accuracy nan", "eval -m $D/m.nbm $D/data.tsv --min-accuracy nan", "", exitUsage, "--min-accuracy must be a finite number"},
		{"train --temperature -1", "train $D/data.tsv --temperature -1 -o $D/new.nbm", "", exitUsage, "--temperature must be in"},
		{"vocab --ngram 1,50", "vocab $D/data.tsv --ngram 1,50", "", exitUsage, "--ngram max must be ≤ 5"},
		{"predict --workers -1", "predict -m $D/m.nbm --workers -1", "x\n", exitUsage, "--workers must be ≥ 0"},
		{"compare --seed -1", "compare $D/data.tsv --seed -1", "", exitUsage, "--seed must be ≥ 0"},
		{"vocab: NUL bytes on stdin", "vocab -", strings.Repeat("\x00", 1<<16), exitError, "stdin:1: NUL byte"},
		// Endless input (items 1-2): predict stops within 64 MiB past
		// --max-doc-bytes (kept small so each case reads about 64 MiB), and
		// refuses a device given as a FILE argument before reading it.
		{"predict: endless stdin", "predict -m $D/m.nbm --max-doc-bytes 4096", "</dev/zero", exitError, "stdin:1: no end of the document"},
		{"predict: endless stdin, jsonl", "predict -m $D/m.nbm --input jsonl --max-doc-bytes 4096", "</dev/zero", exitError, "stdin:1: no end of the document"},
		{"predict: endless stdin, one document", "predict -m $D/m.nbm --input doc --max-doc-bytes 4096", "</dev/zero", exitError, "stdin"},
		{"predict: /dev/zero as a FILE", "predict -m $D/m.nbm /dev/zero", "", exitError, "/dev/zero: not a regular file (a character device)"},
		{"vocab: endless stdin", "vocab - --max-doc-bytes 4096", "</dev/zero", exitError, "stdin:1: "},
		{"vocab: /dev/zero as a corpus", "vocab /dev/zero", "", exitError, "/dev/zero: not a regular file"},
		// A named pipe where a model, counts or a vocabulary is read is
		// refused, not waited on forever (issue 28, item 12).
		{"predict -m a FIFO", "predict -m $D/fifo", "x\n", exitBadModel, "$D/fifo: not a regular file (a named pipe)"},
		{"train --from-counts a FIFO", "train --from-counts $D/fifo -o $D/new.nbm", "", exitError, "$D/fifo: not a regular file (a named pipe)"},
		{"merge a FIFO", "merge $D/fifo $D/fifo2 -o $D/new.nbc", "", exitError, "$D/fifo: not a regular file (a named pipe)"},
		{"train --vocab a FIFO", "train --vocab $D/fifo $D/data.tsv -o $D/new.nbm", "", exitError, "$D/fifo: not a regular file (a named pipe)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := strings.Fields(strings.ReplaceAll(c.args, "$D", dir))
			r := nbtextBounded(t, c.stdin, 30*time.Second, args...)
			check(t, r, c.code, strings.ReplaceAll(c.msg, "$D", dir))
			after := snapshot(t, dir)
			for name, desc := range after {
				if before[name] != desc {
					t.Errorf("%s: %s became %q (was %q)", strings.Join(args, " "), name, desc, before[name])
				}
			}
			for name := range before {
				if _, ok := after[name]; !ok {
					t.Errorf("%s: %s removed", strings.Join(args, " "), name)
				}
			}
		})
	}
	if fi, err := os.Stat(os.DevNull); err != nil || !os.SameFile(fi, devNull) || fi.Mode() != devNull.Mode() {
		t.Errorf("%s changed: %v, %v", os.DevNull, fi.Mode(), err)
	}
}

// nbtextBounded runs nbtext as nbtext does, with stdin read from the file
// stdin names when it starts with "<" (a device such as /dev/zero gives
// endless input), and fails the test when the run takes longer than limit:
// a hang must fail the catalog, not stall it.
func nbtextBounded(t *testing.T, stdin string, limit time.Duration, args ...string) result {
	t.Helper()
	var in io.Reader = strings.NewReader(stdin)
	if path, ok := strings.CutPrefix(stdin, "<"); ok {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		in = f
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(ctx, args, streams{In: in, Out: &out, Err: &errb})
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Fatalf("%s: still running after %v", strings.Join(args, " "), limit)
		return result{}
	}
}

// TestOutputSymlinkWrittenThrough: -o naming a symlink to a regular file
// replaces the file it points to and keeps the link (issue 12, item 6).
func TestOutputSymlinkWrittenThrough(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	real := writeFile(t, dir, "models/real.nbm", "old")
	link := filepath.Join(dir, "m.nbm")
	if err := os.Symlink("models/real.nbm", link); err != nil {
		t.Fatal(err)
	}
	check(t, nbtext(t, "", "train", "-q", data, "-o", link), exitOK)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v", err)
	}
	b, err := os.ReadFile(real)
	if err != nil || string(b) == "old" {
		t.Fatalf("the symlink's target was not written: %q, %v", b[:min(len(b), 8)], err)
	}
	check(t, nbtext(t, "x\n", "predict", "-m", link), exitOK)
}

// TestOutputModes: outputs are created 0666 less the umask, and a
// replaced output keeps its mode (item 9).
func TestOutputModes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	m, v := filepath.Join(dir, "m.nbm"), filepath.Join(dir, "v.tsv")
	check(t, nbtext(t, "", "train", "-q", data, "-o", m), exitOK)
	check(t, nbtext(t, "", "vocab", "-q", data, "-o", v), exitOK)
	for _, p := range []string{m, v} {
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v under umask 077, want 0600", p, fi.Mode().Perm())
		}
		if err := os.Chmod(p, 0o664); err != nil {
			t.Fatal(err)
		}
	}
	check(t, nbtext(t, "", "train", "-q", data, "-o", m), exitOK)
	check(t, nbtext(t, "", "vocab", "-q", data, "-o", v), exitOK)
	for _, p := range []string{m, v} {
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o664 {
			t.Errorf("%s: replaced file has mode %v, want its 0664 kept", p, fi.Mode().Perm())
		}
	}
}

// TestTrainRemovesStaleTemps: a temporary file left by a writer that died
// (kill -9) is removed by the next successful train to the same output;
// another output's is not (item 8).
func TestTrainRemovesStaleTemps(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	dead := strconv.Itoa(c.Process.Pid)
	stale := writeFile(t, dir, ".m.nbm.tmp-"+dead+"-1", "partial model")
	other := writeFile(t, dir, ".other.nbm.tmp-"+dead+"-1", "partial model")
	check(t, nbtext(t, "", "train", "-q", data, "-o", filepath.Join(dir, "m.nbm")), exitOK)
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file of m.nbm left")
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("another output's temporary file removed")
	}
}

// TestModelBytesIgnoreSpelling: the same data, effective settings and seed
// give byte-identical models, whatever the output name, the corpus file's
// name, and how the flags were spelt (flags, = forms, environment) (item
// 16). os.Args is set as the process would see it.
func TestModelBytesIgnoreSpelling(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	copyOf := writeFile(t, dir, "sub/other-name.tsv", toyTSV)
	saved := os.Args
	defer func() { os.Args = saved }()
	var first []byte
	for i, c := range []struct {
		env  string
		args []string
	}{
		{"", []string{"train", "-q", data, "--model", "bernoulli", "--alpha", "0.5", "--seed", "1", "-o", "$O"}},
		{"", []string{"train", "--quiet", "--model=bernoulli", "--alpha=0.50", "--output=$O", copyOf}},
		{"0.5", []string{"train", "-q", "--model", "bernoulli", copyOf, "-o", "$O"}},
	} {
		if c.env != "" {
			t.Setenv("NBTEXT_TRAIN_ALPHA", c.env)
		}
		out := filepath.Join(dir, fmt.Sprintf("run%d", i), "model-"+strconv.Itoa(i)+".nbm")
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		args := make([]string, len(c.args))
		for j, a := range c.args {
			args[j] = strings.ReplaceAll(a, "$O", out)
		}
		os.Args = append([]string{"nbtext"}, args...)
		check(t, nbtext(t, "", args...), exitOK)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Errorf("run %d (%s): model bytes differ from run 0's", i, strings.Join(args, " "))
		}
	}
}
