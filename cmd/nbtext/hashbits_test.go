package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestHashBitsUsage: a --hash-bits out of 1..28 is a usage error (exit 2)
// naming the range, in every command that takes vectorizer flags.
func TestHashBitsUsage(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	out := filepath.Join(dir, "x")
	for _, args := range [][]string{
		{"train", tsv, "--hash-bits", "29", "-o", out + ".nbm"},
		{"train", tsv, "--hash-bits", "-1", "-o", out + ".nbm"},
		{"train", tsv, "--stream", "--hash-bits", "40", "-o", out + ".nbm"},
		{"vocab", tsv, "--hash-bits", "29"},
		{"count", tsv, "--hash-bits", "29", "-o", out + ".nbc"},
		{"eval", "--cv", "2", "--model", "multinomial", tsv, "--hash-bits", "29"},
	} {
		t.Run(strings.Join(args[:4], " "), func(t *testing.T) {
			check(t, nbtext(t, "", args...), 2, "--hash-bits must be in 1..28")
		})
	}
	check(t, nbtext(t, "", "train", tsv, "--auto", "--hash-bits", "8", "-o", out+".nbm"), 2, "--hash-bits: --auto chooses")
}

// hashCorpus is a labelled corpus with enough words that 4 bits of
// hashing make many collisions.
func hashCorpus() string {
	return strings.Repeat(toyTSV, 2) +
		"crypt\tthe nsa and the clipper chip keys\n" +
		"graphics\tshading and rendering of images with opengl\n"
}

// TestHashBitsMatchesPrehashed: a model trained with --hash-bits predicts
// exactly what a model trained without it on the pre-hashed tokens (each
// term replaced by its bucket's digits) predicts on the pre-hashed test
// documents, for every model kind.
func TestHashBitsMatchesPrehashed(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := hashCorpus()
	test := "the cipher keys\nopengl textures and images\nunknown words only\npgp and gpu\n"
	for _, kind := range []string{"multinomial", "bernoulli", "complement", "logreg", "svm", "nblr", "centroid"} {
		t.Run(kind, func(t *testing.T) {
			hashed := filepath.Join(dir, kind+"-hashed.nbm")
			mustRun(t, "train", writeFile(t, dir, "c.tsv", corpus), "-q", "--model", kind, "--hash-bits", "4", "--min-df", "1", "-o", hashed)
			m, err := model.Load(hashed)
			if err != nil {
				t.Fatal(err)
			}
			s := m.Vocab.Settings
			if s.HashBits != 4 || m.Vocab.Len() > 16 {
				t.Fatalf("settings %+v, %d terms", s, m.Vocab.Len())
			}
			// The same corpus, pre-hashed with the model's tokenizer.
			var pre strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(corpus), "\n") {
				label, text, _ := strings.Cut(line, "\t")
				fmt.Fprintf(&pre, "%s\t%s\n", label, prehashText(s, text))
			}
			plain := filepath.Join(dir, kind+"-plain.nbm")
			args := []string{"train", writeFile(t, dir, "pre.tsv", pre.String()), "-q", "--model", kind, "-o", plain,
				"--lowercase=false", "--stop-words", "", "--fields", "none", "--ngram", "1,1",
				"--min-df", "1", "--max-df", fmt.Sprint(s.MaxDF), "--weighting", s.Weighting, "--norm", normFlag(s.Norm),
				fmt.Sprintf("--sublinear-tf=%v", s.Sublinear)}
			if kind == "multinomial" || kind == "bernoulli" || kind == "complement" {
				args = append(args, "--alpha", fmt.Sprint(m.Params.Alpha))
			}
			mustRun(t, args...)
			var preTest strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(test), "\n") {
				fmt.Fprintln(&preTest, prehashText(s, line))
			}
			a := mustRun(t, "predict", "-m", hashed, "--format", "tsv", "--top-k", "2", writeFile(t, dir, "t.txt", test))
			b := mustRun(t, "predict", "-m", plain, "--format", "tsv", "--top-k", "2", writeFile(t, dir, "t.txt", preTest.String()))
			if a.out != b.out || a.out == "" {
				t.Errorf("hashed model predicts\n%s\nthe pre-hashed one\n%s", a.out, b.out)
			}
		})
	}
}

// prehashText returns the buckets of the terms of text under s, as words
// of two characters at least: "h" and the bucket's digits.
func prehashText(s vectorize.Settings, text string) string {
	var words []string
	for _, term := range vectorize.NewTokenizer(s).Terms(text) {
		words = append(words, "h"+strings.TrimPrefix(vectorize.BucketName(vectorize.Bucket(term, s.HashBits), s.HashBits), vectorize.BucketPrefix))
	}
	return strings.Join(words, " ")
}

// normFlag is the --norm value of a Norm setting.
func normFlag(n string) string {
	if n == "" {
		return "none"
	}
	return n
}

// TestHashBitsCommands: info shows the hashing and the names of the
// top buckets, predict --explain names words, vocab lists buckets with
// their names, count records the setting and merge refuses parts of
// other settings, naming hash_bits; counts, merged, and --stream fit what
// in-memory training fits.
func TestHashBitsCommands(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", hashCorpus())
	m := filepath.Join(dir, "m.nbm")
	mustRun(t, "train", tsv, "-q", "--hash-bits", "6", "--temperature", "1", "-o", m)
	info := mustRun(t, "info", m, "--top", "3").out
	for _, want := range []string{"64 buckets (2^6", "hash_bits=6", "(encryption 6)"} {
		if !strings.Contains(info, want) {
			t.Errorf("info does not show %q:\n%s", want, info)
		}
	}
	ex := mustRun(t, "predict", "-m", m, "--explain", "2", "--format", "json", writeFile(t, dir, "t.txt", "pgp encryption\n")).out
	if !strings.Contains(ex, "encryption") || !strings.Contains(ex, vectorize.BucketPrefix) {
		t.Errorf("explanation does not name the bucket and its words: %s", ex)
	}
	voc := mustRun(t, "vocab", tsv, "--hash-bits", "6", "--top", "3").out
	if !strings.Contains(voc, vectorize.BucketPrefix) || !strings.Contains(voc, "encryption") {
		t.Errorf("vocab --top does not list buckets with their names:\n%s", voc)
	}

	// Counts: one round (binary values), in two shards, merged.
	p1, p2, all := filepath.Join(dir, "p1.nbc"), filepath.Join(dir, "p2.nbc"), filepath.Join(dir, "all.nbc")
	mustRun(t, "count", tsv, "--model", "bernoulli", "--hash-bits", "6", "--shard", "1/2", "-o", p1)
	mustRun(t, "count", tsv, "--model", "bernoulli", "--hash-bits", "6", "--shard", "2/2", "-o", p2)
	mustRun(t, "merge", p1, p2, "-o", all)
	fromCounts, inMemory := filepath.Join(dir, "fc.nbm"), filepath.Join(dir, "mem.nbm")
	mustRun(t, "train", "-q", "--from-counts", all, "--model", "bernoulli", "--temperature", "1", "-o", fromCounts)
	mustRun(t, "train", "-q", tsv, "--model", "bernoulli", "--hash-bits", "6", "--temperature", "1", "-o", inMemory)
	sameModels(t, inMemory, fromCounts)
	sameNames(t, inMemory, fromCounts)
	// Other hashing, or none: refused, naming the difference.
	other := filepath.Join(dir, "other.nbc")
	mustRun(t, "count", tsv, "--model", "bernoulli", "--hash-bits", "7", "-o", other)
	check(t, nbtext(t, "", "merge", all, other, "-o", filepath.Join(dir, "x.nbc")), 1, "different settings", "hash_bits 6 in")
	none := filepath.Join(dir, "none.nbc")
	mustRun(t, "count", tsv, "--model", "bernoulli", "-o", none)
	check(t, nbtext(t, "", "merge", all, none, "-o", filepath.Join(dir, "x.nbc")), 1, "different settings", "hash_bits")

	// --stream (two passes for tf-idf) fits the in-memory model.
	for _, kind := range []string{"multinomial", "complement"} {
		mem, str := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-stream.nbm")
		mustRun(t, "train", tsv, "-q", "--model", kind, "--hash-bits", "5", "--temperature", "1", "-o", mem)
		mustRun(t, "train", tsv, "-q", "--stream", "--model", kind, "--hash-bits", "5", "--temperature", "1", "-o", str)
		sameModels(t, mem, str)
		sameNames(t, mem, str)
	}
}

// sameNames fails unless the two hashed models name their buckets alike.
func sameNames(t *testing.T, a, b string) {
	t.Helper()
	ma, err := model.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := model.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ma.Vocab.Names) == 0 || len(ma.Vocab.Names) != len(mb.Vocab.Names) {
		t.Fatalf("%s and %s: %d and %d bucket name lists", a, b, len(ma.Vocab.Names), len(mb.Vocab.Names))
	}
	for i := range ma.Vocab.Names {
		if !slices.Equal(ma.Vocab.Names[i], mb.Vocab.Names[i]) {
			t.Errorf("%s and %s: bucket %s named %v and %v", a, b, ma.Vocab.Terms[i], ma.Vocab.Names[i], mb.Vocab.Names[i])
		}
	}
}

// TestHashBitsPruning: --min-df, --max-features and --select act on
// buckets: a bucket's document frequency is that of the union of its
// terms' documents.
func TestHashBitsPruning(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", hashCorpus())
	voc := filepath.Join(dir, "v.tsv")
	mustRun(t, "vocab", tsv, "--hash-bits", "3", "--min-df", "3", "-o", voc)
	f, err := os.Open(voc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := vectorize.ReadTSV(f, voc)
	if err != nil {
		t.Fatal(err)
	}
	full := vectorize.DefaultSettings()
	full.HashBits = 3
	tok := vectorize.NewTokenizer(full)
	df := map[string]int32{}
	for _, line := range strings.Split(strings.TrimSpace(hashCorpus()), "\n") {
		_, text, _ := strings.Cut(line, "\t")
		seen := map[string]bool{}
		for _, term := range tok.Terms(text) {
			seen[vectorize.BucketName(vectorize.Bucket(term, 3), 3)] = true
		}
		for b := range seen {
			df[b]++
		}
	}
	var want []string
	for b, d := range df {
		if d >= 3 {
			want = append(want, b)
		}
	}
	if len(v.Terms) != len(want) || len(want) == 0 {
		t.Fatalf("buckets kept %q, want %q", v.Terms, want)
	}
	for i, b := range v.Terms {
		if v.DF[i] != df[b] || df[b] < 3 {
			t.Errorf("bucket %s: df %d, want %d", b, v.DF[i], df[b])
		}
	}
	m := filepath.Join(dir, "m.nbm")
	mustRun(t, "train", tsv, "-q", "--hash-bits", "6", "--max-features", "5", "--min-df", "1", "-o", m)
	if mm, err := model.Load(m); err != nil || mm.Vocab.Len() != 5 {
		t.Errorf("--max-features 5 kept %v buckets (%v)", mm, err)
	}
	mustRun(t, "train", tsv, "-q", "--hash-bits", "6", "--select", "mi:4", "--min-df", "1", "-o", m)
	if mm, err := model.Load(m); err != nil || mm.Vocab.Len() != 4 {
		t.Errorf("--select mi:4 kept %v buckets (%v)", mm, err)
	}
}

// TestHashBits20Newsgroups: with 2^18 buckets, multinomial NB is within
// half a point of the unhashed model on held-out parts of the 20
// Newsgroups train split (3-fold cross-validation; measured 0.9045
// against 0.9048).
func TestHashBits20Newsgroups(t *testing.T) {
	tb := realCorpus(t)
	isolate(t)
	acc := func(extra ...string) float64 {
		r := mustRun(t, append([]string{"eval", "-q", "--cv", "3", "--model", "multinomial", tb, "--split", "train", "--format", "json"}, extra...)...)
		var res struct {
			Mean struct {
				Accuracy float64 `json:"accuracy"`
			} `json:"mean"`
		}
		if err := json.Unmarshal([]byte(r.out), &res); err != nil || res.Mean.Accuracy == 0 {
			t.Fatalf("eval --cv %v: %v in %q", extra, err, r.out)
		}
		return res.Mean.Accuracy
	}
	plain, hashed := acc(), acc("--hash-bits", "18")
	t.Logf("3-fold accuracy on the train split: %.4f unhashed, %.4f with --hash-bits 18", plain, hashed)
	if math.Abs(plain-hashed) > 0.005 {
		t.Errorf("--hash-bits 18: accuracy %.4f, unhashed %.4f: more than half a point apart", hashed, plain)
	}
}

// TestHashBitsModelSize: the model of a corpus whose vocabulary keeps
// growing is bounded by the buckets: 2^B terms × classes weights, however
// many words the corpus holds.
func TestHashBitsModelSize(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "c%d\t", i%3)
			for j := range 20 {
				fmt.Fprintf(&b, "w%dx%d common%d ", i, j, j%7) // 20 new words per document
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	for _, n := range []int{100, 1000} {
		for _, kind := range []string{"multinomial", "logreg"} {
			m := filepath.Join(dir, fmt.Sprint(kind, n, ".nbm"))
			mustRun(t, "train", writeFile(t, dir, "c.tsv", corpus(n)), "-q", "--model", kind, "--hash-bits", "8", "--min-df", "1", "--temperature", "1", "-o", m)
			mm, err := model.Load(m)
			if err != nil {
				t.Fatal(err)
			}
			if V := mm.Vocab.Len(); V > 256 || len(mm.W) != V*len(mm.Classes) || V < 200 {
				t.Errorf("%s, %d documents (%d words): %d buckets, %d weights; want at most 2^8 buckets", kind, n, 20*n, V, len(mm.W))
			}
		}
	}
}

// TestHashBitsDropsTermCap: logistic regression's default cap on its
// terms (train.LogRegMaxFeatures) does not apply to hashed buckets, whose
// number --hash-bits fixes; --max-features still does.
func TestHashBitsDropsTermCap(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", hashCorpus())
	m := filepath.Join(dir, "m.nbm")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, train.LogRegMaxFeatures},
		{[]string{"--hash-bits", "6"}, 0},
		{[]string{"--hash-bits", "6", "--max-features", "5"}, 5},
	} {
		args := append([]string{"train", tsv, "--model", "logreg", "--min-df", "1", "-q", "-o", m}, tc.args...)
		mustRun(t, args...)
		mm, err := model.Load(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := mm.Vocab.Settings.MaxFeatures; got != tc.want {
			t.Errorf("%v: max_features %d, want %d", tc.args, got, tc.want)
		}
	}
}

// TestHashBitsStreamSpills: train --stream with hashing bounds the count
// tables of round one, whose terms (the names of the buckets) grow with
// the corpus: under a small --mem they spill (each spill lets the terms
// go), and the model has the statistics of in-memory training, for a
// weighting of two rounds (replayed from the row cache of buckets) and of
// one.
func TestHashBitsStreamSpills(t *testing.T) {
	isolate(t)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	dir := t.TempDir()
	var b strings.Builder
	for i := range 15000 { // 450,000 distinct words, 30 a document
		fmt.Fprintf(&b, "c%d\t", i%3)
		for j := range 30 {
			fmt.Fprintf(&b, "w%dx%d common%d ", i, j, j%7)
		}
		b.WriteByte('\n')
	}
	tsv := writeFile(t, dir, "c.tsv", b.String())
	for _, kind := range []string{"multinomial", "bernoulli"} {
		mem, str := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-stream.nbm")
		mustRun(t, "train", tsv, "-q", "--model", kind, "--hash-bits", "12", "--min-df", "1", "--temperature", "1", "-o", mem)
		out := mustRun(t, "train", tsv, "--stream", "--mem", "64M", "--model", kind, "--hash-bits", "12", "--min-df", "1", "--temperature", "1", "-o", str).out
		if !strings.Contains(out, "spilled by the count tables (bound 16 MiB)") {
			t.Errorf("%s: train --stream --mem 64M did not spill:\n%s", kind, out)
		}
		sameModels(t, mem, str)
	}
}
