package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsKnowTheirInputs: the README's 'merge *.nbc' run again with
// another output name fails instead of doubling the corpus, naming the
// files and the input; merge and train --from-counts --expect-shards name
// the missing shards; info reads a counts file.
func TestCountsKnowTheirInputs(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	shards := filepath.Join(dir, "shards")
	if err := os.Mkdir(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	parts := countShards(t, shards, "p", tsv, 3, "--model", "bernoulli")
	all := filepath.Join(shards, "all.nbc")
	mustRun(t, append([]string{"merge", "--expect-shards", "3", "-o", all}, parts...)...)
	// All of the same shards, the earlier merge among them.
	glob, _ := filepath.Glob(filepath.Join(shards, "*.nbc"))
	again := filepath.Join(shards, "all2.nbc")
	check(t, nbtext(t, "", append([]string{"merge", "-o", again}, glob...)...), 1,
		"all.nbc and "+parts[0]+" both count shard 1/3 of "+tsv, "6 documents", "counted once")
	if _, err := os.Stat(again); err == nil {
		t.Error("a refused merge wrote its output")
	}
	// A copy of a part (the same path twice is a usage error already).
	b, _ := os.ReadFile(parts[1])
	cp := writeFile(t, dir, "copy.nbc", string(b))
	check(t, nbtext(t, "", "merge", parts[0], parts[1], cp, "-o", again), 1, parts[1]+" and "+cp+" both count shard 2/3")

	// Missing shards: merge --expect-shards refuses; a merge without it
	// writes, and train --from-counts --expect-shards refuses.
	two := filepath.Join(dir, "two.nbc")
	check(t, nbtext(t, "", "merge", "--expect-shards", "3", parts[0], parts[2], "-o", two), 1, "missing shard 2/3 of "+tsv)
	mustRun(t, "merge", "-q", parts[0], parts[2], "-o", two)
	m := filepath.Join(dir, "m.nbm")
	check(t, nbtext(t, "", "train", "--from-counts", two, "--model", "bernoulli", "--expect-shards", "3", "-o", m), 1, "two.nbc", "missing shard 2/3")
	mustRun(t, "train", "-q", "--from-counts", all, "--model", "bernoulli", "--expect-shards", "3", "-o", m)
	check(t, nbtext(t, "", "train", tsv, "--expect-shards", "3", "-o", m), 2, "--expect-shards", "--from-counts")
	check(t, nbtext(t, "", "train", "--from-counts", all, "--expect-shards", "0", "-o", m), 2, "--expect-shards must be ≥ 1")
	check(t, nbtext(t, "", "merge", "--expect-shards", "-1", all, "-o", two), 2, "--expect-shards must be ≥ 0")

	// Counts of an older nbtext: they merge, with a note, and the merge
	// records no inputs, so --expect-shards cannot vouch for it.
	old := filepath.Join("..", "..", "internal", "counts", "testdata", "v1-no-inputs.nbc")
	mixed := filepath.Join(dir, "mixed.nbc")
	r := nbtext(t, "", "merge", old, parts[1], "-o", mixed)
	if r.code != 0 || !strings.Contains(r.err, "record no inputs") {
		t.Errorf("merge of old counts: exit %d, %q", r.code, r.err)
	}
	check(t, nbtext(t, "", "train", "--from-counts", mixed, "--model", "bernoulli", "--expect-shards", "2", "-o", m), 1, "record no inputs")

	// One count given the same documents twice, under two names.
	twin := writeFile(t, dir, "twin.tsv", toyTSV)
	check(t, nbtext(t, "", "count", tsv, twin, "-o", filepath.Join(dir, "tw.nbc")), 1, "c.tsv and "+twin+" hold the same documents (6, sha256 ", "counted twice")

	// info reads counts files.
	r = mustRun(t, "info", two)
	for _, want := range []string{"documents  4", "classes    2", "round      one", "inputs     1 (0 whole, 1 in part)", "shard 1,3/3", "c.tsv"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("info of counts does not say %q:\n%s", want, r.out)
		}
	}
	r = mustRun(t, "info", "--format", "json", all)
	var js struct {
		Documents int64
		Classes   []string
		Terms     int64
		Inputs    []struct {
			Name   string
			Docs   int64
			Of     int
			Shards []int
			SHA256 string
		}
	}
	if err := json.Unmarshal([]byte(r.out), &js); err != nil {
		t.Fatalf("info --format json: %v\n%s", err, r.out)
	}
	if js.Documents != 6 || len(js.Classes) != 2 || js.Terms == 0 || len(js.Inputs) != 1 || js.Inputs[0].Of != 1 || js.Inputs[0].Docs != 6 || len(js.Inputs[0].SHA256) != 64 {
		t.Errorf("info --format json of the merge: %+v", js)
	}
	check(t, nbtext(t, "", "info", tsv), 3, "neither an nbtext model nor a counts file")
}
