package vectorize

import (
	"math"
	"runtime"
)

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
// Rows are weighted on all cores; each row alone, so the result does not
// depend on their number.
func (v *Vocabulary) Weight(m *Matrix) {
	if v.Settings.Weighting == "count" && v.Settings.Norm != "l2" {
		return
	}
	parallel(m.Rows(), runtime.GOMAXPROCS(0), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v.WeightRow(m.Row(i))
		}
	})
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
		idf := v.idf()
		sub := v.Settings.Sublinear
		for j, id := range ind {
			tf := val[j]
			if sub && tf > 0 {
				if k := int(tf); k < len(sublinearTF) && float32(k) == tf {
					tf = sublinearTF[k]
				} else {
					tf = float32(1 + math.Log(float64(tf)))
				}
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

// sublinearTF[k] is the sublinear tf 1 + ln k of a count k ≥ 1 (the same
// expression, so the same bits): counts are small integers, and a lookup
// spares WeightRow a logarithm per non-zero.
var sublinearTF = func() (t [256]float32) {
	for k := 1; k < len(t); k++ {
		t[k] = float32(1 + math.Log(float64(k)))
	}
	return t
}()
