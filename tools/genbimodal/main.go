// Command genbimodal writes a seeded synthetic data set of numeric records
// as CSV (x,y,label) on which a Gaussian per class is the wrong shape:
// each of the two classes is an equal mixture of two normal modes of
// standard deviation 1, class a's at -4 and +4, class b's at 0 and +8 on
// x, so that the modes of the classes interleave and their means (0 and
// 4) and variances (17 and 17) say little. The second field, y, is
// N(0, 1) noise for both classes. A development tool for the kernel
// density's worked example and test (testdata/bimodal.csv), not an nbtext
// command.
//
//	go run ./tools/genbimodal -seed 1 -n 500 > testdata/bimodal.csv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	n := flag.Int("n", 500, "records per class")
	flag.Parse()
	rng := rand.New(rand.NewPCG(*seed, 0))
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "x,y,label")
	modes := map[string][2]float64{"a": {-4, 4}, "b": {0, 8}}
	for i := 0; i < 2**n; i++ {
		label := "a"
		if i%2 == 1 {
			label = "b"
		}
		m := modes[label][rng.IntN(2)]
		fmt.Fprintf(w, "%.4f,%.4f,%s\n", m+rng.NormFloat64(), rng.NormFloat64(), label)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genbimodal:", err)
		os.Exit(1)
	}
}
