package synth

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

func generate(t testing.TB, cfg Config) string {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := g.WriteTSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func distinct(tsv string) int {
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(tsv, "\n"), "\n") {
		_, text, _ := strings.Cut(line, "\t")
		for _, w := range strings.Fields(text) {
			seen[w] = true
		}
	}
	return len(seen)
}

func TestSeeded(t *testing.T) {
	cfg := Config{Seed: 7, Docs: 200, WordsPerDoc: 50, Vocab: 5000}
	a, b := generate(t, cfg), generate(t, cfg)
	if a != b {
		t.Fatal("the same seed gave different corpora")
	}
	cfg.Seed = 8
	if generate(t, cfg) == a {
		t.Fatal("another seed gave the same corpus")
	}
	lines := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	if len(lines) != 200 {
		t.Fatalf("%d lines, want 200", len(lines))
	}
	for _, l := range lines {
		label, text, ok := strings.Cut(l, "\t")
		if !ok || !strings.HasPrefix(label, "class") || len(strings.Fields(text)) < 25 || len(strings.Fields(text)) > 75 {
			t.Fatalf("bad line %q", l)
		}
	}
}

// TestZipfAndHeaps: a fixed vocabulary saturates, a growing one keeps
// growing (Heaps), and the most frequent word is far above the median.
func TestZipfAndHeaps(t *testing.T) {
	fixed := Config{Seed: 1, Vocab: 2000, WordsPerDoc: 100}
	heaps := fixed
	heaps.Heaps = true
	fixed.Docs, heaps.Docs = 500, 500
	f1, h1 := distinct(generate(t, fixed)), distinct(generate(t, heaps))
	fixed.Docs, heaps.Docs = 4000, 4000
	f2, h2 := distinct(generate(t, fixed)), distinct(generate(t, heaps))
	if f2 > 2000 || float64(f2)/float64(f1) > 1.5 {
		t.Errorf("fixed vocabulary: %d then %d distinct words, want saturation at ≤ 2000", f1, f2)
	}
	if float64(h2)/float64(h1) < 3 {
		t.Errorf("Heaps: %d then %d distinct words for 8 times the text, want growth", h1, h2)
	}
	counts := map[string]int{}
	for _, w := range strings.Fields(generate(t, Config{Seed: 2, Docs: 300, Vocab: 1000})) {
		counts[w]++
	}
	if counts["xa"] < 20*counts["xbz"] {
		t.Errorf("rank 0 has %d occurrences, rank 51 %d: not Zipf-like", counts["xa"], counts["xbz"])
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{{Docs: -1}, {Classes: 1}, {Zipf: 0.5}, {ClassShare: 2}, {WordsPerDoc: 1}} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v): no error", c)
		}
	}
}

// BenchmarkGenerate reports how fast the generator feeds text (MB/s).
func BenchmarkGenerate(b *testing.B) {
	for _, heaps := range []bool{false, true} {
		name := "fixed"
		if heaps {
			name = "heaps"
		}
		b.Run(name, func(b *testing.B) {
			g, err := New(Config{Seed: 1, Docs: b.N, Heaps: heaps})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer() // not the spelling of the fixed vocabulary
			n, err := g.WriteTSV(io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(n / int64(max(b.N, 1)))
		})
	}
}

// TestWriteTSVIsNext: WriteTSV, which spells blocks of documents on all
// cores, writes exactly the documents Next returns, in order, for both
// kinds of vocabulary and over several blocks.
func TestWriteTSVIsNext(t *testing.T) {
	for _, heaps := range []bool{false, true} {
		cfg := Config{Seed: 3, Docs: 3*blockDocs + 17, WordsPerDoc: 20, Vocab: 3000, Heaps: heaps}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		var text int64
		for {
			c, doc, ok := g.Next()
			if !ok {
				break
			}
			fmt.Fprintf(&want, "%s\t%s\n", Label(c), doc)
			text += int64(len(doc))
		}
		g, _ = New(cfg)
		var got bytes.Buffer
		n, err := g.WriteTSV(&got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) || n != text {
			t.Errorf("heaps=%v: WriteTSV wrote %d bytes (%d of text), Next %d (%d)", heaps, got.Len(), n, want.Len(), text)
		}
	}
}
