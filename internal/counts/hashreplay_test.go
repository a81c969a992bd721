package counts

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// hashedTFIDF returns hashed settings whose weighting needs round two.
func hashedTFIDF(bits int) vectorize.Settings {
	s := settings()
	s.Weighting, s.Sublinear, s.Norm, s.HashBits, s.MinDF = "tfidf", true, "l2", bits, 2
	return s
}

// statsOver returns the Stats of round two that c, a finished round-one
// Counter with a row cache, counts from it over v (as replayedOver).
func statsOver(t *testing.T, c *Counter, v *vectorize.Vocabulary) *Stats {
	t.Helper()
	c2, err := c.RoundTwo(v)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	st, err := c2.Stats(false)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// vocabOf returns c's Vocabulary.
func vocabOf(t *testing.T, c *Counter) *vectorize.Vocabulary {
	t.Helper()
	v, _, err := c.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHashedReplaySpills: with hashing, a round one with a row cache
// under a tiny Mem spills, and its segments go on across the spills and
// keep no term table (the terms that name the buckets grow with the
// corpus, and with them the memory did: each spilled segment kept its
// worker's TermCounter); round two replayed from it gives the Stats of
// one without Mem: the same classes, documents, terms and statistics,
// the bucket names aside.
func TestHashedReplaySpills(t *testing.T) {
	texts, labels := docs(1500, 21)
	for _, bits := range []int{12, 18} {
		s := hashedTFIDF(bits)
		opt := Options{Workers: 2, Replay: true, VocabOnly: true, TempDir: t.TempDir()}
		c := counter(t, s, nil, texts, labels, opt)
		want := statsOver(t, c, vocabOf(t, c))
		opt.Mem = 16 << 10
		c = counter(t, s, nil, texts, labels, opt)
		if err := c.drain(); err != nil {
			t.Fatal(err)
		}
		if c.Runs() < 2 {
			t.Fatalf("bits %d: %d runs spilled under Mem %d, want ≥ 2", bits, c.Runs(), opt.Mem)
		}
		v := vocabOf(t, c)
		if len(c.segments) != opt.Workers {
			t.Errorf("bits %d: %d segments of the row cache after %d spills, want one a worker (%d)", bits, len(c.segments), c.Runs(), opt.Workers)
		}
		for i, sg := range c.segments {
			if sg.tc != nil || sg.bits != bits {
				t.Errorf("bits %d: segment %d keeps a term table (%v) or has bits %d", bits, i, sg.tc != nil, sg.bits)
			}
		}
		got := statsOver(t, c, v)
		if !reflect.DeepEqual(got.Header, want.Header) || !slices.Equal(got.ClassDocs, want.ClassDocs) ||
			!slices.Equal(got.Stats, want.Stats) || got.Counted != want.Counted ||
			!slices.Equal(got.Vocab.Terms, want.Vocab.Terms) || !slices.Equal(got.Vocab.IDF(), want.Vocab.IDF()) {
			t.Errorf("bits %d: the Stats of round two replayed after %d spills differ from those without Mem", bits, c.Runs())
		}
		if len(got.Vocab.Names) != len(got.Vocab.Terms) {
			t.Errorf("bits %d: %d name lists for %d buckets", bits, len(got.Vocab.Names), len(got.Vocab.Terms))
		}
	}
}

// TestHashedRowCacheBuckets: under hashing the row cache records each
// term as its bucket (vectorize.Bucket), not as a local id of the
// worker's TermCounter, and a Counter closed after a spill leaves no
// segment open.
func TestHashedRowCacheBuckets(t *testing.T) {
	const bits = 20
	s := hashedTFIDF(bits)
	s.StopWords, s.Fields, s.NGramMax, s.MinDF = "", "", 1, 1
	c := counter(t, s, nil, []string{"kiwi mango kiwi papaya"}, []string{"a"}, Options{Workers: 1, Replay: true, TempDir: t.TempDir()})
	vocabOf(t, c)
	if len(c.segments) != 1 {
		t.Fatalf("%d segments, want 1", len(c.segments))
	}
	sg := &c.segments[0]
	ch := sg.chunks[0][0]
	buf := make([]byte, ch.n+rowPad)
	if _, err := sg.f.ReadAt(buf[:ch.n], ch.off); err != nil {
		t.Fatal(err)
	}
	// One row: its length, class, m₁, m₂, a control byte, the ids, the
	// count of kiwi.
	_, j := uvarint(buf, 0)
	k, j := uvarint(buf, j)
	m1, j := uvarint(buf, j)
	m2, j := uvarint(buf, j)
	if k != 0 || m1 != 2 || m2 != 1 {
		t.Fatalf("row of class %d with %d+%d terms, want 0 with 2+1", k, m1, m2)
	}
	ctrl := buf[j]
	j++
	var got []uint64
	for tm := range 3 {
		n := int(ctrl>>(2*tm)&3) + 1
		var b [8]byte
		copy(b[:], buf[j:j+n])
		got = append(got, binary.LittleEndian.Uint64(b[:]))
		j += n
	}
	want := []uint64{vectorize.Bucket("mango", bits), vectorize.Bucket("papaya", bits), vectorize.Bucket("kiwi", bits)}
	if !slices.Equal(got, want) {
		t.Errorf("cached ids %v, want the buckets %v of mango, papaya (once) and kiwi (twice)", got, want)
	}
	if cnt, _ := uvarint(buf, j); cnt != 2 {
		t.Errorf("cached count %d, want 2", cnt)
	}

	// Close after a spill, before any reading: the carried segments go.
	dir := t.TempDir()
	texts, labels := docs(300, 22)
	c = counter(t, s, nil, texts, labels, Options{Workers: 2, Mem: 8 << 10, Replay: true, TempDir: dir})
	c.Close()
	if len(c.carried) != 0 || len(c.segments) != 0 {
		t.Errorf("Close left %d open and %d closed segments", len(c.carried), len(c.segments))
	}
}

// TestBucketIndex: a bucketIndex gives each bucket of a hashed vocabulary
// its id, -1 to the others, and refuses terms that are not ascending
// buckets.
func TestBucketIndex(t *testing.T) {
	const bits = 10
	buckets := []uint64{0, 1, 63, 64, 65, 200, 511, 1023}
	v := &vectorize.Vocabulary{Settings: vectorize.Settings{HashBits: bits}}
	for _, b := range buckets {
		v.Terms = append(v.Terms, vectorize.BucketName(b, bits))
	}
	x, err := newBucketIndex(v)
	if err != nil {
		t.Fatal(err)
	}
	for b := range uint32(1 << bits) {
		want := int32(slices.Index(buckets, uint64(b)))
		if got := x.id(b); got != want {
			t.Errorf("bucket %d: id %d, want %d", b, got, want)
		}
	}
	for _, terms := range [][]string{{"~001", "~000"}, {"~001", "~001"}, {"kiwi"}, {"~400"}} {
		v.Terms = terms
		if _, err := newBucketIndex(v); err == nil || !strings.Contains(err.Error(), "bucket") {
			t.Errorf("terms %q: %v, want an error", terms, err)
		}
	}
}
