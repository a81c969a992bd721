package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestWriteOutputs: the table on the writer, or the CSV with "-"; the
// CSV and plot files written together, and named.
func TestWriteOutputs(t *testing.T) {
	spec := DefaultModelSpec(model.Multinomial)
	spec.Settings.MinDF = 1
	res, err := LearningCurve(CurveConfig{
		TrainTexts: []string{"apple pear", "apple plum", "car bus", "car van"}, TrainLabels: []int{0, 0, 1, 1},
		TestTexts: []string{"apple", "car"}, TestLabels: []int{0, 1}, Classes: []string{"A", "X"},
		Models: []ModelSpec{spec}, Sizes: []int{2, 4}, Repeats: 1, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	csv, plot := filepath.Join(dir, "runs.csv"), filepath.Join(dir, "curve.svg")
	var out bytes.Buffer
	wrote, err := res.WriteOutputs(&out, csv, plot)
	if err != nil {
		t.Fatal(err)
	}
	if len(wrote) != 2 || wrote[0] != csv || wrote[1] != plot {
		t.Errorf("wrote %q", wrote)
	}
	var table, csvText bytes.Buffer
	res.WriteTable(&table)
	res.WriteCSV(&csvText)
	if out.String() != table.String() {
		t.Errorf("stdout:\n%s\nwant the table\n%s", out.String(), table.String())
	}
	if b, err := os.ReadFile(csv); err != nil || string(b) != csvText.String() {
		t.Errorf("%s: %v\n%s", csv, err, b)
	}
	if b, err := os.ReadFile(plot); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("%s: %v", plot, err)
	}
	out.Reset()
	if wrote, err := res.WriteOutputs(&out, "-", ""); err != nil || wrote != nil || out.String() != csvText.String() {
		t.Errorf("--csv -: wrote %q, %v\n%s", wrote, err, out.String())
	}
	if _, err := res.WriteOutputs(&out, "", filepath.Join(dir, "curve.gif")); err == nil {
		t.Error("a plot that is neither .png nor .svg: no error")
	}
}
