package counts

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestHashedCounts: hashed counts hold buckets and their names, exactly
// Fit's; shards merged flat, as a tree, from files and spilled runs are
// the bytes of the whole count (no bucket holds more names than are
// kept); and the names reach the vocabulary of a fitted model.
func TestHashedCounts(t *testing.T) {
	texts, labels := docs(600, 3)
	s := vectorize.DefaultSettings()
	s.Fields = "subject:2"
	s.HashBits = 14
	whole := countAll(t, s, nil, texts, labels, Options{})
	want := encode(t, whole)
	if v := binary.LittleEndian.Uint32(want[8:]); v != 2 {
		t.Errorf("hashed counts written as version %d", v)
	}
	fv, err := vectorize.FitVocabulary(texts, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(whole.Terms, fv.Terms) || len(whole.Names) != len(fv.Names) {
		t.Fatalf("%d buckets with %d name lists, Fit has %d and %d", len(whole.Terms), len(whole.Names), len(fv.Terms), len(fv.Names))
	}
	for i := range fv.Names {
		if !slices.Equal(whole.Names[i], fv.Names[i]) {
			t.Fatalf("bucket %s: names %v, Fit's %v", fv.Terms[i], whole.Names[i], fv.Names[i])
		}
	}
	const N = 3
	parts := make([]*Counts, N)
	names := make([]string, N)
	dir := t.TempDir()
	paths := make([]string, N)
	for i := range N {
		var pt, pl []string
		for j := i; j < len(texts); j += N {
			pt, pl = append(pt, texts[j]), append(pl, labels[j])
		}
		parts[i] = countAll(t, s, nil, pt, pl, Options{})
		names[i] = fmt.Sprint("part", i)
		paths[i] = filepath.Join(dir, names[i]+".nbc")
		if err := WriteFile(paths[i], parts[i]); err != nil {
			t.Fatal(err)
		}
	}
	flat, err := Merge(parts, names)
	if err != nil {
		t.Fatal(err)
	}
	left, _ := Merge([]*Counts{parts[2], parts[0]}, names[:2])
	tree, err := Merge([]*Counts{parts[1], left}, []string{"b", "l"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "all.nbc")
	if _, err := MergeFiles(out, []string{paths[1], paths[2], paths[0]}); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(out)
	spilled := countAll(t, s, nil, texts, labels, Options{Mem: 16 << 10, TempDir: t.TempDir()})
	for name, got := range map[string][]byte{"flat": encode(t, flat), "tree": encode(t, tree), "files": file, "spilled": encode(t, spilled)} {
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from the whole count's %d", name, len(got), len(want))
		}
	}
	// Read back, pruned into a vocabulary: names of the kept buckets.
	back, err := Decode(bytes.NewReader(want), "all.nbc")
	if err != nil {
		t.Fatal(err)
	}
	// A reader that hands out a byte at a time refills the buffer between
	// a name and its count.
	slow, err := Decode(iotest.OneByteReader(bytes.NewReader(want)), "all.nbc")
	if err != nil || !slices.EqualFunc(slow.Names, whole.Names, slices.Equal) {
		t.Fatalf("read a byte at a time, the names differ (%v)", err)
	}
	back.Settings.MinDF = 3
	v, keep, err := back.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for j, i := range keep {
		if !slices.Equal(v.Names[j], whole.Names[i]) {
			t.Fatalf("vocabulary bucket %s: names %v, want %v", v.Terms[j], v.Names[j], whole.Names[i])
		}
	}
	if !strings.HasPrefix(v.DisplayName(0), v.Terms[0]+" (") {
		t.Errorf("DisplayName(0) = %q", v.DisplayName(0))
	}
	// Round two carries the round-one names.
	r2 := countAll(t, s, v, texts, labels, Options{})
	for i := range r2.Terms {
		j, _ := slices.BinarySearch(v.Terms, r2.Terms[i])
		if !slices.Equal(r2.Names[i], v.Names[j]) {
			t.Fatalf("round two bucket %s: names %v, want %v", r2.Terms[i], r2.Names[i], v.Names[j])
		}
	}
	m2, err := Merge([]*Counts{r2, r2}, []string{"a", "b"})
	if err != nil || !slices.EqualFunc(m2.Names, r2.Names, slices.Equal) {
		t.Errorf("round two merge changed the names (%v)", err)
	}
}

// TestHashedCountsVersion: hashing in a version 1 file, or none in a
// version 2 file, is damage.
func TestHashedCountsVersion(t *testing.T) {
	texts, labels := docs(50, 4)
	s := vectorize.DefaultSettings()
	plain := encode(t, countAll(t, s, nil, texts, labels, Options{}))
	s.HashBits = 8
	hashedFile := encode(t, countAll(t, s, nil, texts, labels, Options{}))
	for name, b := range map[string][]byte{"plain as 2": plain, "hashed as 1": hashedFile} {
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint32(b[8:], 3-binary.LittleEndian.Uint32(b[8:]))
		if _, err := Decode(bytes.NewReader(b), "x.nbc"); err == nil || !strings.Contains(err.Error(), "hash_bits") {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

// TestHashedNamesExact: with few buckets, so that most hold more terms
// than the names kept, a Counter's names are still Fit's, exactly, with
// any number of workers: its tables hand every name they counted, and
// the top ones are kept once all are added (an unspilled count does not
// depend on which worker counted which document).
func TestHashedNamesExact(t *testing.T) {
	texts, labels := docs(600, 5)
	s := vectorize.DefaultSettings()
	s.HashBits = 5
	fv, err := vectorize.FitVocabulary(texts, nil, 0, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	crowded := 0
	for _, ns := range fv.Names {
		if len(ns) == vectorize.MaxBucketNames {
			crowded++
		}
	}
	if crowded < len(fv.Names)/2 {
		t.Fatalf("only %d of %d buckets hold the most names: the test checks little", crowded, len(fv.Names))
	}
	// counted adds the documents to c in batches of about 2 KB, so that
	// every worker counts some of them.
	counted := func(c *Counter) *Counter {
		c.batch = 2 << 10
		for i := range texts {
			if err := c.Add(texts[i], labels[i]); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	for _, workers := range []int{1, 2, 3, 4} {
		c := counted(counter(t, s, nil, nil, nil, Options{Workers: workers}))
		whole, err := c.Counts()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(whole.Terms, fv.Terms) {
			t.Fatalf("%d workers: buckets %v, Fit's %v", workers, whole.Terms, fv.Terms)
		}
		for i := range fv.Names {
			if !slices.Equal(whole.Names[i], fv.Names[i]) {
				t.Errorf("%d workers: bucket %s named %v, Fit's %v", workers, fv.Terms[i], whole.Names[i], fv.Names[i])
				break
			}
		}
		v, _, err := counted(counter(t, s, nil, nil, nil, Options{Workers: workers, VocabOnly: true})).Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(v.Names, fv.Names) {
			t.Errorf("%d workers: Counter.Vocabulary's names are not Fit's", workers)
		}
	}
}

// TestAddNames: adding the names of parts, then keeping the top ones,
// is keeping the top ones of the names summed, for lists short and long.
func TestAddNames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{1, 3, 8, 40, 500} {
		sum := map[string]int64{}
		var acc []vectorize.TermCount
		for range 4 {
			var part []vectorize.TermCount
			seen := map[string]bool{}
			for range n {
				term := fmt.Sprint("t", rng.IntN(2*n))
				if seen[term] {
					continue
				}
				seen[term] = true
				c := int64(1 + rng.IntN(5))
				part = append(part, vectorize.TermCount{Term: term, Count: c})
				sum[term] += c
			}
			acc = vectorize.AddNames(acc, part)
		}
		var want []vectorize.TermCount
		for term, c := range sum {
			want = append(want, vectorize.TermCount{Term: term, Count: c})
		}
		if len(acc) != len(want) {
			t.Fatalf("%d names a part: %d names added, want %d", n, len(acc), len(want))
		}
		if got, w := vectorize.TopNames(acc), vectorize.TopNames(want); !slices.Equal(got, w) {
			t.Errorf("%d names a part: top %v, want %v", n, got, w)
		}
	}
}
