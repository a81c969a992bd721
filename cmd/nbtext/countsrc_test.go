package main

import (
	"archive/tar"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toyDocs returns the documents of toyTSV as label and text pairs.
func toyDocs() [][2]string {
	var docs [][2]string
	for _, line := range strings.Split(strings.TrimSpace(toyTSV), "\n") {
		l, t, _ := strings.Cut(line, "\t")
		docs = append(docs, [2]string{l, t})
	}
	return docs
}

// writeToyTar writes the toy documents as the archive dir/name, gzipped,
// under top/LABEL/N (top "" for a plain tree), with the extra members
// (name, body) first and the documents in reverse order of their names
// (so that member order is not Read's order).
func writeToyTar(t *testing.T, dir, name, top string, extra ...[2]string) string {
	t.Helper()
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	add := func(n, body string) {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	for _, e := range extra {
		add(e[0], e[1])
	}
	docs := toyDocs()
	for i := len(docs) - 1; i >= 0; i-- {
		add(filepath.ToSlash(filepath.Join(top, docs[i][0], fmt.Sprint(i))), docs[i][1])
	}
	tw.Close()
	return writeFile(t, dir, name, gzipped(t, raw.String()))
}

// TestCountEverySource: every kind of source streams into count (folders,
// archives with --split and --classes, CSV, fastText, compressed JSONL,
// an archive on stdin) and gives the bytes of the TSV's count; shards of
// an archive whose members are out of order merge to its whole count; and
// train --stream fits from an archive the model in-memory train fits.
func TestCountEverySource(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	docs := toyDocs()
	for i, d := range docs {
		writeFile(t, dir, filepath.Join("tree", d[0], fmt.Sprint(i)), d[1])
	}
	var csvBuf, ft, jsonl bytes.Buffer
	cw := csv.NewWriter(&csvBuf)
	cw.Write([]string{"label", "text"})
	for _, d := range docs {
		cw.Write([]string{d[0], d[1]})
		fmt.Fprintf(&ft, "__label__%s %s\n", d[0], d[1])
		b, _ := json.Marshal(map[string]string{"label": d[0], "text": d[1]})
		jsonl.Write(append(b, '\n'))
	}
	cw.Flush()
	bydate := writeToyTar(t, dir, "bydate.tgz", "corpus/news-train",
		[2]string{"corpus/news-test/crypt/99", "not in the train split"}, [2]string{"corpus/README", "not a document"})
	sources := map[string][]string{
		"folder":   {filepath.Join(dir, "tree")},
		"archive":  {writeToyTar(t, dir, "plain.tar.gz", "")},
		"bydate":   {bydate, "--split", "train"},
		"csv":      {writeFile(t, dir, "c.csv", csvBuf.String())},
		"fasttext": {writeFile(t, dir, "c.ft.txt", ft.String())},
		"jsonl.gz": {writeFile(t, dir, "c.jsonl.gz", gzipped(t, jsonl.String()))},
	}
	whole := filepath.Join(dir, "whole.nbc")
	mustRun(t, "count", tsv, "--model", "bernoulli", "-o", whole)
	for name, args := range sources {
		out := filepath.Join(dir, name+".nbc")
		mustRun(t, append([]string{"count", "--model", "bernoulli", "-o", out}, args...)...)
		if strings.Contains(name, "archive") || name == "bydate" {
			sameStats(t, name, whole, out) // members in reverse order
		} else {
			sameCounts(t, name, whole, out)
		}
	}
	tgz, err := os.ReadFile(bydate)
	if err != nil {
		t.Fatal(err)
	}
	stdin := filepath.Join(dir, "stdin.nbc")
	if r := nbtext(t, string(tgz), "count", "-", "--split", "train", "--model", "bernoulli", "-o", stdin); r.code != 0 {
		t.Fatalf("count - (an archive): exit %d: %s", r.code, r.err)
	}
	sameCounts(t, "archive on stdin", filepath.Join(dir, "bydate.nbc"), stdin)

	// --classes on an archive and on the TSV.
	a, b := filepath.Join(dir, "cls-tar.nbc"), filepath.Join(dir, "cls-tsv.nbc")
	mustRun(t, "count", bydate, "--split", "train", "--classes", "graphics", "--model", "bernoulli", "-o", a)
	mustRun(t, "count", tsv, "--classes", "graphics", "--model", "bernoulli", "-o", b)
	sameStats(t, "--classes graphics", a, b)
	check(t, nbtext(t, "", "count", tsv, "--classes", "nope", "-o", a), 1, `unknown class "nope"`)

	// Shards of an archive in member order merge to its whole count.
	parts := countShards(t, dir, "s", bydate, 4, "--split", "train", "--model", "bernoulli")
	merged := filepath.Join(dir, "merged.nbc")
	mustRun(t, append([]string{"merge", "-o", merged}, parts...)...)
	sameFiles(t, "archive shards", filepath.Join(dir, "bydate.nbc"), merged)

	// train --stream on an archive: the model of in-memory train.
	mem, streamed := filepath.Join(dir, "mem.nbm"), filepath.Join(dir, "stream.nbm")
	mustRun(t, "train", bydate, "--split", "train", "--min-df", "1", "--temperature", "1", "-o", mem)
	mustRun(t, "train", bydate, "--split", "train", "--min-df", "1", "--temperature", "1", "--stream", "-o", streamed)
	sameModels(t, mem, streamed)
}
