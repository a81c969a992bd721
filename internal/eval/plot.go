package eval

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// Plot dimensions: 9 × 5.5 inches, 864 × 528 pixels for a PNG.
const (
	plotWidth  = 9 * vg.Inch
	plotHeight = 5.5 * vg.Inch
)

// PlotCurves draws the mean curve of every model in res against a
// log-scaled x axis (training documents, or vocabulary size), with a shaded
// band of ± one standard deviation over the repeats, axis labels, a legend
// and title (when title is "", CurveTitle(res)), and writes it to path as
// PNG or SVG, chosen by the extension (.png or .svg; anything else is an
// error). The file is written atomically: a temporary file in the same
// folder, synced, then renamed over path.
func PlotCurves(res *CurveResult, path string, title string) error {
	draw, err := PlotWriter(res, path, title)
	if err != nil {
		return err
	}
	return fsutil.WriteFile(path, draw)
}

// PlotWriter is PlotCurves without the write: it draws the plot and
// returns what writes it to a file named path (e.g. through
// fsutil.WriteFiles, to commit it together with other files).
func PlotWriter(res *CurveResult, path string, title string) (func(io.Writer) error, error) {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("%s: the plot format follows the extension, which must be .png or .svg", path)
	}
	if len(res.Runs) == 0 || len(res.Sizes) == 0 {
		return nil, fmt.Errorf("%s: nothing to plot: the learning curve has no runs", path)
	}
	p, err := curvePlot(res, title)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	wt, err := p.WriterTo(plotWidth, plotHeight, format)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	}, nil
}

// CurveTitle returns the default plot title of res: what is plotted, the
// corpus and its classes (named when there are at most four).
func CurveTitle(res *CurveResult) string {
	what := "learning curves"
	if res.Vary == VaryVocab {
		what = "accuracy against vocabulary size"
		if res.Metric != MetricAccuracy {
			what = string(res.Metric) + " against vocabulary size"
		}
	}
	var where []string
	if res.Corpus != "" {
		where = append(where, res.Corpus)
	}
	switch n := len(res.Classes); {
	case n > 0 && n <= 4:
		where = append(where, strings.Join(res.Classes, " vs "))
	case n > 4:
		where = append(where, fmt.Sprintf("%d classes", n))
	}
	if len(where) == 0 {
		return what
	}
	return what + ": " + strings.Join(where, ", ")
}

// curvePlot builds the plot of PlotCurves.
func curvePlot(res *CurveResult, title string) (*plot.Plot, error) {
	if title == "" {
		title = CurveTitle(res)
	}
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = res.Vary.AxisLabel()
	p.Y.Label.Text = res.Metric.Label()
	// The x axis is logarithmic: x values are plotted as log10 on a linear
	// axis with ticks labelled in the original units. (plot.LogScale would
	// draw the same picture, but gonum sizes a centred axis label at the
	// arithmetic midpoint of the data range, which on a log axis lies near
	// the right end, and shrinks the plot to make room for it.)
	p.X.Tick.Marker = logTicks{}
	p.Y.Tick.Marker = linearTicks{}
	p.Add(plotter.NewGrid())
	// The empty corner: top right when errors fall, top left when accuracy
	// rises.
	p.Legend.Top = true
	p.Legend.Left = res.Metric.HigherIsBetter()
	p.Legend.XOffs = vg.Points(6)
	if !p.Legend.Left {
		p.Legend.XOffs = -vg.Points(6)
	}
	p.Legend.Padding = vg.Points(2)

	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, s := range res.Sizes {
		x := math.Log10(float64(s))
		xmin, xmax = min(xmin, x), max(xmax, x)
	}
	for i, name := range res.Models {
		mean := make(plotter.XYs, len(res.Sizes))
		band := make(plotter.XYs, 0, 2*len(res.Sizes))
		lower := make(plotter.XYs, len(res.Sizes))
		for j, s := range res.Sizes {
			m, sd := res.MeanStd(i, j)
			x := math.Log10(float64(s))
			mean[j] = plotter.XY{X: x, Y: m}
			band = append(band, plotter.XY{X: x, Y: m + sd})
			lo := m - sd
			if !res.Metric.HigherIsBetter() {
				lo = max(lo, 0) // an error count or rate is never negative
			}
			lower[j] = plotter.XY{X: x, Y: lo}
		}
		for j := len(lower) - 1; j >= 0; j-- {
			band = append(band, lower[j])
		}
		col := plotutil.Color(i)
		if res.Repeats > 1 {
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			poly.Color = withAlpha(col, 0x38)
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		line, pts, err := plotter.NewLinePoints(mean)
		if err != nil {
			return nil, err
		}
		line.Color = col
		line.Width = vg.Points(2)
		line.Dashes = plotutil.Dashes(i)
		pts.Color = col
		pts.Shape = plotutil.Shape(i)
		pts.Radius = vg.Points(3)
		p.Add(line, pts)
		p.Legend.Add(name, line, pts)
	}
	// A little room either side of the data: a factor 1.15 on the log axis.
	pad := math.Log10(1.15)
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	if !res.Metric.HigherIsBetter() {
		p.Y.Min = 0
	}
	return p, nil
}

// withAlpha returns the opaque color c made translucent with alpha a.
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA64{R: uint16(r), G: uint16(g), B: uint16(b), A: uint16(a) * 0x101}
}

// logTicks marks a log10 axis: the axis runs over log10(x), and the ticks
// sit at log10 of 1, 2 and 5 times each power of ten (labelled with the
// value itself) and of the other integers times it (minor, unlabelled), so
// that an axis spanning 10 to 11,314 reads 10, 20, 50, 100, ... 10000.
type logTicks struct{}

// Ticks returns the ticks between lo and hi, which are log10 values.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		p := math.Pow10(int(e))
		for k := 1; k <= 9; k++ {
			v := float64(k) * p
			lv := math.Log10(v)
			if lv < lo-1e-12 || lv > hi+1e-12 {
				continue
			}
			t := plot.Tick{Value: lv}
			if k == 1 || k == 2 || k == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// linearTicks labels every multiple of a 1-2-5 step chosen to give about
// six labels, with as few decimals as the step needs, and puts unlabelled
// minor ticks halfway.
type linearTicks struct{}

// Ticks returns the ticks between lo and hi.
func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	raw := (hi - lo) / 6
	p := math.Pow10(int(math.Floor(math.Log10(raw))))
	step := 10 * p
	for _, f := range []float64{1, 2, 5} {
		if f*p >= raw {
			step = f * p
			break
		}
	}
	decimals := max(0, -int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	for k := math.Ceil(lo / step * 2); k/2*step <= hi+step*1e-9; k++ {
		v := k / 2 * step
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

var (
	_ plot.Ticker = logTicks{}
	_ plot.Ticker = linearTicks{}
)
