package search

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/model"
)

func TestParseBudget(t *testing.T) {
	for in, want := range map[string]Budget{
		"60s":       {WallTime, 60},
		"2m":        {WallTime, 120},
		"wall:90s":  {WallTime, 90},
		"cpu:1m":    {CPUTime, 60},
		"evals:40":  {Evaluations, 40},
		"evals:2.5": {Evaluations, 2.5},
	} {
		got, err := ParseBudget(in)
		if err != nil || got != want {
			t.Errorf("ParseBudget(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if back, err := ParseBudget(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for _, in := range []string{"", "0s", "-1s", "60", "cpu:", "cpu:0s", "evals:0", "evals:-3", "evals:x", "evals:Inf", "gpu:10s"} {
		if _, err := ParseBudget(in); err == nil {
			t.Errorf("ParseBudget(%q): no error", in)
		}
	}
}

// fakeClock is a meter whose time moves only when a candidate is fitted:
// each fit takes what slow says, so a test slows the machine down without
// timing anything.
type fakeClock struct {
	mu sync.Mutex
	t  float64
}

func (f *fakeClock) now() float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}
func (f *fakeClock) clock() float64 { return f.now() }

// slowedOptions returns options whose budget is budget seconds on a
// machine where each fit of a candidate takes perFit seconds (logistic
// regression four times as long), counted by a fake clock.
func slowedOptions(budget, perFit float64) Options {
	clk := &fakeClock{}
	return Options{
		Folds: 3, Seed: 3, Workers: 1, Budget: Budget{Unit: WallTime, Amount: budget}, meter: clk,
		afterFit: func(c *Candidate) {
			d := perFit
			if c.Spec.Kind == model.LogReg {
				d *= 4
			}
			clk.mu.Lock()
			clk.t += d
			clk.mu.Unlock()
		},
	}
}

// TestRunSlowedMachine runs one search on machines slowed more and more
// (each fit taking longer against the same budget): the defaults are
// scored first, the choice is never below the best of them on the same
// splits, and when the budget covers the defaults alone, the best default
// is chosen, with what was skipped said.
func TestRunSlowedMachine(t *testing.T) {
	texts, y, classes := hardSynth()
	for _, perFit := range []float64{0.01, 0.3, 1, 2, 5} {
		res, err := Run(texts, y, classes, smallSpace(), "", nil, slowedOptions(30, perFit))
		if err != nil {
			if perFit >= 5 && strings.Contains(err.Error(), "--budget") {
				continue // not even a default fits in the budget
			}
			t.Fatalf("%gs per fit: %v", perFit, err)
		}
		best, bd := res.Leaderboard[0], res.BestDefault()
		if bd == nil {
			t.Fatalf("%gs per fit: no default scored on the decision splits (%d)", perFit, res.Decision)
		}
		if best.Folds != res.Decision || best.Mean < bd.Mean {
			t.Errorf("%gs per fit: chose %s %.4f on %d splits, below the best default %s %.4f on %d",
				perFit, best.Kind, best.Mean, best.Folds, bd.Kind, bd.Mean, res.Decision)
		}
		skipped := len(res.Skipped.Defaults)+len(res.Skipped.Unscored)+len(res.Skipped.Unconfirmed) > 0
		t.Logf("%gs per fit: %d scored, decision on %d splits, chose %s%s %.4f (best default %s %.4f), skipped %+v",
			perFit, res.Scored, res.Decision, best.Kind, map[bool]string{true: " (default)"}[best.Default], best.Mean, bd.Kind, bd.Mean, res.Skipped)
		switch {
		case perFit == 0.01:
			if res.Decision != 3 || skipped || res.Scored < 10 {
				t.Errorf("a fast machine: decision on %d splits, %d scored, skipped %+v; want the whole race", res.Decision, res.Scored, res.Skipped)
			}
		case perFit == 1:
			// 30 s hold the defaults on the three folds (3 × 1 s of
			// multinomial NB, 3 × 4 s of logreg) and a few more fits:
			// the race cannot confirm a challenger, the best default wins.
			if !best.Default || res.Decision != 3 || len(res.Skipped.Unscored) == 0 {
				t.Errorf("%gs per fit: chose %s (default %v) on %d splits, skipped %+v; want the best default on 3 and the skipped listed", perFit, best.Kind, best.Default, res.Decision, res.Skipped)
			}
		case perFit >= 2:
			// Not every default is scored on every fold: the choice is
			// made on the first, the defaults' shortfall listed.
			if res.Decision != 1 || len(res.Skipped.Defaults) == 0 {
				t.Errorf("%gs per fit: decision on %d splits, skipped %+v; want 1 and the defaults listed", perFit, res.Decision, res.Skipped)
			}
			var sb strings.Builder
			if err := res.WriteTable(&sb, 5); err != nil || !strings.Contains(sb.String(), "skipped for lack of budget") {
				t.Errorf("%gs per fit: the table does not list what was skipped (%v):\n%s", perFit, err, sb.String())
			}
		}
	}
}

// TestEvalsBudgetReproducible runs a search under an Evaluations budget on
// machines of different speeds (fits slowed at random, one or two workers):
// every run scores the same candidates the same and chooses the same
// model; the budget is spent to at most its amount, and a smaller budget
// skips candidates.
func TestEvalsBudgetReproducible(t *testing.T) {
	texts, y, classes := hardSynth()
	run := func(workers int, jitter uint64, evals float64) *Result {
		rng := rand.New(rand.NewPCG(jitter, 1))
		var mu sync.Mutex
		opt := Options{Folds: 3, Seed: 9, Workers: workers, Budget: Budget{Unit: Evaluations, Amount: evals}, EnsembleRounds: 25}
		opt.afterFit = func(*Candidate) {
			mu.Lock()
			d := time.Duration(rng.IntN(3)) * time.Millisecond
			mu.Unlock()
			time.Sleep(d) // a slower machine, unevenly
		}
		res, err := Run(texts, y, classes, smallSpace(), "", nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	key := func(r *Result) string {
		s := stripTimes(r)
		if s.Ensemble != nil {
			e := *s.Ensemble
			e.Members = append([]Member(nil), e.Members...)
			for i := range e.Members {
				e.Members[i].Prepare, e.Members[i].Fit = 0, 0
			}
			s.Ensemble = &e
		}
		b, _ := json.Marshal(s)
		return string(b)
	}
	a := run(1, 1, 4)
	for _, v := range []struct {
		workers int
		jitter  uint64
	}{{2, 2}, {1, 3}} {
		if b := run(v.workers, v.jitter, 4); key(a) != key(b) {
			t.Fatalf("evals:4 with %d workers chose differently:\n%s\n%s", v.workers, key(a), key(b))
		}
	}
	if a.Spent > 4+1e-9 || a.Spent < 2 {
		t.Errorf("evals:4 spent %g evaluations", a.Spent)
	}
	small := run(1, 1, 1.5)
	if small.Spent > 1.5+1e-9 || len(small.Skipped.Unscored) == 0 || small.Scored >= a.Scored {
		t.Errorf("evals:1.5: spent %g, scored %d (evals:4: %d), skipped %+v", small.Spent, small.Scored, a.Scored, small.Skipped)
	}
	if bd := small.BestDefault(); bd == nil || small.Leaderboard[0].Mean < bd.Mean {
		t.Errorf("evals:1.5: the choice is below the best default, or none was scored: %+v", bd)
	}
	if math.IsNaN(a.Spent) {
		t.Error("spent NaN")
	}
}
