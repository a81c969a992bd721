package counts

import (
	"errors"
	"math"
	"math/bits"
)

// Fixed is a non-negative number in 64.64 fixed point: Hi + Lo·2⁻⁶⁴. The
// weighted sums of the counts are kept in it because its addition is
// exact, so associative and commutative: any order or tree of additions
// gives the same bits, which float64 addition does not.
type Fixed struct {
	Hi uint64 // the integer part
	Lo uint64 // the fraction, in units of 2⁻⁶⁴
}

// maxFixedValue bounds one value FixedOf takes: sums of up to 2 values
// of 2⁶² each still fit the integer part.
const maxFixedValue = 1 << 62

// errFixedRange is FixedOf's error.
var errFixedRange = errors.New("feature value is not a finite number in [0, 2^62)")

// FixedOf returns v in fixed point, rounding to the nearest multiple of
// 2⁻⁶⁴ (ties to even): exact for every float32 ≥ 2⁻⁴¹, and the same bits
// for the same v wherever it is computed. It fails for a negative, NaN or
// infinite v, or one ≥ 2⁶².
func FixedOf(v float32) (Fixed, error) {
	if !(v >= 0 && v < maxFixedValue) {
		return Fixed{}, errFixedRange
	}
	if v == 0 {
		return Fixed{}, nil
	}
	b := math.Float32bits(v)
	exp := int(b>>23) & 0xff
	mant := uint64(b & (1<<23 - 1))
	if exp == 0 {
		exp = 1 // subnormal
	} else {
		mant |= 1 << 23
	}
	// v = mant · 2^(exp-150); v·2⁶⁴ = mant · 2^(exp-86).
	shift := exp - 86
	switch {
	case shift >= 0:
		// mant < 2²⁴ and v < 2⁶² keep mant << shift below 2¹²⁶.
		hi, lo := uint64(0), mant
		if shift >= 64 {
			hi, lo = mant<<(shift-64), 0
		} else if shift > 0 {
			hi, lo = mant>>(64-shift), mant<<shift
		}
		return Fixed{Hi: hi, Lo: lo}, nil
	case shift > -64:
		s := uint(-shift)
		q := mant >> s
		rem := mant & (1<<s - 1)
		half := uint64(1) << (s - 1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
		return Fixed{Lo: q}, nil
	}
	return Fixed{}, nil // below 2⁻⁶⁵: rounds to 0
}

// Add returns a + b and whether the sum overflowed (2⁶⁴ or more).
func (a Fixed) Add(b Fixed) (Fixed, bool) {
	lo, carry := bits.Add64(a.Lo, b.Lo, 0)
	hi, over := bits.Add64(a.Hi, b.Hi, carry)
	return Fixed{Hi: hi, Lo: lo}, over != 0
}

// IsZero reports whether a is 0.
func (a Fixed) IsZero() bool { return a.Hi == 0 && a.Lo == 0 }

// Float64 returns a as a float64: the integer part and the fraction are
// converted and added, each rounded to nearest, so the result is a fixed
// function of a (a whole number below 2⁵³ converts exactly).
func (a Fixed) Float64() float64 {
	if a.Lo == 0 {
		return float64(a.Hi)
	}
	return float64(a.Hi) + float64(a.Lo)*0x1p-64 // exact scaling: never subnormal
}
