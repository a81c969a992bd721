package model

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestNewCentroid checks the weights against the formula on a hand-made
// example and the scores against the cosine similarity computed directly.
func TestNewCentroid(t *testing.T) {
	vocab := testVocab(t, "a", "b", "c")
	// Class sums, feature-major: class 0 = (3, 4, 0), class 1 = (0, 0, 2),
	// class 2 = 0 (no documents).
	sums := []float64{3, 0, 0, 4, 0, 0, 0, 2, 0}
	m, err := NewCentroid(classNames(3), vocab, Params{}, sums)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.6, 0, 0, 0.8, 0, 0, 0, 1, 0}
	for i, w := range want {
		if !near(m.W[i], w, 1e-15) {
			t.Errorf("W[%d] = %v, want %v", i, m.W[i], w)
		}
	}
	for c, b := range m.B {
		if b != 0 {
			t.Errorf("B[%d] = %v, want 0", c, b)
		}
	}
	if m.Kind.String() != "centroid" {
		t.Errorf("kind name %q", m.Kind)
	}
	if k, err := ParseKind("centroid"); err != nil || k != Centroid {
		t.Errorf("ParseKind(centroid) = %v, %v", k, err)
	}

	// Random documents: score = ‖v‖·cos(v, μ_c), with μ_c the class mean.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		d := randDoc(rng, 3, 2)
		sc := m.NewScorer().Scores(d.ind, d.val)
		x := d.dense(3)
		for c := 0; c < 2; c++ {
			mu := []float64{sums[c], sums[3+c], sums[6+c]}
			dot, nm := 0.0, 0.0
			for i := range mu {
				dot += x[i] * mu[i]
				nm += mu[i] * mu[i]
			}
			if got := dot / math.Sqrt(nm); !near(sc[c], got, 1e-12) {
				t.Fatalf("doc %v class %d: score %v, want ‖v‖·cos = %v", d, c, sc[c], got)
			}
		}
		if sc[2] != 0 {
			t.Fatalf("empty class scores %v, want 0", sc[2])
		}
	}

	// A temperature scales every weight and changes no decision.
	m2, err := NewCentroid(classNames(3), vocab, Params{Temperature: 50}, sums)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.W {
		if !near(m2.W[i], 50*m.W[i], 1e-15) {
			t.Fatalf("τ = 50: W[%d] = %v, want %v", i, m2.W[i], 50*m.W[i])
		}
	}
	if _, err := NewCentroid(classNames(3), vocab, Params{Temperature: -1}, sums); err == nil {
		t.Error("negative temperature accepted")
	}
	if _, err := NewCentroid(classNames(3), vocab, Params{}, sums[:8]); err == nil {
		t.Error("short sums accepted")
	}
}

// TestCentroidFile round-trips a centroid model through the file format.
func TestCentroidFile(t *testing.T) {
	vocab := testVocab(t, "a", "b", "c")
	m, err := NewCentroid(classNames(2), vocab, Params{Prior: "learned", Temperature: 12.5}, []float64{1, 0, 2, 1, 0, 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(&buf, "c.nbm")
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != Centroid || !sameBits(got.W, m.W) || !sameBits(got.B, m.B) || got.Params.Temperature != 12.5 {
		t.Errorf("decoded %s model W %v B %v τ %v, want W %v B %v τ 12.5", got.Kind, got.W, got.B, got.Params.Temperature, m.W, m.B)
	}
}
