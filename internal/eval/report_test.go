package eval

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/eval -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./internal/eval -update refreshes it)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// goldenReport is handInput with probabilities and longer class names.
func goldenReport(t *testing.T) *Report {
	in := handInput()
	in.Classes = []string{"alt.atheism", "comp.graphics", "sci.crypt", "talk.politics.misc"}
	in.Unknown = []string{"misc.unknown"}
	ln := math.Log
	rows := [][]float64{
		{0.8, 0.1, 0.05, 0.05}, {0.6, 0.2, 0.1, 0.1}, {0.3, 0.4, 0.2, 0.1},
		{0.1, 0.7, 0.1, 0.1}, {0.2, 0.5, 0.2, 0.1}, {0.5, 0.3, 0.1, 0.1},
		{0.1, 0.3, 0.5, 0.1}, {0.1, 0.1, 0.7, 0.1}, {0.4, 0.3, 0.2, 0.1},
		{0.2, 0.6, 0.1, 0.1},
	}
	for _, r := range rows {
		for _, p := range r {
			in.LogProb = append(in.LogProb, ln(p))
		}
	}
	r, err := Evaluate(in, Options{TopK: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGoldenReport(t *testing.T) {
	r := goldenReport(t)
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *Report, WriteOptions) error
		opt   WriteOptions
	}{
		{"report.txt", func(b *bytes.Buffer, r *Report, o WriteOptions) error { return WriteTable(b, r, o) }, WriteOptions{}},
		{"report_confusion.txt", func(b *bytes.Buffer, r *Report, o WriteOptions) error { return WriteTable(b, r, o) }, WriteOptions{Confusion: true}},
		{"report_normalized.txt", func(b *bytes.Buffer, r *Report, o WriteOptions) error { return WriteTable(b, r, o) }, WriteOptions{Confusion: true, Normalize: true}},
		{"report.tsv", func(b *bytes.Buffer, r *Report, o WriteOptions) error { return WriteTSV(b, r, o) }, WriteOptions{Confusion: true}},
		{"report.json", func(b *bytes.Buffer, r *Report, o WriteOptions) error { return WriteJSON(b, r, o) }, WriteOptions{Confusion: true}},
	} {
		var b bytes.Buffer
		if err := tc.write(&b, r, tc.opt); err != nil {
			t.Fatal(err)
		}
		golden(t, tc.name, b.Bytes())
	}
}

// TestJSONKeys pins the documented keys, with and without the optional
// parts.
func TestJSONKeys(t *testing.T) {
	r := goldenReport(t)
	var b bytes.Buffer
	if err := WriteJSON(&b, r, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"accuracy", "macro_f1", "micro_f1", "weighted_f1", "log_loss", "n", "per_class", "top_k_accuracy", "unknown_labels"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	if _, ok := m["confusion"]; ok {
		t.Error("confusion present although not asked for")
	}
	// Without probabilities, log_loss and top_k_accuracy are null.
	r2, _ := Evaluate(handInput(), Options{TopK: 3})
	b.Reset()
	WriteJSON(&b, r2, WriteOptions{})
	m = nil
	json.Unmarshal(b.Bytes(), &m)
	if v, ok := m["log_loss"]; !ok || v != nil {
		t.Errorf("log_loss = %v, want null", v)
	}
	if v, ok := m["top_k_accuracy"]; !ok || v != nil {
		t.Errorf("top_k_accuracy = %v, want null", v)
	}
}
