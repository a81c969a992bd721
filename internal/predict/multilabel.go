package predict

import "github.com/nbtext/nbtext/internal/model"

// appendLabels renders the result of a multi-label model (model.Model.MultiLabel)
// for rec: the labels model.SelectLabelsTop keeps (probability ≥
// Options.LabelThresholds[l], or Options.Threshold when those are nil; at
// most Options.TopK of them when > 0; at least Options.MinLabels), most
// probable first. Text: the labels separated by spaces, each followed by
// its probability when TopK > 0 (an empty line when none is kept); TSV:
// id, then label and probability pairs; JSON: the record's own keys, id,
// "labels": [...] and "probs" with the probability of each kept label, or
// of every label with Options.AllProbs.
func (f *formatter) appendLabels(dst []byte, rec *record, sc *model.Scorer, ind []int32, val []float32) []byte {
	probs := sc.LabelProbs(ind, val)
	th := f.opt.LabelThresholds
	if th == nil {
		th = make([]float64, len(probs))
		for l := range th {
			th[l] = f.opt.Threshold
		}
	}
	keep := model.SelectLabelsTop(probs, th, f.opt.TopK, f.opt.MinLabels)
	switch f.opt.Format {
	case FormatJSON:
		dst = appendJSONHead(dst, rec, "labels", "probs")
		dst = append(dst, `"labels":[`...)
		for i, l := range keep {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, f.classes[l])
		}
		dst = append(dst, `],"probs":{`...)
		shown := keep
		if f.opt.AllProbs {
			shown = model.SelectLabels(probs, 0, len(probs))
		}
		for i, l := range shown {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, f.classes[l])
			dst = append(dst, ':')
			dst = f.appendProb(dst, probs[l])
		}
		return append(dst, "}}\n"...)
	case FormatTSV:
		dst = appendID(dst, rec, false)
		for _, l := range keep {
			dst = append(dst, '\t')
			dst = appendTSVField(dst, f.classes[l])
			dst = append(dst, '\t')
			dst = f.appendProb(dst, probs[l])
		}
		return append(dst, '\n')
	default:
		for i, l := range keep {
			if i > 0 {
				dst = append(dst, ' ')
			}
			dst = append(dst, f.classes[l]...)
			if f.opt.TopK > 0 {
				dst = append(dst, ' ')
				dst = f.appendProb(dst, probs[l])
			}
		}
		return append(dst, '\n')
	}
}
