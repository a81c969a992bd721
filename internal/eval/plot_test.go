package eval

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlotCurvesPNG(t *testing.T) {
	c := handCurve(MetricErrors, []string{"bernoulli", "multinomial", "logreg"}, []int{10, 20, 50, 100, 200, 500, 1000, 1179}, [][]float64{
		{0.70, 0.75, 0.80, 0.85, 0.86, 0.89, 0.91, 0.91},
		{0.72, 0.80, 0.88, 0.91, 0.93, 0.95, 0.96, 0.96},
		{0.70, 0.78, 0.89, 0.92, 0.93, 0.96, 0.97, 0.975},
	}, 0.02)
	c.Corpus, c.Classes = "20news-bydate", []string{"comp.graphics", "sci.crypt"}
	dir := t.TempDir()
	path := filepath.Join(dir, "curve.png")
	if err := PlotCurves(c, path, ""); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the plot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 400 || b.Dx() > 3000 || b.Dy() > 3000 {
		t.Errorf("plot size %v", b)
	}
	if out := os.Getenv("NBTEXT_PLOT_OUT"); out != "" { // to look at it
		data, _ := os.ReadFile(path)
		os.WriteFile(out, data, 0o644)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestPlotCurvesSVGAndErrors(t *testing.T) {
	c := handCurve(MetricAccuracy, []string{"a", "b"}, []int{10, 100}, [][]float64{{0.5, 0.8}, {0.6, 0.7}}, 0.01)
	dir := t.TempDir()
	svg := filepath.Join(dir, "c.SVG")
	if err := PlotCurves(c, svg, "my title"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(svg)
	if err != nil || !strings.Contains(string(data), "<svg") {
		t.Fatalf("svg: %v %.100s", err, data)
	}
	if err := PlotCurves(c, filepath.Join(dir, "c.pdf"), ""); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("pdf: %v", err)
	}
	if err := PlotCurves(c, filepath.Join(dir, "missing", "c.png"), ""); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

func TestLogTicks(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(math.Log10(8), math.Log10(1200)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "10 20 50 100 200 500 1000" {
		t.Errorf("labels %q", got)
	}
}

func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 277, "0 50 100 150 200 250"},
		{0.6, 0.97, "0.6 0.7 0.8 0.9"},
		{0, 0.74, "0.0 0.2 0.4 0.6"},
	} {
		var labels []string
		for _, tk := range (linearTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != tc.want {
			t.Errorf("ticks(%g, %g) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}
