package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestTrainStreamLogReg: --stream --model logreg (whose buffer holds the
// whole toy corpus) writes the model in-memory SGD writes, from a file
// and from stdin; it refuses what needs the documents in memory.
func TestTrainStreamLogReg(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	mem, st, in := filepath.Join(dir, "mem.nbm"), filepath.Join(dir, "st.nbm"), filepath.Join(dir, "in.nbm")
	flags := []string{"--model", "logreg", "--solver", "sgd", "--min-df", "1", "--C", "10"}
	check(t, nbtext(t, "", append([]string{"train", tsv, "-o", mem}, flags...)...), 0)
	checkOut(t, nbtext(t, "", append([]string{"train", tsv, "--stream", "-o", st}, flags...)...), "(streamed)", "documents    6")
	checkOut(t, nbtext(t, toyTSV, append([]string{"train", "-", "--stream", "-o", in}, flags...)...), "(streamed)")
	a, b, c := readBytes(t, mem), readBytes(t, st), readBytes(t, in)
	if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Error("streamed logreg models differ from the in-memory one")
	}
	// A small buffer still trains.
	checkOut(t, nbtext(t, "", append([]string{"train", tsv, "--stream", "--stream-buffer", "2", "-o", st}, flags...)...), "(streamed)")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--model", "logreg", "--solver", "lbfgs", "-o", st), 2, "--solver sgd")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--model", "logreg", "--C", "auto", "-o", st), 2, "--C auto")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--model", "logreg", "--stream-buffer", "0", "-o", st), 2, "--stream-buffer must be")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--model", "logreg", "--multi-label", "-o", st), 2, "drop --multi-label")
	// stdin, spooled for the second pass, is named as stdin in errors.
	check(t, nbtext(t, "crypt\tpgp key\nno tab\n", "train", "-", "--stream", "--model", "logreg", "-o", st), 1, "stdin:2: missing tab")
	if ents, _ := filepath.Glob(filepath.Join(os.TempDir(), "nbtext-rows-*")); len(ents) > 0 {
		t.Logf("note: row caches of other processes in %s: %v", os.TempDir(), ents)
	}
}

// TestTrainStreamClassWeight: the streamed models take --class-weight
// (balanced by the class sizes of the rows they cached, or of the counts)
// and write the in-memory model; the weights change it. The NB models
// weigh their counts' sums, so counts and merges, which carry no weights,
// give the same model with --from-counts. Nearest centroid, which has no
// use for weights, refuses them.
func TestTrainStreamClassWeight(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	// 5 crypt, 3 graphics: balanced weights 0.8 and 1.33.
	corpus := toyTSV + "crypt\tclipper chip escrow\ncrypt\tpgp signatures and keys\n"
	tsv := writeFile(t, dir, "c.tsv", corpus)
	for _, kind := range []string{"logreg", "svm", "nblr"} {
		for _, cw := range []string{"balanced", "graphics=3"} {
			base := []string{"train", tsv, "--stream", "--model", kind, "--min-df", "1", "--temperature", "1", "--solver", "sgd"}
			if kind != "logreg" {
				base = base[:len(base)-2]
			}
			flags := append(base[3:len(base):len(base)], "--class-weight", cw)
			mem, st, in, plain := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-st.nbm"), filepath.Join(dir, kind+"-in.nbm"), filepath.Join(dir, kind+"-plain.nbm")
			check(t, nbtext(t, "", append([]string{"train", tsv, "-o", mem}, flags...)...), 0)
			checkOut(t, nbtext(t, "", append([]string{"train", tsv, "--stream", "-o", st}, flags...)...), "(streamed)")
			checkOut(t, nbtext(t, corpus, append([]string{"train", "-", "--stream", "-o", in}, flags...)...), "(streamed)")
			check(t, nbtext(t, "", append(base, "-o", plain)...), 0)
			a, b, c := readBytes(t, mem), readBytes(t, st), readBytes(t, in)
			if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
				t.Errorf("%s --class-weight %s: streamed models differ from the in-memory one", kind, cw)
			}
			if bytes.Equal(a, readBytes(t, plain)) {
				t.Errorf("%s --class-weight %s: the model is the one without class weights", kind, cw)
			}
		}
	}
	for _, kind := range []string{"multinomial", "bernoulli", "complement"} {
		for _, cw := range []string{"balanced", "graphics=3"} {
			flags := []string{"--model", kind, "--min-df", "1", "--temperature", "1", "--class-weight", cw}
			mem, st, in, fc, plain := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-st.nbm"), filepath.Join(dir, kind+"-in.nbm"), filepath.Join(dir, kind+"-fc.nbm"), filepath.Join(dir, kind+"-plain.nbm")
			mustRun(t, append([]string{"train", tsv, "-o", mem}, flags...)...)
			mustRun(t, append([]string{"train", tsv, "--stream", "-o", st}, flags...)...)
			check(t, nbtext(t, corpus, append([]string{"train", "-", "--stream", "-o", in}, flags...)...), 0)
			mustRun(t, "train", tsv, "--stream", "--model", kind, "--min-df", "1", "--temperature", "1", "-o", plain)
			// Counts in two shards, merged, fitted with the weights.
			r1 := countRounds(t, dir, tsv, kind)
			mustRun(t, "train", "--from-counts", r1, "--model", kind, "--temperature", "1", "--class-weight", cw, "-o", fc)
			sameModels(t, mem, st)
			sameModels(t, mem, in)
			sameModels(t, mem, fc)
			if bytes.Equal(modelW(t, mem), modelW(t, plain)) {
				t.Errorf("%s --class-weight %s: the model is the one without class weights", kind, cw)
			}
		}
	}
	x := filepath.Join(dir, "x.nbm")
	check(t, nbtext(t, "", "train", tsv, "--model", "centroid", "--class-weight", "balanced", "-o", x), 2, "nearest centroid has no class weights")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--model", "centroid", "--class-weight", "balanced", "-o", x), 2, "nearest centroid has no class weights")
}

// countRounds counts tsv in two shards with the settings of kind, in the
// rounds those settings need, merges them and returns the merged counts
// file a model is fitted from.
func countRounds(t *testing.T, dir, tsv, kind string) string {
	t.Helper()
	args := []string{"count", tsv, "--model", kind, "--min-df", "1", "-q"}
	out := ""
	for round := 1; round <= 2; round++ {
		var parts []string
		for i := 1; i <= 2; i++ {
			part := filepath.Join(dir, kind+"-r"+strconv.Itoa(round)+"-"+strconv.Itoa(i)+".nbc")
			mustRun(t, append(args, "--shard", strconv.Itoa(i)+"/2", "-o", part)...)
			parts = append(parts, part)
		}
		out = filepath.Join(dir, kind+"-r"+strconv.Itoa(round)+".nbc")
		mustRun(t, append(append([]string{"merge"}, parts...), "-o", out)...)
		if kind == "bernoulli" { // raw counts: one round
			break
		}
		args = []string{"count", tsv, "-q", "--vocab", out} // round two: its settings
	}
	return out
}

// modelW returns the bytes of the weights of the model file path.
func modelW(t *testing.T, path string) []byte {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, w := range m.W {
		b = strconv.AppendFloat(b, w, 'g', -1, 64)
	}
	return b
}

// logregVocab are the 'nbtext vocab' flags of logreg's default settings.
var logregVocab = []string{"--stop-words", "english", "--fields", "subject:2", "--weighting", "tfidf", "--sublinear-tf", "--norm", "l2"}

// TestParameterMixingCLI: shard-epochs with --init and merges of their
// models, as the README shows; --init refuses another vocabulary, its own
// output and vectorizer flags.
func TestParameterMixingCLI(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	lines := strings.SplitAfter(strings.TrimSpace(toyTSV), "\n")
	var sa, sb strings.Builder
	for i, l := range lines {
		if i%2 == 0 {
			sa.WriteString(l)
		} else {
			sb.WriteString(l)
		}
	}
	shards := []string{writeFile(t, dir, "a.tsv", sa.String()+"\n"), writeFile(t, dir, "b.tsv", sb.String()+"\n")}
	vocab := filepath.Join(dir, "v.tsv")
	check(t, nbtext(t, "", append([]string{"vocab", tsv, "-o", vocab}, logregVocab...)...), 0)
	w := filepath.Join(dir, "w.nbm")
	for round := 0; round < 3; round++ {
		var parts []string
		for k, sh := range shards {
			out := filepath.Join(dir, "part"+string(rune('0'+k))+".nbm")
			args := []string{"train", sh, "--model", "logreg", "--epochs", "1", "-o", out}
			if round == 0 {
				args = append(args, "--vocab", vocab)
			} else {
				args = append(args, "--init", w)
			}
			check(t, nbtext(t, "", args...), 0)
			parts = append(parts, out)
		}
		checkOut(t, nbtext(t, "", append([]string{"merge", "-o", w}, parts...)...), "2 models averaged", "documents    "+strconv.Itoa(len(lines)))
	}
	checkOut(t, nbtext(t, "", "eval", "-m", w, tsv), "accuracy")
	// Streamed shard-epochs start from the model too.
	checkOut(t, nbtext(t, "", "train", shards[0], "--stream", "--model", "logreg", "--epochs", "1", "--init", w, "-o", filepath.Join(dir, "s.nbm")), "(streamed)")

	other := filepath.Join(dir, "other.nbm")
	check(t, nbtext(t, "", "train", tsv, "--model", "logreg", "--min-df", "1", "--ngram", "1,2", "-o", other), 0)
	check(t, nbtext(t, "", "merge", w, other, "-o", filepath.Join(dir, "x.nbm")), 1, "different vectorizer settings")
	check(t, nbtext(t, "", "train", tsv, "--model", "logreg", "--init", w, "-o", w), 2)
	check(t, nbtext(t, "", "train", tsv, "--model", "logreg", "--init", w, "--min-df", "2", "-o", other), 2, "not allowed with --init")
	check(t, nbtext(t, "", "train", tsv, "--model", "multinomial", "--init", w, "-o", other), 2, "--init starts logistic regression")
	otherVocab := filepath.Join(dir, "v2.tsv")
	check(t, nbtext(t, "", append([]string{"vocab", shards[0], "-o", otherVocab}, logregVocab...)...), 0)
	check(t, nbtext(t, "", "train", tsv, "--model", "logreg", "--init", w, "--vocab", otherVocab, "-o", other), 2, "different vocabularies")
}

// checkOut asserts that an invocation succeeded and that stdout mentions
// each of want.
func checkOut(t *testing.T, r result, want ...string) {
	t.Helper()
	check(t, r, 0)
	for _, w := range want {
		if !strings.Contains(r.out, w) {
			t.Errorf("stdout %q does not mention %q", r.out, w)
		}
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
