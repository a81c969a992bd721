package counts

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// shardCounts counts shard i of n of the documents of the inputs
// (named by names, each its texts and labels) as 'nbtext count NAMES...
// --shard i/n' does, recording them.
func shardCounts(t *testing.T, names []string, texts, labels [][]string, i, n int) *Counts {
	t.Helper()
	ctr, err := NewCounter(vectorize.DefaultSettings(), nil, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ctr.Close()
	rec := NewRecorder()
	seq := 0
	for j, name := range names {
		rec.Begin(name)
		for k := range texts[j] {
			rec.Add(labels[j][k], texts[j][k])
			if seq%n == i-1 {
				if err := ctr.Add(texts[j][k], labels[j][k]); err != nil {
					t.Fatal(err)
				}
			}
			seq++
		}
	}
	ins, err := rec.Inputs(i, n)
	if err != nil {
		t.Fatal(err)
	}
	ctr.SetInputs(ins)
	c, err := ctr.Counts()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// encoded returns the bytes of c in the file format.
func encoded(t *testing.T, c *Counts) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mustMerge merges parts named by names, or fails.
func mustMerge(t *testing.T, parts []*Counts, names ...string) *Counts {
	t.Helper()
	c, err := Merge(parts, names)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantRefused fails unless merging parts is refused with an error that
// holds every string of want.
func wantRefused(t *testing.T, what string, parts []*Counts, names []string, want ...string) {
	t.Helper()
	_, err := Merge(parts, names)
	if err == nil {
		t.Errorf("%s: merged", what)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not say %q", what, err, w)
		}
	}
}

// TestInputsRecorded: counts record their inputs by content and the
// shards of them; all shards merged, in any order or tree, are the bytes
// of one count; the record survives the file; names do not make two
// inputs of one.
func TestInputsRecorded(t *testing.T) {
	ta, la := docs(40, 1)
	tb, lb := docs(25, 2)
	names := []string{"a.tsv", "b.tsv"}
	texts, labels := [][]string{ta, tb}, [][]string{la, lb}
	whole := shardCounts(t, names, texts, labels, 1, 1)
	if len(whole.Inputs) != 2 {
		t.Fatalf("inputs %+v, want 2", whole.Inputs)
	}
	for _, in := range whole.Inputs {
		if in.Of != 1 || len(in.Shards) != 1 || in.Shards[0] != 1 || len(in.SHA256) != 64 {
			t.Errorf("whole count records %+v, want all of it", in)
		}
	}
	var parts []*Counts
	for i := 1; i <= 4; i++ {
		parts = append(parts, shardCounts(t, names, texts, labels, i, 4))
	}
	// b.tsv starts at document 40 of the sequence, so shard 1 of 4 holds
	// its documents 0, 4, ... (40 mod 4 = 0); with 3 shards, shard 1
	// holds b's shard 3 (documents 2, 5, ...: (0-40) mod 3 = 2).
	if in := parts[0].Inputs; in[0].Of != 4 || in[1].Shards[0] != 1 {
		t.Errorf("shard 1/4 records %+v", in)
	}
	third := shardCounts(t, names, texts, labels, 1, 3)
	for _, in := range third.Inputs {
		want := map[string]int{"a.tsv": 1, "b.tsv": 3}[in.Name]
		if in.Of != 3 || in.Shards[0] != want {
			t.Errorf("shard 1/3: input %s holds shard %s, want %d/3", in.Name, in.shardList(), want)
		}
	}
	flat := mustMerge(t, []*Counts{parts[3], parts[1], parts[0], parts[2]}, "p4", "p2", "p1", "p3")
	left := mustMerge(t, parts[:2], "p1", "p2")
	right := mustMerge(t, parts[2:], "p3", "p4")
	if in := left.Inputs[0]; in.Of != 4 || fmt.Sprint(in.Shards) != "[1 2]" {
		t.Errorf("shards 1 and 2 of 4 merged to %s", in.shardList())
	}
	tree := mustMerge(t, []*Counts{right, left}, "r", "l")
	for _, c := range []*Counts{flat, tree} {
		if !bytes.Equal(encoded(t, c), encoded(t, whole)) {
			t.Errorf("the merge of all 4 shards is not the bytes of one count: %+v", c.Inputs)
		}
	}
	// Through a file, and under other names: the least name is kept,
	// whatever the order.
	p := filepath.Join(t.TempDir(), "w.nbc")
	if err := WriteFile(p, whole); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back.Inputs) != fmt.Sprint(whole.Inputs) {
		t.Errorf("read back %+v, wrote %+v", back.Inputs, whole.Inputs)
	}
	elsewhere := shardCounts(t, []string{"/mnt/node2/a.tsv", "/mnt/node2/b.tsv"}, texts, labels, 2, 2)
	here := shardCounts(t, names, texts, labels, 1, 2)
	ab, ba := mustMerge(t, []*Counts{here, elsewhere}, "x", "y"), mustMerge(t, []*Counts{elsewhere, here}, "y", "x")
	if !bytes.Equal(encoded(t, ab), encoded(t, ba)) || !strings.HasPrefix(ab.Inputs[0].Name, "/mnt/node2/") || !strings.HasPrefix(ab.Inputs[1].Name, "/mnt/node2/") {
		t.Errorf("names depend on the order of the merge: %+v / %+v", ab.Inputs, ba.Inputs)
	}
	if err := ab.CheckShards(2); err != nil {
		t.Errorf("shards of two machines: %v", err)
	}
}

// TestMergeRefusesDoubleCounts: every way of counting a document twice
// is refused, naming both files, the input and the shard.
func TestMergeRefusesDoubleCounts(t *testing.T) {
	ta, la := docs(30, 3)
	tb, lb := docs(20, 4)
	one := func(i, n int, names ...string) *Counts {
		var texts, labels [][]string
		for _, nm := range names {
			if strings.HasPrefix(nm, "a") {
				texts, labels = append(texts, ta), append(labels, la)
			} else {
				texts, labels = append(texts, tb), append(labels, lb)
			}
		}
		return shardCounts(t, names, texts, labels, i, n)
	}
	p1, p2, p3 := one(1, 3, "a.tsv"), one(2, 3, "a.tsv"), one(3, 3, "a.tsv")
	all := mustMerge(t, []*Counts{p1, p2, p3}, "p1.nbc", "p2.nbc", "p3.nbc")
	// The README's 'merge *.nbc' run again with another output name: the
	// earlier output is among the parts.
	wantRefused(t, "merge over its own output", []*Counts{all, p1, p2, p3}, []string{"all.nbc", "p1.nbc", "p2.nbc", "p3.nbc"},
		"all.nbc and p1.nbc both count shard 1/3 of a.tsv", "30 documents", "sha256 ")
	wantRefused(t, "a part twice", []*Counts{p1, p2, p2}, []string{"p1.nbc", "p2.nbc", "p2-copy.nbc"},
		"p2.nbc and p2-copy.nbc both count shard 2/3 of a.tsv")
	// Overlapping shard specs: 1/2 holds documents 0, 2, 4, ...; 1/3
	// holds 0, 3, 6: document 0 (shard 1/6) is in both.
	wantRefused(t, "overlapping shards", []*Counts{one(1, 2, "a.tsv"), p1}, []string{"half.nbc", "p1.nbc"},
		"half.nbc and p1.nbc both count shard 1/6 of a.tsv")
	// Disjoint ones merge: 1/2 and 2/4, 4/4 cover everything.
	cover := mustMerge(t, []*Counts{one(1, 2, "a.tsv"), one(2, 4, "a.tsv"), one(4, 4, "a.tsv")}, "h", "q2", "q4")
	if in := cover.Inputs[0]; in.Of != 1 {
		t.Errorf("1/2 + 2/4 + 4/4 merged to %s, want all", in.shardList())
	}
	// The same documents under another name are the same input.
	wantRefused(t, "a copy of the input", []*Counts{p1, one(1, 3, "a-copy.tsv")}, []string{"p1.nbc", "copy.nbc"},
		"p1.nbc and copy.nbc both count shard 1/3 of a")
	// An input counted alone and within a list of inputs.
	wantRefused(t, "an input in two lists", []*Counts{one(1, 1, "a.tsv", "b.tsv"), one(1, 1, "b.tsv")}, []string{"ab.nbc", "b.nbc"},
		"ab.nbc and b.nbc both count all of b.tsv", "20 documents")
	// Different inputs merge.
	ab := mustMerge(t, []*Counts{one(1, 1, "a.tsv"), one(1, 1, "b.tsv")}, "a.nbc", "b.nbc")
	if len(ab.Inputs) != 2 {
		t.Errorf("a + b records %+v", ab.Inputs)
	}
	// MergeFiles refuses too, and writes nothing.
	dir := t.TempDir()
	var paths []string
	for i, c := range []*Counts{all, p1} {
		p := filepath.Join(dir, fmt.Sprintf("f%d.nbc", i))
		if err := WriteFile(p, c); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out := filepath.Join(dir, "out.nbc")
	if _, err := MergeFiles(out, paths); err == nil || !strings.Contains(err.Error(), paths[0]+" and "+paths[1]+" both count shard 1/3") {
		t.Errorf("MergeFiles of a merge and its part: %v", err)
	}
	if _, err := ReadFile(out); err == nil {
		t.Error("a refused merge wrote its output")
	}
}

// TestCheckShards: --expect-shards passes complete counts and names the
// missing shards, and refuses counts that record no inputs.
func TestCheckShards(t *testing.T) {
	ta, la := docs(30, 5)
	one := func(i, n int) *Counts {
		return shardCounts(t, []string{"a.tsv"}, [][]string{ta}, [][]string{la}, i, n)
	}
	all := mustMerge(t, []*Counts{one(1, 4), one(2, 4), one(3, 4), one(4, 4)}, "1", "2", "3", "4")
	if err := all.CheckShards(4); err != nil {
		t.Errorf("4 of 4 shards: %v", err)
	}
	some := mustMerge(t, []*Counts{one(1, 4), one(2, 4)}, "1", "2")
	for n, want := range map[int]string{4: "missing shard 3,4/4 of a.tsv", 8: "missing shard 3,4,7,8/8 of a.tsv", 6: "missing shard 3,4/4 of a.tsv (30 documents, sha256 "} {
		err := some.CheckShards(n)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shards 1,2 of 4, expecting %d: %v, want %q", n, err, want)
		}
	}
	// Shards 1 and 3 of 4 are shard 1 of 2.
	if err := mustMerge(t, []*Counts{one(1, 4), one(3, 4)}, "1", "3").CheckShards(4); err == nil || !strings.Contains(err.Error(), "missing shard 2,4/4") {
		t.Errorf("shards 1,3 of 4: %v", err)
	}
	if err := some.CheckShards(6); err == nil || !strings.Contains(err.Error(), "counted as shards of 4, not 6") {
		t.Errorf("expecting 6 of shards of 4: %v", err)
	}
	old := *all
	old.Inputs = nil
	if err := old.CheckShards(4); err == nil || !strings.Contains(err.Error(), "record no inputs") {
		t.Errorf("counts without inputs: %v", err)
	}
}

// TestOldCountsLoad: a counts file written before inputs were recorded
// (pinned: shard 1/2 of the toy corpus of cmd/nbtext's tests, by
// 'nbtext count --model bernoulli') still loads and merges; the sum
// records no inputs, and CheckShards says so.
func TestOldCountsLoad(t *testing.T) {
	old, err := ReadFile(filepath.Join("testdata", "v1-no-inputs.nbc"))
	if err != nil {
		t.Fatal(err)
	}
	if old.Inputs != nil || old.Documents() != 3 {
		t.Fatalf("old counts: %d documents, inputs %+v", old.Documents(), old.Inputs)
	}
	tx, lx := docs(10, 6)
	s := old.Settings
	ctr, err := NewCounter(s, nil, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ctr.Close()
	rec := NewRecorder()
	rec.Begin("x.tsv")
	for i := range tx {
		rec.Add(lx[i], tx[i])
		if err := ctr.Add(tx[i], lx[i]); err != nil {
			t.Fatal(err)
		}
	}
	ins, _ := rec.Inputs(1, 1)
	ctr.SetInputs(ins)
	cur, err := ctr.Counts()
	if err != nil {
		t.Fatal(err)
	}
	sum := mustMerge(t, []*Counts{old, cur}, "old.nbc", "new.nbc")
	if sum.Inputs != nil || sum.Documents() != 13 {
		t.Errorf("old + new: %d documents, inputs %+v; want 13, none", sum.Documents(), sum.Inputs)
	}
	// And it is written as the old format was: no inputs in the header.
	if bytes.Contains(encoded(t, old), []byte(`"inputs"`)) {
		t.Error("counts without inputs write an inputs field")
	}
}

// TestBadInputsRefused: a header whose inputs are malformed is damaged.
func TestBadInputsRefused(t *testing.T) {
	ta, la := docs(10, 7)
	good := shardCounts(t, []string{"a.tsv"}, [][]string{ta}, [][]string{la}, 1, 2)
	for name, mutate := range map[string]func(in *Input){
		"bad digest":     func(in *Input) { in.SHA256 = "xyz" },
		"shard past of":  func(in *Input) { in.Shards = []int{3} },
		"no shards":      func(in *Input) { in.Shards = nil },
		"zero of":        func(in *Input) { in.Of = 0 },
		"negative docs":  func(in *Input) { in.Docs = -1 },
		"shards unorder": func(in *Input) { in.Of, in.Shards = 3, []int{2, 1} },
	} {
		c := *good
		c.Inputs = []Input{good.Inputs[0]}
		mutate(&c.Inputs[0])
		var b bytes.Buffer
		if err := Encode(&b, &c); err == nil {
			if _, err := Decode(&b, "x.nbc"); err == nil {
				t.Errorf("%s: accepted", name)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string][2]int{"": {1, 1}, "1/4": {1, 4}, " 4 / 4 ": {4, 4}} {
		if i, n, err := ParseShard(in); err != nil || i != want[0] || n != want[1] {
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %v", in, i, n, err, want)
		}
	}
	for _, in := range []string{"0/4", "5/4", "1/0", "1", "a/b", "1/2/3"} {
		if _, _, err := ParseShard(in); err == nil || !strings.Contains(err.Error(), "--shard must be i/N") {
			t.Errorf("ParseShard(%q): %v", in, err)
		}
	}
}
