package synth

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
)

// Config describes a corpus.
type Config struct {
	Seed        uint64
	Docs        int     // documents
	Classes     int     // classes (default 20)
	Vocab       int     // words of the fixed vocabulary (default 200000); ignored with Heaps
	Heaps       bool    // a vocabulary that keeps growing
	WordsPerDoc int     // mean words per document (default 300; lengths uniform in [w/2, 3w/2])
	Zipf        float64 // exponent s > 1 (default 1.1)
	ClassShare  float64 // fraction of words from the class's own ranking (default 0.3)
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Classes == 0 {
		c.Classes = 20
	}
	if c.Vocab == 0 {
		c.Vocab = 200000
	}
	if c.WordsPerDoc == 0 {
		c.WordsPerDoc = 300
	}
	if c.Zipf == 0 {
		c.Zipf = 1.1
	}
	if c.ClassShare == 0 {
		c.ClassShare = 0.3
	}
	return c
}

// Generator produces the documents of a Config, one at a time.
type Generator struct {
	cfg   Config
	rng   *rand.Rand
	words [][]byte // spelled words of the fixed vocabulary
	mass  float64  // P(R < V) of the untruncated law: 1 with Heaps
	exp   float64  // 1/(1-s)
	share uint64   // ClassShare in units of 2⁻¹⁰
	doc   int
	buf   []byte
}

// New returns a Generator for cfg.
func New(cfg Config) (*Generator, error) {
	cfg = cfg.withDefaults()
	switch {
	case cfg.Docs < 0:
		return nil, fmt.Errorf("docs must be ≥ 0, got %d", cfg.Docs)
	case cfg.Classes < 2:
		return nil, fmt.Errorf("classes must be ≥ 2, got %d", cfg.Classes)
	case cfg.Vocab < cfg.Classes:
		return nil, fmt.Errorf("vocab must be ≥ classes, got %d", cfg.Vocab)
	case cfg.WordsPerDoc < 2:
		return nil, fmt.Errorf("words per document must be ≥ 2, got %d", cfg.WordsPerDoc)
	case !(cfg.Zipf > 1):
		return nil, errors.New("the Zipf exponent must be > 1")
	case !(cfg.ClassShare >= 0 && cfg.ClassShare <= 1):
		return nil, errors.New("the class share must be in [0, 1]")
	}
	g := &Generator{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))}
	g.exp = 1 / (1 - cfg.Zipf)
	g.share = uint64(cfg.ClassShare * 1024)
	g.mass = 1
	if !cfg.Heaps {
		g.mass = 1 - math.Pow(float64(cfg.Vocab)+1, 1-cfg.Zipf)
		g.words = make([][]byte, cfg.Vocab)
		for i := range g.words {
			g.words[i] = spell(nil, uint64(i))
		}
	}
	return g, nil
}

// maxRank bounds the ranks of a growing vocabulary.
const maxRank = 1 << 40

// word draws a rank and whether it comes from the class's own ranking.
func (g *Generator) word() (rank uint64, own bool) {
	x := g.rng.Uint64()
	u := float64(x>>11) * (1.0 / (1 << 53)) // bits 11-63: uniform in [0, 1)
	own = x&1023 < g.share                  // bits 0-9
	r := math.Pow(1-u*g.mass, g.exp) - 1    // P(R > r) = (1+r)^(1-s), truncated
	switch {
	case !(r < maxRank):
		r = maxRank
	case !g.cfg.Heaps && r >= float64(g.cfg.Vocab):
		r = float64(g.cfg.Vocab - 1) // rounding at the very end of the law
	}
	return uint64(r), own
}

// spell appends the spelling of word id k: "x" and k in base 26, at
// least one letter.
func spell(b []byte, k uint64) []byte {
	b = append(b, 'x')
	var tmp [16]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('a' + k%26)
		k /= 26
		if k == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

// Label returns the name of class c.
func Label(c int) string { return fmt.Sprintf("class%02d", c) }

// Next returns the next document's class and text (valid until the
// following call), or ok = false after cfg.Docs documents.
func (g *Generator) Next() (class int, text []byte, ok bool) {
	if g.doc >= g.cfg.Docs {
		return 0, nil, false
	}
	g.doc++
	cfg := &g.cfg
	class = g.rng.IntN(cfg.Classes)
	w := cfg.WordsPerDoc
	n := w/2 + g.rng.IntN(w+1)
	b := g.buf[:0]
	V := uint64(cfg.Vocab)
	offset := uint64(class) * V / uint64(cfg.Classes)
	for j := range n {
		if j > 0 {
			b = append(b, ' ')
		}
		r, own := g.word()
		switch {
		case cfg.Heaps && own:
			b = spell(b, r*uint64(cfg.Classes)+uint64(class)+1)
		case cfg.Heaps:
			b = spell(b, r*uint64(cfg.Classes))
		case own:
			b = append(b, g.words[(r+offset)%V]...)
		default:
			b = append(b, g.words[r]...)
		}
	}
	g.buf = b
	return class, b, true
}

// WriteTSV writes the corpus to w as TSV, label<TAB>text per line, and
// returns the bytes of text written.
func (g *Generator) WriteTSV(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var total int64
	labels := make([]string, g.cfg.Classes)
	for c := range labels {
		labels[c] = Label(c)
	}
	for {
		c, text, ok := g.Next()
		if !ok {
			break
		}
		bw.WriteString(labels[c])
		bw.WriteByte('\t')
		bw.Write(text)
		if err := bw.WriteByte('\n'); err != nil {
			return total, err
		}
		total += int64(len(text))
	}
	return total, bw.Flush()
}
