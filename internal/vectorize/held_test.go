package vectorize

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"
	"weak"
)

// TestVectorizerKeepsNoText: a long-lived Vectorizer (one per predict
// worker) must not keep the text of the last document alive: its tokens
// are substrings of it, so a worker that scored a 200 MiB line would hold
// those 200 MiB until its next document (issue 28, item 7). Checked for a
// short document and for a long one, tokenized in pieces, with a weak
// pointer to the text.
func TestVectorizerKeepsNoText(t *testing.T) {
	texts := []string{"the car engine needs oil", "a senate vote on the tax"}
	vocab, _, err := Fit(texts, []int{0, 1}, 2, DefaultSettings(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	z := vocab.NewVectorizer()
	for _, n := range []int{10, 3 * longDocument / 24} {
		b := []byte(strings.Repeat("the car engine oil senate ", n)) // already lower case: tokens alias it
		wp := weak.Make(&b[0])
		text := unsafe.String(&b[0], len(b))
		ind, _ := z.Vectorize(text)
		if len(ind) == 0 {
			t.Fatalf("%d bytes: no term", len(text))
		}
		b, text = nil, ""
		runtime.GC()
		if wp.Value() != nil {
			t.Errorf("a document of %d bytes is still reachable after Vectorize returned", n*26)
		}
	}
	runtime.KeepAlive(z)
}

// TestTermCounterKeepsNoText: the same for the TermCounter of count's
// first round (a worker's fitWorker and its tokenizer).
func TestTermCounterKeepsNoText(t *testing.T) {
	tc := NewTermCounter(DefaultSettings())
	for _, n := range []int{10, 3 * longDocument / 24} {
		b := []byte(strings.Repeat("the car engine oil senate ", n))
		wp := weak.Make(&b[0])
		text := unsafe.String(&b[0], len(b))
		if ids, _ := tc.Row(text); len(ids) == 0 {
			t.Fatalf("%d bytes: no term", len(text))
		}
		b, text = nil, ""
		runtime.GC()
		if wp.Value() != nil {
			t.Errorf("a document of %d bytes is still reachable after Row returned", n*26)
		}
	}
	runtime.KeepAlive(tc)
}
