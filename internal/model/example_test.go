package model

import (
	"math"
	"testing"
)

// courseExample builds the worked example of the course material (issue 3,
// item 5) as a training count table whose maximum-likelihood θ are exactly
//
//	            password  program  PGP     prior
//	sci.crypt   0.8       0        1       0.4
//	comp.graph  0.2       0.6      0       0.6
//
// sci.crypt has 10 documents: 8 contain password, none program, all 10
// PGP. comp.graphics has 15: 3 contain password, 9 program, none PGP. So
// the learned priors are 10/25 = 0.4 and 15/25 = 0.6, and θ = 8/10, 0/10,
// 10/10 and 3/15, 9/15, 0/15.
func courseExample(t *testing.T, alpha, beta float64) *Model {
	t.Helper()
	vocab := testVocab(t, "password", "program", "pgp")
	classDocs := []float64{10, 15}
	counts := []float64{ // feature-major: term, then (crypt, graphics)
		8, 3, // password
		0, 9, // program
		10, 0, // pgp
	}
	return mustNB(t, Bernoulli, []string{"sci.crypt", "comp.graphics"}, vocab,
		Params{Alpha: alpha, Beta: beta, Prior: "learned"}, classDocs, counts)
}

func TestCourseExampleMaximumLikelihood(t *testing.T) {
	m := courseExample(t, 0, 0)
	s := m.NewScorer()
	// "How should I add PGP support to my program?": x = [0, 1, 1].
	// P(x|crypt) = (1-0.8) · 0 · 1 = 0: program never occurs in sci.crypt.
	// P(x|graphics) = (1-0.2) · 0.6 · 0 = 0: PGP never occurs in comp.graphics.
	// Both posteriors are 0/0: the decision falls back to the prior, 0.6
	// for comp.graphics, and says so.
	sc := s.Scores([]int32{1, 2}, nil)
	if !math.IsInf(sc[0], -1) || !math.IsInf(sc[1], -1) {
		t.Fatalf("scores %v, want both -Inf", sc)
	}
	p := s.Predict([]int32{1, 2}, nil)
	if !p.Fallback || p.Class != 1 || hasNaN(p.LogProbs) {
		t.Fatalf("prediction %+v, want comp.graphics from the prior", p)
	}
	if !near(math.Exp(p.LogProbs[0]), 0.4, 1e-12) || !near(math.Exp(p.LogProbs[1]), 0.6, 1e-12) {
		t.Fatalf("fallback probabilities %v, want the prior (0.4, 0.6)", p.LogProbs)
	}

	// x = [1, 0, 1] (password and PGP):
	// P(x, crypt) = 0.4 · 0.8 · (1-0) · 1 = 0.32;
	// P(x, graphics) = 0.6 · 0.2 · (1-0.6) · 0 = 0: PGP rules it out.
	p = s.Predict([]int32{0, 2}, nil)
	if p.Fallback || p.Class != 0 || p.LogProbs[0] != 0 || !math.IsInf(p.LogProbs[1], -1) {
		t.Fatalf("password+PGP: %+v", p)
	}
	// x = [1, 0, 0] (password only): sci.crypt requires PGP (θ = 1), so
	// P(x, crypt) = 0.4 · 0.8 · 1 · (1-1) = 0;
	// P(x, graphics) = 0.6 · 0.2 · 0.4 · 1 = 0.048 > 0.
	p = s.Predict([]int32{0}, nil)
	if p.Fallback || p.Class != 1 || p.LogProbs[1] != 0 || !math.IsInf(p.LogProbs[0], -1) {
		t.Fatalf("password: %+v", p)
	}
}

func TestCourseExampleSmoothed(t *testing.T) {
	m := courseExample(t, 1, 1)
	// With α = β = 1, θ = (N_cd + 1) / (N_c + 2):
	//   sci.crypt (N = 10):     password 9/12, program 1/12,  PGP 11/12
	//   comp.graphics (N = 15): password 4/17, program 10/17, PGP 1/17
	// For x = [0, 1, 1]:
	//   P(x, crypt)    = 0.4 · (1 - 9/12) · 1/12 · 11/12
	//                  = 2/5 · 3/12 · 1/12 · 11/12 = 2/5 · 33/1728 = 11/1440
	//   P(x, graphics) = 0.6 · (1 - 4/17) · 10/17 · 1/17
	//                  = 3/5 · 13/17 · 10/17 · 1/17 = 3/5 · 130/4913 = 78/4913
	//   P(crypt | x)   = (11/1440) / (11/1440 + 78/4913)
	//                  = 11·4913 / (11·4913 + 78·1440) = 54043/166363 ≈ 0.32485
	//   P(graphics | x) = 112320/166363 ≈ 0.67515
	wantCrypt := 54043.0 / 166363.0
	p := m.NewScorer().Predict([]int32{1, 2}, nil)
	if p.Fallback || p.Class != 1 {
		t.Fatalf("prediction %+v, want comp.graphics from the posterior", p)
	}
	if got := math.Exp(p.LogProbs[0]); !near(got, wantCrypt, 1e-12) {
		t.Errorf("P(sci.crypt|x) = %.15f, want %.15f", got, wantCrypt)
	}
	if got := math.Exp(p.LogProbs[1]); !near(got, 1-wantCrypt, 1e-12) {
		t.Errorf("P(comp.graphics|x) = %.15f, want %.15f", got, 1-wantCrypt)
	}
	if !near(wantCrypt, 0.32485, 1e-4) {
		t.Fatalf("hand arithmetic: %v", wantCrypt)
	}
	// Missing sci.crypt costs 3 times more: 3 · 0.32485 = 0.975 > 0.675.
	if got := Decide(p.LogProbs, []float64{3, 1}); got != 0 {
		t.Errorf("with costs (3, 1): class %d, want sci.crypt", got)
	}
}
