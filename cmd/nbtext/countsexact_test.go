package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// wideVocabTSV is a corpus of four classes whose documents share most of
// a heavy-tailed vocabulary (thousands of terms) and differ by a few
// class words, some of them borrowed by the other classes: not separable,
// so every model calibrates a finite temperature, and complement NB's
// weight-normalized scores are so small that its temperature is past 1e6.
func wideVocabTSV(docs int) string {
	r := rand.New(rand.NewPCG(2, 7))
	var b strings.Builder
	for i := range docs {
		k := i % 4
		b.WriteString(string(rune('a' + k)))
		b.WriteByte('\t')
		for j := range 80 {
			if j > 0 {
				b.WriteByte(' ')
			}
			if r.Float64() < 0.08 {
				kk := k
				if r.Float64() >= 0.6 {
					kk = r.IntN(4)
				}
				fmt.Fprintf(&b, "c%d_%d", kk, r.IntN(40))
			} else {
				// Pareto with shape 0.3: a vocabulary with a long tail.
				fmt.Fprintf(&b, "w%d", int(3*math.Pow(1-r.Float64(), -1/0.3)))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestCountsReproduceCalibrated: for every model fitted from counts, the
// model in-memory training fits with its default, fitted temperature is
// the model train --from-counts fits from the merged shards given that
// temperature (as info --format json shows it), bit for bit, and so its
// probabilities are the same. Complement NB's temperature is past 1e6.
func TestCountsReproduceCalibrated(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := wideVocabTSV(600)
	tsv := writeFile(t, dir, "wide.tsv", corpus)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(corpus), "\n")[:50] {
		_, text, _ := strings.Cut(l, "\t")
		lines = append(lines, text)
	}
	texts := writeFile(t, dir, "texts.txt", strings.Join(lines, "\n")+"\n")
	for _, kind := range []string{"multinomial", "bernoulli", "complement", "centroid"} {
		t.Run(kind, func(t *testing.T) {
			mem := filepath.Join(dir, kind+"-mem.nbm")
			// Rennie's weight normalisation is what takes complement's
			// temperature past 1e6; counts hold no held-out scores for the
			// centroid's class offsets.
			extra := map[string][]string{"complement": {"--weight-norm"}, "centroid": {"--centroid-offset", "none"}}[kind]
			r := mustRun(t, append([]string{"train", tsv, "--model", kind, "-o", mem}, extra...)...)
			m, err := model.Load(mem)
			if err != nil {
				t.Fatal(err)
			}
			tau := m.Params.Temperature
			if kind != "multinomial" && !(tau > 0 && tau != 1) {
				t.Fatalf("%s: no temperature was fitted: %s", kind, r.out)
			}
			t.Logf("%s: fitted temperature %g", kind, tau)
			if kind == "complement" && tau <= 1e6 {
				t.Errorf("complement's fitted temperature %g is not past 1e6: the corpus no longer tests the range", tau)
			}
			// Round one in 3 shards, merged; then round two when the
			// weighting needs the vocabulary.
			parts := countShards(t, dir, kind+"-r1-", tsv, 3, "--model", kind)
			all := filepath.Join(dir, kind+"-r1.nbc")
			mustRun(t, append([]string{"merge", "-q", "-o", all}, parts...)...)
			if strings.Contains(nbtext(t, "", "count", tsv, "--model", kind, "-o", filepath.Join(dir, kind+"-probe.nbc")).err, "--vocab") {
				parts = countShards(t, dir, kind+"-r2-", tsv, 3, "--vocab", all)
				all = filepath.Join(dir, kind+"-r2.nbc")
				mustRun(t, append([]string{"merge", "-q", "-o", all}, parts...)...)
			}
			args := append([]string{"train", "-q", "--from-counts", all, "--model", kind, "--expect-shards", "3", "-o", filepath.Join(dir, kind+"-counts.nbm")}, extra...)
			if tau > 0 {
				args = append(args, "--temperature", strconv.FormatFloat(tau, 'g', -1, 64))
			}
			mustRun(t, args...)
			sameModels(t, mem, filepath.Join(dir, kind+"-counts.nbm"))
			// The same probabilities, to the last digit printed.
			pa := mustRun(t, "predict", "-m", mem, "--top-k", "4", "--format", "json", texts).out
			pb := mustRun(t, "predict", "-m", filepath.Join(dir, kind+"-counts.nbm"), "--top-k", "4", "--format", "json", texts).out
			if pa != pb || pa == "" {
				t.Errorf("%s: probabilities differ between in-memory and counts models", kind)
			}
		})
	}
}
