package nbbeam

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// The pipelines of these tests run on Prism, in-process.
// TestMain runs the tests on Prism, with TMPDIR a folder of their own,
// removed at the end: the SDK leaves an empty file there on every
// loopback run (apache/beam#27569; nbtext-beam's main does the same).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nbtext-beam-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir)
	code := ptest.MainRetWithDefault(m, "prism")
	os.RemoveAll(dir)
	os.Exit(code)
}

// doc is a labelled document of a test corpus.
type doc struct{ label, text string }

// words are what the generated documents are made of: some stop words,
// some capitalised, some that only one class favours.
var words = strings.Fields(`the of and to a in is it that for The And Ball bat goal team
	score match engine wheel road car speed gear orbit planet star launch rocket moon
	vote law court judge party bill code bug compile test build release kernel`)

// genDocs returns n seeded documents of the classes, each with a Subject
// header when withHeader (a line format that keeps newlines, JSONL).
func genDocs(seed uint64, n int, classes []string, withHeader bool) []doc {
	rng := rand.New(rand.NewPCG(seed, 7))
	docs := make([]doc, n)
	for i := range docs {
		c := rng.IntN(len(classes))
		var b strings.Builder
		if withHeader {
			fmt.Fprintf(&b, "From: someone\nSubject: %s %s\n\n", words[rng.IntN(len(words))], words[c*3%len(words)])
		}
		for k := range 5 + rng.IntN(40) {
			w := words[rng.IntN(len(words))]
			if rng.IntN(3) == 0 {
				w = words[(c*5+k%4)%len(words)] // the class's own words
			}
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		docs[i] = doc{classes[c], b.String()}
	}
	return docs
}

// writeTSV writes docs as a TSV file, gzip-compressed when name ends in
// .gz.
func writeTSV(t *testing.T, name string, docs []doc) {
	t.Helper()
	var b bytes.Buffer
	for _, d := range docs {
		fmt.Fprintf(&b, "%s\t%s\n", d.label, d.text)
	}
	data := b.Bytes()
	if strings.HasSuffix(name, ".gz") {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		data = z.Bytes()
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeJSONL writes docs as a JSONL file.
func writeJSONL(t *testing.T, name string, docs []doc) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, d := range docs {
		enc.Encode(map[string]string{"label": d.label, "text": d.text})
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testCorpus writes a small corpus of five files in dir, some classes only
// in some of them, and returns its patterns and its documents in the
// order the files sort.
func testCorpus(t *testing.T, dir string) ([]string, []doc) {
	t.Helper()
	sports, all := []string{"sport", "cars"}, []string{"sport", "cars", "space", "politics", "code"}
	files := []struct {
		name string
		docs []doc
	}{
		{"a-1.tsv", genDocs(1, 120, sports, false)},
		{"a-2.tsv.gz", genDocs(2, 90, all, false)},
		{"b-1.jsonl", genDocs(3, 150, all, true)},
		{"b-2.jsonl", genDocs(4, 60, []string{"space", "code"}, true)},
		{"b-3.jsonl", genDocs(5, 1, []string{"politics"}, true)},
	}
	var docs []doc
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if strings.HasSuffix(f.name, ".jsonl") {
			writeJSONL(t, p, f.docs)
		} else {
			writeTSV(t, p, f.docs)
		}
		docs = append(docs, f.docs...)
	}
	return []string{filepath.Join(dir, "a-*"), filepath.Join(dir, "b-*.jsonl")}, docs
}

// inProcess counts docs with one counts.Counter, as 'nbtext count' does,
// over vocab's terms in round two.
func inProcess(t *testing.T, s vectorize.Settings, vocab *vectorize.Vocabulary, docs []doc) *counts.Counts {
	t.Helper()
	ctr, err := counts.NewCounter(s, vocab, counts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ctr.Close()
	r, err := corpus.ParseRemove(s.Remove)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := ctr.Add(corpus.Strip(d.text, r), d.label); err != nil {
			t.Fatal(err)
		}
	}
	c, err := ctr.Counts()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// encoded returns the counts file bytes of c.
func encoded(t *testing.T, c *counts.Counts) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := counts.Encode(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameBytes fails unless the file at path holds want.
func sameBytes(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: %d bytes differ from the %d bytes counted in-process", path, len(got), len(want))
	}
}

// TestRoundOne: the counts nbtext-beam writes on Prism are, byte for byte,
// those counted in-process, whatever the partitions and flushes.
func TestRoundOne(t *testing.T) {
	dir := t.TempDir()
	patterns, docs := testCorpus(t, dir)
	s, err := Settings(model.Bernoulli, `{"ngram_max": 2}`, "headers")
	if err != nil {
		t.Fatal(err)
	}
	want := encoded(t, inProcess(t, s, nil, docs))
	for _, tc := range []struct {
		partitions int
		flush      int64
	}{{1, 0}, {7, 0}, {5, 1500}} {
		out := filepath.Join(dir, fmt.Sprintf("p%d-f%d.nbc", tc.partitions, tc.flush))
		res, err := Run(context.Background(), &Config{Inputs: patterns, Settings: s, Output: out, Partitions: tc.partitions, FlushBytes: tc.flush})
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, out, want)
		if n := res.Header.Documents(); n != int64(len(docs)) {
			t.Errorf("%s: %d documents, want %d", out, n, len(docs))
		}
	}
}

// TestTwoRoundsAndModel: with a tf-idf model asked for, Run counts two
// rounds, each equal to its in-process count, and writes the model that
// train.FitNBCounts fits from the in-process counts.
func TestTwoRoundsAndModel(t *testing.T) {
	dir := t.TempDir()
	patterns, docs := testCorpus(t, dir)
	s, err := Settings(model.Multinomial, `{"min_df": 1}`, "")
	if err != nil {
		t.Fatal(err)
	}
	_, p := train.Defaults(model.Multinomial)
	meta := model.Meta{Version: "test", CreatedBy: "nbtext-beam test"}
	out, mout := filepath.Join(dir, "all.nbc"), filepath.Join(dir, "m.nbm")
	res, err := Run(context.Background(), &Config{Inputs: patterns, Settings: s, Output: out, ModelOutput: mout,
		Kind: model.Multinomial, Params: p, Meta: meta, Partitions: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Counts) != 2 || res.Counts[0] != filepath.Join(dir, "all.round1.nbc") {
		t.Fatalf("counts written: %q, want round one then round two", res.Counts)
	}
	r1 := inProcess(t, s, nil, docs)
	sameBytes(t, res.Counts[0], encoded(t, r1))
	v, _, err := r1.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	r2 := inProcess(t, s, v, docs)
	sameBytes(t, out, encoded(t, r2))
	m, err := train.FitNBCounts(model.Multinomial, r2, p)
	if err != nil {
		t.Fatal(err)
	}
	m.Meta = meta
	var b bytes.Buffer
	if err := model.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, mout, b.Bytes())

	// Round two alone, given round one's counts, as 'nbtext count --vocab'.
	again := filepath.Join(dir, "again.nbc")
	if _, err := Run(context.Background(), &Config{Inputs: patterns, Vocab: res.Counts[0], Output: again, Partitions: 11}); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, again, encoded(t, r2))
}

// TestRunErrors: bad input fails the run with an error naming it, and
// writes nothing.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	s, _ := Settings(model.Bernoulli, "", "")
	nolabel := filepath.Join(dir, "x.tsv")
	os.WriteFile(nolabel, []byte("sport\tball\n\tno label here\n"), 0o644)
	odd := filepath.Join(dir, "x.csv")
	os.WriteFile(odd, []byte("sport,ball\n"), 0o644)
	for _, tc := range []struct{ pattern, want string }{
		{filepath.Join(dir, "nothing-*.tsv"), "no file matches"},
		{nolabel, "x.tsv"},
		{odd, `x.csv:1: the header has no column "label"`},
	} {
		out := filepath.Join(dir, "out.nbc")
		_, err := Run(context.Background(), &Config{Inputs: []string{tc.pattern}, Settings: s, Output: out, Partitions: 2})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.pattern, err, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", tc.pattern, out)
		}
	}
}

// Test20News: a few hundred documents of the 20 Newsgroups train split,
// in four JSONL files, counted on Prism and in-process.
func Test20News(t *testing.T) {
	tarball := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if tarball == "" {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set: no 20 Newsgroups archive to read")
	}
	c, err := corpus.Read(tarball, corpus.Options{Split: "train"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var docs []doc
	var parts [4][]doc
	for i := 0; i < len(c.Docs); i += 37 { // about 300 documents of every class
		d := doc{c.Docs[i].Label, c.Docs[i].Text}
		docs = append(docs, d)
		parts[len(docs)%4] = append(parts[len(docs)%4], d)
	}
	var ordered []doc
	for k, p := range parts {
		writeJSONL(t, filepath.Join(dir, fmt.Sprintf("part-%d.jsonl", k)), p)
		ordered = append(ordered, p...)
	}
	s, err := Settings(model.Bernoulli, "", "headers,footers,quotes")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "20news.nbc")
	if _, err := Run(context.Background(), &Config{Inputs: []string{filepath.Join(dir, "part-*.jsonl")}, Settings: s, Output: out, Partitions: 16}); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, out, encoded(t, inProcess(t, s, nil, ordered)))
	t.Logf("%d documents of %d classes", len(docs), len(c.Labels))
}

// TestSameAsNbtextCount: nbtext-beam writes the bytes 'nbtext count'
// writes for the same files and flags (the core command, built here).
func TestSameAsNbtextCount(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build nbtext with")
	}
	dir := t.TempDir()
	nbtext := filepath.Join(dir, "nbtext")
	build := exec.Command(gobin, "build", "-o", nbtext, "./cmd/nbtext")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build nbtext: %v\n%s", err, out)
	}
	files := []string{filepath.Join(dir, "x.jsonl"), filepath.Join(dir, "y.tsv")}
	writeJSONL(t, files[0], genDocs(11, 200, []string{"sport", "cars", "space"}, true))
	writeTSV(t, files[1], genDocs(12, 100, []string{"cars", "code"}, false))
	want := filepath.Join(dir, "nbtext.nbc")
	cmd := exec.Command(nbtext, append([]string{"count", "-q", "--model", "complement", "--remove", "quotes", "-o", want}, files...)...)
	cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir} // no user config, no NBTEXT_* settings
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NBTEXT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbtext count: %v\n%s", err, out)
	}
	s, err := Settings(model.Complement, "", "quotes")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "beam.nbc")
	if _, err := Run(context.Background(), &Config{Inputs: files, Settings: s, Output: out, Partitions: 4}); err != nil {
		t.Fatal(err)
	}
	// nbtext count records its inputs; nbtext-beam, which reads files in
	// byte ranges, does not: set them aside.
	c, err := counts.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if c.Inputs == nil {
		t.Errorf("%s: nbtext count recorded no inputs", want)
	}
	c.Inputs = nil
	var b bytes.Buffer
	if err := counts.Encode(&b, c); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, out, b.Bytes())
}

// TestCoreModuleHasNoBeam: the core module's go.mod and go.sum never name
// the Beam SDK; only this module does.
func TestCoreModuleHasNoBeam(t *testing.T) {
	for _, f := range []string{"../go.mod", "../go.sum"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("apache/beam")) {
			t.Errorf("%s names the Beam SDK: the core module must not depend on it", f)
		}
	}
}
