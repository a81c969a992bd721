package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// StreamDefaults returns the defaults of a streamed fit (train --stream)
// of kind: those of Defaults, except that the SVM and NB-LR keep at most
// LogRegMaxFeatures terms, as logistic regression does.
//
// In memory, the documents' rows set the peak of the SVM and NB-LR, so
// they keep every 1-2 gram that passes min_df. Streamed, the rows are on
// disk and the weights (terms × classes, with the solver's own copy and,
// for NB-LR, the log-count ratios: about 400 bytes a term at 20 classes)
// set it, and word bigrams make the terms grow with the corpus: on
// tools/gencorpus -seed 1 (20 classes) the uncapped SVM peaked at 1.24 GB
// at 10^5 documents, and on a vocabulary that keeps growing (-heaps) past
// 8 GB at 10^6. The cap is the one logistic regression has chosen
// (LogRegMaxFeatures, on the held-out sets): it binds only past a million
// terms, so 20 Newsgroups' and IMDB's models are unchanged, and the count
// keeps about twice the cap's terms while it counts (counts' early trim),
// so that the first pass is bounded too. --max-features N or 0, and
// --hash-bits (which fixes the model's size), override it.
func StreamDefaults(kind model.Kind) (vectorize.Settings, model.Params) {
	s, p := Defaults(kind)
	if (kind == model.SVM || kind == model.NBLR) && s.MaxFeatures == 0 && s.HashBits == 0 {
		s.MaxFeatures = LogRegMaxFeatures
	}
	return s, p
}

// StreamBlockRows returns the rows of a block of a streamed dual fit of
// nc classes (FitSVMStream, FitNBLRStream) over rc: buffer
// (DefaultStreamBuffer when ≤ 0), or fewer when blocks of buffer rows of
// rc, at their mean size, would pass membudget.RowBlocks.
func StreamBlockRows(rc *RowCache, buffer, nc int) int {
	if buffer <= 0 {
		buffer = DefaultStreamBuffer
	}
	probs := nc
	if nc == 2 {
		probs = 1
	}
	return blockRows(rc, buffer, probs, membudget.RowBlocks())
}

// blockRows returns buffer, or fewer rows when blocks of buffer rows of
// rc, at their mean size, would pass maxBytes. A block costs its encoded
// bytes (up to 8 a term), its decoded rows (8 bytes a term, 8 a row) and
// its dual variables (8 bytes a row and problem).
func blockRows(rc *RowCache, buffer, probs int, maxBytes int64) int {
	n := int64(rc.Rows())
	if n == 0 {
		return buffer
	}
	perRow := (16*rc.nnz + n*(16+8*int64(probs)) + n - 1) / n
	rows := max(maxBytes/max(perRow, 1), 1)
	return int(min(int64(buffer), rows))
}

// StreamCap settles the cap StreamDefaults gives kind on v, a vocabulary
// counted with it. When the cap did not bind (v has fewer terms), it is
// cleared from v's settings: v has every term that passes min_df, and its
// model is the in-memory fit's, byte for byte; StreamCap returns "". When
// it may have bound, StreamCap returns a note that says so and how to
// keep more terms.
func StreamCap(kind model.Kind, v *vectorize.Vocabulary) string {
	if (kind != model.SVM && kind != model.NBLR) || v.Settings.MaxFeatures != LogRegMaxFeatures {
		return ""
	}
	if v.Len() < LogRegMaxFeatures {
		v.Settings.MaxFeatures = 0
		return ""
	}
	return fmt.Sprintf("nbtext: streamed, %s keeps the %d terms of highest document frequency, to bound its memory (--max-features 0 keeps every term; --hash-bits B fixes the model at 2^B terms)", kind, v.Len())
}
