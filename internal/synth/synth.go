package synth

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
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
	draws []uint64
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

// word returns the rank that the random draw x gives, and whether it
// comes from the class's own ranking.
func (g *Generator) word(x uint64) (rank uint64, own bool) {
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
	class, n := g.draw()
	g.draws = g.draws[:0]
	for range n {
		g.draws = append(g.draws, g.rng.Uint64())
	}
	g.buf = g.spell(g.buf[:0], class, g.draws)
	return class, g.buf, true
}

// draw draws a document's class and number of words; the words take one
// draw of g.rng each, after it.
func (g *Generator) draw() (class, words int) {
	class = g.rng.IntN(g.cfg.Classes)
	w := g.cfg.WordsPerDoc
	return class, w/2 + g.rng.IntN(w+1)
}

// spell appends the text of a document of class whose words come from
// the random draws xs (one each).
func (g *Generator) spell(b []byte, class int, xs []uint64) []byte {
	cfg := &g.cfg
	V := uint64(cfg.Vocab)
	offset := uint64(class) * V / uint64(cfg.Classes)
	for j, x := range xs {
		if j > 0 {
			b = append(b, ' ')
		}
		r, own := g.word(x)
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
	return b
}

// block is a run of documents WriteTSV spells at once: their classes,
// word counts and draws, then their TSV lines.
type block struct {
	classes, words []int
	draws          []uint64
	out            []byte
	text           int64
	done           chan struct{}
}

// blockDocs is the documents of a block.
const blockDocs = 512

// WriteTSV writes the rest of the corpus to w as TSV, label<TAB>text per
// line, and returns the bytes of text written: the documents Next would
// return, in order. This goroutine draws the random numbers, in the order
// Next draws them, which fixes the corpus; the spelling, most of the work,
// runs on all cores, a block of documents at a time, and the blocks are
// written in order.
func (g *Generator) WriteTSV(w io.Writer) (int64, error) {
	labels := make([]string, g.cfg.Classes)
	for c := range labels {
		labels[c] = Label(c)
	}
	todo := make(chan *block, 2*runtime.GOMAXPROCS(0))
	ordered := make(chan *block, cap(todo))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range todo {
				lo := 0
				for i, c := range b.classes {
					b.out = append(b.out, labels[c]...)
					b.out = append(b.out, '\t')
					n0 := len(b.out)
					b.out = g.spell(b.out, c, b.draws[lo:lo+b.words[i]])
					b.text += int64(len(b.out) - n0)
					b.out = append(b.out, '\n')
					lo += b.words[i]
				}
				close(b.done)
			}
		}()
	}
	// quit is closed when a write fails: then draw and spell no more.
	quit := make(chan struct{})
	go func() { // draw, in order
		defer close(ordered)
		defer close(todo)
		for g.doc < g.cfg.Docs {
			b := &block{done: make(chan struct{})}
			for ; len(b.classes) < blockDocs && g.doc < g.cfg.Docs; g.doc++ {
				c, n := g.draw()
				b.classes, b.words = append(b.classes, c), append(b.words, n)
				for range n {
					b.draws = append(b.draws, g.rng.Uint64())
				}
			}
			select {
			case todo <- b:
			case <-quit:
				return
			}
			ordered <- b
		}
	}()
	var total int64
	var err error
	for b := range ordered {
		<-b.done
		if err == nil {
			_, err = w.Write(b.out)
			total += b.text
			if err != nil {
				close(quit)
			}
		}
	}
	wg.Wait()
	return total, err
}
