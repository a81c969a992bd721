package counts

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestCounterBytesInFlight: the text of the batches queued and being
// counted stays under the byte budget, documents larger than half of it
// (counted alone, not copied) included, and the counts are those of an
// unbounded count, in both rounds, whatever the caller does with its
// memory after Add (issue 28, item 7).
func TestCounterBytesInFlight(t *testing.T) {
	texts, labels := docs(300, 21)
	for i := 5; i < len(texts); i += 11 {
		texts[i] = strings.Repeat(texts[i]+" ", 40) // past half the budget
	}
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	v, _, err := countAll(t, s, nil, texts, labels, Options{}).Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	const limit = 8 << 10
	for _, vocab := range []*vectorize.Vocabulary{nil, v} {
		want := encode(t, countAll(t, s, vocab, texts, labels, Options{Workers: 1}))
		c, err := NewCounter(s, vocab, Options{Workers: 3, inFlight: limit})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		huge := 0
		var buf []byte
		for i := range texts {
			huge += len(texts[i]) / (limit/2 + 1)
			buf = append(append(buf[:0], labels[i]...), texts[i]...)
			if err := c.Add(unsafe.String(&buf[len(labels[i])], len(texts[i])), unsafe.String(&buf[0], len(labels[i]))); err != nil {
				t.Fatal(err)
			}
			for j := range buf { // the caller reuses its memory
				buf[j] = 'x'
			}
		}
		if huge == 0 {
			t.Fatal("no document past half the budget")
		}
		if got := written(t, c); !bytes.Equal(encode(t, got), want) {
			t.Errorf("round two %v: counts under a byte budget differ", vocab != nil)
		}
		if p := c.budget.Peak(); p > limit || p == 0 {
			t.Errorf("round two %v: %d bytes in flight at most, budget %d", vocab != nil, p, limit)
		}
		if u := c.budget.Used(); u != 0 {
			t.Errorf("%d bytes still held once counted", u)
		}
	}
}

// TestCounterHugeTextNotCopied: a document larger than half the budget is
// counted from the caller's memory: Add allocates nothing of its size, so
// the huge documents of a stream are held once, by their reader, not once
// more per batch queued (issue 28, item 7: 10 lines of 200 MiB).
func TestCounterHugeTextNotCopied(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 4<<20; i++ {
		fmt.Fprintf(&b, "w%d ", i%3000)
	}
	text := b.String()
	s := vectorize.DefaultSettings()
	c, err := NewCounter(s, nil, Options{Workers: 1, inFlight: 1 << 20}) // one worker: its buffers grow once
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(text, "a"); err != nil { // the terms' tables grow
		t.Fatal(err)
	}
	if err := c.drain(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 3 {
		if err := c.Add(text, "a"); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(text))/4 {
		t.Errorf("3 documents of %d MiB counted: %d KiB allocated, want under a quarter of one", len(text)>>20, got>>10)
	}
	got, err := c.Counts()
	if err != nil {
		t.Fatal(err)
	}
	if n := got.Header.ClassDocs; len(n) != 1 || n[0] != 4 {
		t.Errorf("class documents %v, want [4]", n)
	}
}
