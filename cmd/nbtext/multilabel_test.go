package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// multiLabelLines writes fastText lines carrying one or two of three
// topics' labels.
func multiLabelLines(t *testing.T, dir, name string, n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	topics := map[string][]string{
		"sport":    strings.Fields("goal match team ball score"),
		"politics": strings.Fields("vote election party law senate"),
		"tech":     strings.Fields("cpu code software chip linux"),
	}
	names := []string{"politics", "sport", "tech"}
	var b strings.Builder
	for range n {
		ls := []string{names[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			for {
				if o := names[rng.IntN(3)]; o != ls[0] {
					ls = append(ls, o)
					break
				}
			}
		}
		var words []string
		for _, l := range ls {
			fmt.Fprintf(&b, "__label__%s ", l)
			for range 4 {
				words = append(words, topics[l][rng.IntN(5)])
			}
		}
		b.WriteString(strings.Join(append(words, "the", "news", "today"), " ") + "\n")
	}
	return writeFile(t, dir, name, b.String())
}

// TestMultiLabelCLI runs train --multi-label, predict (text and JSON) and
// eval --multi-label, and checks that a multi-label line stays an error
// for single-label train and that eval without --multi-label refuses a
// multi-label model.
func TestMultiLabelCLI(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tr, te := multiLabelLines(t, dir, "train.txt", 300, 1), multiLabelLines(t, dir, "test.txt", 100, 2)
	m := filepath.Join(dir, "ml.nbm")
	check(t, nbtext(t, "", "train", tr, "--model", "logreg", "-o", m), 1, "2 labels on one record")
	r := nbtext(t, "", "train", tr, "--multi-label", "--model", "logreg", "-o", m)
	check(t, r, 0)
	if !strings.Contains(r.out, "labels       3") {
		t.Errorf("train output: %s", r.out)
	}
	r = nbtext(t, "goal match vote senate\nlinux chip code\n", "predict", "-m", m)
	check(t, r, 0)
	if r.out != "sport politics\ntech\n" && r.out != "politics sport\ntech\n" {
		t.Errorf("predict: %q, want the two labels of each line", r.out)
	}
	r = nbtext(t, "linux chip code\n", "predict", "-m", m, "--format", "json")
	var out struct {
		Labels []string
		Probs  map[string]float64
	}
	if err := json.Unmarshal([]byte(r.out), &out); err != nil || len(out.Labels) != 1 || out.Labels[0] != "tech" || len(out.Probs) != 3 || !(out.Probs["tech"] >= 0.5) {
		t.Errorf("predict --format json: %q (%v)", r.out, err)
	}
	if r := nbtext(t, "linux chip code\n", "predict", "-m", m, "--top-k", "2"); strings.Count(r.out, " ") != 3 {
		t.Errorf("predict --top-k 2: %q, want two labels with probabilities", r.out)
	}
	r = nbtext(t, "", "eval", "-m", m, te, "--multi-label", "--format", "json", "--top-k", "2")
	check(t, r, 0)
	var rep map[string]float64
	dec := json.NewDecoder(strings.NewReader(r.out))
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("%v: %s", err, r.out)
	}
	rep = map[string]float64{}
	for _, k := range []string{"micro_f1", "macro_f1", "hamming_loss", "subset_accuracy", "precision_at_k", "recall_at_k"} {
		v, ok := raw[k].(float64)
		if !ok {
			t.Fatalf("eval JSON lacks %s: %s", k, r.out)
		}
		rep[k] = v
	}
	if rep["micro_f1"] < 0.9 || rep["hamming_loss"] > 0.1 {
		t.Errorf("eval --multi-label: %v", rep)
	}
	check(t, nbtext(t, "", "eval", "-m", m, te), 1)
	check(t, nbtext(t, "", "train", tr, "--label-sep", ",", "-o", m), 2, "--label-sep needs --multi-label")
}
