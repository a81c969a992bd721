package counts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file holds what feature hashing (Settings.HashBits) adds to
// counts: each term is a bucket, and carries the most frequent terms the
// bucket held (vectorize.Vocabulary.Names), so that models fitted from
// counts still name words.
//
// Round one adds the names of each part (vectorize.AddNames: counts of
// equal names added), and keeps the MaxBucketNames of highest count of
// the sum (vectorize.TopNames). A worker's table hands every name it
// counted, so the names of a Counter's tables are exact and do not depend
// on which worker counted which document; a counts file or spilled run
// keeps MaxBucketNames a bucket. Merging files is exact, and the same for
// any grouping of the merges, while a bucket holds at most MaxBucketNames
// distinct terms; beyond, the names kept can depend on the grouping (the
// counts never do). Round two carries the names of its round-one
// vocabulary unchanged: every part has the same.

// hashedVersion is the counts format version of hashed counts.
const hashedVersion = 2

// hashed reports whether counts with header h are hashed.
func hashed(h *Header) bool { return h.Settings.HashBits > 0 }

// fileVersion returns the format version of counts with header h.
func fileVersion(h *Header) uint32 {
	if hashed(h) {
		return hashedVersion
	}
	return 1
}

// names returns the bucket names of term i, nil when c has none.
func (c *Counts) names(i int) []vectorize.TermCount {
	if i < len(c.Names) {
		return c.Names[i]
	}
	return nil
}

// readNames reads the names of the current term (vectorize.AppendNames) into
// a new slice.
func (r *reader) readNames() ([]vectorize.TermCount, error) {
	k, err := r.br.uvarint()
	if err != nil {
		return nil, r.cut(err)
	}
	if k > vectorize.MaxBucketNames {
		return nil, r.bad("%d bucket names, at most %d", k, vectorize.MaxBucketNames)
	}
	out := make([]vectorize.TermCount, k)
	for j := range out {
		n, err := r.br.uvarint()
		if err != nil {
			return nil, r.cut(err)
		}
		if n == 0 || n > maxTermBytes {
			return nil, r.bad("bucket name of %d bytes", n)
		}
		b, err := r.br.next(int(n))
		if err != nil {
			return nil, r.cut(err)
		}
		term := string(b) // before the next read, which may refill b's buffer
		cnt, err := r.br.uvarint()
		if err != nil {
			return nil, r.cut(err)
		}
		out[j] = vectorize.TermCount{Term: term, Count: int64(min(cnt, 1<<62))}
	}
	if err := vectorize.CheckNames([][]vectorize.TermCount{out}, 1); err != nil {
		return nil, r.bad("%v", err)
	}
	return out, nil
}

// lastNames returns the names of the term next returned last.
func (r *reader) lastNames() []vectorize.TermCount { return r.names }

// lastNames returns the names of the term next returned last.
func (s *memSource) lastNames() []vectorize.TermCount { return s.c.names(s.i - 1) }

// namedSource is a source of hashed terms, which carry bucket names.
type namedSource interface {
	source
	lastNames() []vectorize.TermCount
}

// namedSink is a sink that keeps bucket names.
type namedSink interface {
	sink
	addNamed(term string, cells []Cell, names []vectorize.TermCount) error
}

// hashedSources reports whether every source carries bucket names.
func hashedSources(srcs []source) bool {
	for _, s := range srcs {
		switch x := s.(type) {
		case *reader:
			if !hashed(&x.hdr) {
				return false
			}
		case *memSource:
			if !hashed(&x.c.Header) {
				return false
			}
		case *workerSource:
			if !x.w.named {
				return false
			}
		default:
			return false
		}
	}
	return len(srcs) > 0
}

// weighted reports whether the sources are round-two counts (headers are
// compatible, so the first tells).
func weighted(srcs []source) bool {
	switch x := srcs[0].(type) {
	case *reader:
		return x.hdr.Weighted()
	case *memSource:
		return x.c.Weighted()
	case *workerSource:
		return x.w.vocab != nil
	}
	return false
}

// mergeTermNames adds the names b of one part to acc: summed in round
// one (vectorize.AddNames; the caller keeps the top ones once every part
// is added), the first part's in round two (all parts carry the round-one
// vocabulary's names).
func mergeTermNames(acc, b []vectorize.TermCount, round2 bool) []vectorize.TermCount {
	if round2 {
		if acc == nil {
			return slices.Clone(b)
		}
		return acc
	}
	return vectorize.AddNames(acc, b) // acc is this merge's own
}

// names returns the bucket names of the worker's terms, by term id: in
// round one those its TermCounter counted, in round two the round-one
// vocabulary's, whatever these documents hold. nil without hashing.
func (w *worker) names() [][]vectorize.TermCount {
	switch {
	case !w.named:
		return nil
	case w.vocab != nil:
		return w.vocab.Names
	}
	return w.tc.Names()
}

// lastNames returns the names of the term next returned last.
func (s *workerSource) lastNames() []vectorize.TermCount {
	if id := s.order[s.i-1]; int(id) < len(s.names) {
		return s.names[id]
	}
	return nil
}

// ownNames returns a copy of names whose strings share no memory with
// the source's (a worker's term table, a reader's buffer), so that a sink
// holding them holds nothing else of the source.
func ownNames(names []vectorize.TermCount) []vectorize.TermCount {
	if names == nil {
		return nil
	}
	out := make([]vectorize.TermCount, len(names))
	for i, x := range names {
		out[i] = vectorize.TermCount{Term: strings.Clone(x.Term), Count: x.Count}
	}
	return out
}

// addNamed is add with the bucket names of a hashed term, recorded for
// vocabulary's kept terms.
func (s *statsSink) addNamed(term string, cells []Cell, names []vectorize.TermCount) error {
	if s.dropsEarly(cells) {
		return nil
	}
	if hashed(s.h) {
		s.names = append(s.names, ownNames(names))
	}
	return s.add(term, cells)
}

// keptNames returns the names of the terms keep (indices into the terms
// added), nil when the sink has none.
func (s *statsSink) keptNames(keep []int32) [][]vectorize.TermCount {
	if s.names == nil {
		return nil
	}
	out := make([][]vectorize.TermCount, len(keep))
	for j, i := range keep {
		out[j] = s.names[i]
	}
	return out
}

// checkNamesLen reports names that do not match terms.
func checkNamesLen(c *Counts) error {
	if c.Names != nil && len(c.Names) != len(c.Terms) {
		return fmt.Errorf("counts: %d bucket name lists for %d terms", len(c.Names), len(c.Terms))
	}
	return nil
}
