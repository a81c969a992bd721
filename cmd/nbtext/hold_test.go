package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestHoldRefusedOverBudget runs the commands that hold every document
// (eval, eval --cv, compare, train --auto) on a corpus that would not fit
// --mem: each refuses before reading it, naming the command, the
// estimate, the budget and the flags to use; with enough budget they run.
func TestHoldRefusedOverBudget(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "%s\tsome words of document %d about %s things and more words\n", []string{"a", "b"}[i%2], i, []string{"red", "blue"}[i%2])
	}
	tsv := writeFile(t, dir, "c.tsv", b.String())
	for _, c := range []struct {
		what string
		args []string
	}{
		{"eval --cv", []string{"eval", "--cv", "3", "--model", "multinomial", tsv}},
		{"compare", []string{"compare", tsv, "--test", tsv}},
		{"train --auto", []string{"train", "--auto", "--budget", "evals:2", tsv, "-o", dir + "/m.nbm"}},
	} {
		r := nbtext(t, "", append(c.args, "--mem", "1M")...)
		check(t, r, 1, c.what+" holds every document in memory", "over the memory budget 1.0 MiB (--mem)", "train --stream")
	}
	check(t, nbtext(t, "", "eval", "--cv", "3", "--model", "multinomial", tsv, "--mem", "1G"), 0)
}
