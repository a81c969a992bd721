package pipeline

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// modelCell returns about the bytes a streamed NB or centroid model
// takes per term and class once counted (counts.Options.ModelCell): round
// two's cells, 16 bytes in each worker's table, then the statistics and
// the model's weights, float64s. (With 2^20 buckets and 20 classes,
// round two's tables alone took 671 MB on 2 workers.)
func modelCell(workers int) int64 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return 16*int64(workers) + 24
}

// boundTerms bounds an unhashed streamed count by the term tables' budget
// (membudget.TermTables): a corpus whose vocabulary keeps growing stops
// there with a *counts.TableFullError, and is counted again hashed
// (hashFallback), instead of taking the memory of every term it has.
func boundTerms(opt *counts.Options) {
	opt.Ceiling, opt.ModelCell = membudget.TermTables(), modelCell(opt.Workers)
}

// maxFallbackBits is the most buckets the fallback hashes into: 2^20,
// the terms the streamed SVM, NB-LR and logistic regression keep by
// default (train.LogRegMaxFeatures).
const maxFallbackBits = 20

// fallbackBits returns the hash bits of the fallback for a model of
// classes classes within bound bytes, cell bytes a bucket and class
// (modelCell): at most maxFallbackBits, at least 10, with 2^bits ×
// classes × cell within the bound.
func fallbackBits(classes int, bound, cell int64) int {
	bits := maxFallbackBits
	for bits > 10 && int64(1)<<bits*int64(max(classes, 1))*cell > bound {
		bits--
	}
	return bits
}

// hashFallback returns the settings and options of the count again that
// follows full, the error of a count whose term table passed its bound
// (boundTerms): settings hashed into 2^fallbackBits buckets, spilled
// under membudget.CountTables, and says so. A count of standard input or
// with record fields, which cannot be read or spooled again, is an error
// that says what to give instead.
func (r *run) hashFallback(src *Source, spooled bool, settings vectorize.Settings, full *counts.TableFullError) (vectorize.Settings, counts.Options, error) {
	bits := fallbackBits(full.Classes, full.Ceiling, modelCell(r.Workers))
	opt := counts.Options{Workers: r.Workers, Mem: membudget.CountTables()}
	if src.readsStdin() || spooled {
		what := "standard input cannot be read again"
		if spooled {
			what = "the record fields cannot be spooled again"
		}
		return settings, opt, fmt.Errorf("%w: %s; give --hash-bits %d (a model of 2^%d buckets), or raise the budget with --mem", full, what, bits, bits)
	}
	settings.HashBits = bits
	r.warn("nbtext: the vocabulary keeps growing: %v; counting again with --hash-bits %d, which bounds the model at 2^%d buckets (give --hash-bits B to choose, or raise the budget with --mem to keep every term)", full, bits, bits)
	return settings, opt, nil
}

// tableFull returns the *counts.TableFullError err holds, or nil.
func tableFull(err error) *counts.TableFullError {
	var full *counts.TableFullError
	if errors.As(err, &full) {
		return full
	}
	return nil
}
