package nbbeam

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// rangesOf returns the bytes of each range of size step of the file at
// path, read as the count reads them.
func rangesOf(t *testing.T, path string, step int64) [][]byte {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for s := int64(0); s < fi.Size(); s += step {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		lr, err := newLineRange(f, s, min(s+step, fi.Size()))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(lr)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestLineRanges: the ranges of a file, whatever their size, hold each of
// its lines once, whole and in order: together they are the file's bytes.
func TestLineRanges(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&b, "c%d\t%s\r\n", i%3, strings.Repeat("w ", i%37))
		if i%50 == 0 {
			b.WriteString("\n") // a blank line
		}
	}
	b.WriteString("last\tline without a line break")
	path := filepath.Join(dir, "x.tsv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, step := range []int64{1, 2, 7, 64, 1000, int64(b.Len()) - 1, int64(b.Len()), 1 << 20} {
		rs := rangesOf(t, path, step)
		if got := bytes.Join(rs, nil); !bytes.Equal(got, b.Bytes()) {
			t.Fatalf("ranges of %d bytes: together %d bytes, want the file's %d", step, len(got), b.Len())
		}
		read := 0
		for i, r := range rs {
			if read += len(r); len(r) > 0 && read < b.Len() && r[len(r)-1] != '\n' {
				t.Fatalf("ranges of %d bytes: range %d ends inside a line", step, i)
			}
		}
	}
}

// TestEveryFormatSplit: a corpus in every format nbtext reads (TSV with
// and without a header row, JSONL, fastText, CSV, a folder tree, a
// gzipped tar archive), the line files cut into small byte ranges, counts
// to the bytes of its documents counted in one process; and the same
// files counted whole give the same bytes.
func TestEveryFormatSplit(t *testing.T) {
	dir := t.TempDir()
	classes := []string{"sport", "cars", "space"}
	var all []doc
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines := func(seed uint64, n int, head, format string) []byte {
		docs := genDocs(seed, n, classes, false)
		all = append(all, docs...)
		var b bytes.Buffer
		b.WriteString(head)
		for _, d := range docs {
			fmt.Fprintf(&b, format, d.label, d.text)
		}
		return b.Bytes()
	}
	write("in/plain.tsv", lines(31, 200, "", "%s\t%s\n"))
	write("in/header.tsv", lines(32, 150, "text\tlabel\n", "%[2]s\t%[1]s\n"))
	write("in/lines.jsonl", lines(33, 180, "", "{\"label\":%q,\"text\":%q}\n"))
	write("in/ft.txt", lines(34, 120, "", "__label__%s %s\n"))
	var cb bytes.Buffer
	cw := csv.NewWriter(&cb)
	cw.Write([]string{"label", "text"})
	for _, d := range genDocs(35, 90, classes, true) {
		cw.Write([]string{d.label, d.text})
		all = append(all, d)
	}
	cw.Flush()
	write("in/records.csv", cb.Bytes())
	for i, d := range genDocs(36, 40, classes, true) {
		write(fmt.Sprintf("in/tree/%s/%03d.txt", d.label, i), []byte(d.text))
		all = append(all, d)
	}
	var tb bytes.Buffer
	zw := gzip.NewWriter(&tb)
	tw := tar.NewWriter(zw)
	for i, d := range genDocs(37, 30, classes, true) {
		tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("corpus/%s/%03d", d.label, i), Mode: 0o644, Size: int64(len(d.text)), Typeflag: tar.TypeReg})
		tw.Write([]byte(d.text))
		all = append(all, d)
	}
	tw.Close()
	zw.Close()
	write("in/archive.tar.gz", tb.Bytes())

	s, err := Settings(model.Bernoulli, "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := encoded(t, inProcess(t, s, nil, all))
	sh, err := shards(context.Background(), filepath.Join(dir, "in/header.tsv"), 1000, corpus.Options{})
	if err != nil || len(sh) < 5 || sh[1].Format != corpus.FormatTSV {
		t.Fatalf("header.tsv in ranges of 1000 bytes: %d shards (%v)", len(sh), err)
	}
	for _, split := range []int64{1000, 0} {
		out := filepath.Join(dir, fmt.Sprintf("split-%d.nbc", split))
		c := &Config{Inputs: []string{filepath.Join(dir, "in/*")}, Settings: s, Output: out, Partitions: 8, SplitBytes: split}
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("--split-bytes %d: the counts differ from those of the documents counted in one process", split)
		}
	}
}
