package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
)

func TestCountUsage(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	part := filepath.Join(dir, "p.nbc")
	m := filepath.Join(dir, "m.nbm")
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"count without -o", []string{"count", tsv}, 2, "-o PART.nbc is required"},
		{"count to stdout", []string{"count", tsv, "-o", "-"}, 2, "-o -"},
		{"bad shard", []string{"count", tsv, "--shard", "5/4", "-o", part}, 2, "--shard must be i/N"},
		{"shard zero", []string{"count", tsv, "--shard", "0/4", "-o", part}, 2, "--shard must be i/N"},
		{"bad mem", []string{"count", tsv, "--mem", "lots", "-o", part}, 2, "--mem must be a size"},
		{"logreg counts", []string{"count", tsv, "--model", "logreg", "-o", part}, 2, "--model must be bernoulli, multinomial, complement or centroid"},
		{"vocab with min-df", []string{"count", tsv, "--vocab", part, "--min-df", "2", "-o", part}, 2, "--min-df is not allowed with --vocab"},
		{"missing vocab", []string{"count", tsv, "--vocab", filepath.Join(dir, "nope.nbc"), "-o", part}, 1, "nope.nbc"},
		{"from-counts with corpus", []string{"train", tsv, "--from-counts", part, "-o", m}, 2, "drop the corpus argument"},
		{"from-counts with ngram", []string{"train", "--from-counts", part, "--ngram", "1,2", "-o", m}, 2, "--ngram is not allowed with --from-counts"},
		{"from-counts logreg", []string{"train", "--from-counts", part, "--model", "logreg", "-o", m}, 2, "naive bayes"},
		{"from-counts missing", []string{"train", "--from-counts", filepath.Join(dir, "nope.nbc"), "-o", m}, 1, "nope.nbc"},
		{"merge without parts", []string{"merge", "-o", part}, 2, "requires at least 1 arg"},
		{"merge without -o", []string{"merge", part}, 2, "-o ALL.nbc is required"},
		{"merge a model", []string{"merge", tsv, "-o", part}, 1, "not an nbtext counts file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, nbtext(t, "", tt.args...), tt.code, tt.err)
		})
	}
}

// mustRun runs nbtext and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) result {
	t.Helper()
	r := nbtext(t, "", args...)
	if r.code != 0 {
		t.Fatalf("nbtext %s: exit %d: %s", strings.Join(args, " "), r.code, r.err)
	}
	return r
}

// sameFiles fails unless the files hold the same bytes.
func sameFiles(t *testing.T, what string, paths ...string) {
	t.Helper()
	first, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths[1:] {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, first) {
			t.Errorf("%s: %s (%d bytes) differs from %s (%d bytes)", what, p, len(b), paths[0], len(first))
		}
	}
}

// sameCounts fails unless the counts files hold the same counts of the
// same documents: the same bytes once the names of their inputs (paths as
// given, "-" for stdin) are set aside; the inputs' digests, sizes and
// shards must be equal.
func sameCounts(t *testing.T, what string, paths ...string) { sameCountsOf(t, what, false, paths...) }

// sameStats is sameCounts of counts of the same documents in another
// order (an archive's members): their inputs' digests differ, for a
// shard of one is not the same shard of the other; the statistics must
// not.
func sameStats(t *testing.T, what string, paths ...string) { sameCountsOf(t, what, true, paths...) }

func sameCountsOf(t *testing.T, what string, noInputs bool, paths ...string) {
	t.Helper()
	enc := func(p string) []byte {
		c, err := counts.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if c.Inputs == nil {
			t.Errorf("%s: %s records no inputs", what, p)
		}
		for i := range c.Inputs {
			c.Inputs[i].Name = ""
		}
		if noInputs {
			c.Inputs = nil
		}
		var b bytes.Buffer
		if err := counts.Encode(&b, c); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first := enc(paths[0])
	for _, p := range paths[1:] {
		if !bytes.Equal(enc(p), first) {
			t.Errorf("%s: %s holds other counts or inputs than %s", what, p, paths[0])
		}
	}
}

// countShards counts corpus in n shards into dir with the extra flags, and
// returns the parts' paths.
func countShards(t *testing.T, dir, name, corpus string, n int, extra ...string) []string {
	t.Helper()
	var parts []string
	for i := 1; i <= n; i++ {
		p := filepath.Join(dir, name+string(rune('0'+i))+".nbc")
		args := append([]string{"count", corpus, "--shard", string(rune('0'+i)) + "/" + string(rune('0'+n)), "-o", p, "-q"}, extra...)
		mustRun(t, args...)
		parts = append(parts, p)
	}
	return parts
}

// TestCountMergeToy: shards of a small corpus, merged flat and as a tree
// and counted whole, are the same bytes; round one of tf-idf settings says
// what to do; merging refuses other settings and overwriting a part.
func TestCountMergeToy(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	parts := countShards(t, dir, "p", tsv, 3, "--model", "bernoulli")
	flat, whole := filepath.Join(dir, "flat.nbc"), filepath.Join(dir, "whole.nbc")
	mustRun(t, "merge", parts[2], parts[0], parts[1], "-o", flat)
	ab := filepath.Join(dir, "ab.nbc")
	mustRun(t, "merge", parts[0], parts[1], "-o", ab)
	tree := filepath.Join(dir, "tree.nbc")
	mustRun(t, "merge", parts[2], ab, "-o", tree)
	mustRun(t, "count", tsv, "--model", "bernoulli", "-o", whole)
	sameFiles(t, "toy counts", whole, flat, tree)
	// Streamed from stdin, and with --classes: the same counts.
	stdin, classes := filepath.Join(dir, "stdin.nbc"), filepath.Join(dir, "classes.nbc")
	if r := nbtext(t, toyTSV, "count", "-", "--model", "bernoulli", "-o", stdin); r.code != 0 {
		t.Fatalf("count -: exit %d: %s", r.code, r.err)
	}
	mustRun(t, "count", tsv, "--classes", "crypt,graphics", "--model", "bernoulli", "-o", classes)
	sameFiles(t, "toy counts with --classes", whole, classes)
	sameCounts(t, "toy counts from stdin", whole, stdin)

	// Round one of tf-idf: the count says to count again with --vocab,
	// and training from it says so too.
	r1 := filepath.Join(dir, "r1.nbc")
	r := mustRun(t, "count", tsv, "-o", r1)
	if !strings.Contains(r.err, "--vocab") {
		t.Errorf("round one of tfidf does not say to count again with --vocab: %q", r.err)
	}
	check(t, nbtext(t, "", "train", "--from-counts", r1, "-o", filepath.Join(dir, "m.nbm")), 1, "count again with --vocab")
	r2 := filepath.Join(dir, "r2.nbc")
	mustRun(t, "count", tsv, "--vocab", r1, "-o", r2)
	mustRun(t, "train", "--from-counts", r2, "--alpha", "0.1", "-o", filepath.Join(dir, "m.nbm"))

	// Other settings: refused, naming the difference.
	other := filepath.Join(dir, "other.nbc")
	mustRun(t, "count", tsv, "--model", "bernoulli", "--stop-words", "english", "-o", other)
	check(t, nbtext(t, "", "merge", whole, other, "-o", filepath.Join(dir, "x.nbc")), 1, "different settings", "stop_words", "english in")
	check(t, nbtext(t, "", "merge", whole, r2, "-o", filepath.Join(dir, "x.nbc")), 1, "different settings")
	// The output may not be an input.
	check(t, nbtext(t, "", "merge", whole, flat, "-o", flat), 2, "would replace an input")
	// A damaged part: exit 1 naming it, no output.
	b, _ := os.ReadFile(whole)
	b[len(b)/2] ^= 1
	bad := writeFile(t, dir, "bad.nbc", string(b))
	out := filepath.Join(dir, "y.nbc")
	check(t, nbtext(t, "", "merge", flat, bad, "-o", out), 1, "bad.nbc", "damaged")
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed merge left its output")
	}
}

// TestTrainStream: train --stream, from a file and from stdin (spooled
// for tf-idf's second pass), fits the model in-memory train fits, for
// every NB model and nearest centroid.
func TestTrainStream(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := strings.Repeat(toyTSV, 3) + "crypt\tclipper chip escrow\n"
	tsv := writeFile(t, dir, "c.tsv", corpus)
	for _, kind := range []string{"multinomial", "bernoulli", "complement", "centroid"} {
		mem, file, stdin := filepath.Join(dir, kind+"-mem.nbm"), filepath.Join(dir, kind+"-file.nbm"), filepath.Join(dir, kind+"-stdin.nbm")
		mustRun(t, "train", tsv, "--model", kind, "--temperature", "1", "-o", mem)
		mustRun(t, "train", tsv, "--stream", "--model", kind, "--temperature", "1", "-o", file)
		if r := nbtext(t, corpus, "train", "-", "--stream", "--model", kind, "--temperature", "1", "-o", stdin); r.code != 0 {
			t.Fatalf("train - --stream: exit %d: %s", r.code, r.err)
		}
		sameModels(t, mem, file)
		sameModels(t, mem, stdin)
	}
	// A vocabulary file (nbtext vocab) gives the vocabulary and document
	// frequencies: one round, the model of in-memory train --vocab.
	vocab := filepath.Join(dir, "v.tsv")
	mustRun(t, "vocab", tsv, "--min-df", "1", "--weighting", "tfidf", "--norm", "l2", "-q", "-o", vocab)
	for _, kind := range []string{"multinomial", "bernoulli", "centroid", "logreg"} {
		mem, file, stdin := filepath.Join(dir, kind+"-vmem.nbm"), filepath.Join(dir, kind+"-vfile.nbm"), filepath.Join(dir, kind+"-vstdin.nbm")
		mustRun(t, "train", tsv, "--model", kind, "--vocab", vocab, "--temperature", "1", "-o", mem)
		mustRun(t, "train", tsv, "--stream", "--model", kind, "--vocab", vocab, "--temperature", "1", "-o", file)
		if r := nbtext(t, corpus, "train", "-", "--stream", "--model", kind, "--vocab", vocab, "--temperature", "1", "-o", stdin); r.code != 0 {
			t.Fatalf("train - --stream --vocab: exit %d: %s", r.code, r.err)
		}
		sameModels(t, mem, file)
		sameModels(t, mem, stdin)
	}
	x := filepath.Join(dir, "x.nbm")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--vocab", vocab, "--min-df", "2", "-o", x), 2, "--min-df")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--init", filepath.Join(dir, "logreg-vmem.nbm"), "-o", x), 2, "--init starts logistic regression")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--auto", "-o", x), 2, "--auto", "drop --stream")
	check(t, nbtext(t, "", "train", tsv, "--stream", "--multi-label", "-o", x), 2, "drop --multi-label")
}

// TestCountsIntegration is the exactness contract on 20 Newsgroups: 4
// shards merged flat, merged as a tree, counted whole and counted with a
// tiny --mem are the same bytes, in both rounds; models fitted from them
// predict the test split exactly as in-memory training does.
func TestCountsIntegration(t *testing.T) {
	tb := realCorpus(t)
	isolate(t)
	dir := t.TempDir()
	train := []string{"--split", "train"}
	// mergeAll merges parts flat and as a tree, counts whole and with a
	// tiny memory bound, checks all four are equal, and returns the flat
	// merge.
	mergeAll := func(name string, parts []string, extra ...string) string {
		flat := filepath.Join(dir, name+"-flat.nbc")
		mustRun(t, "merge", "-q", parts[3], parts[1], parts[0], parts[2], "-o", flat)
		l, r, tree := filepath.Join(dir, name+"-l.nbc"), filepath.Join(dir, name+"-r.nbc"), filepath.Join(dir, name+"-tree.nbc")
		mustRun(t, "merge", "-q", parts[0], parts[1], "-o", l)
		mustRun(t, "merge", "-q", parts[2], parts[3], "-o", r)
		mustRun(t, "merge", "-q", r, l, "-o", tree)
		whole := filepath.Join(dir, name+"-whole.nbc")
		mustRun(t, append([]string{"count", tb, "-q", "-o", whole}, extra...)...)
		spilled := filepath.Join(dir, name+"-spilled.nbc")
		res := mustRun(t, append([]string{"count", tb, "-o", spilled, "--mem", "2MiB", "--tmp-dir", t.TempDir()}, extra...)...)
		if !strings.Contains(res.out, "spilled") {
			t.Errorf("--mem 2MiB spilled nothing: %s", res.out)
		}
		sameFiles(t, name, whole, flat, tree, spilled)
		return flat
	}
	// predictions writes the model's answers on the test split.
	predictions := func(model string) string {
		p := filepath.Join(dir, filepath.Base(model)+".tsv")
		r := mustRun(t, "eval", "-q", "-m", model, tb, "--split", "test", "--format", "json")
		if err := os.WriteFile(p, []byte(r.out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// Round one alone: Bernoulli NB (binary values, min_df 2).
	bern := mergeAll("bern", countShards(t, dir, "bern", tb, 4, "--split", "train", "--model", "bernoulli"), "--split", "train", "--model", "bernoulli")
	fromCounts, inMemory := filepath.Join(dir, "bern-counts.nbm"), filepath.Join(dir, "bern-mem.nbm")
	mustRun(t, "train", "-q", "--from-counts", bern, "--model", "bernoulli", "--temperature", "1", "-o", fromCounts)
	mustRun(t, "train", "-q", tb, "--split", "train", "--model", "bernoulli", "--temperature", "1", "-o", inMemory)
	sameModels(t, inMemory, fromCounts)
	sameFiles(t, "bernoulli eval", predictions(inMemory), predictions(fromCounts))

	// Two rounds: multinomial NB's tf-idf.
	r1 := mergeAll("mn1", countShards(t, dir, "mn1", tb, 4, train...), train...)
	r2 := mergeAll("mn2", countShards(t, dir, "mn2", tb, 4, "--split", "train", "--vocab", r1), "--split", "train", "--vocab", r1)
	fromCounts, inMemory = filepath.Join(dir, "mn-counts.nbm"), filepath.Join(dir, "mn-mem.nbm")
	mustRun(t, "train", "-q", "--from-counts", r2, "-o", fromCounts)
	mustRun(t, "train", "-q", tb, "--split", "train", "-o", inMemory)
	sameModels(t, inMemory, fromCounts)
	sameFiles(t, "multinomial eval", predictions(inMemory), predictions(fromCounts))

	// Nearest centroid: its class sums are multinomial NB's statistics,
	// streamed in-process.
	stream, inMemory := filepath.Join(dir, "cent-stream.nbm"), filepath.Join(dir, "cent-mem.nbm")
	mustRun(t, "train", "-q", tb, "--split", "train", "--model", "centroid", "--stream", "--temperature", "1", "-o", stream)
	mustRun(t, "train", "-q", tb, "--split", "train", "--model", "centroid", "--temperature", "1", "-o", inMemory)
	sameModels(t, inMemory, stream)
	sameFiles(t, "centroid eval", predictions(inMemory), predictions(stream))
}

// sameModels fails unless the two model files hold the same model, bit
// for bit: vocabulary, statistics, weights (all but how they were made).
func sameModels(t *testing.T, a, b string) {
	t.Helper()
	ma, err := model.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := model.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	bits := func(xs []float64) []uint64 {
		out := make([]uint64, len(xs))
		for i, x := range xs {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	va, vb := ma.Vocab, mb.Vocab
	switch {
	case ma.Kind != mb.Kind || !slices.Equal(ma.Classes, mb.Classes) || ma.Params.Alpha != mb.Params.Alpha || ma.Params.Temperature != mb.Params.Temperature:
		t.Errorf("%s and %s: kind, classes or parameters differ", a, b)
	case va.Settings != vb.Settings || va.NDocs != vb.NDocs || !slices.Equal(va.Terms, vb.Terms) || !slices.Equal(va.DF, vb.DF) || !slices.Equal(va.CF, vb.CF):
		t.Errorf("%s and %s: vocabularies differ", a, b)
	case !slices.Equal(bits(ma.ClassDocs), bits(mb.ClassDocs)) || !slices.Equal(bits(ma.Counts), bits(mb.Counts)):
		t.Errorf("%s and %s: statistics differ", a, b)
	case !slices.Equal(bits(ma.W), bits(mb.W)) || !slices.Equal(bits(ma.B), bits(mb.B)):
		t.Errorf("%s and %s: weights differ", a, b)
	}
}
