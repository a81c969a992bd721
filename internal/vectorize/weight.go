package vectorize

import "math"

// Weight applies v.Settings.Weighting to a count matrix of v, in place:
//
//   - "binary": every present term gets 1;
//   - "count": values stay counts;
//   - "tfidf": w(t, d) = tf(t, d) · idf(t), where tf is the count, or
//     1 + ln(count) when Sublinear, and idf(t) = ln((1+n)/(1+df(t))) + 1
//     (scikit-learn's TfidfTransformer with smooth_idf, see IDF).
//
// Then, when Norm is "l2", each non-empty row is divided by its Euclidean
// norm √(Σ_t w(t, d)²), whatever the weighting. Empty rows stay empty.
func (v *Vocabulary) Weight(m *Matrix) {
	for i := range m.Rows() {
		v.WeightRow(m.Row(i))
	}
}

// WeightRow applies v.Settings.Weighting and Norm (see Weight) in place to
// one row of counts, such as Vectorizer.Vectorize returns. It does not
// allocate.
func (v *Vocabulary) WeightRow(ind []int32, val []float32) {
	switch v.Settings.Weighting {
	case "binary":
		for j := range val {
			val[j] = 1
		}
	case "tfidf":
		idf := v.index().idf
		sub := v.Settings.Sublinear
		for j, id := range ind {
			tf := val[j]
			if sub && tf > 0 {
				tf = float32(1 + math.Log(float64(tf)))
			}
			val[j] = tf * idf[id]
		}
	}
	if v.Settings.Norm == "l2" {
		ss := 0.0
		for _, x := range val {
			ss += float64(x) * float64(x)
		}
		if ss > 0 {
			inv := 1 / math.Sqrt(ss)
			for j, x := range val {
				val[j] = float32(float64(x) * inv)
			}
		}
	}
}
