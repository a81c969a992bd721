// Command genmultilabel writes a seeded synthetic multi-label corpus with
// a long tail of labels, as fastText lines (__label__A [__label__B ...]
// text), to standard output: short documents (5 to 14 words) like the
// questions of a tag corpus, labels drawn with Zipf weights 1/(k+1)^1.3
// (label k is also on document k, so that all of them occur), one more
// label with probability 0.55 each time (at most 5), and 40% of the words
// from the document's labels' 12 own words, the rest Zipf(1.1) over the
// vocabulary. A development tool for the one-vs-rest speed figures of
// docs/multi-label.md, not an nbtext command:
//
//	go run ./tools/genmultilabel -docs 18000 -labels 735 -seed 1 > all.ft
//
// With these flags the first 15,000 lines hold 735 labels, 208 of them
// on 1 to 3 documents, 1.94 labels per document.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
)

func main() {
	docs := flag.Int("docs", 15000, "documents")
	L := flag.Int("labels", 735, "labels")
	vocab := flag.Int("vocab", 8000, "words of the vocabulary")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *docs < 1 || *L < 1 || *vocab < 2 {
		fmt.Fprintln(os.Stderr, "genmultilabel: -docs and -labels must be at least 1, -vocab at least 2")
		os.Exit(2)
	}
	r := rand.New(rand.NewPCG(*seed, 7))
	// label weights: Zipf s=1.3
	w := make([]float64, *L)
	tot := 0.0
	for k := range w {
		w[k] = 1 / math.Pow(float64(k+1), 1.3)
		tot += w[k]
	}
	cum := make([]float64, *L)
	acc := 0.0
	for k := range w {
		acc += w[k] / tot
		cum[k] = acc
	}
	pick := func() int {
		u := r.Float64()
		lo, hi := 0, *L-1
		for lo < hi {
			m := (lo + hi) / 2
			if cum[m] < u {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	zw := rand.NewZipf(r, 1.1, 1, uint64(*vocab-1))
	topic := make([][]int, *L)
	for k := range topic {
		for j := 0; j < 12; j++ {
			topic[k] = append(topic[k], r.IntN(*vocab))
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer func() {
		if err := out.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "genmultilabel:", err)
			os.Exit(1)
		}
	}()
	for i := 0; i < *docs; i++ {
		set := map[int]bool{}
		var ls []int
		add := func(k int) {
			if !set[k] {
				set[k] = true
				ls = append(ls, k)
			}
		}
		if i < *L {
			add(i)
		} else {
			add(pick())
		}
		for r.Float64() < 0.55 && len(ls) < 5 {
			add(pick())
		}
		var b strings.Builder
		for _, k := range ls {
			fmt.Fprintf(&b, "__label__tag%03d ", k)
		}
		n := 5 + r.IntN(10)
		for j := 0; j < n; j++ {
			if r.Float64() < 0.4 {
				k := ls[r.IntN(len(ls))]
				fmt.Fprintf(&b, "w%d ", topic[k][r.IntN(len(topic[k]))])
			} else {
				fmt.Fprintf(&b, "w%d ", zw.Uint64())
			}
		}
		fmt.Fprintln(out, strings.TrimSpace(b.String()))
	}
}
