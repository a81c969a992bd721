package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// mlClock is a meter that moves only when a fit ends (afterFit).
type mlClock struct{ t float64 }

func (c *mlClock) now() float64   { return c.t }
func (c *mlClock) clock() float64 { return c.t }

// mlCorpus is a corpus of n documents with one or two of three topics.
func mlCorpus(n int, seed uint64) ([]string, [][]int, []string) {
	rng := rand.New(rand.NewPCG(seed, 3))
	words := [][]string{strings.Fields("goal match team ball score"), strings.Fields("vote party law senate poll"), strings.Fields("cpu code chip linux disk")}
	var texts []string
	var Y [][]int
	for range n {
		ls := []int{rng.IntN(3)}
		if rng.IntN(3) == 0 {
			ls = append(ls, (ls[0]+1)%3)
		}
		var w []string
		for _, l := range ls {
			for range 3 {
				w = append(w, words[l][rng.IntN(5)])
			}
		}
		w = append(w, fmt.Sprintf("noise%d", rng.IntN(50)))
		texts = append(texts, strings.Join(w, " "))
		Y = append(Y, ls)
	}
	return texts, Y, []string{"sport", "politics", "tech"}
}

// TestTrainMultiLabelSlowMachine runs the multi-label search on a machine
// so slow that each fit takes 10 of the budget's 35 seconds: it scores
// the first defaults (the first whatever the budget), skips the rest,
// and chooses the best default scored.
func TestTrainMultiLabelSlowMachine(t *testing.T) {
	texts, Y, labels := mlCorpus(200, 1)
	clk := &mlClock{}
	req := MultiLabelRequest{Texts: texts, Y: Y, Labels: labels, Metric: MicroF1, Budget: Budget{Unit: WallTime, Amount: 35}, Seed: 1, Workers: 1,
		meter: clk, afterFit: func(*MLEntry) { clk.t += 10 }}
	tr, err := TrainMultiLabel(req)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Result
	// 10 s a fit and 15 s reserved for the refit: two candidates fit in 35 s.
	if res.Scored != 2 || res.Candidates != len(res.Leaderboard) {
		t.Fatalf("scored %d of %d candidates, want 2", res.Scored, res.Candidates)
	}
	best := res.Best()
	for _, e := range res.Leaderboard {
		if e.Scored && (!e.Default || e.Score > best.Score) {
			t.Errorf("scored %s (default %v, %.4f) against the chosen %.4f", e.Describe(), e.Default, e.Score, best.Score)
		}
	}
	var b strings.Builder
	if err := res.WriteTable(&b, 10); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "skipped for lack of budget") {
		t.Errorf("the leaderboard does not say what was skipped:\n%s", b.String())
	}
	if tr.Model == nil || !tr.Model.MultiLabel {
		t.Errorf("no multi-label model")
	}
	// A budget that admits nothing still scores the first default.
	clk.t = 0
	req.Budget.Amount = 1
	tr, err = TrainMultiLabel(req)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Result.Scored != 1 || !tr.Result.Best().Default {
		t.Errorf("with no budget: scored %d, chose %s", tr.Result.Scored, tr.Result.Best().Describe())
	}
	if _, err := TrainMultiLabel(MultiLabelRequest{Texts: texts, Y: Y, Labels: labels, Metric: "accuracy"}); err == nil || !strings.Contains(err.Error(), "micro_f1, macro_f1 or p_at_1") {
		t.Errorf("metric accuracy: %v", err)
	}
}

// TestMultiLabelCandidatesDefaults: each kind's default candidate is the
// request's Defaults (as train fits it on the corpus), with the
// multi-label C where the kind has one; without Defaults, train.Defaults.
func TestMultiLabelCandidatesDefaults(t *testing.T) {
	charWB := func(k model.Kind) (vectorize.Settings, model.Params) {
		s, p := train.Defaults(k)
		s.Analysis.Analyzer, s.Analysis.CharMin, s.Analysis.CharMax = "char_wb", 2, 4
		s.NGramMin, s.NGramMax, s.Fields = 1, 1, ""
		return s, p
	}
	for _, defs := range []DefaultsFunc{nil, charWB} {
		cands, err := multiLabelCandidates(0, "", defs)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, c := range cands {
			if !c.Default {
				continue
			}
			seen++
			want := "word"
			if defs != nil {
				want = "char_wb"
			}
			if got := c.spec.Settings.Analysis.Analyzer; (got == "char_wb") != (want == "char_wb") {
				t.Errorf("%s default: analyzer %q, want %s", c.Kind, got, want)
			}
			if mc, ok := train.MultiLabelC(c.spec.Kind); ok && c.spec.Params.C != mc {
				t.Errorf("%s default: C %g, want the multi-label C %g", c.Kind, c.spec.Params.C, mc)
			}
		}
		if seen != len(MultiLabelKinds) {
			t.Errorf("%d defaults, want one for each of %d kinds", seen, len(MultiLabelKinds))
		}
	}
}
