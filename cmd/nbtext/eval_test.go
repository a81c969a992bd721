package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
)

// evalWords are the words of the posts in newsArchive, by class.
var evalWords = map[string][]string{
	"crypt":    {"pgp", "cipher", "encryption", "key", "escrow", "clipper", "secret", "security"},
	"graphics": {"polygons", "rendering", "textures", "opengl", "gpu", "jpeg", "image", "shading"},
}

// newsArchive writes a small 20-Newsgroups-like archive (.tar.gz, train
// split first) of posts with a mail header; the header names words of the
// other class, so stripping it changes the predictions.
func newsArchive(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, split := range []string{"train", "test"} {
		for _, label := range []string{"crypt", "graphics"} {
			own, other := evalWords[label], evalWords["graphics"]
			if label == "graphics" {
				other = evalWords["crypt"]
			}
			for i := range 40 {
				var body []string
				for j := range 6 + i%5 {
					body = append(body, own[(i*3+j*5)%len(own)])
				}
				if i%4 == 0 { // some confusion
					body = append(body, other[i%len(other)], other[(i+3)%len(other)])
				}
				post := fmt.Sprintf("From: %s@example.com\nSubject: %s %s\n\n%s\n", other[i%len(other)], other[(i+1)%len(other)], other[(i+2)%len(other)], strings.Join(body, " "))
				name := fmt.Sprintf("20news-bydate-%s/%s/%d", split, label, 1000+i)
				if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(post)), Typeflag: tar.TypeReg}); err != nil {
					t.Fatal(err)
				}
				if _, err := tw.Write([]byte(post)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, "news.tar.gz", buf.String())
}

// wantEvalJSON is the JSON report of eval.EvaluateTexts for model file m
// on the test split of archive, read with remove.
func wantEvalJSON(t *testing.T, m, archive string, remove corpus.Remove, opt eval.Options) string {
	t.Helper()
	mod, err := model.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Read(archive, corpus.Options{Split: "test", Remove: remove})
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		labels[i] = d.Label
	}
	r, err := eval.EvaluateTexts(mod, c.Texts(), labels, opt, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := eval.WriteJSON(&b, r, eval.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestEvalArchive checks that 'nbtext eval', which scores the documents
// while it reads them and loads the model meanwhile, reports exactly what
// eval.EvaluateTexts does on the corpus read whole, stripping as the model
// says unless --remove overrides it.
func TestEvalArchive(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	archive := newsArchive(t, dir)
	plain := filepath.Join(dir, "plain.nbm")
	stripped := filepath.Join(dir, "stripped.nbm")
	for _, args := range [][]string{
		{"train", archive, "--split", "train", "--model", "multinomial", "-q", "-o", plain},
		{"train", archive, "--split", "train", "--model", "multinomial", "-q", "-o", stripped, "--remove", "headers"},
	} {
		if r := nbtext(t, "", args...); r.code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), r.code, r.err)
		}
	}
	tests := []struct {
		name   string
		model  string
		flags  []string
		remove corpus.Remove
	}{
		{"plain model", plain, nil, 0},
		{"plain model, --remove headers", plain, []string{"--remove", "headers"}, corpus.RemoveHeaders},
		{"model stripping headers", stripped, nil, corpus.RemoveHeaders},
		{"model stripping headers, --remove ''", stripped, []string{"--remove", ""}, 0},
		{"model stripping headers, --remove headers,quotes", stripped, []string{"--remove", "headers,quotes"}, corpus.RemoveHeaders | corpus.RemoveQuotes},
	}
	outs := map[corpus.Remove]map[string]string{}
	for _, tt := range tests {
		for _, workers := range []string{"1", "2"} {
			args := append([]string{"eval", "-m", tt.model, archive, "--split", "test", "--format", "json", "--top-k", "2", "--workers", workers}, tt.flags...)
			r := nbtext(t, "", args...)
			if r.code != 0 {
				t.Fatalf("%s: exit %d: %s", tt.name, r.code, r.err)
			}
			want := wantEvalJSON(t, tt.model, archive, tt.remove, eval.Options{TopK: 2})
			if r.out != want {
				t.Errorf("%s, %s workers: report\n%s\nwant (EvaluateTexts)\n%s", tt.name, workers, r.out, want)
			}
			if outs[tt.remove] == nil {
				outs[tt.remove] = map[string]string{}
			}
			outs[tt.remove][tt.model] = r.out
		}
	}
	if outs[0][stripped] == outs[corpus.RemoveHeaders][stripped] {
		t.Error("stripping the headers changes nothing: the test shows nothing")
	}
}

// TestEvalSources evaluates the same documents from a TSV file, standard
// input and a folder: the report does not depend on the source.
func TestEvalSources(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	m := savePredictModel(t, dir)
	tsv := toyTSV + "crypt\trendering keys\nspam\tbuy now\n"
	file := writeFile(t, dir, "c.tsv", tsv)
	var folder []string
	for i, l := range strings.Split(strings.TrimSuffix(tsv, "\n"), "\n") {
		label, text, _ := strings.Cut(l, "\t")
		folder = append(folder, writeFile(t, dir, fmt.Sprintf("tree/%s/%d", label, i), text))
	}
	var outs []string
	for _, args := range [][]string{
		{"eval", "-m", m, file, "--format", "tsv"},
		{"eval", "-m", m, "-", "--format", "tsv"},
		{"eval", "-m", m, filepath.Join(dir, "tree"), "--format", "tsv"},
	} {
		r := nbtext(t, tsv, args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), r.code, r.err)
		}
		if !strings.Contains(r.err, "1 documents have labels the model does not know") || !strings.Contains(r.err, "spam (1)") {
			t.Errorf("%s: no warning about the unknown label: %q", strings.Join(args, " "), r.err)
		}
		outs = append(outs, r.out)
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Errorf("reports differ by source:\nfile:\n%s\nstdin:\n%s\nfolder:\n%s", outs[0], outs[1], outs[2])
	}
	if !strings.Contains(outs[0], "accuracy") {
		t.Errorf("no accuracy in the report:\n%s", outs[0])
	}
}

// TestEvalExitCodes: a bad model file exits 3 whatever the corpus (the
// model loads while the corpus is read, but its failure comes first), a
// bad corpus 1, bad flags 2, a failed gate 4.
func TestEvalExitCodes(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	good, corrupt, _ := damagedModels(t, dir)
	missing := filepath.Join(dir, "missing.nbm")
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	noCorpus := filepath.Join(dir, "nope.tsv")
	bad := writeFile(t, dir, "bad.tsv", "crypt\tpgp\nno tab here\n")
	wrong := writeFile(t, dir, "wrong.tsv", toyTSV+"crypt\tpolygons and textures\n")

	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		err   []string
	}{
		{"missing model", "", []string{"eval", "-m", missing, tsv}, 3, []string{missing}},
		{"corrupt model", "", []string{"eval", "-m", corrupt, tsv}, 3, []string{corrupt, "corrupt"}},
		{"missing model and corpus", "", []string{"eval", "-m", missing, noCorpus}, 3, []string{missing}},
		{"missing model, bad split", "", []string{"eval", "-m", missing, tsv, "--split", "dev"}, 3, []string{missing}},
		{"missing model, stdin", toyTSV, []string{"eval", "-m", missing, "-"}, 3, []string{missing}},
		{"missing corpus", "", []string{"eval", "-m", good, noCorpus}, 1, []string{"nope.tsv"}},
		{"bad corpus line", "", []string{"eval", "-m", good, bad}, 1, []string{"bad.tsv:2"}},
		{"bad split", "", []string{"eval", "-m", good, tsv, "--split", "dev"}, 2, []string{"--split must be train or test"}},
		{"bad remove", "", []string{"eval", "-m", good, tsv, "--remove", "signatures"}, 2, []string{"--remove"}},
		{"no labels", "pgp\n", []string{"eval", "-m", good, "-"}, 1, nil},
		{"gate met", "", []string{"eval", "-m", good, tsv, "--min-accuracy", "1"}, 0, nil},
		{"gate failed", "", []string{"eval", "-m", good, wrong, "--min-accuracy", "0.9"}, 4, []string{"accuracy 0.8571 < 0.9 (--min-accuracy)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, nbtext(t, tt.stdin, tt.args...), tt.code, tt.err...)
		})
	}
}
