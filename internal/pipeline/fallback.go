package pipeline

import (
	"errors"
	"fmt"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// modelCell is about the bytes a streamed NB or centroid model takes per
// term and class while it is fitted (counts.Options.ModelCell): the
// statistics and the model's weights of float64.
const modelCell = 16

// boundTerms bounds an unhashed streamed count by the term tables' budget
// (membudget.TermTables): a corpus whose vocabulary keeps growing stops
// there with a *counts.TableFullError, and is counted again hashed
// (hashFallback), instead of taking the memory of every term it has.
func boundTerms(opt *counts.Options) {
	opt.Ceiling, opt.ModelCell = membudget.TermTables(), modelCell
}

// maxFallbackBits is the most buckets the fallback hashes into: 2^20,
// the terms the streamed SVM, NB-LR and logistic regression keep by
// default (train.LogRegMaxFeatures).
const maxFallbackBits = 20

// fallbackBits returns the hash bits of the fallback for a model of
// classes classes within bound bytes: at most maxFallbackBits, at least
// 10, with 2^bits × classes × modelCell within the bound.
func fallbackBits(classes int, bound int64) int {
	bits := maxFallbackBits
	for bits > 10 && int64(1)<<bits*int64(max(classes, 1))*modelCell > bound {
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
	bits := fallbackBits(full.Classes, full.Ceiling)
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
