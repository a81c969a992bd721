package counts

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// docs returns n seeded documents of 3 classes: Zipf-like words, a class
// word, and now and then a mail header with a subject.
func docs(n int, seed uint64) (texts, labels []string) {
	rng := rand.New(rand.NewPCG(seed, 7))
	classes := []string{"alpha", "beta", "gamma"}
	for i := range n {
		c := rng.IntN(len(classes))
		var b strings.Builder
		if i%4 == 0 {
			fmt.Fprintf(&b, "Subject: word%d about %s\n\n", rng.IntN(20), classes[c])
		}
		for range 5 + rng.IntN(30) {
			w := int(math.Exp(rng.Float64() * 7)) // about log-uniform: a heavy tail
			fmt.Fprintf(&b, "w%d ", w)
			if rng.IntN(5) == 0 {
				fmt.Fprintf(&b, "the %s%d ", classes[c], rng.IntN(3))
			}
		}
		texts = append(texts, b.String())
		labels = append(labels, classes[c])
	}
	return texts, labels
}

// countAll counts texts in one Counter.
func countAll(t testing.TB, s vectorize.Settings, v *vectorize.Vocabulary, texts, labels []string, opt Options) *Counts {
	t.Helper()
	if opt.Mem > 0 && opt.Workers == 0 {
		// Spills follow the workers' progress: with as many workers as a
		// big machine has cores, so few documents might all be queued
		// before any spill (and the check below insists on spills).
		opt.Workers = 2
	}
	c, err := NewCounter(s, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range texts {
		if err := c.Add(texts[i], labels[i]); err != nil {
			t.Fatal(err)
		}
	}
	if opt.Mem == 0 {
		cs, err := c.Counts()
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cs := written(t, c)
	if c.Runs() < 2 {
		t.Fatalf("Mem %d spilled %d runs, want several", opt.Mem, c.Runs())
	}
	return cs
}

// written returns the counts of c, through its file (WriteFile), which a
// Counter that spilled runs is read through.
func written(t testing.TB, c *Counter) *Counts {
	t.Helper()
	p := filepath.Join(t.TempDir(), "all.nbc")
	if _, err := c.WriteFile(p); err != nil {
		t.Fatal(err)
	}
	cs, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func encode(t testing.TB, c *Counts) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func settings() vectorize.Settings {
	s := vectorize.DefaultSettings()
	s.StopWords = "english"
	s.Fields = "subject:2"
	s.NGramMax = 2
	return s
}

func TestFixedOf(t *testing.T) {
	for _, v := range []float32{0, 1, 0.5, 3, 1e-12, 0.1, 1 << 40, math.SmallestNonzeroFloat32} {
		f, err := FixedOf(v)
		if err != nil {
			t.Fatal(err)
		}
		if v >= 1.0/(1<<41) && f.Float64() != float64(v) {
			t.Errorf("FixedOf(%g) = %+v = %g, want exact", v, f, f.Float64())
		}
	}
	for _, v := range []float32{-1, float32(math.Inf(1)), float32(math.NaN()), 1 << 62} {
		if _, err := FixedOf(v); err == nil {
			t.Errorf("FixedOf(%g): no error", v)
		}
	}
	// Addition is exact: any order gives the same bits, unlike float64.
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, 1000)
	for i := range xs {
		xs[i] = rng.Float32() * float32(math.Pow(10, float64(rng.IntN(8)-4)))
	}
	sum := func(order []int) Fixed {
		var s Fixed
		for _, i := range order {
			f, _ := FixedOf(xs[i])
			s, _ = s.Add(f)
		}
		return s
	}
	a := sum(rng.Perm(len(xs)))
	for range 5 {
		if b := sum(rng.Perm(len(xs))); b != a {
			t.Fatalf("sums differ by order: %+v, %+v", a, b)
		}
	}
	if _, over := (Fixed{Hi: math.MaxUint64}).Add(Fixed{Hi: 1}); !over {
		t.Error("overflow not reported")
	}
}

// TestMergeExact: counts of shards, merged flat, as a tree or in any
// order, and counted in batches with spills, are the bytes of the whole.
func TestMergeExact(t *testing.T) {
	texts, labels := docs(600, 1)
	s := settings()
	whole := countAll(t, s, nil, texts, labels, Options{})
	want := encode(t, whole)
	const N = 4
	parts := make([]*Counts, N)
	names := make([]string, N)
	for i := range N {
		var pt, pl []string
		for j := i; j < len(texts); j += N {
			pt, pl = append(pt, texts[j]), append(pl, labels[j])
		}
		parts[i] = countAll(t, s, nil, pt, pl, Options{})
		names[i] = fmt.Sprint("part", i)
	}
	flat, err := Merge(parts, names)
	if err != nil {
		t.Fatal(err)
	}
	left, _ := Merge(parts[:2], names[:2])
	right, _ := Merge([]*Counts{parts[3], parts[2]}, names[2:])
	tree, err := Merge([]*Counts{right, left}, []string{"r", "l"})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Counts{"flat": flat, "tree": tree} {
		if got := encode(t, c); !bytes.Equal(got, want) {
			t.Errorf("%s merge: %d bytes differ from the whole count's %d", name, len(got), len(want))
		}
	}
	// Files: the streaming merge.
	dir := t.TempDir()
	paths := make([]string, N)
	for i, p := range parts {
		paths[N-1-i] = filepath.Join(dir, names[i]+".nbc")
		if err := WriteFile(paths[N-1-i], p); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "all.nbc")
	if _, err := MergeFiles(out, paths); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
		t.Error("MergeFiles differs from the whole count")
	}
	// A tiny memory bound: many runs, merged at the end.
	spilled := countAll(t, s, nil, texts, labels, Options{Mem: 16 << 10, TempDir: t.TempDir()})
	if got := encode(t, spilled); !bytes.Equal(got, want) {
		t.Error("the spilled count differs from the in-memory one")
	}
	if len(whole.Classes) != 3 || whole.Documents() != 600 {
		t.Errorf("classes %v, %d documents", whole.Classes, whole.Documents())
	}
}

// TestCountsMatchFit: document and corpus frequencies of the counts are
// vectorize.Fit's, and the pruned vocabulary is Fit's with pruning.
func TestCountsMatchFit(t *testing.T) {
	texts, labels := docs(300, 2)
	s := settings()
	s.MinDF, s.MaxDF, s.Select = 2, 0.9, "mi:50"
	cs := countAll(t, s, nil, texts, labels, Options{})
	classes, y := sortedClasses(labels)
	yi := make([]int, len(y))
	for i, k := range y {
		yi[i] = int(k)
	}
	want, _, err := vectorize.Fit(texts, yi, len(classes), s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, keep, err := cs.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != want.Len() || got.Len() != 50 || len(keep) != 50 {
		t.Fatalf("%d terms, Fit has %d", got.Len(), want.Len())
	}
	for i := range got.Terms {
		if got.Terms[i] != want.Terms[i] || got.DF[i] != want.DF[i] || got.CF[i] != want.CF[i] {
			t.Fatalf("term %d: %q %d %d, Fit: %q %d %d", i, got.Terms[i], got.DF[i], got.CF[i], want.Terms[i], want.DF[i], want.CF[i])
		}
	}
}

// TestTwoRounds: round-one counts of tf-idf settings say to count again;
// round two records the vocabulary and rebuilds it.
func TestTwoRounds(t *testing.T) {
	texts, labels := docs(200, 3)
	s := settings()
	s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2"
	r1 := countAll(t, s, nil, texts, labels, Options{})
	v, keep, err := r1.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r1.NB(false, keep); err == nil || !strings.Contains(err.Error(), "--vocab") {
		t.Fatalf("round-one NB of tfidf: %v, want advice to count with --vocab", err)
	}
	r2 := countAll(t, s, v, texts, labels, Options{})
	if !r2.Weighted() || r2.Vocab != VocabDigest(v) {
		t.Fatal("round two is not weighted over the vocabulary")
	}
	v2, _, err := r2.Vocabulary()
	if err != nil || VocabDigest(v2) != VocabDigest(v) {
		t.Fatalf("round two rebuilds another vocabulary: %v", err)
	}
	if _, _, err := r2.NB(false, keep); err != nil {
		t.Fatal(err)
	}
	// Round two in shards, through files (a shard misses some terms of
	// the vocabulary) and spilled: the bytes of the whole.
	dir := t.TempDir()
	var paths []string
	for k := range 3 {
		var pt, pl []string
		for j := k; j < len(texts); j += 3 {
			pt, pl = append(pt, texts[j]), append(pl, labels[j])
		}
		p := filepath.Join(dir, fmt.Sprint("r2-", k, ".nbc"))
		if err := WriteFile(p, countAll(t, s, v, pt, pl, Options{})); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out := filepath.Join(dir, "r2.nbc")
	if _, err := MergeFiles(out, paths); err != nil {
		t.Fatal(err)
	}
	want := encode(t, r2)
	if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
		t.Error("round two in shards differs from the whole")
	}
	if got := encode(t, countAll(t, s, v, texts, labels, Options{Mem: 8 << 10, TempDir: dir})); !bytes.Equal(got, want) {
		t.Error("round two spilled differs from the whole")
	}
	// Round two of other documents does not add up.
	r2b := countAll(t, s, v, texts[:150], labels[:150], Options{})
	if _, _, err := r2b.Vocabulary(); err == nil || !strings.Contains(err.Error(), "same documents") {
		t.Errorf("round two of a subset: %v", err)
	}
	// Rounds do not mix.
	if _, err := Merge([]*Counts{r1, r2}, []string{"r1.nbc", "r2.nbc"}); err == nil || !strings.Contains(err.Error(), "different rounds") {
		t.Errorf("merging the rounds: %v", err)
	}
}

func TestMergeRefusesOtherSettings(t *testing.T) {
	texts, labels := docs(50, 4)
	a := countAll(t, settings(), nil, texts, labels, Options{})
	s := settings()
	s.StopWords, s.NGramMax = "", 1
	b := countAll(t, s, nil, texts, labels, Options{})
	_, err := Merge([]*Counts{a, b}, []string{"a.nbc", "b.nbc"})
	if err == nil {
		t.Fatal("merged counts of different settings")
	}
	for _, want := range []string{"a.nbc", "b.nbc", "ngram_max 2 in a.nbc, 1 in b.nbc", "stop_words english in a.nbc"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestDecodeDamage: a flipped byte, a cut file, a newer version, another
// file, trailing bytes: each an error naming the file, never a panic.
func TestDecodeDamage(t *testing.T) {
	texts, labels := docs(40, 5)
	good := encode(t, countAll(t, settings(), nil, texts, labels, Options{}))
	if _, err := Decode(bytes.NewReader(good), "x.nbc"); err != nil {
		t.Fatal(err)
	}
	check := func(name string, b []byte, want string) {
		t.Helper()
		_, err := Decode(bytes.NewReader(b), "x.nbc")
		if err == nil || !strings.Contains(err.Error(), "x.nbc") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, want)
		}
	}
	for _, i := range []int{len(good) / 2, len(good) - 40, len(good) - 1} {
		b := bytes.Clone(good)
		b[i] ^= 0x10
		check(fmt.Sprint("flip ", i), b, "damaged")
	}
	check("cut", good[:len(good)-10], "")
	check("cut header", good[:20], "truncated")
	b := bytes.Clone(good)
	binary.LittleEndian.PutUint32(b[8:], Version+1)
	check("version", b, fmt.Sprintf("version %d", Version+1))
	check("not counts", []byte("term\tdf\tcf\n"), "not an nbtext counts file")
	check("trailing", append(bytes.Clone(good), 0), "after the checksum")
	// Every cut is an error.
	for n := 0; n < len(good); n += 7 {
		if _, err := Decode(bytes.NewReader(good[:n]), "x.nbc"); err == nil {
			t.Fatalf("cut at %d: no error", n)
		}
	}
}

func FuzzDecode(f *testing.F) {
	texts, labels := docs(20, 6)
	f.Add(encode(f, countAll(f, settings(), nil, texts, labels, Options{})))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Decode(bytes.NewReader(b), "f.nbc")
		if err != nil {
			return
		}
		if got := encode(t, c); !bytes.Equal(got, b) {
			t.Fatal("a decoded file does not encode to the same bytes")
		}
	})
}
