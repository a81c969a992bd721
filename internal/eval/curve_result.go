package eval

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// Metric is what a learning curve plots.
type Metric string

// The learning-curve metrics.
const (
	MetricError    Metric = "error"    // fraction of test documents misclassified
	MetricErrors   Metric = "errors"   // number of test documents misclassified (the course figure)
	MetricAccuracy Metric = "accuracy" // fraction classified correctly
	MetricMacroF1  Metric = "macro_f1" // unweighted mean of per-class F1
)

// ParseMetric parses a --metric value.
func ParseMetric(s string) (Metric, error) {
	switch m := Metric(s); m {
	case MetricError, MetricErrors, MetricAccuracy, MetricMacroF1:
		return m, nil
	}
	return "", fmt.Errorf("--metric must be error, errors, accuracy or macro_f1, got %q", s)
}

// HigherIsBetter reports whether a larger value of m is better.
func (m Metric) HigherIsBetter() bool { return m == MetricAccuracy || m == MetricMacroF1 }

// Label returns the axis label of m.
func (m Metric) Label() string {
	switch m {
	case MetricError:
		return "test error rate"
	case MetricErrors:
		return "test errors (documents)"
	case MetricAccuracy:
		return "test accuracy"
	case MetricMacroF1:
		return "test macro F1"
	}
	return string(m)
}

// Vary names what a learning curve varies along its x axis.
type Vary string

// The two kinds of curve.
const (
	VarySize  Vary = "size"  // training documents m (Ng & Jordan 2002)
	VaryVocab Vary = "vocab" // vocabulary size K, terms kept by mutual information (McCallum & Nigam 1998)
)

// ParseVary parses a --vary value ("" means size).
func ParseVary(s string) (Vary, error) {
	switch s {
	case "", "size":
		return VarySize, nil
	case "vocab":
		return VaryVocab, nil
	}
	return "", fmt.Errorf("--vary must be size or vocab, got %q", s)
}

// AxisLabel returns the x-axis label of v.
func (v Vary) AxisLabel() string {
	if v == VaryVocab {
		return "vocabulary size (terms kept by mutual information)"
	}
	return "training documents (m)"
}

// at names one x position in prose: "m=1000" or "1000 terms".
func (v Vary) at(x int) string {
	if v == VaryVocab {
		return fmt.Sprintf("%d terms", x)
	}
	return fmt.Sprintf("m=%d", x)
}

// Run is one fit of a learning curve: one model on one training subset
// (or vocabulary size), evaluated on the test split.
type Run struct {
	Model     string  // model name, e.g. "multinomial"
	Size      int     // the x value: requested training size, or vocabulary size K
	Repeat    int     // 0 ≤ Repeat < Repeats
	TrainDocs int     // documents actually trained on (Size clamped to the split)
	Terms     int     // vocabulary size after refitting on the subset
	NTest     int     // test documents
	Errors    int     // test documents misclassified
	Accuracy  float64 // 1 - Errors/NTest
	MacroF1   float64 // macro-averaged F1 on the test split
}

// Value returns the run's value of metric m.
func (r Run) Value(m Metric) float64 {
	switch m {
	case MetricErrors:
		return float64(r.Errors)
	case MetricAccuracy:
		return r.Accuracy
	case MetricMacroF1:
		return r.MacroF1
	}
	return float64(r.Errors) / float64(r.NTest)
}

// CurveResult holds every run of a learning curve.
type CurveResult struct {
	Vary    Vary
	Metric  Metric
	Models  []string // in the order asked for
	Sizes   []int    // ascending x values
	Repeats int
	// Runs holds len(Models)·len(Sizes)·Repeats runs; the run of model i,
	// size j and repeat r is Runs[(i*len(Sizes)+j)*Repeats+r] (see At).
	Runs []Run
	// Descriptive fields, not stored in the CSV.
	Corpus  string   // where the documents came from
	Classes []string // the classes
	Seed    uint64
	NTrain  int // documents in the training split
}

// At returns the run of model i, size j and repeat r.
func (c *CurveResult) At(i, j, r int) Run { return c.Runs[(i*len(c.Sizes)+j)*c.Repeats+r] }

// MeanStd returns the mean and sample standard deviation of the metric over
// the repeats of model i at size j.
func (c *CurveResult) MeanStd(i, j int) (mean, std float64) {
	v := make([]float64, c.Repeats)
	for r := range v {
		v[r] = c.At(i, j, r).Value(c.Metric)
	}
	if len(v) == 1 {
		return v[0], 0
	}
	return stat.MeanStdDev(v, nil)
}

// Best returns the index of the x value where model i has its best mean
// (the smallest x on ties): for a vocabulary curve, where the model peaks.
func (c *CurveResult) Best(i int) int {
	best := 0
	bv, _ := c.MeanStd(i, 0)
	for j := 1; j < len(c.Sizes); j++ {
		v, _ := c.MeanStd(i, j)
		if (c.Metric.HigherIsBetter() && v > bv) || (!c.Metric.HigherIsBetter() && v < bv) {
			best, bv = j, v
		}
	}
	return best
}

// Crossover is a place where two mean curves cross: between x values From
// and To the model Leader, behind at From, gets ahead of Behind at To. When
// the models never cross, From and To are 0 and Leader is ahead at every
// x value (ties aside).
type Crossover struct {
	Leader, Behind string
	From, To       int
	// WithinNoise is set when, at both From and To, the gap between the
	// means is smaller than the larger of the two standard deviations.
	WithinNoise bool
}

// Crossovers compares the mean curves of every pair of models (in model
// order) and returns each place where the better model changes, found in
// the data: positions where both means are equal are skipped, and a
// crossing is reported between the last x where one model led and the next
// x where the other leads. A pair that never crosses gives one Crossover
// with From = To = 0 naming the model ahead throughout; a pair tied
// everywhere gives none.
func (c *CurveResult) Crossovers() []Crossover {
	nm, ns := len(c.Models), len(c.Sizes)
	mean := make([][]float64, nm)
	std := make([][]float64, nm)
	for i := range nm {
		mean[i] = make([]float64, ns)
		std[i] = make([]float64, ns)
		for j := range ns {
			mean[i][j], std[i][j] = c.MeanStd(i, j)
		}
	}
	var out []Crossover
	for a := 0; a < nm; a++ {
		for b := a + 1; b < nm; b++ {
			// sign > 0: a is better at this x.
			sign := func(j int) int {
				d := mean[a][j] - mean[b][j]
				if !c.Metric.HigherIsBetter() {
					d = -d
				}
				switch {
				case d > 0:
					return 1
				case d < 0:
					return -1
				}
				return 0
			}
			noise := func(j int) bool {
				return math.Abs(mean[a][j]-mean[b][j]) < max(std[a][j], std[b][j])
			}
			last, lastJ, crossed := 0, -1, false
			for j := range ns {
				s := sign(j)
				if s == 0 {
					continue
				}
				if last != 0 && s != last {
					x := Crossover{Leader: c.Models[a], Behind: c.Models[b], From: c.Sizes[lastJ], To: c.Sizes[j], WithinNoise: noise(lastJ) && noise(j)}
					if s < 0 {
						x.Leader, x.Behind = x.Behind, x.Leader
					}
					out = append(out, x)
					crossed = true
				}
				last, lastJ = s, j
			}
			if !crossed && last != 0 {
				x := Crossover{Leader: c.Models[a], Behind: c.Models[b]}
				if last < 0 {
					x.Leader, x.Behind = x.Behind, x.Leader
				}
				out = append(out, x)
			}
		}
	}
	return out
}

// Sentence states x in words, e.g. "logreg overtakes multinomial between
// m=1000 and m=2000" or "multinomial is ahead of bernoulli at every size".
func (x Crossover) Sentence(v Vary) string {
	if x.From == 0 && x.To == 0 {
		what := "size"
		if v == VaryVocab {
			what = "vocabulary size"
		}
		return fmt.Sprintf("%s is ahead of %s at every %s", x.Leader, x.Behind, what)
	}
	s := fmt.Sprintf("%s overtakes %s between %s and %s", x.Leader, x.Behind, v.at(x.From), v.at(x.To))
	if x.WithinNoise {
		s += " (within one standard deviation of the repeats)"
	}
	return s
}

// formatValue formats a value of metric m for the table.
func formatValue(m Metric, v float64) string {
	if m == MetricErrors {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// WriteTable writes the curves for people: two heading lines, one row per
// x value with the mean ± standard deviation of each model over the repeats
// (the mean alone with one repeat), then one sentence per crossover found
// (see Crossovers) and, for a vocabulary curve, where each model peaks.
func (c *CurveResult) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	nTest := 0
	if len(c.Runs) > 0 {
		nTest = c.Runs[0].NTest
	}
	head := fmt.Sprintf("# %s against %s", c.Metric, c.Vary.AxisLabel())
	if c.Corpus != "" {
		head += " on " + c.Corpus
	}
	if len(c.Classes) > 0 && len(c.Classes) <= 4 {
		head += " (" + strings.Join(c.Classes, ", ") + ")"
	} else if len(c.Classes) > 0 {
		head += fmt.Sprintf(" (%d classes)", len(c.Classes))
	}
	switch {
	case c.Vary == VaryVocab:
		fmt.Fprintf(bw, "%s\n# %d test documents; every fit on the whole training split\n", head, nTest)
	case c.Repeats == 1:
		fmt.Fprintf(bw, "%s\n# %d test documents, 1 subset per size, seed %d\n", head, nTest, c.Seed)
	default:
		fmt.Fprintf(bw, "%s\n# %d test documents, mean ± std over %d subsets per size, seed %d\n", head, nTest, c.Repeats, c.Seed)
	}
	xname := "m"
	if c.Vary == VaryVocab {
		xname = "terms"
	}
	cells := make([][]string, len(c.Sizes)+1)
	cells[0] = append([]string{xname}, c.Models...)
	for j, s := range c.Sizes {
		row := []string{strconv.Itoa(s)}
		for i := range c.Models {
			mean, std := c.MeanStd(i, j)
			if c.Repeats == 1 {
				row = append(row, formatValue(c.Metric, mean))
			} else {
				row = append(row, formatValue(c.Metric, mean)+" ± "+formatValue(c.Metric, std))
			}
		}
		cells[j+1] = row
	}
	widths := make([]int, len(cells[0]))
	for _, row := range cells {
		for k, s := range row {
			widths[k] = max(widths[k], len([]rune(s)))
		}
	}
	for _, row := range cells {
		for k, s := range row {
			pad := widths[k] - len([]rune(s))
			if k == 0 {
				fmt.Fprintf(bw, "%s%s", strings.Repeat(" ", pad), s)
			} else {
				fmt.Fprintf(bw, "  %s%s", strings.Repeat(" ", pad), s)
			}
		}
		bw.WriteByte('\n')
	}
	var notes []string
	for _, x := range c.Crossovers() {
		notes = append(notes, x.Sentence(c.Vary)+".")
	}
	if c.Vary == VaryVocab {
		for i, name := range c.Models {
			j := c.Best(i)
			mean, _ := c.MeanStd(i, j)
			notes = append(notes, fmt.Sprintf("%s is best at %s (%s %s).", name, c.Vary.at(c.Sizes[j]), c.Metric, formatValue(c.Metric, mean)))
		}
	}
	if len(notes) > 0 {
		bw.WriteByte('\n')
		for _, n := range notes {
			bw.WriteString(n + "\n")
		}
	}
	return bw.Flush()
}

// csvHeader is the header of the learning-curve CSV.
var csvHeader = []string{"vary", "metric", "model", "size", "repeat", "train_docs", "terms", "n_test", "errors", "accuracy", "macro_f1"}

// WriteCSV writes one row per (model, size, repeat), in Runs order, under
// the header
//
//	vary,metric,model,size,repeat,train_docs,terms,n_test,errors,accuracy,macro_f1
//
// vary is "size" or "vocab"; metric is the curve's metric (every row holds
// all metrics; metric only records which one was chosen); size is the x
// value (training documents asked for, or vocabulary size K); train_docs
// and terms are the documents and vocabulary terms actually used; accuracy
// and macro_f1 are written exactly (shortest round-trip form). ReadCurveCSV
// reads it back.
func (c *CurveResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, r := range c.Runs {
		rec := []string{string(c.Vary), string(c.Metric), r.Model, strconv.Itoa(r.Size), strconv.Itoa(r.Repeat),
			strconv.Itoa(r.TrainDocs), strconv.Itoa(r.Terms), strconv.Itoa(r.NTest), strconv.Itoa(r.Errors),
			g(r.Accuracy), g(r.MacroF1)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCurveCSV reads what WriteCSV wrote. Models and sizes keep the order
// of their first appearance; every (model, size, repeat) must occur exactly
// once. Errors name the line.
func ReadCurveCSV(r io.Reader) (*CurveResult, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(csvHeader)
	head, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("empty learning-curve csv")
	}
	if err != nil {
		return nil, err
	}
	if strings.Join(head, ",") != strings.Join(csvHeader, ",") {
		return nil, fmt.Errorf("line 1: header %q, want %q", strings.Join(head, ","), strings.Join(csvHeader, ","))
	}
	res := &CurveResult{}
	modelIdx, sizeIdx := map[string]int{}, map[int]int{}
	type key struct{ m, s, r int }
	runs := map[key]Run{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		ints := make([]int, 0, 6)
		for _, f := range []int{3, 4, 5, 6, 7, 8} {
			v, err := strconv.Atoi(rec[f])
			if err != nil || v < 0 {
				return nil, fmt.Errorf("line %d: %s %q is not a non-negative integer", line, csvHeader[f], rec[f])
			}
			ints = append(ints, v)
		}
		acc, err1 := strconv.ParseFloat(rec[9], 64)
		f1, err2 := strconv.ParseFloat(rec[10], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("line %d: accuracy %q or macro_f1 %q is not a number", line, rec[9], rec[10])
		}
		vary, err := ParseVary(rec[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		metric, err := ParseMetric(rec[1])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if res.Vary == "" {
			res.Vary, res.Metric = vary, metric
		} else if vary != res.Vary || metric != res.Metric {
			return nil, fmt.Errorf("line %d: vary %s, metric %s differ from the first row's %s, %s", line, vary, metric, res.Vary, res.Metric)
		}
		run := Run{Model: rec[2], Size: ints[0], Repeat: ints[1], TrainDocs: ints[2], Terms: ints[3], NTest: ints[4], Errors: ints[5], Accuracy: acc, MacroF1: f1}
		if run.Model == "" {
			return nil, fmt.Errorf("line %d: empty model name", line)
		}
		if _, ok := modelIdx[run.Model]; !ok {
			modelIdx[run.Model] = len(res.Models)
			res.Models = append(res.Models, run.Model)
		}
		if _, ok := sizeIdx[run.Size]; !ok {
			sizeIdx[run.Size] = len(res.Sizes)
			res.Sizes = append(res.Sizes, run.Size)
		}
		res.Repeats = max(res.Repeats, run.Repeat+1)
		k := key{modelIdx[run.Model], sizeIdx[run.Size], run.Repeat}
		if _, dup := runs[k]; dup {
			return nil, fmt.Errorf("line %d: model %s, size %d, repeat %d appears twice", line, run.Model, run.Size, run.Repeat)
		}
		runs[k] = run
	}
	if len(runs) == 0 {
		return nil, errors.New("learning-curve csv has a header but no runs")
	}
	res.Runs = make([]Run, len(res.Models)*len(res.Sizes)*res.Repeats)
	for i, m := range res.Models {
		for j, s := range res.Sizes {
			for r := 0; r < res.Repeats; r++ {
				run, ok := runs[key{i, j, r}]
				if !ok {
					return nil, fmt.Errorf("learning-curve csv lacks model %s, size %d, repeat %d", m, s, r)
				}
				res.Runs[(i*len(res.Sizes)+j)*res.Repeats+r] = run
			}
		}
	}
	return res, nil
}
