//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Regressions of the hostile-input audit of the count, merge, ensemble,
// streaming and many-class commands (issue 28), beside the catalog of
// badinput_test.go.

// TestInputGivenTwice: the same corpus or part named twice (or a file and
// its hard link, or a file inside a folder given too) is refused before
// any work, not counted twice (item 9).
func TestInputGivenTwice(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	writeFile(t, dir, "corpus/crypt/1.txt", "pgp key encryption cipher")
	writeFile(t, dir, "corpus/graphics/1.txt", "polygons textures rendering")
	if err := os.Link(data, filepath.Join(dir, "hard.tsv")); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "c1.nbc")
	check(t, nbtext(t, "", "count", "-q", data, "-o", part), exitOK)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"count", data, data, "-o", filepath.Join(dir, "x.nbc")}, "data.tsv: named twice: it is the same file as " + data},
		{[]string{"count", data, filepath.Join(dir, "hard.tsv"), "-o", filepath.Join(dir, "x.nbc")}, "would be counted twice"},
		{[]string{"count", filepath.Join(dir, "corpus"), filepath.Join(dir, "corpus/crypt/1.txt"), "-o", filepath.Join(dir, "x.nbc")}, "inside the input folder"},
		{[]string{"merge", part, part, "-o", filepath.Join(dir, "m.nbc")}, "c1.nbc: named twice"},
	} {
		check(t, nbtext(t, "", c.args...), exitUsage, c.msg)
	}
	for _, f := range []string{"x.nbc", "m.nbc"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written", f)
		}
	}
}

// TestManyClassesRefused: count and train --stream refuse the class past
// counts.MaxClasses at its document, naming file and line, instead of
// running for hours (item 4).
func TestManyClassesRefused(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := range counts.MaxClasses + 5 {
		fmt.Fprintf(&b, "c%d\tword%d common text\n", i, i%7)
	}
	data := writeFile(t, dir, "classes.tsv", b.String())
	want := fmt.Sprintf("classes.tsv:%d: too many classes: class \"c%d\" would be class number %d; nbtext counts at most %d classes", counts.MaxClasses+1, counts.MaxClasses, counts.MaxClasses+1, counts.MaxClasses)
	check(t, nbtext(t, "", "count", data, "-o", filepath.Join(dir, "x.nbc")), exitError, want)
	check(t, nbtext(t, "", "train", "--stream", data, "-o", filepath.Join(dir, "x.nbm")), exitError, want)
}

// TestTrainRefusesUnloadableModel: train refuses, before fitting, a
// vocabulary × classes that the model loader would refuse (the one size
// rule, model.CheckSize), in memory and from counts (item 3).
func TestTrainRefusesUnloadableModel(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	const C = 6000 // 12,000 terms × 6,000 classes × 16 bytes = 1.07 GiB
	var b strings.Builder
	for i := range C {
		fmt.Fprintf(&b, "c%d\tu%da u%db\n", i, i, i)
	}
	data := writeFile(t, dir, "wide.tsv", b.String())
	out := filepath.Join(dir, "m.nbm")
	check(t, nbtext(t, "", "train", data, "--min-df", "1", "-o", out), exitError, "too many terms × classes: 12000 terms × 6000 classes need 1.07 GiB of tables, more than the 1.00 GiB a model may hold")
	if _, err := os.Stat(out); err == nil {
		t.Error("model written")
	}
	if model.MaxTableBytes/16 != counts.MaxStatsCells {
		t.Errorf("counts.MaxStatsCells %d is not model.MaxTableBytes/16 (%d)", counts.MaxStatsCells, model.MaxTableBytes/16)
	}
}

// TestCreatedByIsTheCommand: every way of training records "nbtext train"
// as created_by, never the command line, so that the output's name and
// the corpus's path change no byte (item 8).
func TestCreatedByIsTheCommand(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	ml := writeFile(t, dir, "ml.tsv", "crypt,security\tpgp key cipher\ngraphics\tpolygons textures\ncrypt\tsecret key\ngraphics,security\topengl rendering\n")
	part := filepath.Join(dir, "c.nbc")
	check(t, nbtext(t, "", "count", "-q", data, "--model", "bernoulli", "-o", part), exitOK)
	saved := os.Args
	defer func() { os.Args = saved }()
	for _, c := range [][]string{
		{"train", "-q", "--stream", data},
		{"train", "-q", "--model", "bernoulli", "--from-counts", part},
		{"train", "-q", "--multi-label", "--min-df", "1", ml},
	} {
		var first []byte
		for _, name := range []string{"a.nbm", "other/b.nbm"} {
			out := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(out), 0o755)
			args := append(append([]string{}, c...), "-o", out)
			os.Args = append([]string{"nbtext"}, args...)
			check(t, nbtext(t, "", args...), exitOK)
			bs, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(bs, []byte(dir)) || bytes.Contains(bs, []byte(name)) {
				t.Errorf("%v: the model holds a path", args)
			}
			if !bytes.Contains(bs, []byte(`"created_by":"nbtext train"`)) {
				t.Errorf("%v: created_by is not \"nbtext train\"", args)
			}
			if first == nil {
				first = bs
			} else if !bytes.Equal(first, bs) {
				t.Errorf("%v: bytes differ with the output's name", args)
			}
		}
	}
}

// TestTmpDirCheckedFirst: a --tmp-dir where no file can be made fails
// before counting, not at the first spill (item 15).
func TestTmpDirCheckedFirst(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	missing := filepath.Join(dir, "none")
	check(t, nbtext(t, "", "count", data, "--mem", "1MB", "--tmp-dir", missing, "-o", filepath.Join(dir, "x.nbc")), exitUsage, "--tmp-dir "+missing+": ")
}

// TestOccurrencesPast2To24: a term that occurs 2^24+1 times in one
// document (float32 holds integers exactly only to 2^24) counts the same
// in both rounds of train --stream and of count, count --vocab, so the
// vocabulary's check passes (item 6). About 34 MB of text.
func TestOccurrencesPast2To24(t *testing.T) {
	if testing.Short() {
		t.Skip("34 MB document")
	}
	isolate(t)
	dir := t.TempDir()
	doc := "pos\t" + strings.Repeat("ww ", 1<<24+1) + "good\npos\tgood nice ww\nneg\tbad awful ww\nneg\tbad poor\npos\tgood fine\n"
	data := writeFile(t, dir, "big.tsv", doc)
	check(t, nbtext(t, "", "train", "-q", "--stream", data, "--min-df", "1", "--max-doc-bytes", "67108864", "-o", filepath.Join(dir, "m.nbm")), exitOK)
	r1, r2 := filepath.Join(dir, "r1.nbc"), filepath.Join(dir, "r2.nbc")
	check(t, nbtext(t, "", "count", "-q", data, "--min-df", "1", "--max-doc-bytes", "67108864", "-o", r1), exitOK)
	check(t, nbtext(t, "", "count", "-q", data, "--vocab", r1, "--max-doc-bytes", "67108864", "-o", r2), exitOK)
	c, err := counts.ReadFile(r2)
	if err != nil {
		t.Fatal(err)
	}
	for i, term := range c.Terms {
		if term == "ww" {
			var occ int64
			for _, x := range c.Row(i) {
				occ += x.Occ
			}
			if occ != 1<<24+3 {
				t.Errorf("round two: ww occurs %d times, want %d", occ, 1<<24+3)
			}
		}
	}
	check(t, nbtext(t, "", "train", "-q", "--from-counts", r2, "-o", filepath.Join(dir, "m2.nbm")), exitOK)
}

// TestMessagesNameFileAndLine: a numeric value whose square overflows and
// a CSV quote left open are reported at their file and line (item 14).
func TestMessagesNameFileAndLine(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,species\n")
	for i := range 12 {
		fmt.Fprintf(&b, "%d.5,%s\n", i%3, []string{"a", "b"}[i%2])
	}
	b.WriteString("1e308,a\n-1e308,b\n")
	num := writeFile(t, dir, "num.csv", b.String())
	check(t, nbtext(t, "", "train", num, "--model", "gaussian", "--label-field", "species", "--numeric-field", "x", "-o", filepath.Join(dir, "g.nbm")),
		exitError, "num.csv:14: field x: \"1e308\" is too large")
	var q strings.Builder
	q.WriteString("label,text\n")
	for i := range 30 {
		if i == 10 {
			q.WriteString("a,\"never closed\n")
			continue
		}
		fmt.Fprintf(&q, "%s,\"word %d\"\n", []string{"a", "b"}[i%2], i)
	}
	csvf := writeFile(t, dir, "q.csv", q.String())
	check(t, nbtext(t, "", "train", csvf, "-o", filepath.Join(dir, "q.nbm")), exitError, "q.csv:12: extraneous or missing \" in quoted-field: the quoted field of the record opened on line 12")
}

// TestPredictGoesOnPastBadInput: a malformed JSONL record and a damaged
// file among several are answered with "?" and warned about, and the
// documents after them are answered (exit 1 at the end), rather than
// ending the run (item 11).
func TestPredictGoesOnPastBadInput(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "data.tsv", toyTSV)
	m := filepath.Join(dir, "m.nbm")
	check(t, nbtext(t, "", "train", "-q", data, "-o", m), exitOK)
	r := nbtext(t, "{\"text\":\"pgp key\"}\n{broken\n{\"text\":\"opengl polygons\"}\n", "predict", "-m", m, "--input", "jsonl")
	check(t, r, exitError, "stdin:2: invalid JSON")
	if got := strings.Fields(r.out); len(got) != 3 || got[0] != "crypt" || got[1] != "?" || got[2] != "graphics" {
		t.Errorf("jsonl answers %q, want crypt ? graphics", got)
	}
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	writeFile(t, dir, "1.gz", string(gz("pgp key\n")))
	writeFile(t, dir, "2.gz", string(gz("opengl textures\n")[:15]))
	writeFile(t, dir, "3.gz", string(gz("opengl polygons\npgp cipher\n")))
	r = nbtext(t, "", "predict", "-m", m, filepath.Join(dir, "1.gz"), filepath.Join(dir, "2.gz"), filepath.Join(dir, "3.gz"))
	check(t, r, exitError, "2.gz: gzip stream cut short")
	if got := strings.Fields(r.out); len(got) != 4 || got[1] != "?" || got[2] != "graphics" || got[3] != "crypt" {
		t.Errorf("file answers %q, want crypt ? graphics crypt", got)
	}
}

// TestStreamRelaxesDefaultMinDF: on a corpus whose terms each occur in one
// document (numbers), train --stream relaxes the default --min-df to 1
// with a note, as in-memory train does; a --min-df given stays (item 16).
func TestStreamRelaxesDefaultMinDF(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "nums.tsv", "a\t11 12 13\nb\t14 15 16\na\t17 18 19\nb\t20 21 22\n")
	for _, kind := range []string{"multinomial", "bernoulli"} {
		r := nbtext(t, "", "train", "--stream", "--model", kind, data, "-o", filepath.Join(dir, kind+".nbm"))
		check(t, r, exitOK, "the default --min-df 2 would keep no term of these documents: using --min-df 1")
	}
	check(t, nbtext(t, "", "train", "--stream", "--min-df", "2", data, "-o", filepath.Join(dir, "x.nbm")), exitError, "no terms left after pruning")
}

// TestVocabCountsBounded: vocab counts as count does (nothing kept per
// document), its vocabulary is the one an in-memory fit of the same
// documents gives, and under a small bound its tables spill to runs on
// disk without changing a byte of the output (item 10).
func TestVocabCountsBounded(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	var texts []string
	var labels []int
	for i := 0; i < 1500; i++ {
		text := fmt.Sprintf("w%d w%d w%d common x%d y%d", i%97, i%13, i*7919%5003, i, i%251)
		fmt.Fprintf(&b, "c%d\t%s\n", i%3, text)
		texts, labels = append(texts, text), append(labels, i%3)
	}
	data := writeFile(t, dir, "data.tsv", b.String())
	settings := vectorize.DefaultSettings()
	settings.NGramMax, settings.MinDF = 2, 2
	want, err := vectorize.FitVocabulary(texts, labels, 3, settings, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wantTSV bytes.Buffer
	if err := vectorize.WriteTSV(&wantTSV, want); err != nil {
		t.Fatal(err)
	}
	args := []string{"vocab", data, "--ngram", "1,2", "--min-df", "2", "-o", "-"}
	r := nbtext(t, "", args...)
	check(t, r, exitOK, "vocabulary: ")
	if r.out != wantTSV.String() {
		t.Errorf("vocab differs from the in-memory fit:\n%.300s\nwant\n%.300s", r.out, wantTSV.String())
	}
	if strings.Contains(r.err, "spilled") {
		t.Errorf("spilled without a bound: %s", r.err)
	}
	defer func(f func() int64) { vocabCountMem = f }(vocabCountMem)
	vocabCountMem = func() int64 { return 32 << 10 }
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	r = nbtext(t, "", append(args, "--tmp-dir", tmp)...)
	check(t, r, exitOK, "runs spilled")
	if r.out != wantTSV.String() {
		t.Errorf("vocab with spilled runs differs from the in-memory fit")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("%d files left in --tmp-dir", len(left))
	}
}
