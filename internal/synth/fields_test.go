package synth

import (
	"math"
	"testing"
)

// TestFields checks the record fields of the construction: the
// informative value is the class's for about Accuracy of the documents
// and another class's otherwise, the noise values are uniform whatever the
// class, the length counts characters, and the informative values do not
// change with the noise field's (each draws from its own stream).
func TestFields(t *testing.T) {
	values := []string{"ibm", "apple", "other"}
	f, err := NewFields(FieldConfig{Seed: 3, Values: values, Accuracy: 0.85})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := NewFields(FieldConfig{Seed: 3, Values: values, Accuracy: 0.85, NoiseValues: 9})
	const n = 30000
	right := 0
	noise := map[string]int{}
	for i := 0; i < n; i++ {
		c := i % 3
		v, z, l := f.Next(c, "héllo")
		v2, _, _ := g.Next(c, "")
		if v != v2 {
			t.Fatalf("document %d: the informative value depends on the noise field's values (%q, %q)", i, v, v2)
		}
		if v == values[c] {
			right++
		}
		noise[z]++
		if l != "5" {
			t.Fatalf("length %q, want 5 characters", l)
		}
	}
	if acc := float64(right) / n; math.Abs(acc-0.85) > 0.01 {
		t.Errorf("informative field right for %.4f of the documents, want 0.85", acc)
	}
	if len(noise) != 4 {
		t.Errorf("noise values %v, want 4", noise)
	}
	for z, k := range noise {
		if math.Abs(float64(k)/n-0.25) > 0.01 {
			t.Errorf("noise value %s on %d of %d documents, want a quarter", z, k, n)
		}
	}
	for _, bad := range []FieldConfig{{Values: []string{"x"}}, {Values: values, Accuracy: 1.5}, {Values: values, NoiseValues: -1}} {
		if _, err := NewFields(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
