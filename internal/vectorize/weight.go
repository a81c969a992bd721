package vectorize

import (
	"math"
	"math/bits"
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
// norm √(Σ_t w(t, d)²), whatever the weighting (the sum as sumSquares
// takes it, which does not depend on the order of the row's terms). Empty
// rows stay empty.
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
		if ss := sumSquares(val); ss > 0 {
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

// sumSquares returns Σ x² over val as a function of the multiset of val
// alone: the order of the values does not change a bit of it, so a row
// can be normalised in whatever order its terms come (counts.RoundTwo
// replays rows in order of first occurrence, in-memory training weights
// them sorted by term id). A float64 sum in order would not do: each
// addition rounds, and where it rounds depends on what came before.
//
// Each square is exact as an integer times a power of two (a float32's
// 24-bit significand squared takes 48 bits). The squares are put on the
// grid of 2^(2·e−348), where e is the largest biased exponent of val: the
// largest square then takes at most 96 bits, so a 128-bit sum of up to
// 2^32 of them cannot overflow, and a square's bits below the grid, which
// are below 2^−96 of the largest square, are dropped. The integer sum is
// exact, so the same in every order, and converting it to float64 is a
// fixed function of it. A NaN or infinity in val gives the float64 sum,
// NaN or +Inf in every order.
func sumSquares(val []float32) float64 {
	var top uint32
	for _, x := range val {
		top = max(top, math.Float32bits(x)&^(1<<31))
	}
	switch {
	case top == 0:
		return 0
	case top >= 0xff<<23: // NaN or ±Inf
		ss := 0.0
		for _, x := range val {
			ss += float64(x) * float64(x)
		}
		return ss
	}
	emax := max(int(top>>23), 1) // subnormals have exponent 1
	var hi, lo uint64
	for _, x := range val {
		b := math.Float32bits(x)
		e := int(b>>23) & 0xff
		m := uint64(b & (1<<23 - 1))
		if e == 0 {
			e = 1
		} else {
			m |= 1 << 23
		}
		// x² = m²·2^(2e−300) = (m² · 2^(2(e−emax)+48)) · 2^(2·emax−348).
		sq := m * m
		var qh, ql uint64
		switch sh := 2*(e-emax) + 48; {
		case sh >= 64:
			qh = sq << (sh - 64)
		case sh > 0:
			qh, ql = sq>>(64-sh), sq<<sh
		case sh > -64:
			ql = sq >> -sh
		}
		var c uint64
		lo, c = bits.Add64(lo, ql, 0)
		hi, _ = bits.Add64(hi, qh, c)
	}
	return math.Ldexp(float64(hi)*0x1p64+float64(lo), 2*emax-348)
}
