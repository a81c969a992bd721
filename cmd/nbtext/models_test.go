package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestTrainLinearModels trains the SVM, NB-LR and an elastic-net logistic
// regression with class weights end to end, saves and loads them, and
// evaluates them on their training corpus.
func TestTrainLinearModels(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "toy.tsv", strings.Repeat(toyTSV, 3))
	for _, tc := range []struct {
		kind model.Kind
		args []string
	}{
		{model.SVM, []string{"--model", "svm", "--class-weight", "balanced"}},
		{model.NBLR, []string{"--model", "nblr", "--interpolation", "0.5"}},
		{model.LogReg, []string{"--model", "logreg", "--penalty", "elasticnet", "--l1-ratio", "0.3", "--class-weight", "crypt=2"}},
	} {
		out := filepath.Join(dir, tc.kind.String()+".nbm")
		r := nbtext(t, "", append([]string{"train", tsv, "-o", out}, tc.args...)...)
		check(t, r, 0)
		if !strings.Contains(r.out, "model        "+tc.kind.String()) {
			t.Errorf("%s: summary %q", tc.kind, r.out)
		}
		m, err := model.Load(out)
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		if m.Kind != tc.kind {
			t.Errorf("loaded kind %s, want %s", m.Kind, tc.kind)
		}
		switch tc.kind {
		case model.SVM:
			if m.Params.ClassWeight != "balanced" || len(m.Params.ClassWeights) != 2 {
				t.Errorf("svm params %+v: want the class weights recorded", m.Params)
			}
		case model.NBLR:
			if m.Params.Interpolation != 0.5 || !m.Binary {
				t.Errorf("nblr params %+v, binary %v", m.Params, m.Binary)
			}
		case model.LogReg:
			if m.Params.Penalty != "elasticnet" || m.Params.L1Ratio != 0.3 || m.Params.ClassWeights[0] != 2 {
				t.Errorf("logreg params %+v", m.Params)
			}
		}
		ev := nbtext(t, "", "eval", "-m", out, tsv)
		check(t, ev, 0)
		if !strings.Contains(ev.out, "accuracy") {
			t.Errorf("%s: eval printed %q", tc.kind, ev.out)
		}
	}
}

// TestAlphaZeroWarns is issue 12 item 14: α = 0 is accepted but warned
// about at train time.
func TestAlphaZeroWarns(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "toy.tsv", toyTSV)
	r := nbtext(t, "", "train", tsv, "--model", "bernoulli", "--alpha", "0", "-o", filepath.Join(dir, "b.nbm"))
	check(t, r, 0, "warning: --alpha 0")
	r = nbtext(t, "", "train", tsv, "--model", "bernoulli", "--alpha", "0.1", "-o", filepath.Join(dir, "b.nbm"))
	check(t, r, 0)
	if strings.Contains(r.err, "warning") {
		t.Errorf("α = 0.1 warned: %s", r.err)
	}
	// eval --cv fits too: the same warning, and the share of held-out
	// documents predicted from the prior.
	r = nbtext(t, "", "eval", "--cv", "2", tsv, "--model", "bernoulli", "--alpha", "0", "--min-df", "1")
	check(t, r, 0, "warning: --alpha 0")
	if !strings.Contains(r.out, "held-out documents") || !strings.Contains(r.out, "predicted from the prior") {
		t.Errorf("eval --cv with α = 0 does not report the fallback share:\n%s", r.out)
	}
}
