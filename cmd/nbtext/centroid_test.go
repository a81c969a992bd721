package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainCentroid runs --model centroid through train, predict and eval
// --cv, and checks that it takes no --C.
func TestTrainCentroid(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := range 12 {
		b.WriteString("space\torbit rocket launch moon nasa " + strings.Repeat("shuttle ", i%3) + "\n")
		b.WriteString("hockey\tgoal puck ice team season " + strings.Repeat("playoff ", i%3) + "\n")
	}
	corpus := writeFile(t, dir, "c.tsv", b.String())
	m := filepath.Join(dir, "c.nbm")
	r := nbtext(t, "", "train", corpus, "--model", "centroid", "-o", m)
	check(t, r, 0)
	if !strings.Contains(r.out, "model        centroid") || !strings.Contains(r.out, "temperature") || strings.Contains(r.out, "C  ") || strings.Contains(r.out, "alpha") {
		t.Errorf("centroid train output names C or alpha:\n%s", r.out)
	}
	if r := nbtext(t, "the rocket reached orbit\n", "predict", "-m", m); r.code != 0 || !strings.HasPrefix(r.out, "space") {
		t.Errorf("predict: exit %d, %q; want space", r.code, r.out)
	}
	if r := nbtext(t, "", "eval", "--cv", "3", "--model", "centroid", corpus); r.code != 0 || !strings.Contains(r.out, "centroid") {
		t.Errorf("eval --cv: exit %d, %q %q", r.code, r.out, r.err)
	}
	check(t, nbtext(t, "", "train", corpus, "--model", "nope", "-o", m), 2, "centroid")
}
