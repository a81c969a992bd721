package model

import (
	"errors"
	"fmt"
)

// MaxTableBytes bounds the memory of the terms × classes tables that one
// model file holds once loaded, summed over the members of an ensemble
// (1 GiB, as MaxPayload). It is the one size rule of models: Decode
// refuses a file over it before allocating, Encode refuses to write one,
// and training refuses, before fitting, a vocabulary and classes that
// would exceed it (CheckSize), so that nbtext never writes a model it
// cannot load. See docs/limits.md.
const MaxTableBytes = MaxPayload

// ErrSize: the terms × classes of a model exceed MaxTableBytes.
var ErrSize = errors.New("too many terms × classes")

// TableBytes returns the bytes of the V×C tables of a model with V terms
// and C classes: 16 a cell for one that keeps its counts (naive Bayes:
// counts and weights), 8 for one that keeps weights only.
func TableBytes(V, C int, counts bool) uint64 {
	per := uint64(8)
	if counts {
		per = 16
	}
	if V <= 0 || C <= 0 {
		return 0
	}
	v, c := uint64(V), uint64(C)
	if v > MaxTableBytes || c > MaxTableBytes || v > (1<<63)/per/c {
		return 1 << 63 // over any bound, without overflow
	}
	return v * c * per
}

// CheckSize returns an error wrapping ErrSize, naming the figures and the
// limit, when a model of kind (multi-label or not) with V terms and C
// classes (labels) would hold more than MaxTableBytes of tables. Trainers
// call it before fitting; Encode and Decode apply the same rule.
func CheckSize(kind Kind, multiLabel bool, V, C int) error {
	return tableBudget{left: MaxTableBytes}.take(V, C, keepsCounts(kind, multiLabel))
}

// keepsCounts reports whether a model's file keeps its counts (naive
// Bayes, not multi-label).
func keepsCounts(kind Kind, multiLabel bool) bool { return kind.IsNB() && !multiLabel }

// tableBudget is what is left of MaxTableBytes while a file (and each
// member of an ensemble in turn) is decoded or encoded.
type tableBudget struct{ left uint64 }

// take returns an error wrapping ErrSize if the tables of V terms × C
// classes exceed what is left; it does not change b (see use).
func (b tableBudget) take(V, C int, counts bool) error {
	if need := TableBytes(V, C, counts); need > b.left {
		left := ""
		if b.left < MaxTableBytes {
			left = fmt.Sprintf(", %s of it left after the other members", mib(b.left))
		}
		return fmt.Errorf("%w: %d terms × %d classes need %s of tables, more than the %s a model may hold%s (fewer terms, e.g. --max-features or --min-df, or fewer classes fit)",
			ErrSize, V, C, mib(need), mib(MaxTableBytes), left)
	}
	return nil
}

// use takes the tables of V × C from b, or returns take's error.
func (b *tableBudget) use(V, C int, counts bool) error {
	if err := b.take(V, C, counts); err != nil {
		return err
	}
	b.left -= TableBytes(V, C, counts)
	return nil
}

// mib formats n bytes in MiB (GiB from 1 GiB).
func mib(n uint64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// sizeError is an error message that wraps ErrSize.
type sizeError string

func (e sizeError) Error() string        { return string(e) }
func (e sizeError) Is(target error) bool { return target == ErrSize }
