package counts

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"strings"
)

// This file holds what a counts file records of what it counted (its
// Inputs, by content, and the shards of them), the merge of those
// records, which refuses a document counted twice, and the check that
// shards cover their inputs. See the package documentation, "What was
// counted".

// Input records one input of a count (one CORPUS argument of 'nbtext
// count'), by its content, and the shards of it that the counts hold.
// SHA256 is the digest of the documents read from the input, in order
// (each as its label and its text, each preceded by its length as a
// varint), Docs their number and Bytes the bytes of their texts; Name is
// the path as given on the command line, for people: the same documents
// under another path, on another machine, in another format or
// compressed are the same input. The counts hold documents k (counting
// from 0 in the input) with k mod Of = i-1 for each i in Shards: shard
// i/Of of the input, shard 1/1 being all of it. The Shards are distinct
// and ascending, and Of is the least period of the set, so that merging
// all N shards of an input gives 1/1, as one count of it does.
// 'count INPUTS... --shard i/N' takes the inputs as one sequence, so an
// input that starts at document s of it holds its shard ((i-1-s) mod N)+1
// of N.
type Input struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Docs   int64  `json:"docs"`
	Bytes  int64  `json:"bytes"`
	Of     int    `json:"of"`
	Shards []int  `json:"shards"`
}

// maxShards bounds Of, and the least common multiple of the Of of the
// counts of an input that merge.
const maxShards = 1 << 20

// shardList returns the shards of in as "1/4" or "1,3/4".
func (in *Input) shardList() string {
	s := make([]string, len(in.Shards))
	for i, x := range in.Shards {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",") + "/" + fmt.Sprint(in.Of)
}

// key identifies the input by content, name aside.
func (in *Input) key() string { return fmt.Sprintf("%s:%d:%d", in.SHA256, in.Docs, in.Bytes) }

// describe names the input with its size and digest.
func (in *Input) describe() string {
	return fmt.Sprintf("%s (%d documents, sha256 %.12s…)", in.Name, in.Docs, in.SHA256)
}

// checkInputs reports a record that no counts file may carry.
func checkInputs(ins []Input) error {
	for i, in := range ins {
		if _, err := hex.DecodeString(in.SHA256); err != nil || len(in.SHA256) != 64 || in.Docs < 0 || in.Bytes < 0 {
			return fmt.Errorf("input %q: bad digest or size", in.Name)
		}
		if i > 0 && ins[i-1].key() >= in.key() {
			return fmt.Errorf("inputs not distinct and in order at %q", in.Name)
		}
		if in.Of < 1 || in.Of > maxShards || len(in.Shards) == 0 || len(in.Shards) > in.Of {
			return fmt.Errorf("input %q: %d shards of %d", in.Name, len(in.Shards), in.Of)
		}
		for j, s := range in.Shards {
			if s < 1 || s > in.Of || j > 0 && s <= in.Shards[j-1] {
				return fmt.Errorf("input %q: shards %v of %d: not distinct, ascending and in 1..%d", in.Name, in.Shards, in.Of, in.Of)
			}
		}
	}
	return nil
}

// Recorder computes the Inputs of a count as its documents stream by:
// Begin at each input, Add with each of its documents (all of them, in
// the shard or not, so that every shard of an input sees the same
// digest). A nil Recorder records nothing.
type Recorder struct {
	inputs []Input
	h      hash.Hash
	buf    []byte
	docs   int64
	bytes  int64
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{h: sha256.New()} }

// Begin ends the current input, if any, and starts one named name.
func (r *Recorder) Begin(name string) {
	if r == nil {
		return
	}
	r.end()
	r.inputs = append(r.inputs, Input{Name: name})
}

// end completes the current input.
func (r *Recorder) end() {
	if len(r.inputs) == 0 || r.inputs[len(r.inputs)-1].SHA256 != "" {
		return
	}
	in := &r.inputs[len(r.inputs)-1]
	in.SHA256, in.Docs, in.Bytes = hex.EncodeToString(r.h.Sum(nil)), r.docs, r.bytes
	r.h.Reset()
	r.docs, r.bytes = 0, 0
}

// Add adds a document of the current input to its digest.
func (r *Recorder) Add(label, text string) {
	if r == nil {
		return
	}
	b := binary.AppendUvarint(r.buf[:0], uint64(len(label)))
	b = append(b, label...)
	b = binary.AppendUvarint(b, uint64(len(text)))
	r.h.Write(b)
	r.h.Write([]byte(text)) // no copy: sha256's Write does not keep the slice
	r.buf = b
	r.docs++
	r.bytes += int64(len(text))
}

// Inputs returns the record of shard i of n of the inputs begun so far,
// taken as one sequence of documents (see Input), merged by content
// (mergeInputs): an input given twice is an error, for its documents
// would be counted twice.
func (r *Recorder) Inputs(i, n int) ([]Input, error) {
	r.end()
	seen := map[string]string{}
	for _, in := range r.inputs {
		if first, ok := seen[in.key()]; ok {
			return nil, fmt.Errorf("%s and %s hold the same documents (%d, sha256 %.12s…): they would be counted twice", first, in.Name, in.Docs, in.SHA256)
		}
		seen[in.key()] = in.Name
	}
	var off int64
	ins := make([]Input, len(r.inputs))
	names := make([]string, len(r.inputs))
	hs := make([]*Header, len(r.inputs))
	for j, in := range r.inputs {
		in.Of, in.Shards = n, []int{int(((int64(i-1)-off)%int64(n)+int64(n))%int64(n)) + 1}
		in = in.least()
		ins[j], names[j] = in, in.Name
		hs[j] = &Header{Inputs: ins[j : j+1]}
		off += in.Docs
	}
	return mergeInputs(hs, names)
}

// SetInputs makes the counts the Counter writes (WriteFile, Counts)
// record ins (Recorder.Inputs of what was added).
func (c *Counter) SetInputs(ins []Input) { c.record = slices.Clone(ins) }

// shardSet is a set of shards: residues modulo of, in[r] for shard r+1.
type shardSet struct {
	of int
	in []bool
}

func newShardSet(in *Input) shardSet {
	s := shardSet{of: in.Of, in: make([]bool, in.Of)}
	for _, x := range in.Shards {
		s.in[x-1] = true
	}
	return s
}

// widen returns s as residues modulo of, a multiple of s.of.
func (s shardSet) widen(of int) shardSet {
	w := shardSet{of: of, in: make([]bool, of)}
	for r := range w.in {
		w.in[r] = s.in[r%s.of]
	}
	return w
}

// least returns s modulo its least period.
func (s shardSet) least() shardSet {
	for d := 1; d < s.of; d++ {
		if s.of%d != 0 {
			continue
		}
		ok := true
		for r := range s.of {
			if s.in[r] != s.in[r%d] {
				ok = false
				break
			}
		}
		if ok {
			return shardSet{of: d, in: s.in[:d]}
		}
	}
	return s
}

// shards returns the shard numbers (residue + 1) of s.
func (s shardSet) shards() []int {
	var out []int
	for r, ok := range s.in {
		if ok {
			out = append(out, r+1)
		}
	}
	return out
}

// least returns in with its shards modulo their least period.
func (in Input) least() Input {
	s := newShardSet(&in).least()
	in.Of, in.Shards = s.of, s.shards()
	return in
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// inputGroup gathers the records of one input while they merge: the
// union of their shards, and where each came from, to name the files when
// two hold the same shard.
type inputGroup struct {
	in    Input
	set   shardSet
	from  []string   // the files of the records merged in
	froms []shardSet // their shards
}

// holder returns the file of g that holds shard residue r (modulo a
// multiple of every record's shards).
func (g *inputGroup) holder(r int) string {
	for i, s := range g.froms {
		if s.in[r%s.of] {
			return g.from[i]
		}
	}
	return g.from[0]
}

// mergeInputs returns the record of the sum of counts with headers hs
// (named names): their inputs by content (the least name of each), the
// shards of each united. It fails, naming the files, the input and the
// shard, when a document would be counted twice: the same shard of an
// input in two of them (a merge run again over its own output, a part
// given twice, overlapping shards). When a header records no inputs (an
// older nbtext, or a tool that does not record them), nothing can be
// checked and the sum records none (nil).
func mergeInputs(hs []*Header, names []string) ([]Input, error) {
	for _, h := range hs {
		if h.Inputs == nil {
			return nil, nil
		}
	}
	groups := map[string]*inputGroup{}
	var keys []string
	for i, h := range hs {
		for _, in := range h.Inputs {
			k := in.key()
			set := newShardSet(&in)
			g := groups[k]
			if g == nil {
				in.Shards = slices.Clone(in.Shards)
				groups[k] = &inputGroup{in: in, set: set, from: []string{names[i]}, froms: []shardSet{set}}
				keys = append(keys, k)
				continue
			}
			of := g.set.of / gcd(g.set.of, set.of) * set.of
			if of > maxShards {
				return nil, fmt.Errorf("%s: shards of %d of %s cannot be added to its shards of %d: %d shards in all is over the bound of %d", names[i], set.of, in.describe(), g.set.of, of, maxShards)
			}
			a, b := g.set.widen(of), set.widen(of)
			for r := range of {
				if a.in[r] && b.in[r] {
					what := "all"
					if of > 1 {
						what = fmt.Sprintf("shard %d/%d", r+1, of)
					}
					return nil, fmt.Errorf("%s and %s both count %s of %s: each document may be counted once (is one a merge that holds the other, or the same part given twice?)",
						g.holder(r), names[i], what, in.describe())
				}
				a.in[r] = a.in[r] || b.in[r]
			}
			g.set = a
			g.from, g.froms = append(g.from, names[i]), append(g.froms, set)
			g.in.Name = min(g.in.Name, in.Name) // whatever the order of the merge
		}
	}
	slices.Sort(keys)
	out := make([]Input, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		s := g.set.least()
		g.in.Of, g.in.Shards = s.of, s.shards()
		out = append(out, g.in)
	}
	return out, nil
}

// CheckShards reports counts that do not hold every document of their
// inputs exactly once, as the merge of all n shards (count --shard i/n,
// i = 1..n) of the same inputs does: counts that record no inputs, and
// the shards missing. The merge already refused any document counted
// twice. A complete input is recorded as shard 1/1, whatever n it was
// counted in, so n only names the missing shards.
func (h *Header) CheckShards(n int) error {
	if n < 1 {
		return fmt.Errorf("--expect-shards must be ≥ 1, got %d", n)
	}
	if h.Inputs == nil {
		return fmt.Errorf("the counts record no inputs (written by an older nbtext, or merged with counts that record none): cannot check that they cover the corpus")
	}
	var miss []string
	for _, in := range h.Inputs {
		if in.Of == 1 {
			continue
		}
		of := in.Of
		if n%in.Of == 0 {
			of = n // name the missing shards as n shards
		}
		set := newShardSet(&in).widen(of)
		var gone []string
		for r, ok := range set.in {
			if !ok {
				gone = append(gone, fmt.Sprint(r+1))
			}
		}
		why := ""
		if of != n {
			why = fmt.Sprintf(" (counted as shards of %d, not %d)", in.Of, n)
		}
		miss = append(miss, fmt.Sprintf("shard %s/%d of %s%s", strings.Join(gone, ","), of, in.describe(), why))
	}
	if len(miss) > 0 {
		return fmt.Errorf("the counts do not hold every document of their inputs: missing %s", strings.Join(miss, "; "))
	}
	return nil
}

// ParseShard parses a shard as 'count --shard' names it, i/N with
// 1 ≤ i ≤ N; empty is the one shard 1/1, all documents.
func ParseShard(s string) (i, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard must be i/N with 1 ≤ i ≤ N, got %q", s)
	}
	return i, n, nil
}
