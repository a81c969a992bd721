package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTrainStreamDual: --stream --model svm and nblr, whose buffer holds
// the whole toy corpus, write the model the in-memory fit writes at the
// same temperature, from a file and from stdin; small blocks train and are
// deterministic; bad input names its file and line and writes nothing; and
// what needs the documents in memory is refused.
func TestTrainStreamDual(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	for _, kind := range []string{"svm", "nblr"} {
		mem, st, in := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-st.nbm"), filepath.Join(dir, kind+"-in.nbm")
		flags := []string{"--model", kind, "--min-df", "1", "--temperature", "1"}
		check(t, nbtext(t, "", append([]string{"train", tsv, "-o", mem}, flags...)...), 0)
		checkOut(t, nbtext(t, "", append([]string{"train", tsv, "--stream", "-o", st}, flags...)...), "(streamed)", "documents    6", "temperature  1 (given)")
		checkOut(t, nbtext(t, toyTSV, append([]string{"train", "-", "--stream", "-o", in}, flags...)...), "(streamed)")
		a, b, c := readBytes(t, mem), readBytes(t, st), readBytes(t, in)
		if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Errorf("%s: streamed models differ from the in-memory one", kind)
		}
		// Blocks of two rows: the same model twice, which predicts.
		small := []string{"train", tsv, "--stream", "--model", kind, "--min-df", "1", "--stream-buffer", "2"}
		r := nbtext(t, "", append(small, "-o", st)...)
		checkOut(t, r, "(streamed)", "blocks       of 2 rows", "calibration needs the documents")
		checkOut(t, nbtext(t, "", append(small, "--workers", "1", "-o", in)...), "(streamed)")
		if !bytes.Equal(readBytes(t, st), readBytes(t, in)) {
			t.Errorf("%s: two streamed fits with blocks of 2 rows differ", kind)
		}
		checkOut(t, nbtext(t, "pgp cipher encryption key\n", "predict", "-m", st), "crypt")

		// Bad input: the file and line, exit 1, no model.
		bad := writeFile(t, dir, "bad.tsv", "crypt\tpgp key\ngraphics polygons without a tab\n")
		out := filepath.Join(dir, kind+"-bad.nbm")
		check(t, nbtext(t, "", "train", bad, "--stream", "--model", kind, "-o", out), 1, "bad.tsv:2:")
		check(t, nbtext(t, "crypt\tpgp key\nno tab\n", "train", "-", "--stream", "--model", kind, "-o", out), 1, "stdin:2:")
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: bad input left %s behind", kind, out)
		}

		check(t, nbtext(t, "", "train", tsv, "--stream", "--model", kind, "--C", "auto", "-o", st), 2, "--C auto")
		check(t, nbtext(t, "", "train", tsv, "--stream", "--model", kind, "--class-weight", "nosuch=2", "-o", st), 2, `--class-weight: unknown class "nosuch"`)
		check(t, nbtext(t, "", "train", tsv, "--stream", "--model", kind, "--stream-buffer", "0", "-o", st), 2, "--stream-buffer must be")
		check(t, nbtext(t, "", "train", tsv, "--stream", "--model", kind, "--multi-label", "-o", st), 2, "drop --multi-label")
		check(t, nbtext(t, "", "train", tsv, "--stream", "--model", kind, "--init", mem, "-o", st), 2, "--init starts logistic regression")
	}
}

// TestTrainStreamDual20Newsgroups: on 20 Newsgroups, the streamed SVM and
// NB-LR with the default buffer (one block) write the in-memory models at
// temperature 1, and with blocks of 1,000 rows they come within 0.5 points
// of their test accuracy.
func TestTrainStreamDual20Newsgroups(t *testing.T) {
	tb := realCorpus(t)
	if testing.Short() {
		t.Skip("-short: fits 20 Newsgroups six times")
	}
	isolate(t)
	dir := t.TempDir()
	for _, kind := range []string{"svm", "nblr"} {
		mem, one, blocks := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-one.nbm"), filepath.Join(dir, kind+"-blocks.nbm")
		flags := []string{tb, "--split", "train", "--model", kind, "--temperature", "1", "-q"}
		check(t, nbtext(t, "", append([]string{"train", "-o", mem}, flags...)...), 0)
		check(t, nbtext(t, "", append([]string{"train", "--stream", "-o", one}, flags...)...), 0)
		check(t, nbtext(t, "", append([]string{"train", "--stream", "--stream-buffer", "1000", "-o", blocks}, flags...)...), 0)
		if !bytes.Equal(readBytes(t, mem), readBytes(t, one)) {
			t.Errorf("%s: the streamed model of one block differs from the in-memory one", kind)
		}
		accMem, accBlocks := testAccuracy(t, mem, tb), testAccuracy(t, blocks, tb)
		t.Logf("%s: test accuracy %.4f in memory, %.4f streamed in blocks of 1,000 rows", kind, accMem, accBlocks)
		if accBlocks < accMem-0.005 {
			t.Errorf("%s: streamed in blocks, test accuracy %.4f, in memory %.4f", kind, accBlocks, accMem)
		}
	}
}

var accuracyLine = regexp.MustCompile(`accuracy\s+([0-9.]+)`)

// testAccuracy returns the accuracy 'nbtext eval' reports for model on
// the test split of the 20 Newsgroups archive tb.
func testAccuracy(t *testing.T, model, tb string) float64 {
	t.Helper()
	r := nbtext(t, "", "eval", "-m", model, tb, "--split", "test")
	check(t, r, 0)
	m := accuracyLine.FindStringSubmatch(r.out)
	if m == nil {
		t.Fatalf("eval printed no accuracy: %q", strings.SplitN(r.out, "\n", 4))
	}
	acc, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return acc
}
