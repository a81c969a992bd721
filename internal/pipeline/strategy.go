package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
)

// HoldFactor is about the peak memory of an in-memory run per byte of
// (decompressed) corpus: the texts, their tokens while the vocabulary is
// fitted, the count matrix and the model. Measured with /usr/bin/time -v
// on train --model multinomial: 6.6 on 10^5 synthetic documents
// (tools/gencorpus, 138 MB: 918 MB peak), 2.5 on the 20 Newsgroups train
// split (read from its 50 MB archive of both splits: 126 MB peak).
const HoldFactor = 6.6

// holdFactor is HoldFactor for kind: the SVM and NB-LR hold every 1-2
// gram past min_df and their rows, logistic regression at most 2^20 of
// them. Measured with /usr/bin/time -v, train --no-stream on
// tools/gencorpus -seed 1: svm 2,316 MB at 10^5 documents (138 MB, 16.8
// a byte; 13.3 at 2·10^4), nblr 13.7 and logreg 10.2 at 2·10^4 (27.6 MB),
// the bigrams growing with the corpus. With HoldFactor alone, svm at 10^6
// documents (1.4 GB: 9 GB estimated, within half of 24 GB) was held, and
// needed about 23 GB.
func holdFactor(kind model.Kind) float64 {
	switch kind {
	case model.SVM, model.NBLR:
		return 17
	case model.LogReg:
		return 13
	}
	return HoldFactor
}

// SameModelQuota bounds the estimated peak of holding a corpus in memory
// where streaming gives the same model: past it (or past a quarter of the
// budget) the run streams. Below it, holding is about as fast, and the
// summary gives the accuracy on the training documents, which needs them.
const SameModelQuota = 512 << 20

// ratio is the decompressed size per compressed byte assumed of a
// compressed corpus whose size its format does not record (zstd, bzip2,
// xz), as text compresses.
const ratio = 5

// streamable says whether the run could stream, and if not why.
func (r *run) streamable() (ok bool, why string) {
	switch {
	case r.MultiLabel:
		return false, "multi-label models are fitted on documents held in memory"
	case r.PerClass > 0:
		return false, "the per-class sample is drawn from documents held in memory"
	case r.KeepCounts != "":
		return false, "the counts kept beside the model are counted from documents held in memory"
	case r.Tune:
		return false, "cross-validating α or C needs the documents in memory"
	case r.Init != "" && !r.Fields.Empty():
		return false, "a warm start with record fields is fitted in memory"
	}
	switch r.Kind {
	case model.Multinomial, model.Bernoulli, model.Complement, model.Centroid,
		model.Categorical, model.Gaussian, model.LogReg, model.SVM, model.NBLR:
	default:
		return false, fmt.Sprintf("%s is fitted on documents held in memory", r.Kind)
	}
	return true, ""
}

// sameModel reports whether streaming gives the bytes holding the corpus
// gives (checked by the golden and stream tests): where no temperature is
// fitted by cross-validation on held-out documents (calibration needs the
// documents: multinomial NB and logistic regression fit none, the others
// none when --temperature is given), logistic regression by SGD, and no
// record fields beside the text. The
// parameters are resolved without the classes; a setting that needs them
// (a prior or a weight per label) counts as different.
func (r *run) sameModel() bool {
	if !r.Fields.Empty() && !r.Kind.RecordOnly() {
		// Text with record fields: streamed, the fields are fitted from a
		// spool (NB) or jointly over the row cache (logreg, svm).
		return false
	}
	p, auto, err := r.params(nil, nil)
	if err != nil || auto {
		return false
	}
	switch r.Kind {
	case model.Multinomial, model.Categorical, model.Gaussian:
		return true
	case model.LogReg:
		return p.Solver == "sgd"
	}
	return p.Temperature > 0
}

// choose returns whether the run streams, and why (empty when the plan
// forced it).
func (r *run) choose() (stream bool, why string) {
	switch r.Stream {
	case StreamAlways:
		return true, ""
	case StreamNever:
		return false, ""
	}
	if ok, why := r.streamable(); !ok {
		return false, why
	}
	size, known := r.Source.size()
	if !known {
		return false, "the size of standard input is unknown (--stream streams it)"
	}
	same := r.sameModel()
	factor := holdFactor(r.Kind)
	if same {
		// Streaming or not gives the same model: an estimate above the
		// truth would only stream a corpus that holding fits (20
		// Newsgroups' logreg holds at 3.4 times its text, in half the
		// time), so the quota weighs the common factor.
		factor = HoldFactor
	}
	need := int64(math.Min(float64(size)*factor, math.MaxInt64/2))
	budget := r.Budget
	if budget.Bytes <= 0 {
		budget = membudget.Budget{Bytes: math.MaxInt64, Source: "none"}
	}
	quota := min(budget.Bytes/4, SameModelQuota)
	switch {
	case same && need > quota:
		return true, fmt.Sprintf("the same model as in memory, where the corpus (%s) would need about %s, over %s",
			membudget.Format(size), membudget.Format(need), membudget.Format(quota))
	case need > budget.Bytes/2:
		r.warn("nbtext: the corpus (%s) would need about %s in memory, over half the memory budget %s: streaming it; %s (--no-stream holds it)",
			membudget.Format(size), membudget.Format(need), budget, streamDifference(r.Kind))
		return true, fmt.Sprintf("the corpus (%s) would need about %s in memory, over half the budget %s",
			membudget.Format(size), membudget.Format(need), budget)
	case same:
		return false, fmt.Sprintf("the corpus (%s) needs about %s, within %s (streaming gives the same model)",
			membudget.Format(size), membudget.Format(need), membudget.Format(quota))
	}
	return false, fmt.Sprintf("the corpus (%s) needs about %s, within half the budget %s",
		membudget.Format(size), membudget.Format(need), budget)
}

// streamDifference says how a streamed model of kind differs from the
// one held in memory.
func streamDifference(kind model.Kind) string {
	switch kind {
	case model.LogReg:
		return "logistic regression is fitted by SGD"
	case model.Multinomial, model.Categorical, model.Gaussian:
		return "the model is the same"
	}
	return "no temperature is fitted (calibration needs the documents: give --temperature)"
}

// size returns about how many bytes of text the source holds: the sizes
// of its files (of the files below a folder), decompressed (the size a
// gzip member records, or ratio times a compressed size), and false when
// it reads standard input.
func (s *Source) size() (int64, bool) {
	var total int64
	for _, p := range s.Paths {
		if p == "-" {
			return 0, false
		}
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			total += fileSize(path)
			return nil
		})
		if err != nil {
			// The reader says what is wrong; the estimate does not.
			continue
		}
	}
	return total, true
}

// fileSize returns about how many bytes the file at path decompresses to.
func fileSize(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	n := st.Size()
	head := make([]byte, 6)
	if _, err := io.ReadFull(f, head); err != nil {
		return n
	}
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		// gzip records the size of its last member modulo 2^32.
		var tail [4]byte
		if _, err := f.ReadAt(tail[:], n-4); err != nil {
			return n * ratio
		}
		isize := int64(tail[0]) | int64(tail[1])<<8 | int64(tail[2])<<16 | int64(tail[3])<<24
		for isize < n && isize+1<<32 <= n*1032 {
			isize += 1 << 32 // deflate compresses at most about 1032:1
		}
		return max(isize, n)
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}), bytes.HasPrefix(head, []byte("BZh")),
		bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return n * ratio
	}
	return n
}

// CheckHold returns an error when holding every document of s in memory,
// as a command that cannot stream does (what: "eval --cv", "compare",
// "train --auto"), would need more than the memory budget, estimated as
// a run chooses to stream (HoldFactor times the text): a clear refusal
// that names the flags instead of an out-of-memory kill. Standard input,
// whose size is unknown, passes.
func (s *Source) CheckHold(budget membudget.Budget, what string) error {
	size, known := s.size()
	if !known || budget.Bytes <= 0 || budget.Bytes == math.MaxInt64 {
		return nil
	}
	need := int64(math.Min(float64(size)*HoldFactor, math.MaxInt64/2))
	if need <= budget.Bytes {
		return nil
	}
	return fmt.Errorf("%s holds every document in memory: the corpus (%s of text) would need about %s, over the memory budget %s; "+
		"give it a sample (a smaller corpus, or train --per-class N), train in bounded memory instead (train --stream, then eval -m MODEL on a test split), "+
		"or raise the budget with --mem if the machine has the memory",
		what, membudget.Format(size), membudget.Format(need), budget)
}
