package vectorize

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// This file holds feature hashing (Settings.HashBits): the hash of a term,
// the name of a bucket, and the few term names kept per bucket so that
// explanations and model inspection still name words.

// MaxHashBits bounds Settings.HashBits: 2^28 buckets, all used, would
// already be 2 GiB of float64 weights per class, past what a model file
// holds (model.MaxPayload); a model stores only the buckets its corpus
// used.
const MaxHashBits = 28

// BucketPrefix opens the name of every bucket of a hashed vocabulary: "~"
// is no word character, so no token starts with it.
const BucketPrefix = "~"

// MaxBucketNames is the number of term names a hashed vocabulary keeps per
// bucket, the most frequent first (see Vocabulary.Names).
const MaxBucketNames = 4

// HashTerm returns the 64-bit hash of a term's UTF-8 bytes that feature
// hashing buckets by: XXH64 with seed 0 (Yann Collet's xxHash, as in
// github.com/Cyan4973/xxHash, whose published test vectors it passes). It
// is fixed forever: model and counts files with HashBits depend on it,
// on every platform and in every version.
func HashTerm(s string) uint64 {
	const (
		p1 uint64 = 11400714785074694791
		p2 uint64 = 14029467366897019727
		p3 uint64 = 1609587929392839161
		p4 uint64 = 9650029242287828579
		p5 uint64 = 2870177450012600261
	)
	round := func(acc, in uint64) uint64 {
		return bits.RotateLeft64(acc+in*p2, 31) * p1
	}
	n := len(s)
	var h uint64
	if n >= 32 {
		var zero uint64 // wrap-around arithmetic, which constants refuse
		v1, v2, v3, v4 := zero+p1+p2, p2, zero, zero-p1
		for len(s) >= 32 {
			v1 = round(v1, le64(s))
			v2 = round(v2, le64(s[8:]))
			v3 = round(v3, le64(s[16:]))
			v4 = round(v4, le64(s[24:]))
			s = s[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		for _, v := range [...]uint64{v1, v2, v3, v4} {
			h = (h^round(0, v))*p1 + p4
		}
	} else {
		h = p5
	}
	h += uint64(n)
	for ; len(s) >= 8; s = s[8:] {
		h = bits.RotateLeft64(h^round(0, le64(s)), 27)*p1 + p4
	}
	if len(s) >= 4 {
		h = bits.RotateLeft64(h^uint64(le32(s))*p1, 23)*p2 + p3
		s = s[4:]
	}
	for ; len(s) > 0; s = s[1:] {
		h = bits.RotateLeft64(h^uint64(s[0])*p5, 11) * p1
	}
	h ^= h >> 33
	h *= p2
	h ^= h >> 29
	h *= p3
	h ^= h >> 32
	return h
}

// le32 reads the first 4 bytes of s, little-endian.
func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// le64 reads the first 8 bytes of s, little-endian.
func le64(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Bucket returns the bucket of term under HashBits b: the low b bits of
// HashTerm.
func Bucket(term string, b int) uint64 { return HashTerm(term) & (1<<b - 1) }

// BucketName returns the term that stands for bucket k under HashBits b:
// BucketPrefix and k in lower-case hexadecimal, zero-padded to ⌈b/4⌉
// digits, so that byte order is bucket order (b = 18: "~0a3f1").
func BucketName(k uint64, b int) string {
	return string(appendBucketName(nil, k, b))
}

// appendBucketName appends BucketName(k, b) to dst.
func appendBucketName(dst []byte, k uint64, b int) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, BucketPrefix...)
	for d := (b+3)/4 - 1; d >= 0; d-- {
		dst = append(dst, hex[k>>(4*d)&15])
	}
	return dst
}

// ParseBucketName returns the bucket a name of BucketName(·, b) stands
// for, and whether name is one.
func ParseBucketName(name string, b int) (uint64, bool) {
	digits, ok := strings.CutPrefix(name, BucketPrefix)
	if !ok || len(digits) != (b+3)/4 || strings.ToLower(digits) != digits {
		return 0, false
	}
	k, err := strconv.ParseUint(digits, 16, 64)
	if err != nil || k >= 1<<b {
		return 0, false
	}
	return k, true
}

// validateHashBits is the HashBits part of Settings.Validate.
func (s Settings) validateHashBits() error {
	if s.HashBits < 0 || s.HashBits > MaxHashBits {
		return fmt.Errorf("--hash-bits must be in 1..%d (0: no hashing), got %d", MaxHashBits, s.HashBits)
	}
	return nil
}

// hasher maps terms to the names of their buckets, reusing one buffer.
type hasher struct {
	bits int
	buf  []byte
	out  []string
}

func newHasher(s Settings) *hasher {
	if s.HashBits <= 0 {
		return nil
	}
	return &hasher{bits: s.HashBits}
}

// apply returns the bucket names of terms, in order. The strings alias
// h's buffer and are valid until the next call.
func (h *hasher) apply(terms []string) []string {
	w := 1 + (h.bits+3)/4
	if need := w * len(terms); cap(h.buf) < need {
		h.buf = make([]byte, 0, need+need/2)
	}
	buf, out := h.buf[:0], h.out[:0]
	for _, t := range terms {
		buf = appendBucketName(buf, Bucket(t, h.bits), h.bits)
		out = append(out, unsafe.String(&buf[len(buf)-w], w))
	}
	h.buf, h.out = buf, out
	return out
}

// AppendNames appends the names of one bucket as model and counts files
// store them: a uvarint k ≤ MaxBucketNames, then k times a uvarint byte
// length, the UTF-8 bytes and a uvarint count.
func AppendNames(b []byte, names []TermCount) []byte {
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, x := range names {
		b = binary.AppendUvarint(b, uint64(len(x.Term)))
		b = append(b, x.Term...)
		b = binary.AppendUvarint(b, uint64(x.Count))
	}
	return b
}

// name returns the bucket name of term, valid until the next call.
func (h *hasher) name(term string) string {
	h.buf = appendBucketName(h.buf[:0], Bucket(term, h.bits), h.bits)
	return unsafe.String(&h.buf[0], len(h.buf))
}

// TermCount is a term name of a bucket and its occurrences.
type TermCount struct {
	Term  string `json:"term"`
	Count int64  `json:"count"`
}

// AddNames returns the names of a and b, the counts of equal names added
// (a is reused), in no particular order: summing every name of a bucket
// over the parts and keeping the top ones once (TopNames) gives the
// exact names whatever the parts, where keeping the top ones at each step
// would drop a name whose count only the later parts raise. Merged files
// of counts keep only the top names of their parts, so beyond
// MaxBucketNames distinct terms a bucket's names can depend on the
// grouping of merges (internal/counts); its counts never do.
func AddNames(a, b []TermCount) []TermCount {
	if len(a)+len(b) <= 2*MaxBucketNames {
		for _, x := range b {
			if i := slices.IndexFunc(a, func(y TermCount) bool { return y.Term == x.Term }); i >= 0 {
				a[i].Count += x.Count
			} else {
				a = append(a, x)
			}
		}
		return a
	}
	a = append(a, b...)
	slices.SortFunc(a, func(x, y TermCount) int { return strings.Compare(x.Term, y.Term) })
	out := a[:0]
	for _, x := range a {
		if n := len(out); n > 0 && out[n-1].Term == x.Term {
			out[n-1].Count += x.Count
		} else {
			out = append(out, x)
		}
	}
	return out
}

// TopNames orders names most frequent first, ties by ascending term, and
// keeps the first MaxBucketNames (in place).
func TopNames(a []TermCount) []TermCount {
	sortNames(a)
	return a[:min(len(a), MaxBucketNames)]
}

// sortNames orders names by count descending, then term ascending.
func sortNames(a []TermCount) {
	slices.SortFunc(a, func(x, y TermCount) int {
		if c := cmp.Compare(y.Count, x.Count); c != 0 {
			return c
		}
		return strings.Compare(x.Term, y.Term)
	})
}

// hashState is a fitting worker's state under HashBits: besides its term
// table of buckets, a table of the terms met (terms), with each term's
// bucket (a local id of the worker's table, -1 for a stop word) and its
// occurrences. A term is hashed and its bucket looked up once, when first
// met; then each occurrence costs one lookup of the term, as without
// hashing, and the bucket names come out exact. The term table grows with
// the distinct terms of the documents one Fit counts, which are in memory
// anyway (internal/counts fits a batch at a time).
type hashState struct {
	h     *hasher
	terms *termTable
	info  []termInfo // by term id
	stop  bool       // stop words are the first terms, with bucket -1: tokens need no removal
}

// termInfo is a term's bucket and occurrences, side by side so that an
// occurrence touches one cache line.
type termInfo struct {
	bucket int32
	count  int64
}

// newHashState returns the hashing state of a worker with tokenizer tok
// under s, or nil without hashing.
func newHashState(s Settings, tok *Tokenizer) *hashState {
	h := newHasher(s)
	if h == nil {
		return nil
	}
	x := &hashState{h: h, terms: newTermTable(1 << 14)}
	if tok.wordsOnly() {
		x.stop = true
		for _, sw := range englishStopWords {
			x.terms.add(sw)
			x.info = append(x.info, termInfo{bucket: -1})
		}
	}
	return x
}

// countHashed is fitWorker.count under HashBits: each term of text (all
// n-grams and field terms included, as Tokenizer.Terms gives them) counts
// for its bucket, whose name is the term of the worker's table.
func (w *fitWorker) countHashed(text string, head bool) {
	x := w.hash
	c := x.terms
	var terms []string
	if x.stop {
		terms = w.tok.words(text, head) // stop words are dropped below
	} else {
		terms = w.tok.terms(text, head)
	}
	for _, term := range terms {
		key, h := keyHash(term, c.seed)
		j, ok := c.find(term, key, h)
		if !ok {
			j = int(c.insertAt(j, w.keep(term), key, h))
			x.info = append(x.info, termInfo{bucket: w.bucketID(term)})
		}
		if e := &x.info[j]; e.bucket >= 0 {
			e.count++
			w.addToRow(e.bucket)
		}
	}
}

// bucketID returns the local id of term's bucket, adding the bucket.
func (w *fitWorker) bucketID(term string) int32 { return w.tableID(w.hash.h.name(term)) }

// localNames returns, by local id of the worker's table (a bucket), every
// term the worker counted in it with its occurrences, most frequent first;
// nil without hashing. It is for a caller that sums one worker's rows by
// local id itself, as a counter of statistics does, and adds the names of
// its workers (AddNames) before keeping the top ones (TopNames), so that
// the names do not depend on which worker counted which document.
func (w *fitWorker) localNames() [][]TermCount {
	x := w.hash
	if x == nil {
		return nil
	}
	out := make([][]TermCount, w.table.len())
	for j, e := range x.info {
		if e.bucket >= 0 && e.count > 0 {
			out[e.bucket] = append(out[e.bucket], TermCount{x.terms.terms[j], e.count})
		}
	}
	for b, ns := range out {
		sortNames(ns)
		out[b] = slices.Clip(ns)
	}
	return out
}

// bucketNames returns, for each kept term (keep, by global id of g from
// mergeTerms), its bucket's MaxBucketNames most frequent terms, exactly:
// the workers' occurrences of each term added.
func bucketNames(ws []*fitWorker, g *globalTerms, keep []int32) [][]TermCount {
	type named struct {
		gid int32
		TermCount
	}
	var all []named
	for wi, w := range ws {
		x := w.hash
		for j, e := range x.info {
			if e.bucket >= 0 && e.count > 0 {
				all = append(all, named{g.local[wi][e.bucket], TermCount{x.terms.terms[j], e.count}})
			}
		}
		w.hash = nil
	}
	slices.SortFunc(all, func(a, b named) int {
		if c := cmp.Compare(a.gid, b.gid); c != 0 {
			return c
		}
		return strings.Compare(a.Term, b.Term)
	})
	pos := make([]int32, len(g.terms)) // global id → index in keep, or -1
	for i := range pos {
		pos[i] = -1
	}
	for i, gid := range keep {
		pos[gid] = int32(i)
	}
	out := make([][]TermCount, len(keep))
	store := make([]TermCount, 0, MaxBucketNames*len(keep)) // one block for every list
	var group []TermCount
	size := 0
	for i := 0; i < len(all); {
		gid := all[i].gid
		group = group[:0]
		for i < len(all) && all[i].gid == gid {
			x := all[i].TermCount
			for i++; i < len(all) && all[i].gid == gid && all[i].Term == x.Term; i++ {
				x.Count += all[i].Count // the same term, from another worker
			}
			group = append(group, x)
		}
		if k := pos[gid]; k >= 0 {
			sortNames(group)
			n0 := len(store)
			store = append(store, group[:min(len(group), MaxBucketNames)]...)
			out[k] = store[n0:len(store):len(store)]
			for _, x := range out[k] {
				size += len(x.Term)
			}
		}
	}
	// The names' bytes in one block, so that the vocabulary holds none of
	// the workers' memory.
	buf := make([]byte, 0, size)
	for _, ns := range out {
		for j := range ns {
			n0 := len(buf)
			buf = append(buf, ns[j].Term...)
			ns[j].Term = unsafe.String(unsafe.SliceData(buf[n0:]), len(ns[j].Term))
		}
	}
	return out
}

// Hashed reports whether v is a hashed vocabulary (Settings.HashBits > 0),
// whose terms are bucket names.
func (v *Vocabulary) Hashed() bool { return v.Settings.HashBits > 0 }

// DisplayName returns term id as people should read it: the term itself,
// or for a bucket of a hashed vocabulary its name followed by the names
// it holds, "~0a3f1 (space|spaces)", most frequent first.
func (v *Vocabulary) DisplayName(id int) string {
	t := v.Terms[id]
	if !v.Hashed() || id >= len(v.Names) || len(v.Names[id]) == 0 {
		return t
	}
	var b strings.Builder
	b.WriteString(t)
	b.WriteString(" (")
	for i, n := range v.Names[id] {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(n.Term)
	}
	b.WriteByte(')')
	return b.String()
}

// CheckNames checks names as the Names of a vocabulary of terms: nil, or
// one list per term of at most MaxBucketNames distinct non-empty names,
// each with a positive count, most frequent first. Decoders of files call
// it.
func CheckNames(names [][]TermCount, terms int) error {
	if names == nil {
		return nil
	}
	if len(names) != terms {
		return fmt.Errorf("%d bucket name lists for %d terms", len(names), terms)
	}
	for i, ns := range names {
		if len(ns) > MaxBucketNames {
			return fmt.Errorf("term %d: %d bucket names, at most %d", i, len(ns), MaxBucketNames)
		}
		for j, n := range ns {
			if n.Term == "" || n.Count <= 0 {
				return fmt.Errorf("term %d: bucket name %d is empty or has count %d", i, j, n.Count)
			}
			if j > 0 && (n.Count > ns[j-1].Count || n.Count == ns[j-1].Count && n.Term <= ns[j-1].Term) {
				return fmt.Errorf("term %d: bucket names out of order", i)
			}
		}
	}
	return nil
}

// checkBuckets reports a term of a hashed vocabulary (s.HashBits > 0)
// that is not the name of a bucket.
func checkBuckets(s Settings, terms []string) error {
	if s.HashBits <= 0 {
		return nil
	}
	for _, t := range terms {
		if _, ok := ParseBucketName(t, s.HashBits); !ok {
			return fmt.Errorf("vocabulary term %q is not a bucket of --hash-bits %d", clip(t), s.HashBits)
		}
	}
	return nil
}
