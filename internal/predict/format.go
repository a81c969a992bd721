package predict

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nbtext/nbtext/internal/model"
)

func errCosts(got, want int) error {
	return fmt.Errorf("--costs gives %d weights for a model of %d classes", got, want)
}

// formatter renders one result per document. Each worker has its own.
type formatter struct {
	m       *model.Model
	opt     Options
	order   []int // scratch: classes by probability
	classes []string
	rec     model.Record          // the record fields of the document, for a model with fields
	ens     *model.EnsembleScorer // the scorer of an ensemble, whose Explain serves --explain
}

func newFormatter(m *model.Model, opt Options) *formatter {
	return &formatter{m: m, opt: opt, classes: m.Classes, order: make([]int, m.NumClasses())}
}

// tsvHeader is the TSV header line for opt.
func tsvHeader(opt Options) []byte {
	h := "id\tlabel\tprob"
	for k := 2; k <= opt.TopK; k++ {
		h += fmt.Sprintf("\tlabel%d\tprob%d", k, k)
	}
	if opt.Explain > 0 {
		h += "\texplain"
	}
	return []byte(h + "\n")
}

// append renders the result for rec onto dst.
func (f *formatter) append(dst []byte, rec *record, pr model.Prediction, sc *model.Scorer, ind []int32, val []float32) []byte {
	if f.m.MultiLabel {
		return f.appendLabels(dst, rec, sc, ind, val)
	}
	class := pr.Class
	if f.opt.Costs != nil {
		class = model.Decide(pr.LogProbs, f.opt.Costs)
	}
	prob := math.Exp(pr.LogProbs[class])
	label := f.classes[class]
	unsure := f.opt.Threshold > 0 && prob < f.opt.Threshold
	var top []int
	if f.opt.TopK > 0 {
		top = f.topK(pr.LogProbs, class, f.opt.TopK)
		if f.opt.Threshold > 0 {
			top = f.above(top, pr.LogProbs, unsure)
		}
	}
	var expl []model.Contribution
	if f.opt.Explain > 0 && f.ens != nil {
		expl = f.ens.Explain(class, f.opt.Explain)
	} else if f.opt.Explain > 0 {
		expl = sc.Explain(ind, val, class, f.opt.Explain)
		if f.m.Fields != nil {
			expl = explainFields(expl, sc, f.rec, class, pr.LogProbs)
		}
	}
	if unsure {
		label = "?"
	}
	switch f.opt.Format {
	case FormatJSON:
		return f.appendJSON(dst, rec, pr, class, unsure, top, expl)
	case FormatTSV:
		dst = appendID(dst, rec, false)
		dst = append(dst, '\t')
		dst = appendTSVField(dst, label)
		dst = append(dst, '\t')
		dst = f.appendProb(dst, prob)
		for k := 1; k < f.opt.TopK; k++ {
			dst = append(dst, '\t')
			if k < len(top) {
				dst = appendTSVField(dst, f.classes[top[k]])
				dst = append(dst, '\t')
				dst = f.appendProb(dst, math.Exp(pr.LogProbs[top[k]]))
			} else {
				dst = append(dst, '\t') // dropped by the threshold: empty fields
			}
		}
		if f.opt.Explain > 0 {
			dst = append(dst, '\t')
			dst = appendExplain(dst, expl, ',')
		}
		return append(dst, '\n')
	default:
		if f.opt.TopK == 0 || unsure {
			dst = append(dst, label...)
		} else {
			for i, c := range top {
				if i > 0 {
					dst = append(dst, ' ')
				}
				dst = append(dst, f.classes[c]...)
				dst = append(dst, ' ')
				dst = f.appendProb(dst, math.Exp(pr.LogProbs[c]))
			}
		}
		if f.opt.Explain > 0 {
			dst = append(dst, '\t')
			dst = appendExplain(dst, expl, ' ')
		}
		return append(dst, '\n')
	}
}

// above drops from top the classes whose probability is below the
// threshold, as fastText's predict does with k and a threshold; when the
// decided class (top[0]) is below it, the answer is unsure and nothing is
// left.
func (f *formatter) above(top []int, logProbs []float64, unsure bool) []int {
	if unsure {
		return top[:0]
	}
	kept := top[:0]
	for _, c := range top {
		if math.Exp(logProbs[c]) >= f.opt.Threshold {
			kept = append(kept, c)
		}
	}
	return kept
}

// appendFailed renders the answer for a document that could not be read:
// "?" in text, an empty label (and probabilities) in TSV, an empty label,
// no probabilities and an "error" field in JSON.
func (f *formatter) appendFailed(dst []byte, rec *record) []byte {
	switch f.opt.Format {
	case FormatJSON:
		dst = append(dst, `{"id":`...)
		dst = appendID(dst, rec, true)
		dst = append(dst, `,"label":"","probs":{},"error":`...)
		dst = appendJSONString(dst, rec.fail)
		return append(dst, "}\n"...)
	case FormatTSV:
		dst = appendID(dst, rec, false)
		dst = append(dst, "\t\t"...)
		for k := 1; k < f.opt.TopK; k++ {
			dst = append(dst, "\t\t"...)
		}
		if f.opt.Explain > 0 {
			dst = append(dst, '\t')
		}
		return append(dst, '\n')
	}
	return append(dst, "?\n"...)
}

// topK returns the k most probable classes, the decided class first.
func (f *formatter) topK(logProbs []float64, class, k int) []int {
	top := model.TopK(logProbs, len(logProbs))
	out := make([]int, 0, k)
	out = append(out, class)
	for _, c := range top {
		if len(out) == k {
			break
		}
		if c != class {
			out = append(out, c)
		}
	}
	return out
}

func (f *formatter) appendJSON(dst []byte, rec *record, pr model.Prediction, class int, unsure bool, top []int, expl []model.Contribution) []byte {
	dst = appendJSONHead(dst, rec, "label", "probs", "scores", "empty", "explain", "fallback")
	dst = append(dst, `"label":`...)
	if unsure {
		dst = append(dst, `""`...)
	} else {
		dst = appendJSONString(dst, f.classes[class])
	}
	dst = append(dst, `,"probs":{`...)
	cls := top
	if f.opt.TopK == 0 {
		cls = model.TopK(pr.LogProbs, len(pr.LogProbs))
	}
	for i, c := range cls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, f.classes[c])
		dst = append(dst, ':')
		dst = f.appendProb(dst, math.Exp(pr.LogProbs[c]))
	}
	dst = append(dst, '}')
	if f.opt.Scores && pr.Scores != nil {
		dst = append(dst, `,"scores":{`...)
		for i, c := range cls {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, f.classes[c])
			dst = append(dst, ':')
			dst = appendJSONFloat(dst, pr.Scores[c], f.digits())
		}
		dst = append(dst, '}')
	}
	if pr.Empty {
		dst = append(dst, `,"empty":true`...)
	}
	if pr.Fallback {
		dst = append(dst, `,"fallback":true`...)
	}
	if f.opt.Explain > 0 {
		dst = append(dst, `,"explain":[`...)
		for i, c := range expl {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"term":`...)
			dst = appendJSONString(dst, c.Term)
			dst = append(dst, `,"weight":`...)
			dst = appendJSONFloat(dst, c.Value, f.digits())
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, "}\n"...)
}

// appendJSONHead opens the JSON object of rec: '{', the members of a
// JSONL input passed through in order except those named ours (ours win),
// and the id unless the input has one, each followed by a comma.
func appendJSONHead(dst []byte, rec *record, ours ...string) []byte {
	dst = append(dst, '{')
	for _, fl := range rec.extra {
		if slices.Contains(ours, fl.key) {
			continue
		}
		dst = appendJSONString(dst, fl.key)
		dst = append(dst, ':')
		dst = append(dst, compactRaw(fl.raw)...)
		dst = append(dst, ',')
	}
	if !hasKey(rec.extra, "id") {
		dst = append(dst, `"id":`...)
		dst = appendID(dst, rec, true)
		dst = append(dst, ',')
	}
	return dst
}

// appendID writes the id of rec as a TSV field, or as a JSON string when
// asJSON is set. The id of a raw record (a line of --input lines, a record
// of nul) is its number, written without allocating.
func appendID(dst []byte, rec *record, asJSON bool) []byte {
	switch {
	case rec.raw && asJSON:
		dst = append(dst, '"')
		dst = appendJSONInner(dst, rec.src)
		dst = strconv.AppendInt(dst, int64(rec.n), 10)
		return append(dst, '"')
	case rec.raw:
		dst = appendTSVField(dst, rec.src)
		return strconv.AppendInt(dst, int64(rec.n), 10)
	case asJSON:
		return appendJSONString(dst, rec.id)
	}
	return appendTSVField(dst, rec.id)
}

func hasKey(fs []field, key string) bool {
	for _, f := range fs {
		if f.key == key {
			return true
		}
	}
	return false
}

// compactRaw strips the newlines a pretty-printed value may hold, so the
// output stays one object per line.
func compactRaw(raw []byte) []byte {
	if !strings.ContainsAny(string(raw), "\n\r") {
		return raw
	}
	return []byte(strings.NewReplacer("\n", " ", "\r", " ").Replace(string(raw)))
}

// digits returns the decimals of the numbers f writes: Options.Digits,
// else 4 in text and TSV and, in JSON, -1: as many as a float64 needs to
// be read back exactly (strconv's shortest form).
func (f *formatter) digits() int {
	switch {
	case f.opt.Digits > 0:
		return f.opt.Digits
	case f.opt.Format == FormatJSON:
		return -1
	}
	return 4
}

// appendProb writes a probability with f's decimals (digits).
func (f *formatter) appendProb(dst []byte, p float64) []byte {
	if d := f.digits(); d >= 0 {
		return strconv.AppendFloat(dst, p, 'f', d, 64)
	}
	return strconv.AppendFloat(dst, p, 'g', -1, 64)
}

// appendJSONFloat writes x as JSON (±Inf as strings, which JSON lacks),
// with digits decimals (-1: the shortest form that reads back exactly).
func appendJSONFloat(dst []byte, x float64, digits int) []byte {
	switch {
	case math.IsInf(x, 1):
		return append(dst, `"+Inf"`...)
	case math.IsInf(x, -1):
		return append(dst, `"-Inf"`...)
	case x != x:
		return append(dst, `"NaN"`...)
	}
	if digits < 0 {
		return strconv.AppendFloat(dst, x, 'g', -1, 64)
	}
	return strconv.AppendFloat(dst, x, 'f', digits, 64)
}

func appendExplain(dst []byte, expl []model.Contribution, sep byte) []byte {
	for i, c := range expl {
		if i > 0 {
			dst = append(dst, sep)
		}
		dst = appendTSVField(dst, c.Term)
		dst = append(dst, ':')
		if c.Value >= 0 && !math.IsInf(c.Value, 1) { // strconv writes +Inf with its sign
			dst = append(dst, '+')
		}
		dst = strconv.AppendFloat(dst, c.Value, 'g', 3, 64)
	}
	return dst
}

// appendTSVField writes s with tabs and line breaks ("\t", "\n", "\r")
// replaced by spaces, without allocating: it runs per document (the id
// prefix of a file's lines, explained terms).
func appendTSVField(dst []byte, s string) []byte {
	if !strings.ContainsAny(s, "\t\n\r") {
		return append(dst, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t', '\n', '\r':
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// appendJSONString writes s as a JSON string (valid UTF-8 assumed; invalid
// bytes become U+FFFD).
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendJSONInner(dst, s)
	return append(dst, '"')
}

// appendJSONInner writes s escaped as the inside of a JSON string.
func appendJSONInner(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c < 0x20:
				dst = append(dst, fmt.Sprintf(`\u%04x`, c)...)
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}
