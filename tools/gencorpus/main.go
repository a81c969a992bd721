// Command gencorpus writes a seeded synthetic labelled corpus as TSV
// (label<TAB>text per line) for the scale benchmarks (make bench-scale):
// Zipf-distributed words over a fixed vocabulary, or with -heaps one that
// keeps growing. A development tool (see internal/synth), not an nbtext
// command.
//
//	go run ./tools/gencorpus -docs 100000 -seed 1 -o corpus.tsv
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/synth"
)

func main() {
	var cfg synth.Config
	var out string
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	flag.IntVar(&cfg.Docs, "docs", 1000, "documents")
	flag.IntVar(&cfg.Classes, "classes", 20, "classes")
	flag.IntVar(&cfg.Vocab, "vocab", 200000, "words of the fixed vocabulary")
	flag.BoolVar(&cfg.Heaps, "heaps", false, "a vocabulary that keeps growing (Heaps' law) instead")
	flag.IntVar(&cfg.WordsPerDoc, "words", 300, "mean words per document")
	flag.Float64Var(&cfg.Zipf, "zipf", 1.1, "Zipf exponent s > 1")
	flag.Float64Var(&cfg.ClassShare, "class-share", 0.3, "fraction of words from the class's own ranking")
	flag.StringVar(&out, "o", "-", "output file, - for stdout")
	flag.Parse()
	if err := run(cfg, out); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run(cfg synth.Config, out string) error {
	g, err := synth.New(cfg)
	if err != nil {
		return err
	}
	start := time.Now()
	var n int64
	write := func(w io.Writer) error {
		n, err = g.WriteTSV(w)
		return err
	}
	if out == "-" {
		err = write(os.Stdout)
	} else {
		err = fsutil.WriteFile(out, write)
	}
	if err != nil {
		return err
	}
	d := time.Since(start).Seconds()
	fmt.Fprintf(os.Stderr, "gencorpus: %d documents, %.1f MB of text in %.1f s (%.0f MB/s)\n", cfg.Docs, float64(n)/1e6, d, float64(n)/1e6/d)
	return nil
}
